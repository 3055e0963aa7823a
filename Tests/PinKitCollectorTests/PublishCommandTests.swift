import Foundation
import PinKit
import PinKitCollector
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import Testing

@Suite("pinctl killswitch publish against the collector")
struct PublishCommandTests {
    @Test("publish uploads over HTTPS with the token; the collector's refusal is exit 1")
    func publish() throws {
        let key = try PrivateKey.generate(.ed25519)
        var configuration = CollectorHarness.permissive()
        configuration.operatorTokens = try OperatorTokens(text: "oncall:\(KillSwitchPublishTests.token)")
        configuration.killSwitchPublicKeys = [VerifyingKey.keyID(spkiDER: key.publicKeyDER): key.publicKeyDER]
        let identity = try CollectorFixtures.pki.leaf(["localhost"])
        let harness = try CollectorHarness(
            configuration: configuration,
            tls: HTTPServer.TLS(
                certificateChainPEM: identity.chain.map(\.pem).joined(), privateKeyPEM: identity.key.privateKeyPEM),
            now: { Date() })
        defer { harness.stop() }
        let directory = CollectorFixtures.temporaryDirectory()
        let ca = try LabPKI.writeCAFile([CollectorFixtures.pki.root.certificate], to: directory + "/ca.pem")
        try (KillSwitchPublishTests.token + "\n").write(toFile: directory + "/token", atomically: true, encoding: .utf8)
        try "wrong-token-0000000000\n".write(toFile: directory + "/bad-token", atomically: true, encoding: .utf8)
        let now = Date()
        let payload = KillSwitchDocument.Payload(
            serial: 3, issuedAt: now.addingTimeInterval(-60), expiresAt: now.addingTimeInterval(3_600), pinning: .off,
            reason: "rotation incident")
        let signed = try KillSwitchDocument.envelope(
            payload: payload,
            signatures: [(VerifyingKey.keyID(spkiDER: key.publicKeyDER), "Ed25519", { try key.sign($0) })])
        try signed.write(toFile: directory + "/doc.json", atomically: true, encoding: .utf8)
        func publish(_ token: String) throws -> Shell.Result {
            try PinctlBinary.run([
                "killswitch", "publish", "--collector", "https://localhost:\(harness.port)", "--ca-file", ca,
                "--resolve", "localhost:\(harness.port):127.0.0.1", "--token-file", directory + "/" + token,
                directory + "/doc.json",
            ])
        }
        let refused = try publish("bad-token")
        #expect(refused.status == 1, "\(refused.stderr)")
        let result = try publish("token")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("published serial 3 as oncall"))
        #expect(try harness.storage.currentKillSwitch()?.operatorName == "oncall")
        // Publishing the same serial again is a replay: the collector refuses, exit 1.
        #expect(try publish("token").status == 1)
    }
}
