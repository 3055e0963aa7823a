import Dispatch
import Foundation
import PinKit
import PinKitCollector
import PinKitOpenSSL

/// `pinkit-collector serve`: the HTTP(S) server until SIGINT or SIGTERM.
struct ServeCommand {
    static let help = """
        USAGE: pinkit-collector serve --data DIR [--database postgres://…] [--listen ADDR:PORT]
                 [--tls-cert F --tls-key F | --plain-http] [--operator-token-file F]
                 [--trusted-proxy CIDR]… [--kill-switch-key PEMFILE]… [--retention-days N]
                 [--max-body BYTES] [--threads N] [--request-deadline-ms MS] [--idle-timeout S]
                 [--releases FILE [--trust-store FILE]]
        Receives pin-failure reports, audit uploads and check-ins; serves the kill switch.
        --releases (pinctl's release history) and --trust-store (the devices' PEM bundle, default
        the system bundle) feed the console's rotation check and deadlines pages.
        HTTPS is built in; --plain-http only behind a TLS-terminating proxy or load balancer.
        With neither, a self-signed development certificate for localhost is made in DIR/tls/.
        """

    var storage: StorageOptions
    var address = "127.0.0.1"
    var port: UInt16 = 8443
    var tls: HTTPServer.TLS?
    var developmentCertificate = false
    var operatorTokens: OperatorTokens?
    var trustedProxies: [CIDR] = []
    var killSwitchKeys: [String: [UInt8]] = [:]
    var retentionDays = 90
    var limits = HTTPServer.Limits()
    var consoleReleases: ConsoleReleases?

    init(_ words: [String]) throws {
        var options = Options(words)
        storage = try StorageOptions(&options)
        if let listen = try options.value("--listen") {
            guard let colon = listen.lastIndex(of: ":"), let port = UInt16(listen[listen.index(after: colon)...]) else {
                throw UsageError("--listen expects ADDR:PORT, e.g. 127.0.0.1:8443 or [::1]:8443")
            }
            address = String(listen[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            self.port = port
        }
        let certificate = try options.value("--tls-cert")
        let key = try options.value("--tls-key")
        let plain = options.flag("--plain-http")
        switch (certificate, key, plain) {
        case (let certificate?, let key?, false):
            guard let chain = try? String(contentsOfFile: certificate, encoding: .utf8),
                let privateKey = try? String(contentsOfFile: key, encoding: .utf8)
            else { throw UsageError("cannot read --tls-cert or --tls-key") }
            tls = HTTPServer.TLS(certificateChainPEM: chain, privateKeyPEM: privateKey)
        case (nil, nil, true):
            tls = nil
        case (nil, nil, false):
            developmentCertificate = true
        default:
            throw UsageError("give --tls-cert F --tls-key F (HTTPS), or --plain-http behind a TLS-terminating proxy")
        }
        if let file = try options.value("--operator-token-file") {
            operatorTokens = try OperatorTokens(contentsOf: file)
        }
        trustedProxies = try options.values("--trusted-proxy").map { text throws -> CIDR in try CIDR(parsing: text) }
        for file in try options.values("--kill-switch-key") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8),
                let block = try? PEM.blocks(in: text).first, (try? VerifyingKey(spkiDER: block.der)) != nil
            else { throw UsageError("--kill-switch-key \(file): not a PEM public key") }
            killSwitchKeys[VerifyingKey.keyID(spkiDER: block.der)] = block.der
        }
        if let days = try options.value("--retention-days") {
            guard let value = Int(days), value >= 1 else {
                throw UsageError("--retention-days expects a whole number ≥ 1")
            }
            retentionDays = value
        }
        if let text = try options.value("--max-body") {
            guard let value = Int(text), (1_024...(64 << 20)).contains(value) else {
                throw UsageError("--max-body expects bytes in 1024…67108864")
            }
            limits.maximumBody = value
        }
        if let text = try options.value("--threads") {
            guard let value = Int(text), (1...256).contains(value) else { throw UsageError("--threads expects 1…256") }
            limits.threads = value
        }
        if let text = try options.value("--request-deadline-ms") {
            guard let value = Int(text), (100...600_000).contains(value) else {
                throw UsageError("--request-deadline-ms expects 100…600000")
            }
            limits.requestDeadlineMilliseconds = value
        }
        if let text = try options.value("--idle-timeout") {
            guard let value = Int(text), (1...3_600).contains(value) else {
                throw UsageError("--idle-timeout expects 1…3600")
            }
            limits.idleTimeoutSeconds = value
        }
        if let releases = try options.value("--releases") {
            let trustStore = try options.value("--trust-store") ?? "/etc/ssl/certs/ca-certificates.crt"
            do {
                consoleReleases = try ConsoleReleases.load(releases: releases, trustStore: trustStore)
            } catch {
                throw UsageError(error.reason)
            }
        }
        try options.finish()
    }

    func run() throws -> Int32 {
        let storage = try self.storage.open()
        var tls = self.tls
        if developmentCertificate {
            let made = try DevelopmentCertificate.loadOrCreate(dataDirectory: self.storage.dataDirectory)
            tls = made.tls
            standardError(
                "pinkit-collector: no --tls-cert: using the development certificate \(made.certificatePath) (SPKI pin \(made.pin))"
            )
        }
        var configuration = CollectorAPI.Configuration()
        configuration.operatorTokens = operatorTokens
        configuration.killSwitchPublicKeys = killSwitchKeys
        configuration.retention = Double(retentionDays) * 86_400
        configuration.consoleReleases = consoleReleases
        let api = CollectorAPI(storage: storage, configuration: configuration)
        let server = try HTTPServer(
            address: address, port: port, tls: tls, limits: limits, trustedProxies: trustedProxies,
            handler: { request in api.handle(request) })
        let scheme = tls == nil ? "http" : "https"
        let host = address.contains(":") ? "[\(address)]" : address
        let backend = self.storage.databaseURL == nil ? "sqlite in \(self.storage.dataDirectory)" : "postgresql"
        standardOutput("pinkit-collector: listening on \(scheme)://\(host):\(server.port) (\(backend))")
        let stop = DispatchSemaphore(value: 0)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        stop.wait()
        for source in sources { source.cancel() }
        server.stop()
        storage.close()
        standardError("pinkit-collector: stopped")
        return 0
    }
}
