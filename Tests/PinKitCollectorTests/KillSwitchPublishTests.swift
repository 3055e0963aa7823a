import Foundation
import PinKit
import PinKitCollector
import PinKitOpenSSL
import Testing

@Suite("Collector kill-switch publish and serve")
struct KillSwitchPublishTests {
    static let token = "ops-token-0123456789abcdef"
    static let operatorHeaders = ["Authorization": "Bearer \(token)"]

    static func document(serial: Int64, signedBy key: PrivateKey?, pinning: KillSwitchDocument.Pinning = .off)
        throws -> [UInt8]
    {
        let now = CollectorFixtures.referenceTime
        let payload = KillSwitchDocument.Payload(
            serial: serial, issuedAt: now.addingTimeInterval(-60), expiresAt: now.addingTimeInterval(86_400),
            pinning: pinning, reason: "incident 42: bad rotation")
        let signers: [(keyId: String, algorithm: String, sign: ([UInt8]) throws -> [UInt8])] =
            key.map { key in
                [(VerifyingKey.keyID(spkiDER: key.publicKeyDER), key.signatureAlgorithm ?? "", { try key.sign($0) })]
            } ?? []
        return Array(try KillSwitchDocument.envelope(payload: payload, signatures: signers).utf8)
    }

    @Test("only a document signed by a configured key is published, with who and why, and served with an ETag")
    func publishAndServe() throws {
        let key = try PrivateKey.generate(.ed25519)
        let stranger = try PrivateKey.generate(.ed25519)
        var configuration = CollectorHarness.permissive()
        configuration.operatorTokens = try OperatorTokens(text: "alice:\(Self.token)")
        configuration.killSwitchPublicKeys = [VerifyingKey.keyID(spkiDER: key.publicKeyDER): key.publicKeyDER]
        let harness = try CollectorHarness(configuration: configuration)
        defer { harness.stop() }
        #expect(try harness.get("/v1/kill-switch").status == 404)

        let good = try Self.document(serial: 10, signedBy: key)
        // Without the operator token: refused.
        #expect(try harness.post("/v1/kill-switch", good, headers: [:]).status == 401)
        // Unsigned, or signed by a key the collector does not know: verified and refused.
        #expect(
            try harness.post("/v1/kill-switch", Self.document(serial: 10, signedBy: nil), headers: Self.operatorHeaders)
                .status == 422)
        #expect(
            try harness.post(
                "/v1/kill-switch", Self.document(serial: 10, signedBy: stranger), headers: Self.operatorHeaders
            ).status == 422)
        // A document with a field beyond the schema: 400.
        #expect(
            try harness.post(
                "/v1/kill-switch", Array("{\"payload\":\"e30\",\"signatures\":[],\"pins\":[]}".utf8),
                headers: Self.operatorHeaders
            ).status == 400)
        #expect(try harness.get("/v1/kill-switch").status == 404)

        let published = try harness.post("/v1/kill-switch", good, headers: Self.operatorHeaders)
        #expect(published.status == 200)
        #expect(try JSONParser.parse(published.body)["operator"] == "alice")
        // A replay of the same serial: 409.
        #expect(try harness.post("/v1/kill-switch", good, headers: Self.operatorHeaders).status == 409)

        let served = try harness.get("/v1/kill-switch")
        #expect(served.status == 200 && served.body == good)
        let tag = try #require(served.headers["etag"])
        #expect(served.headers["cache-control"] == "public, max-age=60")
        let revalidated = try harness.get("/v1/kill-switch", headers: ["If-None-Match": tag])
        #expect(revalidated.status == 304 && revalidated.body.isEmpty && revalidated.headers["etag"] == tag)
        #expect(try harness.get("/v1/kill-switch", headers: ["If-None-Match": "\"other\""]).status == 200)

        // The served document passes the client's own state machine.
        var machine = KillSwitchStateMachine()
        let actions = machine.receive(
            served.body,
            settings: KillSwitchStateMachine.Settings(
                publicKeys: configuration.killSwitchPublicKeys, verifier: OpenSSLSignatureVerifier()),
            now: CollectorFixtures.referenceTime)
        #expect(actions.contains(.policyChanged) && machine.activeOff?.serial == 10)

        let log = try harness.get("/v1/kill-switch/publications", headers: Self.operatorHeaders)
        guard case .array(let entries)? = try JSONParser.parse(log.body)["publications"] else {
            Issue.record("no publications: \(log.text)")
            return
        }
        #expect(entries.count == 1 && entries.first?["operator"] == "alice" && entries.first?["serial"] == 10)
        #expect(entries.first?["reason"] == "incident 42: bad rotation")
    }

    @Test("with no verification key configured, publishing is refused rather than unverified")
    func noKeysNoPublish() throws {
        var configuration = CollectorHarness.permissive()
        configuration.operatorTokens = try OperatorTokens(text: "alice:\(Self.token)")
        let harness = try CollectorHarness(configuration: configuration)
        defer { harness.stop() }
        let unsigned = try Self.document(serial: 1, signedBy: nil)
        // Apps refuse it too (issue 14.1: no key means no switch), so serving it would only hand
        // every device a document it ignores while operators believe the switch is out.
        var machine = KillSwitchStateMachine()
        let actions = machine.receive(
            unsigned, settings: .init(publicKeys: [:], verifier: OpenSSLSignatureVerifier()),
            now: CollectorFixtures.referenceTime)
        #expect(!actions.contains(.persist))
        // The collector refuses it.
        #expect(try harness.post("/v1/kill-switch", unsigned, headers: Self.operatorHeaders).status == 409)
        #expect(try harness.get("/v1/kill-switch").status == 404)
    }
}
