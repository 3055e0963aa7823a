import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// A deterministic stand-in for OpenSSL: a "signature" is two SHA-256 digests binding the key
/// to the message, so the core's rules run without C. `acceptsAnything` is the deliberately
/// unprotected variant the attack tests start from.
struct FakeSignatureVerifier: KillSwitchSignatureVerifying {
    var acceptsAnything = false

    static func sign(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        PortableSHA256.hash(key + message) + PortableSHA256.hash(message + key)
    }

    func isValid(signature: [UInt8], message: [UInt8], algorithm: String, publicKeySPKI: [UInt8]) -> Bool {
        acceptsAnything || signature == Self.sign(message, key: publicKeySPKI)
    }
}

enum KillSwitchFixture {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let keyA: [UInt8] = Array("key-a".utf8)
    static let keyB: [UInt8] = Array("key-b".utf8)

    static func payload(
        serial: Int64 = 10, pinning: KillSwitchDocument.Pinning = .off, hosts: [String]? = ["api.example.com"],
        issued: Date = now.addingTimeInterval(-60), lifetime: TimeInterval = 86_400
    ) -> KillSwitchDocument.Payload {
        KillSwitchDocument.Payload(
            serial: serial, issuedAt: issued, expiresAt: issued.addingTimeInterval(lifetime), pinning: pinning,
            scope: .init(hosts: hosts), reason: "INC-1")
    }

    /// An envelope with the given raw signature entries (already JSON).
    static func envelope(payloadJSON: String, entries: [JSONValue]) -> [UInt8] {
        let document: JSONValue = [
            "payload": .string(Base64.encode(Array(payloadJSON.utf8), alphabet: .url)), "signatures": .array(entries),
        ]
        return Array(document.serialized().utf8)
    }

    static func entry(_ keyId: String, _ alg: String, _ bytes: [UInt8]) -> JSONValue {
        ["keyId": .string(keyId), "alg": .string(alg), "sig": .string(Base64.encode(bytes, alphabet: .url))]
    }

    static func signed(_ payload: KillSwitchDocument.Payload, key: [UInt8] = keyA, keyId: String = "a") -> [UInt8] {
        let json = payload.json.serialized()
        return envelope(
            payloadJSON: json,
            entries: [entry(keyId, "Ed25519", FakeSignatureVerifier.sign(Array(json.utf8), key: key))])
    }

    static func settings(_ keys: [String: [UInt8]] = ["a": keyA], verifier: FakeSignatureVerifier = .init())
        -> KillSwitchStateMachine.Settings
    {
        KillSwitchStateMachine.Settings(publicKeys: keys, verifier: verifier)
    }
}

@Suite("Kill-switch rules")
struct KillSwitchRulesTests {
    typealias F = KillSwitchFixture

