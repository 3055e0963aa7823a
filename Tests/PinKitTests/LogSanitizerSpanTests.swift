import PinKitTestSupport
import Testing

@testable import PinKit

/// The machinery of rules 1–2 and the driver: the separator search and the output buffer. Their
/// results are checked end to end by the agreement with the regular-expression reference; these
/// tests aim at the edges that corpus rarely reaches.
@Suite("Log sanitizer spans")
struct LogSanitizerSpanTests {
    @Test(
        "the separator finder finds what a byte-by-byte search finds, examining each byte about once",
        arguments: [1, 2, 7, 9, 40, 10_000])
    func separatorFinder(spacing: Int) {
        var generator = SeededGenerator(seed: UInt64(spacing))
        // ':' about every `spacing` bytes (back to back, inside one word, a word apart, further
        // than memchr's first block); the others include high bytes and the other separators.
        let others: [UInt8] = [0x61, 0x25, 0x3D, 0xFF, 0x80, 0x3B, 0xBA]
        let bytes: [UInt8] = (0..<5_000).map { _ in
            Int.random(in: 0..<spacing, using: &generator) == 0
                ? 0x3A : others[Int.random(in: 0..<others.count, using: &generator)]
        }
        bytes.withUnsafeBufferPointer { buffer in
            let counter = LogSanitizer.OperationCounter()
            let input = SanitizerInput(input: buffer, counter: counter)
            var finder = SeparatorFinder(0x3A)
            var from = 0
            var queries = 0
            var mismatches = 0
            while from <= bytes.count {
                queries += 1
                let found = finder.next(from: from, to: bytes.count, in: input)
                if found != bytes[from...].firstIndex(of: 0x3A) { mismatches += 1 }
                // Steps of 1–3 bytes: queries land on matches, inside the word tested last, past it.
                from += 1 + Int.random(in: 0..<3, using: &generator)
            }
            #expect(mismatches == 0)
            // Words and memchr ranges never overlap; only the byte at each query's start is read again.
            #expect(counter.operations <= bytes.count + queries, "\(counter.operations) for \(bytes.count) bytes")
        }
    }

    @Test("the bearer finder finds every `be` in any case that a byte-by-byte search finds", arguments: [1, 3, 9, 64])
    func bearerStartFinder(spacing: Int) {
        var generator = SeededGenerator(seed: UInt64(spacing) &+ 0xBE)
        // `b`/`B` about every `spacing` bytes, `e`/`E` often after them; the others are the bytes
        // that `| 0x20` maps next to `b` and `e` (`"`, `%`, DEL and high bytes) and plain text.
        let others: [UInt8] = [0x61, 0x65, 0x45, 0x22, 0x25, 0x42 | 0x80, 0x62 | 0x80, 0x7F, 0x20, 0xC2]
        let bytes: [UInt8] = (0..<5_000).map { _ in
            Int.random(in: 0..<spacing, using: &generator) == 0
                ? [0x62, 0x42][Int.random(in: 0..<2, using: &generator)]
                : others[Int.random(in: 0..<others.count, using: &generator)]
        }
        let expected = { (from: Int) -> Int? in
            guard from < bytes.count - 1 else { return nil }
            return (from..<(bytes.count - 1)).first { bytes[$0] | 0x20 == 0x62 && bytes[$0 + 1] | 0x20 == 0x65 }
        }
        bytes.withUnsafeBufferPointer { buffer in
            let counter = LogSanitizer.OperationCounter()
            let input = SanitizerInput(input: buffer, counter: counter)
            var finder = BearerStartFinder()
            var from = 0
            var mismatches = 0
            var queries = 0
            while from <= bytes.count {
                queries += 1
                if finder.next(from: from, to: bytes.count, in: input) != expected(from) { mismatches += 1 }
                from += 1 + Int.random(in: 0..<3, using: &generator)
            }
            #expect(mismatches == 0)
            #expect(counter.operations <= 2 * bytes.count + queries, "\(counter.operations) for \(bytes.count) bytes")
        }
    }

    @Test("a line whose redacted form outgrows its first buffer comes out whole, on every entry point")
    func outputGrowth() {
        // ":// " (4 bytes) becomes "[redacted-url] " (15): 3.75 times the input, past the first
        // buffer's 1.5 n + 64 from 20 repetitions on, and past the 3 n + 64 of a long input written
        // straight into the result (from 64 KiB: 16,384 repetitions). "a@b.c " (6 bytes) becomes
        // "[redacted-email] " (17): 2.8 times, which a long input's result holds without moving.
        // "ok 12:00 " has nothing to replace, short or long: the input comes back as it is.
        for (unit, replaced) in [
            (":// ", "[redacted-url] "), ("a@b.c ", "[redacted-email] "), ("ok 12:00 ", "ok 12:00 "),
        ] {
            for count in [1, 20, 3_000, 16_383, 16_384, 40_000] {
                let line = String(repeating: unit, count: count)
                let expected = String(repeating: replaced, count: count)
                expectEveryEntryPoint(line, expected)
            }
        }
    }

    func expectEveryEntryPoint(_ line: String, _ expected: String) {
        // The reference only where it is quick: the expected text is known anyway.
        if line.utf8.count < 20_000 { #expect(RegexReferenceSanitizer.redact(line) == expected) }
        #expect(LogSanitizer.redact(line) == expected)
        let bytes = Array(line.utf8)
        #expect(LogSanitizer.redact(bytes: bytes) == Array(expected.utf8))
        // The generic entry point (a slice) and the array one agree.
        #expect(LogSanitizer.redact(bytes: bytes[...]) == Array(expected.utf8))
        #expect(LogSanitizer.countingRedact(bytes).output == Array(expected.utf8))
    }
}
