import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import PinKitTransport
import Testing

/// Serves whatever document the test sets, on the kill-switch host (not pinned).
final class KillSwitchServer: Sendable {
    final class Box: Sendable {
        let value = Locked(LabResponse.text("not set", status: 404))
    }

    let server: LabTLSServer
    private let box = Box()

    init(lab: TransportLab) throws {
        let box = self.box
        server = try LabTLSServer(identity: try lab.pki.leaf(["status.example.net"])) { _ in
            box.value.withLock { $0 }
        }
    }

    func serve(_ document: String) { box.value.withLock { $0 = .json(document) } }
    func serve(_ response: LabResponse) { box.value.withLock { $0 = response } }
    var url: URL { URL(string: server.url(host: "status.example.net", path: "/v1/kill-switch.json"))! }
}

@Suite("Kill switch")
struct KillSwitchTests {
    let lab = TransportLab.shared
    static let signingKey = try! PrivateKey.generate(.ed25519)
    static let keyID = VerifyingKey.keyID(spkiDER: signingKey.publicKeyDER)
    static let otherKey = try! PrivateKey.generate(.ecP256)

    func basePolicy() throws -> PinPolicy { try lab.policy(hosts: ["api.example.com", "cdn.example.com"]) }

    func payload(
        serial: Int64 = 10,
        pinning: KillSwitchDocument.Pinning = .off,
        hosts: [String]? = ["api.example.com"],
        versions: (String?, String?) = (nil, nil),
        issued: Date = Date().addingTimeInterval(-60),
        lifetime: TimeInterval = 7 * 86_400
    ) -> KillSwitchDocument.Payload {
        KillSwitchDocument.Payload(
            serial: serial,
            issuedAt: issued,
            expiresAt: issued.addingTimeInterval(lifetime),
            pinning: pinning,
            scope: .init(hosts: hosts, minimumAppVersion: versions.0, maximumAppVersion: versions.1),
            reason: "INC-123"
        )
    }

    func signed(_ payload: KillSwitchDocument.Payload, key: PrivateKey = signingKey, keyID: String = keyID) throws
        -> String
    {
        try KillSwitchDocument.envelope(
            payload: payload,
            signatures: [(keyID, key.signatureAlgorithm!, { try key.sign($0) })]
        )
    }

    struct Harness {
        let controller: KillSwitchController
        let server: KillSwitchServer
        let audit: AuditLog
        let directory: TemporaryDirectory
        let changes: PolicyChanges

        func close() {
            server.server.stop()
            directory.remove()
        }
    }

    final class PolicyChanges: Sendable {
        private let list = Locked<[PinPolicy]>([])
        func append(_ policy: PinPolicy) { list.withLock { $0.append(policy) } }
        var count: Int { list.withLock { $0.count } }
    }

    func harness(keys: Bool = true, appVersion: String = "1.3.0", directory: TemporaryDirectory? = nil) throws
        -> Harness
    {
        let server = try KillSwitchServer(lab: lab)
        let directory = try directory ?? TemporaryDirectory()
        var configuration = KillSwitchController.Configuration(
            url: server.url,
            publicKeys: keys ? [Self.keyID: Self.signingKey.publicKeyDER] : [:],
            statePath: directory.file("kill-switch.json"),
            appVersion: appVersion
        )
        configuration.trustStore = .caFile(lab.caFile)
        configuration.resolve = [server.server.resolveEntry(for: "status.example.net")]
        configuration.timeout = .seconds(2)
        let audit = try AuditLog(path: directory.file("audit.jsonl"))
        let changes = PolicyChanges()
        let controller = KillSwitchController(
            configuration: configuration,
            basePolicy: try basePolicy(),
            auditLog: audit
        ) { policy in changes.append(policy) }
        return Harness(controller: controller, server: server, audit: audit, directory: directory, changes: changes)
    }

