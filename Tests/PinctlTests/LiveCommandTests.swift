import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import Testing

/// `pinctl check` and `pinctl spki HOST` against lab servers on loopback.
@Suite("pinctl against live hosts")
struct LiveCommandTests {
    static let pki = try! LabPKI(name: "CLI Lab")
    static let rogue = try! LabPKI(name: "CLI Rogue")
    static let directory = try! TemporaryDirectory()
    static let caFile = try! LabPKI.writeCAFile(
        [pki.root.certificate, rogue.root.certificate],
        to: directory.file("ca.pem")
    )
    static let config = try! directory.write(
        "pinkit.json",
        #"{"pinSets": [{"name": "cloud", "hosts": ["api.example.com"], "pins": [{"sha256": "\#(pki.intermediate.pin.base64)", "label": "issuing CA"}, {"sha256": "\#(pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}"#
    )

    func run(_ arguments: [String], server: LabTLSServer, host: String = "api.example.com") throws -> Shell.Result {
        try PinctlBinary.run(arguments + ["--ca-file", Self.caFile, "--resolve", server.resolveEntry(for: host)])
    }

    @Test("check: a matching pin exits 0 and names the pin and depth")
    func checkMatch() throws {
        let server = try LabTLSServer(identity: try Self.pki.leaf(["api.example.com"]))
        defer { server.stop() }
        let result = try run(["check", "--config", Self.config, "api.example.com:\(server.port)"], server: server)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\"issuing CA\" of set cloud matched at depth 1"))
        #expect(result.stdout.contains("<- pinned"))
        let json = try run(
            ["check", "--json", "--config", Self.config, "https://api.example.com:\(server.port)/v1/x"], server: server)
        let document = try JSONParser.parse(json.stdout)
        #expect(document["result"] == "matched")
        #expect(document["match"]?["depth"] == .int(1), "openssl's depth: 0 is the leaf")
        #expect(document["schemaVersion"] == 1)
        #expect(document["pinSet"] == "cloud")
    }

    @Test("check: a rogue chain is a pin mismatch, exit 1, naming the chain and the expected pins")
    func checkMismatch() throws {
        let server = try LabTLSServer(identity: try Self.rogue.leaf(["api.example.com"]))
        defer { server.stop() }
        let result = try run(["check", "--config", Self.config, "api.example.com:\(server.port)"], server: server)
        #expect(result.status == 1)
        #expect(result.stdout.contains("pin-mismatch"))
        #expect(result.stdout.contains(Self.rogue.intermediate.pin.base64))
        #expect(result.stdout.contains(Self.pki.intermediate.pin.base64))
        // OkHttp's two blocks, one line per item: the verified chain's keys, then the pins expected.
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count < 200 }, "no 600-character line")
        #expect(lines.contains { $0.contains("Peer certificate chain") })
        #expect(lines.contains { $0.contains("0 leaf") && $0.contains("CN=api.example.com") })
        #expect(lines.contains { $0.contains("Pinned for api.example.com (pin set cloud)") })
        #expect(lines.contains { $0.contains("sha256/\(Self.pki.intermediate.pin.base64)  \"issuing CA\"") })
        // Without pinning, the same chain is accepted: the attack works without the protection.
        let unpinned = try run(["check", "api.example.com:\(server.port)"], server: server)
        #expect(unpinned.status == 0)
        #expect(unpinned.stdout.contains("not a pinned host"))
    }

    @Test("check: untrusted, expired and refused are exit 3")
    func checkErrors() throws {
        let expired = try LabTLSServer(identity: try Self.pki.expiredLeaf(["api.example.com"]))
        defer { expired.stop() }
        let result = try run(
            ["check", "--json", "--config", Self.config, "api.example.com:\(expired.port)"], server: expired)
        #expect(result.status == 3)
        #expect(try JSONParser.parse(result.stdout)["error"]?["code"] == "expired-certificate")
        let closed = try LabTLSServer(identity: try Self.pki.leaf(["api.example.com"]))
        closed.stop()
        let refused = try run(["check", "api.example.com:\(closed.port)"], server: closed)
        #expect(refused.status == 3)
        #expect(refused.stdout.contains("connection-refused"))
    }

    @Test("check: an untrusted chain shows the chain the server sent and the likely cause")
    func checkUntrusted() throws {
        let stranger = try LabPKI(name: "Private CA")
        let server = try LabTLSServer(identity: try stranger.leaf(["api.example.com"]))
        defer { server.stop() }
        let result = try run(["check", "api.example.com:\(server.port)"], server: server)
        #expect(result.status == 3)
        #expect(result.stdout.contains("served chain (as the server sent it, not trusted)"), "\(result.stdout)")
        #expect(result.stdout.contains("1 intermediate"))
        #expect(result.stdout.contains(stranger.intermediate.pin.base64))
        #expect(result.stdout.contains("likely cause:"))
        let json = try JSONParser.parse(
            try run(["check", "--json", "api.example.com:\(server.port)"], server: server).stdout)
        guard case .array(let served)? = json["servedChain"] else {
            Issue.record("no servedChain")
            return
        }
        #expect(served.count == 2)
        #expect(json["error"]?["hint"] != .null)
        // Only the leaf sent: a missing intermediate.
        let identity = try Self.pki.leaf(["api.example.com"])
        let leafOnly = try LabTLSServer(identity: LabIdentity(chain: [identity.leaf], key: identity.key))
        defer { leafOnly.stop() }
        let missing = try run(["check", "api.example.com:\(leafOnly.port)"], server: leafOnly)
        #expect(missing.status == 3)
        #expect(missing.stdout.contains("missing its intermediate"), "\(missing.stdout)")
    }

    @Test("spki/check with --resolve for another port say so instead of failing to resolve")
    func resolvePortMismatch() throws {
        for command in ["spki", "check"] {
            let result = try PinctlBinary.run([
                command, "--resolve", "api.example.com:8443:127.0.0.1", "api.example.com:9443",
            ])
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("port 8443 but the target's port is 9443"), "\(result.stderr)")
        }
    }

    @Test("spki HOST lists the served chain, even an untrusted one, marking pins")
    func spkiLive() throws {
        let server = try LabTLSServer(
            identity: try Self.pki.selfSignedLeaf(["api.example.com"]).appending([Self.pki.intermediate.certificate]))
        defer { server.stop() }
        let result = try run(
            ["spki", "--json", "--config", Self.config, "api.example.com:\(server.port)"], server: server)
        #expect(result.status == 0, "\(result.stderr)")
        guard case .array(let rows)? = try JSONParser.parse(result.stdout)["certificates"] else {
            Issue.record("no certificates: \(result.stdout)")
            return
        }
        #expect(rows.count == 2)
        #expect(rows[1]["spkiSHA256"] == .string(Self.pki.intermediate.pin.base64))
        #expect(rows[1]["pinnedBy"] == [["pinSet": "cloud", "label": "issuing CA", "role": "active"]])
    }

    @Test(
        "live usage errors exit 2",
        arguments: [
            ["check"], ["check", "http://api.example.com"], ["check", "api.example.com:99999"],
            ["check", "--resolve", "nonsense", "api.example.com"], ["spki", "--pem", "x.pem", "api.example.com"],
            ["check", "--timeout", "-1", "api.example.com"],
        ])
    func usage(_ arguments: [String]) throws {
        let result = try PinctlBinary.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
    }
}
