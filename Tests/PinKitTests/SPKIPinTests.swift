import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

@Suite("SPKI pins")
struct SPKIPinTests {
    // Debian's GTS_Root_R4.crt pins to this value (known vector from the issue).
    static let gtsRootR4 = "mEflZT5enoR1FuXLgYYGqnVEoZvmf9c2bVBpiOjYQ0c="

    @Test(
        "every accepted input form parses to the same pin",
        arguments: [
            gtsRootR4,
            "sha256/\(gtsRootR4)",
            "sha256//\(gtsRootR4)",
            "SHA256/\(gtsRootR4)",
            "pin-sha256=\"\(gtsRootR4)\"",
            "Pin-SHA256=\"\(gtsRootR4)\"",
            "  \(gtsRootR4)\n",
        ]
    )
    func acceptedForms(_ text: String) throws {
        let pin = try SPKIPin(parsing: text)
        #expect(pin.base64 == Self.gtsRootR4)
        #expect(pin.digest.count == 32)
    }

    @Test(
        "malformed pins are rejected with a reason",
        arguments: [
            ("", "empty"),
            ("sha1/\(gtsRootR4)", "only SHA-256"),
            ("sha384/\(gtsRootR4)", "only SHA-256"),
            ("pin-sha256=\(gtsRootR4)", "HPKP form"),
            ("mEflZT5enoR1FuXLgYYGqnVEoZvmf9c2bVBpiOjYQ0c", "padding"),
            ("mEflZT5enoR1FuXLgYYGqnVEoZvmf9c2bVBpiOjYQ0c==", "padding"),
            ("mEflZT5enoR1FuXLgYYGqnVEoZvmf9c2bVBpiOjYQ0", "padding"),
            ("mEflZT5enoR1FuXLgYYGqnVEoZvmf9c2bVBpiOjYQ", "truncated"),
            ("mEflZT5enoR1FuXLgYYGqnVEoZvmf9c2bVBpiOjYQ0c=AAAA", "after '=' padding"),
            ("mEflZT5enoR1FuXLgYYGqnVEoZvmf9c2bVBpiOjYQ0d=", "non-zero unused bits"),
            ("mEflZT5enoR1FuXLgYYGqnVEoZvmf9c2bVBpiOjYQ0c=!", "after '=' padding"),
            ("mEflZT5enoR1FuXLgYYGqnVEoZvmf9c2bVBpiOjYQ0c!", "not base64"),
            ("mEflZT5enoR1FuXLgYYGqnVEoZvmf9c2bVBp_OjYQ0c=", "base64url is not accepted"),
            ("AAAA", "decodes to 3 bytes"),
            (
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
                "a SHA-256 pin is 32 bytes"
            ),
            ("mEfl ZT5enoR1FuXLgYYGqnVEoZvmf9c2bVBpiOjYQ0c=", "not base64"),
        ]
    )
    func rejected(_ text: String, _ reasonFragment: String) {
        #expect {
            try SPKIPin(parsing: text)
        } throws: { error in
            guard let error = error as? PinKitError else { return false }
            return error.code == .invalidPin && error.reason.contains(reasonFragment)
        }
    }

    @Test(
        "a plain pin whose base64 begins like a prefix is still a plain pin (fuzzing regression)",
        arguments: [
            "sha512/q+QvdfCDV///5VpUFa/5/xfbHgpStnwtzQCU=", "sha256/q+QvdfCDV///5VpUFa/5/xfbHgpStnwtzQCU=",
            "sha1/AAq+QvdfCDV///5VpUFa/5/xfbHgpStnwtzQCU=",
        ]
    )
    func prefixLookingPins(_ text: String) throws {
        let pin = try SPKIPin(parsing: text)
        #expect(pin.base64 == text)
        #expect(try SPKIPin(parsing: "sha256/" + text) == pin)
    }

    @Test("equality compares all 32 bytes, whichever byte differs")
    func equalityEveryByte() throws {
        let base = Array(0..<32).map { UInt8($0 * 7 + 1) }
        let pin = try SPKIPin(digest: base)
        #expect(pin == (try SPKIPin(digest: base)))
        for index in 0..<32 {
            var other = base
            other[index] ^= 0x01
            #expect(pin != (try SPKIPin(digest: other)), "a difference in byte \(index) must be seen")
        }
    }

    @Test("placeholders are every byte equal, nothing else")
    func placeholder() throws {
        #expect(try SPKIPin(digest: [UInt8](repeating: 0, count: 32)).isPlaceholder)
        #expect(try SPKIPin(digest: [UInt8](repeating: 0xAB, count: 32)).isPlaceholder)
        var almost = [UInt8](repeating: 0xAB, count: 32)
        almost[31] = 0xAC
        #expect(try !SPKIPin(digest: almost).isPlaceholder)
        #expect(try !SPKIPin(parsing: Self.gtsRootR4).isPlaceholder)
    }

    @Test("digest round-trips through base64 and bytes")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 0x5B_0C1)  // seeded: a failure names a digest that reproduces
        for _ in 0..<200 {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let pin = try SPKIPin(digest: bytes)
            #expect(pin.digest == bytes)
            #expect(try SPKIPin(parsing: pin.base64) == pin)
            for form in ["sha256/", "sha256//", "pin-sha256=\""] {
                let text = form + pin.base64 + (form.hasSuffix("\"") ? "\"" : "")
                #expect(try SPKIPin(parsing: text) == pin, "\(text)")
            }
        }
    }
}

@Suite("Base64")
struct Base64Tests {
    // RFC 4648 section 10 test vectors.
    @Test(
        "RFC 4648 vectors",
        arguments: [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ]
    )
    func vectors(_ plain: String, _ encoded: String) throws {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(try Base64.decode(encoded).get() == Array(plain.utf8))
        let url = encoded.replacingOccurrences(of: "=", with: "")
        #expect(Base64.encode(Array(plain.utf8), alphabet: .url) == url)
        #expect(try Base64.decode(url, alphabet: .url).get() == Array(plain.utf8))
    }

    @Test("url alphabet uses - and _ and refuses padding")
    func urlAlphabet() {
        #expect(Base64.encode([0xFB, 0xFF], alphabet: .url) == "-_8")
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
        #expect(throws: Base64.DecodingFailure.unexpectedPadding) { try Base64.decode("-_8=", alphabet: .url).get() }
        #expect(throws: Base64.DecodingFailure.wrongAlphabet(offset: 0)) {
            try Base64.decode("+/8", alphabet: .url).get()
        }
    }
}