    @Test("a signed off disables pinning for its scope only, is audited, and rebuilds sessions")
    func signedOff() async throws {
        let h = try harness()
        defer { h.close() }
        #expect(h.controller.effectivePolicy.isPinnedHost("api.example.com"))
        h.server.serve(try signed(payload()))
        let actions = await h.controller.refresh()
        #expect(actions.contains(.policyChanged), "\(actions)")
        let effective = h.controller.effectivePolicy
        #expect(!effective.isPinnedHost("api.example.com"))
        #expect(!effective.isPinnedHost("v2.api.example.com"))
        #expect(effective.isPinnedHost("cdn.example.com"), "outside the scope pinning stays on")
        #expect(h.changes.count == 1)
        let audit = try String(contentsOfFile: h.audit.path, encoding: .utf8)
        #expect(
            audit.contains("\"type\":\"kill-switch-changed\"") && audit.contains("\"serial\":10")
                && audit.contains("INC-123"))

        // The effect, on real connections: the rogue-served api host is reachable, cdn is not.
        let rogue = try LabTLSServer(
            identity: try lab.rogue.leaf(["api.example.com"]),
            sni: ["cdn.example.com": try lab.rogue.leaf(["cdn.example.com"])]
        )
        defer { rogue.stop() }
        let client = try lab.client(effective, server: rogue, hosts: ["api.example.com", "cdn.example.com"])
        #expect(try await client.get(rogue.url(host: "api.example.com")).status == 200)
        #expect(await transportError { try await client.get(rogue.url(host: "cdn.example.com")) }?.code == .pinMismatch)
    }

    /// Each attack: shown accepted by a machine without the protection, then refused by the real one.
    @Test("forged, wrongly keyed, mismatched, replayed, expired and over-reaching documents change nothing")
    func attacks() async throws {
        let h = try harness()
        defer { h.close() }
        h.server.serve(try signed(payload(serial: 10)))
        await h.controller.refresh()
        let accepted = h.controller.state
        #expect(accepted.highestSerial == 10)

        // The unprotected variant: the key is configured but every signature "verifies".
        let unsignedMachine = KillSwitchStateMachine.Settings(
            publicKeys: [Self.keyID: Self.signingKey.publicKeyDER], verifier: AcceptsAnySignature())
        let realSettings = KillSwitchStateMachine.Settings(
            publicKeys: [Self.keyID: Self.signingKey.publicKeyDER], verifier: OpenSSLSignatureVerifier())
        let good = try signed(payload(serial: 20, hosts: nil))
        let goodEnvelope = try JSONParser.parse(good)
        func replacing(_ key: String, with value: JSONValue, in envelope: JSONValue = goodEnvelope) -> String {
            guard case .object(var members) = envelope else { return "" }
            members = members.map { $0.key == key ? (key, value) : $0 }
            return JSONValue.object(members).serialized()
        }
        let forgedSignature = replacing(
            "signatures",
            with: [
                [
                    "keyId": .string(Self.keyID), "alg": "Ed25519",
                    "sig": .string(Base64.encode([UInt8](repeating: 7, count: 64), alphabet: .url)),
                ]
            ]
        )
        let wrongKey = try signed(payload(serial: 20, hosts: nil), key: Self.otherKey, keyID: Self.keyID)
        let otherPayload = try JSONParser.parse(try signed(payload(serial: 21, hosts: nil)))["payload"]!
        let mismatched = replacing(
            "payload", with: otherPayload,
            in: try JSONParser.parse(try signed(payload(serial: 20, hosts: ["cdn.example.com"]))))
        let attacks: [(String, String, KillSwitchStateMachine.Settings, Date?)] = [
            ("forged signature", forgedSignature, unsignedMachine, nil),
            ("signed by a key that is not configured", wrongKey, unsignedMachine, nil),
            ("payload and signature do not belong together", mismatched, unsignedMachine, nil),
            ("replayed lower serial", try signed(payload(serial: 5)), realSettings, nil),
            ("replayed same serial", try signed(payload(serial: 10)), realSettings, nil),
            (
                "expired", try signed(payload(serial: 30, issued: Date().addingTimeInterval(-8 * 86_400))),
                realSettings, Date().addingTimeInterval(-7.5 * 86_400)
            ),
            ("longer than 30 days", try signed(payload(serial: 31, lifetime: 40 * 86_400)), realSettings, nil),
        ]
        for (name, document, withoutProtection, earlierNow) in attacks {
            // Without the protection the document would have been taken.
            var naive = KillSwitchStateMachine()
            var lax = withoutProtection
            lax.maximumValidity = .infinity
            let naiveActions = naive.receive(Array(document.utf8), settings: lax, now: earlierNow ?? Date())
            #expect(
                naiveActions.contains(.persist),
                "\(name): a machine without the check should accept it: \(naiveActions)")
            // With it: nothing changes.
            h.server.serve(document)
            let actions = await h.controller.refresh()
            #expect(!actions.contains(.persist), "\(name): \(actions)")
            #expect(h.controller.state == accepted, "\(name)")
        }
        #expect(h.changes.count == 1)
    }

    @Test(
        "a field outside the schema, anywhere, rejects the whole document",
        arguments: [
            ("payload", "baseURL", JSONValue.string("https://evil.example")),
            ("payload", "pins", JSONValue.array(["sha256/AAAA"])),
            ("payload", "hosts", JSONValue.array(["api.example.com"])),
            ("scope", "certificates", JSONValue.array([])),
            ("envelope", "hosts", JSONValue.array(["api.example.com"])),
        ]
    )
    func extraFields(_ place: String, _ name: String, _ value: JSONValue) async throws {
        let h = try harness()
        defer { h.close() }
        var payloadJSON = payload(serial: 50).json
        guard case .object(var members) = payloadJSON else { return }
        switch place {
        case "payload": members.append((name, value))
        case "scope":
            members = members.map { member in
                guard member.key == "scope", case .object(var scope) = member.value else { return member }
                scope.append((name, value))
                return (member.key, .object(scope))
            }
        default: break
        }
        payloadJSON = .object(members)
        let payloadBytes = Array(payloadJSON.serialized().utf8)
        let signature: JSONValue = [
            "keyId": .string(Self.keyID), "alg": "Ed25519",
            "sig": .string(Base64.encode(try Self.signingKey.sign(payloadBytes), alphabet: .url)),
        ]
        var envelope: [(key: String, value: JSONValue)] = [
            ("payload", .string(Base64.encode(payloadBytes, alphabet: .url))), ("signatures", [signature]),
        ]
        if place == "envelope" { envelope.append((name, value)) }
        // Without the extra field the same, signed document is accepted.
        h.server.serve(try signed(payload(serial: 40)))
        #expect(await h.controller.refresh().contains(.persist))
        h.server.serve(JSONValue.object(envelope).serialized())
        let actions = await h.controller.refresh()
        #expect(!actions.contains(.persist), "\(actions)")
        #expect(h.controller.state.highestSerial == 40)
        let reason = actions.compactMap { if case .ignored(let text) = $0 { text } else { nil } }.joined()
        #expect(reason.contains("unknown key"), "\(reason)")
    }

    @Test("an off lapses at its expiry and pinning is back; a higher on ends an off early")
    func expiryAndOn() async throws {
        let h = try harness()
        defer { h.close() }
        h.server.serve(try signed(payload(serial: 10, lifetime: 3600)))
        await h.controller.refresh()
        var machine = h.controller.state
        #expect(
            !machine.effectivePolicy(try basePolicy(), appVersion: "1.3.0", now: Date()).isPinnedHost("api.example.com")
        )
        let later = Date().addingTimeInterval(2 * 3600)
        #expect(
            machine.effectivePolicy(try basePolicy(), appVersion: "1.3.0", now: later).isPinnedHost("api.example.com"))
        let actions = machine.tick(now: later)
        #expect(actions.contains(.policyChanged))
        #expect(machine.activeOff == nil)

        h.server.serve(try signed(payload(serial: 11, pinning: .on)))
        await h.controller.refresh()
        #expect(h.controller.effectivePolicy.isPinnedHost("api.example.com"))
        #expect(h.controller.state.highestSerial == 11)
    }

    @Test("fetch failures of every kind keep the last good state")
    func fetchFailures() async throws {
        let h = try harness()
        defer { h.close() }
        h.server.serve(try signed(payload(serial: 10)))
        await h.controller.refresh()
        let good = h.controller.state
        let failures: [(String, LabResponse)] = [
            ("HTTP 500", .text("oops", status: 500)),
            ("garbage", .text("\u{0}\u{1}not json{{{")),
            ("huge", LabResponse(body: [UInt8](repeating: 0x20, count: 200_000))),
            ("slow", LabResponse(body: Array(try signed(payload(serial: 99)).utf8), delay: 3)),
            ("dropped connection", LabResponse(dropConnection: true)),
            ("empty", .text("")),
        ]
        for (name, response) in failures {
            h.server.serve(response)
            let actions = await h.controller.refresh()
            #expect(!actions.contains(.persist), "\(name)")
            #expect(h.controller.state == good, "\(name)")
        }
        h.server.server.stop()
        await h.controller.refresh()
        #expect(h.controller.state == good, "connection refused")
        #expect(!h.controller.effectivePolicy.isPinnedHost("api.example.com"))
    }

    @Test("an unsigned document is never honoured; with no keys configured nothing is (issue 14.1)")
    func unsigned() async throws {
        let document = KillSwitchDocument.Payload(
            serial: 7, issuedAt: Date(), expiresAt: Date().addingTimeInterval(3600), pinning: .off, reason: "test")
        let unsigned = JSONValue.object([
            ("payload", .string(Base64.encode(Array(document.json.serialized().utf8), alphabet: .url))),
            ("signatures", []),
        ]).serialized()
        let open = try harness(keys: false)
        defer {
            open.server.server.stop()
            open.directory.remove()
        }
        for body in [unsigned, try signed(document)] {
            open.server.serve(body)
            let actions = await open.controller.refresh()
            #expect(!actions.contains(.persist), "\(actions)")
        }
        #expect(open.controller.state.highestSerial == 0)
        #expect(open.controller.effectivePolicy.isPinnedHost("cdn.example.com"))
        let locked = try harness(keys: true)
        defer {
            locked.server.server.stop()
            locked.directory.remove()
        }
        locked.server.serve(unsigned)
        let actions = await locked.controller.refresh()
        #expect(locked.controller.state.highestSerial == 0)
        #expect(actions.contains { if case .ignored(let reason) = $0 { reason.contains("unsigned") } else { false } })
        // Control: the same payload signed by the configured key is taken.
        locked.server.serve(try signed(document))
        #expect(await locked.controller.refresh().contains(.persist))
        // A configuration without keys cannot even start a controller.
        #expect(throws: PinKitError.self) {
            try KillSwitchController.Configuration(
                PinConfiguration.KillSwitch(url: "https://status.example.net/ks.json"), statePath: "/nonexistent",
                appVersion: "1.0.0")
        }
    }

    @Test("ES256 signatures made by openssl pkeyutl verify in either S form; sign emits low S (issue 14.3)")
    func highAndLowS() throws {
        let key = try PrivateKey.generate(.ecP256)
        let publicKey = try VerifyingKey(spkiDER: key.publicKeyDER)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try key.privateKeyPEM.write(toFile: directory.file("key.pem"), atomically: true, encoding: .utf8)
        for index in 0..<8 {
            let message = Array("payload \(index)".utf8)
            try Data(message).write(to: URL(fileURLWithPath: directory.file("msg")))
            try Shell.bash(
                "openssl pkeyutl -sign -inkey key.pem -rawin -digest sha256 -in msg -out sig.der",
                directory: directory.url)
            let der = Array(try Data(contentsOf: URL(fileURLWithPath: directory.file("sig.der"))))
            let raw = try VerifyingKey.joseSignature(der, algorithm: "ES256")
            let flipped = VerifyingKey.flippedS(raw)
            // Exactly one of the two forms is high; both verify, as RFC 7518 verifiers do.
            #expect(VerifyingKey.isHigh(Array(raw[32...])) != VerifyingKey.isHigh(Array(flipped[32...])))
            #expect(publicKey.verify(signature: raw, message: message, algorithm: "ES256"))
            #expect(publicKey.verify(signature: flipped, message: message, algorithm: "ES256"))
            #expect(VerifyingKey.lowS(raw) == VerifyingKey.lowS(flipped))
            let ours = try key.sign(message)
            #expect(!VerifyingKey.isHigh(Array(ours[32...])), "sign emits low S")
            #expect(publicKey.verify(signature: ours, message: message, algorithm: "ES256"))
        }
    }

    @Test("the app-version scope limits the effect; the state survives a restart; a corrupt state means pinning on")
    func versionsAndRestart() async throws {
        let directory = try TemporaryDirectory()
        let h = try harness(appVersion: "2.0.0", directory: directory)
        defer {
            h.server.server.stop()
            directory.remove()
        }
        h.server.serve(try signed(payload(serial: 10, versions: ("1.2.0", "1.4.9"))))
        await h.controller.refresh()
        #expect(h.controller.state.highestSerial == 10)
        #expect(h.controller.effectivePolicy.isPinnedHost("api.example.com"), "2.0.0 is outside 1.2.0-1.4.9")
        let inRange = try harness(appVersion: "1.4.9", directory: directory)
        defer { inRange.server.server.stop() }
        #expect(inRange.controller.state.highestSerial == 10, "restored from disk")
        #expect(!inRange.controller.effectivePolicy.isPinnedHost("api.example.com"))
        try "{\"highestSerial\": \"x\"".write(
            toFile: directory.file("kill-switch.json"), atomically: true, encoding: .utf8)
        let corrupt = try harness(appVersion: "1.4.9", directory: directory)
        defer { corrupt.server.server.stop() }
        #expect(corrupt.controller.effectivePolicy.isPinnedHost("api.example.com"))
    }

    @Test("ES256 signatures verify too, and a flipped bit does not")
    func es256() throws {
        let key = try PrivateKey.generate(.ecP256)
        let message = Array("payload".utf8)
        let signature = try key.sign(message)
        #expect(signature.count == 64)
        let publicKey = try VerifyingKey(spkiDER: key.publicKeyDER)
        #expect(publicKey.verify(signature: signature, message: message, algorithm: "ES256"))
        var flipped = signature
        flipped[10] ^= 1
        #expect(!publicKey.verify(signature: flipped, message: message, algorithm: "ES256"))
        #expect(!publicKey.verify(signature: signature, message: message, algorithm: "Ed25519"))
        // Cross-checked with the openssl CLI: our raw r||s becomes a DER signature openssl accepts.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try key.publicKeyPEM.write(toFile: directory.file("pub.pem"), atomically: true, encoding: .utf8)
        try Data(message).write(to: URL(fileURLWithPath: directory.file("msg")))
        let ed = try PrivateKey.generate(.ed25519)
        try ed.publicKeyPEM.write(toFile: directory.file("ed.pem"), atomically: true, encoding: .utf8)
        try Data(try ed.sign(message)).write(to: URL(fileURLWithPath: directory.file("ed.sig")))
        let result = try Shell.run([
            "openssl", "pkeyutl", "-verify", "-pubin", "-inkey", directory.file("ed.pem"), "-rawin", "-in",
            directory.file("msg"),
            "-sigfile", directory.file("ed.sig"),
        ])
        #expect(result.stdout.contains("Signature Verified Successfully"), "\(result.stdout)\(result.stderr)")
    }
}

/// The deliberately unprotected variant: every signature "verifies".
struct AcceptsAnySignature: KillSwitchSignatureVerifying {
    func isValid(signature: [UInt8], message: [UInt8], algorithm: String, publicKeySPKI: [UInt8]) -> Bool { true }
}