    @Test("with no keys configured no document is honoured, signed or not (issue 14.1)")
    func noKeysNoSwitch() {
        let unsigned = F.envelope(payloadJSON: F.payload().json.serialized(), entries: [])
        // Control: the same payload, signed by a configured key, is taken; so only the missing
        // signature or the missing keys can be what refuses it below.
        var control = KillSwitchStateMachine()
        #expect(control.receive(F.signed(F.payload()), settings: F.settings(), now: F.now).contains(.persist))
        var machine = KillSwitchStateMachine()
        for document in [unsigned, F.signed(F.payload())] {
            let actions = machine.receive(document, settings: F.settings([:]), now: F.now)
            #expect(!actions.contains(.persist), "\(actions)")
        }
        #expect(machine.highestSerial == 0 && machine.activeOff == nil)
        #expect(
            machine.rejectionReason(of: try! KillSwitchDocument.parse(unsigned), settings: F.settings([:]), now: F.now)?
                .code == .noKeysConfigured)
    }

    @Test("serials above 2^53 - 1 are malformed, so no document can exhaust the range (issue 14.2)")
    func serialBound() throws {
        for serial: Int64 in [9_223_372_036_854_775_807, 9_007_199_254_740_992] {
            #expect(throws: PinKitError.self) { try KillSwitchDocument.parse(F.signed(F.payload(serial: serial))) }
        }
        let top = try KillSwitchDocument.parse(F.signed(F.payload(serial: KillSwitchDocument.maximumSerial)))
        #expect(top.payload.serial == 9_007_199_254_740_991)
    }

    @Test("a persisted state poisoned by an out-of-range serial is refused, so the app starts with pinning on")
    func poisonedState() throws {
        for serial in ["9223372036854775807", "9007199254740992", "-1"] {
            let state = try JSONParser.parse(#"{"highestSerial": \#(serial), "activeOff": null}"#)
            #expect(throws: PinKitError.self, "\(serial)") { try KillSwitchStateMachine(json: state) }
        }
        let fine = try JSONParser.parse(#"{"highestSerial": 9007199254740991, "activeOff": null}"#)
        #expect(try KillSwitchStateMachine(json: fine).highestSerial == KillSwitchDocument.maximumSerial)
    }

    @Test("an unknown algorithm or an unknown key id next to a valid signature is ignored, not fatal (issue 14.4)")
    func forwardCompatible() throws {
        let payload = F.payload().json.serialized()
        let good = F.entry("a", "Ed25519", FakeSignatureVerifier.sign(Array(payload.utf8), key: F.keyA))
        let future = ["keyId": "a", "alg": "ML-DSA-65", "sig": "not even base64 !!", "x5c": ["later"]] as JSONValue
        let stranger = F.entry("someone-else", "ES256", [UInt8](repeating: 1, count: 64))
        let strangerMalformed = ["keyId": "someone-else", "alg": "ES256", "sig": "%%%"] as JSONValue
        for entries in [[future, good], [good, stranger], [strangerMalformed, good]] {
            var machine = KillSwitchStateMachine()
            let actions = machine.receive(
                F.envelope(payloadJSON: payload, entries: entries), settings: F.settings(), now: F.now)
            #expect(actions.contains(.persist), "\(entries): \(actions)")
        }
        // Ignored entries are reported, each with its code.
        let document = try KillSwitchDocument.parse(
            F.envelope(payloadJSON: payload, entries: [future, good, stranger]))
        let checks = document.checkSignatures(trustedKeys: ["a": F.keyA], verifier: FakeSignatureVerifier())
        #expect(checks.map(\.status) == [.unknownAlgorithm, .verified, .unknownKey])
    }

    @Test("a malformed entry from a trusted key id rejects the document, even beside a valid one (issue 14.4)")
    func malformedTrusted() throws {
        let payload = F.payload().json.serialized()
        let good = F.entry("a", "Ed25519", FakeSignatureVerifier.sign(Array(payload.utf8), key: F.keyA))
        let cases: [JSONValue] = [
            ["keyId": "b", "alg": "ES256", "sig": "%%%"],
            F.entry("b", "ES256", [1, 2, 3]),
            F.entry("b", "Ed25519", [UInt8](repeating: 0, count: 65)),
        ]
        for bad in cases {
            var machine = KillSwitchStateMachine()
            let actions = machine.receive(
                F.envelope(payloadJSON: payload, entries: [good, bad]),
                settings: F.settings(["a": F.keyA, "b": F.keyB]),
                now: F.now)
            #expect(!actions.contains(.persist), "\(bad)")
        }
        // A structurally broken entry (a missing member, an extra member) is a schema error for anyone.
        for broken in [
            ["keyId": "a", "alg": "Ed25519"] as JSONValue, ["keyId": "a", "alg": "Ed25519", "sig": "", "pins": []],
        ] {
            #expect(throws: PinKitError.self) {
                try KillSwitchDocument.parse(F.envelope(payloadJSON: payload, entries: [good, broken]))
            }
        }
    }

    @Test("the build-time floor refuses a replayed old off to a fresh install (issue 14.5)")
    func floor() {
        let old = F.signed(F.payload(serial: 42))
        var fresh = KillSwitchStateMachine()
        // Without a floor, a fresh install takes the old off.
        #expect(fresh.receive(old, settings: F.settings(), now: F.now).contains(.persist))
        var settings = F.settings()
        settings.minimumSerial = 43
        var floored = KillSwitchStateMachine()
        let actions = floored.receive(old, settings: settings, now: F.now)
        #expect(!actions.contains(.persist))
        #expect(
            floored.rejectionReason(of: try! KillSwitchDocument.parse(old), settings: settings, now: F.now)?.code
                == .belowMinimumSerial)
        settings.minimumSerial = 42
        #expect(!floored.receive(old, settings: settings, now: F.now).contains(.persist), "at the floor is refused too")
        #expect(floored.receive(F.signed(F.payload(serial: 44)), settings: settings, now: F.now).contains(.persist))
        // The floor to ship next: just below the off in force, the last serial once it has lapsed.
        #expect(floored.proposedMinimumSerial(now: F.now) == 43)
        #expect(floored.proposedMinimumSerial(now: F.now.addingTimeInterval(2 * 86_400)) == 44)
        // Ignored reasons carry their code.
        #expect(
            floored.receive(old, settings: settings, now: F.now) == [
                .ignored(
                    "replay: serial 42 is not above 44: a replay")
            ])
    }
}
