import Foundation
import PinKit
import PinKitOpenSSL
import PinKitTestSupport
import Testing

@Suite("Certificate loading")
struct CertificateLoadingTests {
    static let pki: CLIPKI = try! CLIPKI(leafNames: ["api.example.com", "*.cdn.example.com"])

    static func chainText() throws -> String { try String(contentsOfFile: pki.chainPath, encoding: .utf8) }

    @Test("a PEM chain loads in order, leaf first, with its SAN names")
    func chain() throws {
        let certificates = try X509Certificate.load(pem: try Self.chainText())
        #expect(certificates.count == 3)
        let pins = try Self.pki.pins()
        #expect(certificates.map(\.spkiSHA256.base64) == [pins.leaf, pins.intermediate, pins.root])
        #expect(certificates[0].dnsNames == ["api.example.com", "*.cdn.example.com"])
        #expect(certificates[1].subject == "CN=Test Intermediate,O=PinKit Test")
        #expect(certificates[1].issuer == "CN=Test Root,O=PinKit Test")
        #expect(certificates[2].isSelfIssued)
        #expect(!certificates[0].isSelfIssued)
    }

    @Test("text around blocks, CRLF line ends and other block types are tolerated")
    func tolerant() throws {
        let text = try Self.chainText()
        let decorated =
            "Certificate chain for api.example.com\n"
            + text.replacingOccurrences(
                of: "-----END CERTIFICATE-----\n", with: "-----END CERTIFICATE-----\nsubject=…\n\n")
            + "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\n"
        #expect(try X509Certificate.load(pem: decorated).count == 3)
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try X509Certificate.load(pem: crlf).count == 3)
    }

    @Test("a certificate's PEM and DER forms round-trip")
    func roundTrip() throws {
        for certificate in try X509Certificate.load(pem: try Self.chainText()) {
            #expect(try X509Certificate(der: certificate.der) == certificate)
            #expect(try X509Certificate.load(pem: certificate.pem) == [certificate])
        }
    }

    // Each row: input, expected error code, a fragment of the reason.
    static func hostileInputs() throws -> [(String, [UInt8], PinKitError.Code, String)] {
        let text = try chainText()
        let leafPEM = String(text[..<text.range(of: "-----END CERTIFICATE-----")!.upperBound]) + "\n"
        let leafDER = try X509Certificate.load(pem: leafPEM)[0].der
        let body = leafPEM.split(separator: "\n").dropFirst().dropLast().joined()
        return [
            ("empty", [], .noCertificate, "empty"),
            ("plain text", Array("hello, world\n".utf8), .noCertificate, "neither"),
            ("random binary", [0x17, 0x00, 0xFF, 0x42], .noCertificate, "neither"),
            ("truncated PEM", Array(leafPEM.dropLast(40).utf8), .malformedPEM, "no END line"),
            ("END without BEGIN", Array("-----END CERTIFICATE-----\n".utf8), .malformedPEM, "without a BEGIN"),
            (
                "mismatched END", Array(leafPEM.replacingOccurrences(of: "END CERTIFICATE", with: "END X509 CRL").utf8),
                .malformedPEM, "closes the CERTIFICATE block"
            ),
            (
                "nested BEGIN", Array(("-----BEGIN CERTIFICATE-----\n" + leafPEM).utf8), .malformedPEM,
                "inside the CERTIFICATE block"
            ),
            (
                "bad base64", Array(leafPEM.replacingOccurrences(of: body.prefix(8), with: "!!!!!!!!").utf8),
                .malformedPEM, "not base64"
            ),
            (
                "empty block", Array("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n".utf8),
                .malformedPEM, "empty"
            ),
            (
                "headers",
                Array(leafPEM.replacingOccurrences(of: "-----\n", with: "-----\nProc-Type: 4,ENCRYPTED\n").utf8),
                .malformedPEM, "headers"
            ),
            (
                "not a certificate inside",
                Array(PEM.encode([0x30, 0x03, 0x02, 0x01, 0x01], label: "CERTIFICATE").utf8),
                .malformedDER, "line 1"
            ),
            (
                "only a key", Array("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n".utf8),
                .noCertificate, "PUBLIC KEY"
            ),
            ("truncated DER", Array(leafDER.dropLast(10)), .malformedDER, "not a DER certificate"),
            ("DER with trailing bytes", leafDER + [0x00, 0x01], .malformedDER, "followed by 2 unexpected bytes"),
            ("DER header only", [0x30, 0x82, 0xFF, 0xFF], .malformedDER, "not a DER certificate"),
        ]
    }

    @Test("garbage, truncated and non-certificate input is a typed error")
    func hostile() throws {
        for (name, bytes, code, fragment) in try Self.hostileInputs() {
            do {
                let loaded = try X509Certificate.load(bytes: bytes)
                Issue.record("\(name): accepted as \(loaded.count) certificate(s)")
            } catch {
                #expect(error.code == code, "\(name): \(error)")
                #expect(error.reason.contains(fragment), "\(name): \(error)")
            }
        }
    }

    @Test("mutated DER: an accepted certificate is exactly its bytes, a truncated one is never accepted")
    func mutatedDER() throws {
        let der = try X509Certificate.load(pem: try Self.chainText())[0].der
        // Seeded, so a failure names a mutation that reproduces.
        var generator = SeededGenerator(seed: 0x0D_E5)
        var accepted = 0
        var refused = 0
        for round in 0..<3_000 {
            var bytes = der
            for _ in 0...(round % 4) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
            let truncated = round % 7 == 0
            if truncated { bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator))) }
            do {
                let certificate = try X509Certificate(der: bytes)
                #expect(!truncated, "round \(round): a truncated certificate was accepted")
                // No trailing bytes ignored, nothing re-encoded: what was accepted is what was given.
                #expect(certificate.der == bytes, "round \(round)")
                accepted += 1
            } catch {
                #expect(error.code == .malformedDER, "round \(round): \(error)")
                refused += 1
            }
        }
        // Bytes changed inside the signature or a name still parse; changes to the structure do
        // not. Both kinds occur with this seed, so each branch above was checked.
        #expect(accepted > 0 && refused > 0, "accepted \(accepted), refused \(refused)")
    }
}
