import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// SPKI pins from raw keys (what Apple's `SecKeyCopyExternalRepresentation` returns), checked
/// against the openssl CLI: the raw inputs and the expected pins both come from openssl.
@Suite("SubjectPublicKeyInfo from raw keys")
struct SubjectPublicKeyInfoTests {
    struct Vector {
        let name: String
        let keyType: SubjectPublicKeyInfo.KeyType
        let raw: [UInt8]
        let spki: [UInt8]
        let opensslPin: String
    }

    static let pointLength: [String: Int] = ["ecP256": 65, "ecP384": 97, "ecP521": 133]

    /// Derives the raw representation and the pin of one fixture key with openssl.
    static func vector(_ name: String) throws -> Vector {
        let key = try #require(SPKIVectors.keys.first { $0.name == name })
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pem = try directory.write("key.pem", key.pem)
        try Shell.bash("openssl pkey -pubin -in '\(pem)' -outform DER -out spki.der", directory: directory.url)
        let keyType: SubjectPublicKeyInfo.KeyType
        if key.type == "rsa" {
            keyType = .rsa
            try Shell.bash(
                "openssl rsa -pubin -in '\(pem)' -RSAPublicKey_out -outform DER -out raw.der 2>/dev/null",
                directory: directory.url)
        } else {
            keyType = try #require(SubjectPublicKeyInfo.KeyType.all.first { "\($0)" == key.type.ecName })
            // The EC point is the SPKI's BIT STRING content, its last bytes.
            try Shell.bash("tail -c \(pointLength[key.type]!) spki.der > raw.der", directory: directory.url)
        }
        let pin = try Shell.bash(
            "openssl pkey -pubin -in '\(pem)' -outform der | openssl dgst -sha256 -binary | base64",
            directory: directory.url)
        return Vector(
            name: name, keyType: keyType,
            raw: Array(try #require(FileManager.default.contents(atPath: directory.file("raw.der")))),
            spki: Array(try #require(FileManager.default.contents(atPath: directory.file("spki.der")))),
            opensslPin: pin.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(
        "the pin equals openssl's for every size and curve",
        arguments: [
            "rsa-1024", "rsa-2048", "rsa-2056", "rsa-3072", "rsa-4096", "rsa-8192", "ec-P-256", "ec-P-384", "ec-P-521",
        ]
    )
    func matchesOpenSSL(_ name: String) throws {
        let vector = try Self.vector(name)
        let spki = try SubjectPublicKeyInfo(keyType: vector.keyType, rawRepresentation: vector.raw)
        #expect(spki.derEncoded == vector.spki, "the DER openssl prints")
        #expect(spki.pin.base64 == vector.opensslPin)
        #expect(try SPKIPin(keyType: vector.keyType, rawRepresentation: vector.raw).base64 == vector.opensslPin)
        let parsed = try SubjectPublicKeyInfo(derEncoded: vector.spki)
        #expect(parsed.keyType == vector.keyType && parsed.rawRepresentation == vector.raw)
    }

    @Test("a fixed per-size header (TrustKit's way) gives a wrong pin for a size nobody listed; encoding does not")
    func fixedHeaderFails() throws {
        // TrustKit's header for RSA-2048: right for 2048-bit keys only.
        let rsa2048Header: [UInt8] = [
            0x30, 0x82, 0x01, 0x22, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01,
            0x05, 0x00, 0x03, 0x82, 0x01, 0x0f, 0x00,
        ]
        let listed = try Self.vector("rsa-2048")
        #expect(
            PortableSHA256.base64(rsa2048Header + listed.raw) == listed.opensslPin, "the header works where it was made"
        )
        let odd = try Self.vector("rsa-2056")
        #expect(PortableSHA256.base64(rsa2048Header + odd.raw) != odd.opensslPin, "the attack: a wrong pin, silently")
        #expect(try SPKIPin(keyType: .rsa, rawRepresentation: odd.raw).base64 == odd.opensslPin)
    }

    @Test("a compressed point from openssl is refused with a reason")
    func compressedPoint() throws {
        let key = try #require(SPKIVectors.keys.first { $0.name == "ec-P-256" })
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pem = try directory.write("key.pem", key.pem)
        try Shell.bash(
            "openssl ec -pubin -in '\(pem)' -conv_form compressed -outform DER 2>/dev/null | tail -c 33 > point",
            directory: directory.url)
        let point = try #require(FileManager.default.contents(atPath: directory.file("point")))
        #expect([0x02, 0x03].contains(point.first))
        #expect(throws: PinKitError.self) { try SubjectPublicKeyInfo(keyType: .ecP256, rawRepresentation: point) }
        do {
            _ = try SubjectPublicKeyInfo(keyType: .ecP256, rawRepresentation: point)
        } catch {
            #expect(error.code == .malformedPublicKey && error.reason.contains("compressed"))
        }
    }

    /// Malformed raw input, each built from a valid openssl-derived key.
    static func malformed() throws -> [(String, SubjectPublicKeyInfo.KeyType, [UInt8], String)] {
        let ec = try vector("ec-P-256").raw
        let rsa = try vector("rsa-2048").raw
        // Take the RSAPublicKey apart: modulus and exponent contents.
        var reader = DER.Reader(rsa[...])
        var sequence = try reader.read(0x30, "RSAPublicKey")
        let modulus = Array(try sequence.read(0x02, "modulus").bytes)
        let exponent = Array(try sequence.read(0x02, "exponent").bytes)
        func rsaKey(_ modulus: [UInt8], _ exponent: [UInt8]) -> [UInt8] {
            DER.sequence(DER.element(DER.Tag.integer, modulus) + DER.element(DER.Tag.integer, exponent))
        }
        #expect(rsaKey(modulus, exponent) == rsa, "the test's encoder agrees with openssl")
        let prime: [UInt8] =
            [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 12)
            + [UInt8](repeating: 0xFF, count: 12)
        return [
            ("empty", .ecP256, [], "empty"),
            ("P-256 point one byte short", .ecP256, Array(ec.dropLast()), "65 bytes"),
            ("P-256 point with a trailing byte", .ecP256, ec + [0], "65 bytes"),
            ("P-256 point given as P-384", .ecP384, ec, "97 bytes"),
            ("hybrid form 0x06", .ecP256, [0x06] + ec.dropFirst(), "0x04"),
            ("X equal to the prime", .ecP256, [0x04] + prime + ec.suffix(32), "below the field prime"),
            ("RSA with a trailing byte", .rsa, rsa + [0], "trailing"),
            ("RSA with a negative modulus", .rsa, rsaKey(Array(modulus.dropFirst()), exponent), "negative"),
            ("RSA with a non-minimal modulus", .rsa, rsaKey([0] + modulus, exponent), "minimal"),
            ("RSA with a zero exponent", .rsa, rsaKey(modulus, [0]), "zero"),
            ("RSA with an indefinite length", .rsa, [0x30, 0x80] + rsa.dropFirst(4) + [0, 0], "indefinite"),
            (
                "RSA with a long-form short length", .rsa, [0x30, 0x81, 0x06, 0x02, 0x01, 0x05, 0x02, 0x01, 0x03],
                "minimal"
            ),
            ("RSA truncated", .rsa, Array(rsa.dropLast()), "truncated"),
            ("RSA with a third INTEGER", .rsa, DER.sequence(Array(rsa.dropFirst(4)) + [0x02, 0x01, 0x01]), "trailing"),
            ("an EC point given as RSA", .rsa, ec, "tag"),
        ]
    }

    @Test("malformed raw input is a typed error that says what was wrong")
    func malformedInput() throws {
        for (name, keyType, raw, text) in try Self.malformed() {
            do {
                let spki = try SubjectPublicKeyInfo(keyType: keyType, rawRepresentation: raw)
                Issue.record("\(name): accepted, pin \(spki.pin)")
            } catch {
                #expect(error.code == .malformedPublicKey, "\(name)")
                #expect(error.reason.contains(text), "\(name): \(error.reason)")
            }
        }
    }

    @Test("SPKI DER that is not exactly the canonical encoding is refused")
    func nonCanonicalSPKI() throws {
        let spki = try Self.vector("ec-P-256").spki
        let cases: [(String, [UInt8])] = [
            ("trailing byte", spki + [0]),
            ("unused bits", Array(spki.prefix(25)) + [1] + spki.dropFirst(26)),
            (
                "unknown curve",
                Array(spki.prefix(24).enumerated().map { $0.offset == 22 ? 0x08 : $0.element }) + spki.dropFirst(24)
            ),
            ("truncated", Array(spki.dropLast())),
        ]
        #expect(spki[25] == 0x00 && spki[22] == 0x07, "offsets of the fixture: unused-bits byte, last OID byte")
        for (name, der) in cases {
            #expect(throws: PinKitError.self, "\(name)") { try SubjectPublicKeyInfo(derEncoded: der) }
        }
        // Found by FuzzSPKI with the canonical-encoding check switched off: rsaEncryption whose
        // parameters are not NULL (05 40 instead of 05 00) read as the same key.
        var rsa = try Self.vector("rsa-1024").spki
        #expect(rsa[16] == 0x05 && rsa[17] == 0x00)
        rsa[17] = 0x40
        #expect(throws: PinKitError.self) { try SubjectPublicKeyInfo(derEncoded: rsa) }
    }
}

extension String {
    fileprivate var ecName: String {
        ["ecP256": "ec-p256", "ecP384": "ec-p384", "ecP521": "ec-p521"][self] ?? self
    }
}

extension PortableSHA256 {
    fileprivate static func base64(_ bytes: [UInt8]) -> String { Base64.encode(hash(bytes)) }
}
