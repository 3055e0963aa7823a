import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitProcessGate

/// A real `pinkit-collector serve` on loopback: HTTPS with a lab certificate, SQLite in a temp
/// directory (or a PostgreSQL URL), the simulator's loopback address as a trusted proxy so that
/// each simulated device's `X-Forwarded-For` address is rate-limited on its own, as behind a
/// load balancer. Stopped (SIGTERM to its PID) for an outage and started again on the same data.
final class CollectorProcess {
    let executable: String
    let directory: String
    let databaseURL: String?
    let port: Int
    let pki: LabPKI
    let identity: LabIdentity
    let signingKey: PrivateKey
    let operatorToken = "fleet-operator-token-0123456789"
    private var process: Process?

    init(executable: String, directory: String, databaseURL: String?) throws {
        self.executable = executable
        self.directory = directory
        self.databaseURL = databaseURL
        pki = try LabPKI(name: "PinKit Fleet")
        identity = try pki.leaf(["collector.fleet.test"])
        signingKey = try PrivateKey.generate(.ed25519)
        port = Int(try LabLoopback.freePort())
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try (identity.chain.map(\.pem).joined()).write(toFile: file("tls.pem"), atomically: true, encoding: .utf8)
        try identity.key.privateKeyPEM.write(toFile: file("tls.key"), atomically: true, encoding: .utf8)
        try PEM.encode(signingKey.publicKeyDER, label: "PUBLIC KEY")
            .write(toFile: file("kill-switch.pub"), atomically: true, encoding: .utf8)
        try "fleet:\(operatorToken)\n".write(toFile: file("operators"), atomically: true, encoding: .utf8)
        _ = try LabPKI.writeCAFile([pki.root.certificate], to: file("ca.pem"))
    }

    func file(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
    var caFile: String { file("ca.pem") }
    var host: String { "collector.fleet.test" }
    var resolveEntry: String { "\(host):\(port):127.0.0.1" }
    func url(_ path: String) -> URL { URL(string: "https://\(host):\(port)\(path)")! }

    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        var arguments = [
            "serve", "--data", file("data"), "--listen", "127.0.0.1:\(port)", "--tls-cert", file("tls.pem"),
            "--tls-key", file("tls.key"), "--operator-token-file", file("operators"), "--trusted-proxy",
            "127.0.0.1/32", "--kill-switch-key", file("kill-switch.pub"), "--threads", "2",
        ]
        if let databaseURL { arguments += ["--database", databaseURL] }
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try ProcessGate.run(process)
        self.process = process
        // Ready when the port accepts a connection.
        for _ in 0..<200 {
            if LabLoopback.accepts(port: UInt16(port)) { return }
            usleep(25_000)
        }
        throw FleetError("pinkit-collector did not start listening on 127.0.0.1:\(port)")
    }

    func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        self.process = nil
    }

    /// A signed kill-switch document (real time: the collector verifies it against its clock).
    func document(serial: Int64, pinning: KillSwitchDocument.Pinning, reason: String) throws -> [UInt8] {
        let issued = Date().addingTimeInterval(-60)
        let payload = KillSwitchDocument.Payload(
            serial: serial, issuedAt: issued, expiresAt: issued.addingTimeInterval(7 * 86_400), pinning: pinning,
            scope: .init(hosts: ["api.fleet.test"], minimumAppVersion: nil, maximumAppVersion: nil), reason: reason)
        let key = signingKey
        let keyID = VerifyingKey.keyID(spkiDER: key.publicKeyDER)
        return Array(
            try KillSwitchDocument.envelope(
                payload: payload, signatures: [(keyID, key.signatureAlgorithm!, { try key.sign($0) })]
            ).utf8)
    }
}

struct FleetError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
