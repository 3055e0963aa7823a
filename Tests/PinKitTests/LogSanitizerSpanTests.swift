import PinKitTestSupport
import Testing

@testable import PinKit

/// The machinery of rules 1–2 and the driver: the separator search and the output buffer. Their
/// results are checked end to end by the agreement with the regular-expression reference; these
/// tests aim at the edges that corpus rarely reaches.
@Suite("Log sanitizer spans")
struct LogSanitizerSpanTests {
    @Test(
        "the window finders find what a byte-by-byte search finds, examining each byte a bounded number of times",
        arguments: [
            (1, 5_000), (2, 5_000), (7, 5_000), (9, 5_000), (40, 5_000), (10_000, 5_000), (3, 15), (5, 40), (9, 63),
            (30, 64), (4, 65), (20, 200),
        ])
    func windowFinder(spacing: Int, length: Int) {
        var generator = SeededGenerator(seed: UInt64(spacing * 7_919 + length))
        // Triggers about every `spacing` bytes (back to back, inside one window, windows apart,
        // further than four windows, where memchr takes over); the others include high bytes and
        // bytes one away from the triggers.
        let triggers: [UInt8] = [0x3A, 0x3D, 0x25, 0x5C, 0xEF, 0x3E]
        let others: [UInt8] = [0x61, 0x3B, 0x3C, 0x24, 0x26, 0xFF, 0x80, 0xBA, 0xA5, 0x20]
        let bytes: [UInt8] = (0..<length).map { _ in
            Int.random(in: 0..<spacing, using: &generator) == 0
                ? triggers[Int.random(in: 0..<triggers.count, using: &generator)]
                : others[Int.random(in: 0..<others.count, using: &generator)]
        }
        func check<Triggers: WindowTriggers>(_: Triggers.Type, _ values: Set<UInt8>) {
            bytes.withUnsafeBufferPointer { buffer in
                let counter = LogSanitizer.OperationCounter()
                let input = SanitizerInput(input: buffer, counter: counter)
                var finder = WindowFinder<Triggers>()
                var from = 0
                var mismatches = 0
                while from <= bytes.count {
                    let expected = bytes[from...].firstIndex { values.contains($0) }
                    let found = finder.next(from: from, to: bytes.count, in: input)
                    if found != expected { mismatches += 1 }
                    // What the window says about the next byte is true when it says anything.
                    if from + 1 < bytes.count, finder.knownTrigger(at: from + 1), !values.contains(bytes[from + 1]) {
                        mismatches += 1
                    }
                    // The next search starts after what this one found (as the callers' do), 0–2
                    // bytes further, and now and then much further (a URL passed over).
                    from =
                        (found ?? from) + 1
                        + (Int.random(in: 0..<20, using: &generator) == 0
                            ? 70 : Int.random(in: 0..<3, using: &generator))
                }
                #expect(mismatches == 0)
                // Windows only move forward (the last one may overlap the one before), and memchr
                // reads each byte at most once per value (six for the span pass since the fourteenth
                // session's `\`, 0xEF and `>`).
                let bound = max(4, values.count + 1) * bytes.count + 128
                #expect(counter.operations <= bound, "\(counter.operations) for \(bytes.count) bytes")
            }
        }
        check(SpanTriggers.self, [0x3A, 0x3D, 0x25, 0x5C, 0xEF, 0x3E])
        check(URLSeparatorTriggers.self, [0x3A, 0x25])
    }

    /// The span pass's `-` (the sixteenth session): the first of every `--` is found, and every
    /// answer is a trigger or a `-` (a window's last byte, or any with `memchr`, which the pass
    /// rejects at the byte after it), the triggers themselves as before.
    @Test("the span finder finds the first dash of every pair of dashes", arguments: [1, 2, 3, 9, 40, 500])
    func windowFinderDashes(spacing: Int) {
        var generator = SeededGenerator(seed: UInt64(spacing &* 104_729))
        let bytes: [UInt8] = (0..<6_000).map { _ in
            Int.random(in: 0..<spacing, using: &generator) == 0
                ? [0x2D, 0x2D, 0x2D, 0x3D][Int.random(in: 0..<4, using: &generator)]
                : [0x61, 0x20, 0x2D, 0x5F][Int.random(in: 0..<4, using: &generator)]
        }
        bytes.withUnsafeBufferPointer { buffer in
            let counter = LogSanitizer.OperationCounter()
            let input = SanitizerInput(input: buffer, counter: counter)
            var finder = SpanTriggerFinder()
            var from = 0
            var mismatches = 0
            while from < bytes.count {
                let expected = (from..<bytes.count).first {
                    bytes[$0] == 0x3D || (bytes[$0] == 0x2D && $0 + 1 < bytes.count && bytes[$0 + 1] == 0x2D)
                }
                let found = finder.next(from: from, to: bytes.count, in: input)
                if let found, found < expected ?? Int.max, bytes[found] != 0x2D { mismatches += 1 }
                if (found ?? Int.max) > (expected ?? Int.max) || (expected != nil && found == nil) { mismatches += 1 }
                from = (found ?? bytes.count) + 1 + Int.random(in: 0..<2, using: &generator)
            }
            #expect(mismatches == 0)
            #expect(counter.operations <= 8 * bytes.count + 128, "\(counter.operations) for \(bytes.count) bytes")
        }
    }

