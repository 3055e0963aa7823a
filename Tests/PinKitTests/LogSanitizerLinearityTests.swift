import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// Linearity by operation count, never wall time: the scanner counts every byte it examines.
@Suite("Log sanitizer linearity")
struct LogSanitizerLinearityTests {
    /// The adversarial families of issue 15 §1 and ATTACKS.md, each one repeated unit.
    static let families: [(String, String)] = {
        var families: [(String, String)] = []
        // Runs of each trigger letter in both cases (bearer, http, sha256, keys, JWT, hex).
        for letter in "bBhHsSaAcCpPtTeEyYjJfF" { families.append(("run of \(letter)", String(letter))) }
        for (name, unit) in [
            ("@", "@"), (".", "."), ("-", "-"), ("/", "/"), (":", ":"), ("%", "%"), ("=", "="), ("quote", "\""),
            ("backslash", "\\"), ("http:// repeated", "http://"), ("Bearer repeated", "Bearer "),
            ("[redacted- repeated", "[redacted-"), ("UUID fragment", "550e8400-e29b-"), ("JWT fragment", "eyJhbGciOi."),
            ("eyJ repeated", "eyJ"), ("JSON-escaped scheme repeated", "https:\\/\\/"),
            ("percent-encoded scheme repeated", "https%3A%2F%2F"), ("quoted URL start repeated", "\"https://a"),
            ("opening brackets", "(["), ("password= repeated", "password="), ("Cookie: repeated", "Cookie:"),
            ("sha256/ repeated", "sha256/"), ("a@ repeated", "a@"), ("email-like", "a@b."),
            ("zero-width space", "\u{200B}"), ("NBSP", "\u{00A0}"), ("token with zero-width space", "ab\u{200B}"),
            ("bearer with NBSP", "bearer\u{00A0}"), ("base64 slashes", "aB1/"), ("upper-case hex", "0123456789ABCDEF"),
            ("hex and invisible", "a\u{200B}"), ("escaped quote", "\\\"a"),
            ("pin list", "expected one of AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=, "),
            ("URL query with bearer and spaces", "https://h/?a=Bearer \t"),
        ] {
            families.append((name, unit))
        }
        return families
    }()

    static func line(_ unit: String, bytes: Int) -> [UInt8] {
        let unitBytes = Array(unit.utf8)
        var line: [UInt8] = []
        line.reserveCapacity(bytes + unitBytes.count)
        while line.count < bytes { line.append(contentsOf: unitBytes) }
        return line
    }

    /// The trigger search the old scanner used: for every upper-case candidate, `memchr` for the
    /// lower-case letter over the rest of the region. Returns the bytes it examines.
    static func oldEitherSearchOperations(_ bytes: [UInt8], lower: UInt8, upper: UInt8) -> Int {
        var operations = 0
        func find(_ byte: UInt8, _ from: Int, _ end: Int) -> Int? {
            var index = from
            while index < end {
                operations += 1
                if bytes[index] == byte { return index }
                index += 1
            }
            return nil
        }
        var search = 0
        while search < bytes.count {
            let first = find(lower, search, bytes.count)
            guard let candidate = find(upper, search, first ?? bytes.count) ?? first else { break }
            search = candidate + 1
        }
        return operations
    }

    @Test("the check catches a quadratic search: the old trigger search over a run of B")
    func quadraticIsCaught() {
        let n = 2 << 10
        let small = Self.oldEitherSearchOperations(Self.line("B", bytes: n), lower: 0x62, upper: 0x42)
        let large = Self.oldEitherSearchOperations(Self.line("B", bytes: 4 * n), lower: 0x62, upper: 0x42)
        #expect(Double(large) / Double(small) > 15, "the quadratic model must fail the 4.5 bound")
    }

    @Test("linear on adversarial input: operations at 4n are at most 4.5 times those at n", arguments: families)
    func linear(_ name: String, _ unit: String) async {
        // 64 KiB and 256 KiB keep this debug-build test to seconds; `pinkit-bench --only sanitizer`
        // repeats the same count check at 2 and 8 MiB in a release build.
        let n = 64 << 10
        let (_, small) = LogSanitizer.countingRedact(Self.line(unit, bytes: n))
        await Task.yield()
        let (output, large) = LogSanitizer.countingRedact(Self.line(unit, bytes: 4 * n))
        let ratio = Double(large) / Double(max(small, 1))
        #expect(ratio <= 4.5, "\(name): \(small) operations at n, \(large) at 4n (ratio \(ratio))")
        // And a bounded constant per byte, so "linear" is not linear with a huge factor.
        #expect(large <= 40 * 4 * n, "\(name): \(large) operations for \(4 * n) bytes")
        #expect(output.count <= 4 * 4 * n + 64)
    }
}
