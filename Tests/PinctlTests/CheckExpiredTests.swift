import Foundation
import PinKit
import PinKitLab
import PinKitTestSupport
import Testing

/// Issue 12 §1: `pinctl check` loads a configuration as the app does at runtime, so a set past
/// its `expires` is reported as expired (exit 0), not as an invalid configuration.
@Suite("pinctl check on an expired pin set")
struct CheckExpiredTests {
    static let directory = try! TemporaryDirectory()
    static let yesterday = RFC3339.format(Date().addingTimeInterval(-86_400))
    static let config = try! directory.write(
        "expired.json",
        #"{"pinSets": [{"name": "cloud", "hosts": ["api.example.com"], "expires": "\#(yesterday)", "pins": [{"sha256": "\#(LiveCommandTests.pki.intermediate.pin.base64)"}, {"sha256": "\#(LiveCommandTests.pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}"#
    )

    @Test("a chain that does not match: exit 0, result expired, and the message says the set expired")
    func expired() throws {
        let server = try LabTLSServer(identity: try LiveCommandTests.rogue.leaf(["api.example.com"]))
        defer { server.stop() }
        let options = ["--ca-file", LiveCommandTests.caFile, "--resolve", server.resolveEntry(for: "api.example.com")]
        let text = try PinctlBinary.run(["check", "--config", Self.config, "api.example.com:\(server.port)"] + options)
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("pin set cloud expired at \(Self.yesterday)"))
        #expect(text.stderr.contains("ship-time gate (pinctl validate) refuses: error [expired-pin-set]"))
        let json = try PinctlBinary.run(
            ["check", "--json", "--config", Self.config, "api.example.com:\(server.port)"] + options)
        #expect(json.status == 0, "\(json.stderr)")
        let document = try JSONParser.parse(json.stdout)
        #expect(document["result"] == "expired")
        #expect(document["pinSet"] == "cloud")
        // The ship-time gate still refuses it.
        let gate = try PinctlBinary.run(["validate", "--json", Self.config])
        #expect(gate.status == 1)
        #expect(gate.stdout.contains("expired-pin-set"))
    }
}
