import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// Linearity by operation count, never wall time: the scanner counts every byte it examines.
@Suite("Log sanitizer linearity")
struct LogSanitizerLinearityTests {
    /// The adversarial families of issue 15 §1 and ATTACKS.md (shared with the benchmark).
    static let families = AdversarialLogFamilies.all

    static func line(_ unit: String, bytes: Int) -> [UInt8] { AdversarialLogFamilies.line(unit, bytes: bytes) }

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