    @Test("a separator's first two bytes decide a URL candidate at every distance from the start and the end")
    func separatorPairAtTheEdges() {
        // The pass tests a `:`, `%` or `=` with the byte after it in one table test, only when two
        // bytes or more follow it: each trigger at the start, in the middle and at
        // the last, second-to-last and third-to-last byte, with every byte that completes or
        // nearly completes a separator after it, against the regular-expression reference.
        let leads = ["", "a", "ws", "x token", "password", "Cookie", "\"", "'", " "]
        let triggers = [":", "%", "="]
        let tails = [
            "", "/", "//", "/x", "//h", "\\", "\\/", "\\/\\/", "\\/\\/h", "3", "3a", "3a%2f%2f", "3A%2F%2Fh.io",
            "2F", ":", "=", "%", " ", "\"", "/\\", "//h/p", "\\/\\/h\\/p", "3A%2F%2Fh%2Fp",
        ]
        var mismatches: [String] = []
        for lead in leads {
            for trigger in triggers {
                for tail in tails {
                    for line in [lead + trigger + tail, lead + trigger + tail + " ok", "q " + lead + trigger + tail] {
                        let expected = RegexReferenceSanitizer.redact(line)
                        let found = LogSanitizer.redact(line)
                        if found != expected, mismatches.count < 5 {
                            mismatches.append(
                                "\(line.debugDescription): \(found.debugDescription) vs \(expected.debugDescription)")
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test(
        "the bearer finder finds every `be` or `ba` in any case that a byte-by-byte search finds",
        arguments: [1, 3, 9, 64])
    func bearerStartFinder(spacing: Int) {
        var generator = SeededGenerator(seed: UInt64(spacing) &+ 0xBE)
        // `b`/`B` about every `spacing` bytes, `e`/`E` often after them; the others are the bytes
        // that `| 0x20` maps next to `b` and `| 0x24` next to `e` (`"`, `%`, `!`, `a`, `A`, DEL and high
        // bytes) and plain text.
        let others: [UInt8] = [
            0x61, 0x65, 0x45, 0x41, 0x22, 0x25, 0x21, 0x60, 0x42 | 0x80, 0x62 | 0x80, 0x7F, 0x20, 0xC2, 0xE5,
        ]
        let bytes: [UInt8] = (0..<5_000).map { _ in
            Int.random(in: 0..<spacing, using: &generator) == 0
                ? [0x62, 0x42][Int.random(in: 0..<2, using: &generator)]
                : others[Int.random(in: 0..<others.count, using: &generator)]
        }
        let expected = { (from: Int) -> Int? in
            guard from < bytes.count - 1 else { return nil }
            return (from..<(bytes.count - 1)).first {
                bytes[$0] | 0x20 == 0x62 && [0x61, 0x41, 0x65, 0x45].contains(bytes[$0 + 1])
            }
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
        // ":// " (4 bytes) becomes "://[redacted-url] " (18): 4.5 times the input, past the first
        // buffer's 1.5 n + 64 from 20 repetitions on, and past the 3 n + 64 of a long input written
        // straight into the result (from 64 KiB: 16,384 repetitions). "a@b.c " (6 bytes) becomes
        // "[redacted-email] " (17): 2.8 times, which a long input's result holds without moving.
        // "ok 12:00 " has nothing to replace, short or long: the input comes back as it is.
        for (unit, replaced) in [
            (":// ", "://[redacted-url] "), ("a@b.c ", "[redacted-email] "), ("ok 12:00 ", "ok 12:00 "),
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

    /// The driver searches no window shorter than a rule's shortest match
    /// (`SanitizerRun.shortestMatch`: a UUID 36 bytes, a labelled pin 51, the pin list 60): a
    /// match of exactly that length still goes (or, for pins, stays), alone on its line, after
    /// another rule's match with one byte between, and packed between two emails.
    @Test("a UUID or pin of exactly the shortest length is found in a window of exactly its length")
    func shortestMatches() {
        let uuid = "550e8400-e29b-41d4-a716-446655440000"
        let pin = "sha256/" + String(repeating: "A", count: 43) + "="
        let list = "expected one of " + String(repeating: "B", count: 43) + "="
        #expect(uuid.utf8.count == 36 && pin.utf8.count == 51 && list.utf8.count == 60)
        let cases = [
            (uuid, "[redacted-uuid]"), (pin, pin), (list, list),
            ("a@b.c!" + uuid, "[redacted-email]![redacted-uuid]"),
            ("a@b.c!" + uuid + " d@e.f", "[redacted-email]![redacted-uuid] [redacted-email]"),
            ("a@b.c!" + pin + " d@e.f", "[redacted-email]!" + pin + " [redacted-email]"),
            ("x@y.z " + list, "[redacted-email] " + list),
            // One byte short it is no UUID, but a run of 35 base64 characters with digits: rule 7's.
            (String(uuid.dropLast()), "[redacted-token]"),
        ]
        for (input, expected) in cases {
            #expect(LogSanitizer.redact(input) == expected, "\(input)")
            #expect(RegexReferenceSanitizer.redact(input) == expected, "\(input)")
        }
    }
}
