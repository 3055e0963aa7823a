import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

#if canImport(Glibc)
    import Glibc
#endif

/// A hostile review of the sixteen-byte block reads (`ByteBlock`) in the sanitizer's finders and
/// rule tests: reads outside the input, block predicates that disagree with the byte tables they
/// replaced, and adversarial shapes aimed at the block code's linearity.
@Suite("Log sanitizer block attacks")
struct LogSanitizerBlockAttackTests {
    typealias Rules = WordRules<LogSanitizer.Uncounted>
    typealias Classes = LogSanitizer.Classes

    // MARK: Block predicates, every byte value in every lane

    /// A block of `filler` with `value` in `lane`.
    static func block(_ filler: UInt8, _ value: UInt8, at lane: Int) -> ByteBlock.Bytes {
        var bytes = ByteBlock.Bytes(repeating: filler)
        bytes[lane] = value
        return bytes
    }

    static func lanes(_ pattern: Int) -> ByteBlock.Lanes {
        var bytes = ByteBlock.Bytes(repeating: 0)
        for lane in 0..<16 where pattern & (1 << lane) != 0 { bytes[lane] = 0xFF }
        return bytes .== ByteBlock.Bytes(repeating: 0xFF)
    }

    @Test("ByteBlock's lane arithmetic on all 65,536 lane patterns and every lane range")
    func laneArithmetic() {
        var wrong: [String] = []
        for pattern in 0..<(1 << 16) {
            let lanes = Self.lanes(pattern)
            let first = pattern == 0 ? nil : pattern.trailingZeroBitCount
            // The vector unit's mask instruction (x86-64) and the portable forms, both.
            if ByteBlock.bits(lanes) != UInt64(pattern) || ByteBlock.firstLane(lanes) != first
                || ByteBlock.any(lanes) != (pattern != 0) || ByteBlock.portableBits(lanes) != UInt64(pattern)
                || ByteBlock.portableFirstLane(lanes) != first || ByteBlock.portableAny(lanes) != (pattern != 0)
            {
                if wrong.count < 5 { wrong.append("pattern \(pattern)") }
            }
        }
        for lower in 0...16 {
            for upper in 0...16 {
                let expected = (0..<16).reduce(0) { $0 | ($1 >= lower && $1 < upper ? 1 << $1 : 0) }
                if ByteBlock.bits(ByteBlock.lanes(from: lower, to: upper)) != UInt64(expected) {
                    wrong.append("lanes(from: \(lower), to: \(upper))")
                }
            }
        }
        for lane in 0...15 where ByteBlock.bits(ByteBlock.lanes(from: lane, to: 16)) != UInt64(0xFFFF &<< lane & 0xFFFF)
        {
            wrong.append("lanes(from: \(lane))")
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test("block predicates agree with the byte tables for every byte value in every lane (≥ 0x80 included)")
    func predicatesMatchTables() {
        let table = Classes.table
        var wrong: [String] = []
        func check(_ ok: Bool, _ what: @autoclosure () -> String) {
            if !ok, wrong.count < 10 { wrong.append(what()) }
        }
        for value in 0...255 {
            let byte = UInt8(value)
            let flags = table[value]
            // The pin's 43 characters: base64 without `= _ -`.
            let pinByte = flags & Classes.base64 != 0 && !"=_-".utf8.contains(byte)
            // A token run byte as the probe sees it: base64, a `%` (of `%2F`), or any byte of a
            // multi-byte character; a `\` only before a `\` or `/` (of `\/`), which in the last
            // lane is the next block's byte (so there it counts).
            let runByte = flags & (Classes.base64 | Classes.high | Classes.percentFirst) != 0
            let backslash = byte == UInt8(ascii: "\\")
            let shortWord = byte == UInt8(ascii: ".") || byte == UInt8(ascii: "b") || byte == UInt8(ascii: "B")
            for lane in 0..<16 {
                check(
                    Rules.pinCharacters(Self.block(UInt8(ascii: "A"), byte, at: lane)) == pinByte,
                    "pinCharacters \(value) lane \(lane)")
                check(
                    Rules.lastNonRunLane(Self.block(UInt8(ascii: "a"), byte, at: lane))
                        == (runByte || (backslash && lane == 15) ? nil : lane),
                    "lastNonRunLane \(value) lane \(lane)")
                // A non-run byte in every lane before it: the last one must be reported.
                var spaced = ByteBlock.Bytes(repeating: 0x20)
                spaced[lane] = byte
                check(
                    Rules.lastNonRunLane(spaced) == ((runByte || backslash) && lane == 15 ? 14 : 15),
                    "lastNonRunLane over spaces \(value) lane \(lane)")
                // A `\` before a `/` or another `\` is a run byte in every lane.
                if value == 0x2F || value == 0x5C, lane < 15 {
                    var escape = ByteBlock.Bytes(repeating: 0x20)
                    escape[lane] = UInt8(ascii: "\\")
                    escape[lane + 1] = byte
                    check(
                        Rules.lastNonRunLane(escape) == (lane + 1 < 15 ? 15 : 13),
                        "lastNonRunLane escape before \(value) lane \(lane)")
                }
                check(
                    ByteBlock.any(ByteBlock.shortWordBytes(Self.block(0x20, byte, at: lane))) == shortWord,
                    "shortWordBytes \(value) lane \(lane)")
                // A run block with neither `%` nor a multi-byte byte.
                check(
                    Rules.plainRunBlock(Self.block(UInt8(ascii: "a"), byte, at: lane))
                        == (byte != UInt8(ascii: "%") && byte < 0x80),
                    "plainRunBlock \(value) lane \(lane)")
                check(
                    ByteBlock.bits(SpanTriggers.lanes(Self.block(0x20, byte, at: lane)))
                        == (SpanTriggers.isTrigger(byte) ? 1 << lane : 0),
                    "SpanTriggers \(value) lane \(lane)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test("the token run's block scan ends where the byte-by-byte reading does: every byte value, position and end")
    func blockScansMatchByteReading() {
        let table = Classes.table
        var wrong: [String] = []
        for length in [1, 15, 16, 17, 31, 33, 47] {
            for value in 0...255 {
                for position in 0..<length {
                    // Filler the scan passes over, with `value` at `position`.
                    var line = [UInt8](repeating: UInt8(ascii: "k"), count: length)
                    line[position] = UInt8(value)
                    line.withUnsafeBufferPointer { buffer in
                        let text = SanitizerInput(input: buffer, counter: LogSanitizer.Uncounted())
                        for start in Set([0, min(1, length - 1)]) {
                            for end in Set([length, position, min(position + 1, length), length - 1]) where end >= start
                            {
                                var seen: UInt32 = 0
                                let token = Rules(text: text).tokenRunEnd(from: start, end, seen: &seen)
                                var q = start
                                var expectedSeen: UInt32 = 0
                                while q < end, table[Int(line[q])] & Classes.token != 0 {
                                    expectedSeen |= table[Int(line[q])]
                                    q += 1
                                }
                                let classes = Classes.digit | Classes.upper | Classes.lower
                                if token != q || seen & classes != expectedSeen & classes, wrong.count < 10 {
                                    wrong.append(
                                        "tokenRunEnd \(value) at \(position) of \(length) from \(start) to \(end)")
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test("the UUID shape test against the byte-by-byte reading: every byte value at each of the 36 positions")
    func uuidShapeEveryByte() {
        let uuid = Array("550e8400-e29b-41d4-A716-446655440000".utf8)
        let dashes: Set = [8, 13, 18, 23]
        var wrong: [String] = []
        for position in 0..<36 {
            for value in 0...255 {
                var line = uuid
                line[position] = UInt8(value)
                let shaped = line.withUnsafeBufferPointer { buffer in
                    Rules(text: SanitizerInput(input: buffer, counter: LogSanitizer.Uncounted()))
                        .uuidShape(firstDash: 8, 0, 36)
                }
                let expected: Bool?
                if value >= 0x80 || value == 0x5C || (value == 0x75 && position < 16) {
                    // Non-ASCII, or a `\` (or in the first block a `u`) of an escaped invisible
                    // separator (`\u200b`, the sixteenth session): the byte-by-byte reading decides.
                    expected = nil
                } else if dashes.contains(position) {
                    expected = value == 0x2D
                } else {
                    expected = Classes.table[value] & Classes.hex != 0
                }
                if position == 8, value != 0x2D {
                    continue  // Not a first dash: the finder never asks.
                }
                if shaped != expected, wrong.count < 5 {
                    wrong.append("byte \(value) at \(position): \(String(describing: shaped))")
                }
                // And the whole rule agrees with the previous engine with that byte in the line.
                if let mismatch = LogSanitizerEngineTests.mismatch(Array("id ".utf8) + line + Array(" x".utf8)),
                    wrong.count < 5
                {
                    wrong.append(mismatch)
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
    }

    // MARK: Reads outside the input, caught by unreadable pages

    /// Two readable pages between two unreadable ones: an input placed against either guard page
    /// faults on a read one byte past its end (or before its start). A Swift array cannot show
    /// this: its storage has a header before the bytes and often spare capacity after them, so
    /// the address sanitizer does not notice a read of the byte before the first (the header's).
    final class GuardedPages {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let region: UnsafeMutableRawPointer

        init() {
            let mapped = mmap(nil, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            precondition(mapped != nil && mapped != UnsafeMutableRawPointer(bitPattern: -1), "mmap failed")
            region = mapped!
            precondition(mprotect(region, page, PROT_NONE) == 0 && mprotect(region + 3 * page, page, PROT_NONE) == 0)
        }

        deinit { munmap(region, 4 * page) }

        var readableStart: UnsafeMutableRawPointer { region + page }
        var readableEnd: UnsafeMutableRawPointer { region + 3 * page }

        /// `bytes` copied against the upper guard page (`atEnd`) or the lower one, then `body`.
        func with<R>(_ bytes: [UInt8], atEnd: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            let start = (atEnd ? readableEnd - bytes.count : readableStart).assumingMemoryBound(to: UInt8.self)
            bytes.withUnsafeBufferPointer { source in
                if let from = source.baseAddress { start.update(from: from, count: bytes.count) }
            }
            return body(UnsafeBufferPointer(start: start, count: bytes.count))
        }

        /// Whether the kernel can read one byte at `address` (a `write` from it to a pipe fails
        /// with EFAULT instead of faulting the process).
        func readable(_ address: UnsafeRawPointer) -> Bool {
            var fds: [Int32] = [0, 0]
            precondition(pipe(&fds) == 0)
            defer {
                close(fds[0])
                close(fds[1])
            }
            return write(fds[1], address, 1) == 1
        }
    }

    /// The redaction of `buffer` by `engine`, read in place.
    static func redact(_ buffer: UnsafeBufferPointer<UInt8>, engine: LogSanitizer.Engine) -> [UInt8] {
        var run = SanitizerRun(input: SanitizerInput(input: buffer, counter: LogSanitizer.Uncounted()), engine: engine)
        return run.run()
    }

    @Test(
        "the guard pages catch a read one byte outside the input (shown without faulting), and an in-bounds one passes")
    func guardPagesWork() {
        let pages = GuardedPages()
        pages.with(Array("abc".utf8), atEnd: true) { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            #expect(pages.readable(base + 2))
            #expect(!pages.readable(base + 3), "one byte past the end must be unreadable")
        }
        pages.with(Array("abc".utf8), atEnd: false) { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            #expect(pages.readable(base))
            #expect(!pages.readable(base - 1), "the byte before the start must be unreadable")
        }
    }

    /// What the block code reads around: every trigger of the finders and rule tests.
    static let triggers = [
        "be", "Be", "bE", "bearer x", "a2", "A25", "sha256", "sha256/", "SHA256:", "ex", "exp", "expected one of ",
        "eyJ", "yJ", "J", "-", "@", "a@b.c", "0-", "12345678-", "550e8400-e29b-41d4-a716-446655440000", ":", "=", "%",
        "://", "a:\\/", "%3A%2F%2F", "key=v", "token: a", ".", "\u{200B}", "\u{00AD}",
        "sha256/AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=",
        "expected one of AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=",
        String(repeating: "a", count: 32), "eyJhbGciOi.eyJzdWIiOi.sig",
    ].map { Array($0.utf8) }

    @Test(
        "no read leaves the input: every trigger at the ends of inputs of 0 to 100 bytes, against unreadable pages"
    )
    func noReadOutsideTheInput() {
        let pages = GuardedPages()
        var generator = SeededGenerator(seed: 0x0B_0B5)
        var mismatches: [String] = []
        var runs = 0
        // Fillers: run bytes (token probe), triggers everywhere (span windows), dashes after
        // hex, and a multi-byte character (which the block tests must pass on).
        let fillers: [[UInt8]] = [[0x61], [0x3A], [0x30, 0x2D], [0xC3, 0xA9]]
        for filler in fillers {
            for length in 0...100 {
                for trigger in Self.triggers where trigger.count <= length {
                    // The lengths cover every alignment of a block's end; the trigger goes at the
                    // start, ends at the end, and once somewhere between (from the seed).
                    let last = length - trigger.count
                    let between = Int.random(in: 0...last, using: &generator)
                    for position in Set([0, 1, last, max(0, last - 1), between])
                    where position <= last {
                        var line = (0..<length).map { filler[$0 % filler.count] }
                        line.replaceSubrange(position..<(position + trigger.count), with: trigger)
                        // Against the end always; against the start where a read before it is possible.
                        for atEnd in position < 2 ? [true, false] : [true] {
                            let (current, previous) = pages.with(line, atEnd: atEnd) {
                                (Self.redact($0, engine: .current), Self.redact($0, engine: .regionByRegion))
                            }
                            runs += 1
                            if current != previous, mismatches.count < 5 {
                                mismatches.append("input \(line): current \(current), previous \(previous)")
                            }
                        }
                    }
                }
            }
        }
        #expect(runs > 80_000)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    // MARK: Semantic differences, generated from a fixed seed

    static let pin = "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="
    static let uuid = "550e8400-e29b-41d4-a716-446655440000"

    /// Pieces aimed at the block tests: pair letters and what follows them, labels cut short, pins
    /// and UUIDs whole, cut and in upper case, invisible separators and other multi-byte
    /// characters, an invalid byte, span triggers, and runs just under a block.
    static let pieces: [[UInt8]] =
        [
            "sha256", "SHA256", "Sha256", "sha25", "a2", "A2", "25", "sha256/", "sha256=", "sha256:", "sha256\":\"",
            "=\\\"", "expected one of ", "expected one o", "ex", "xp", "e", "x", "p", pin, String(pin.dropLast()),
            String(pin.dropFirst()), pin.uppercased(), ", ", "eyJ", "ey", "y", "J", ".", "-", "--", "@", "a@", "@b.c",
            "be", "Be", "BE", "b", "bearer ", "Bearer\u{00A0}", "bearer:", uuid, uuid.uppercased(), "550e8400",
            "-e29b", "-41d4", "-a716-", "446655440000", "0", "F", "f", "g", "\u{00AD}", "\u{200B}", "\u{FEFF}",
            "\u{00A0}", "\u{2060}", "é", " ", "\t", ":", "=", "%", "://", "http://h/", "token=", "2", "5",
            String(repeating: "a", count: 15), String(repeating: "0", count: 16), "a+b/c=", "_", "\"",
        ].map { Array($0.utf8) } + [[0xFF], [0xE2, 0x80], [0xC2]]

    @Test(
        "generated lines aimed at the block tests: the engines agree, and agree with the reference where the line is UTF-8"
    )
    func generatedLines() {
        var generator = SeededGenerator(seed: 0xB10C_0015)
        var mismatches: [String] = []
        var referenceChecks = 0
        for index in 0..<20_000 {
            var line: [UInt8] = []
            for _ in 0..<Int.random(in: 1...24, using: &generator) {
                line += Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &generator)]
            }
            if let mismatch = LogSanitizerEngineTests.mismatch(line), mismatches.count < 5 {
                mismatches.append(mismatch)
            }
            // The reference is slow and takes text: every tenth line that is valid UTF-8.
            guard index % 10 == 0, let text = String(validating: line, as: UTF8.self) else { continue }
            referenceChecks += 1
            let ours = LogSanitizer.redact(text)
            let reference = RegexReferenceSanitizer.redact(text)
            if ours != reference, mismatches.count < 5 {
                mismatches.append(
                    "input: \(text.debugDescription)\n ours: \(ours.debugDescription)\n  ref: \(reference.debugDescription)"
                )
            }
        }
        #expect(referenceChecks > 500)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    // MARK: Linearity of shapes aimed at the block code

    /// Shapes that make every block a candidate: runs just under the token probe's block, pair
    /// letters without what follows, dashes after hex digits, UUIDs that fail in the last group,
    /// labels without a pin, `be` across block boundaries, a trigger per 64-byte window.
    static let blockFamilies: [(String, [UInt8])] = [
        ("15 run bytes then a space", String(repeating: "a", count: 15) + " "),
        ("31 run bytes then a space", String(repeating: "a", count: 31) + " "),
        ("31 run bytes then a dot", String(repeating: "a", count: 31) + "."),
        ("15 run bytes then an invalid byte", String(repeating: "a", count: 15) + "\u{FFFD}"),
        ("a2 repeated", "a2"), ("A25 repeated", "A25"), ("sha25 repeated", "sha25"),
        ("sha256 without a label", "sha256 "),
        ("sha256/ and 43 characters without =", "sha256/" + String(pin.dropLast()) + "-"),
        ("ex- repeated", "ex-"), ("exp repeated", "exp"), ("expected one of and a short pin", "expected one of AQID "),
        ("yJ repeated", "yJ"), ("eyJ and a space", "eyJ "), ("dashes between hex", "0-"),
        ("hex pairs and a dash", "ab-"),
        ("eight hex and a dash", "01234567-"), ("UUID short of a digit", "12345678-1234-1234-1234-12345678901 "),
        ("UUID groups without a gap", "12345678-1234-1234-1234-"), ("upper-case UUID glued", uuid.uppercased()),
        ("UUID with a soft hyphen before a dash", "12345678\u{00AD}-1234-1234-1234-123456789012 "),
        ("be across a block boundary", String(repeating: "x", count: 15) + "be"), ("be repeated", "be"),
        ("bE and a letter", "bEx"), ("a colon per window", String(repeating: "x", count: 63) + ":"),
        ("a colon per block", String(repeating: "x", count: 15) + ":"), ("@ and a dash", "@-"), ("dash then @", "-@"),
    ].map { ($0.0, Array($0.1.utf8)) }

    static func repeated(_ unit: [UInt8], bytes: Int) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(bytes + unit.count)
        while line.count < bytes { line += unit }
        return line
    }

    /// A UUID search without the remembered finder: for every dash, the rest of the line is read
    /// for the next dash after a hex digit. The check below must fail it.
    static func unrememberedDashSearchOperations(_ bytes: [UInt8]) -> Int {
        var operations = 0
        var search = 0
        while search < bytes.count {
            var index = search
            var found: Int?
            while index < bytes.count {
                operations += 1
                if bytes[index] == 0x2D, index > 0, Classes.table[Int(bytes[index - 1])] & Classes.hex != 0 {
                    if found == nil { found = index }
                }
                index += 1
            }
            guard let dash = found else { break }
            search = dash + 1
        }
        return operations
    }

    @Test("the linearity check fails a search that reads the rest of the line for each dash")
    func unrememberedSearchIsCaught() {
        let n = 4 << 10
        let small = Self.unrememberedDashSearchOperations(Self.repeated(Array("0-".utf8), bytes: n))
        let large = Self.unrememberedDashSearchOperations(Self.repeated(Array("0-".utf8), bytes: 4 * n))
        #expect(Double(large) / Double(small) > 15)
    }

    @Test(
        "linear on shapes aimed at the block code: operations at 4n at most 4.5 times those at n",
        arguments: blockFamilies)
    func blockShapesAreLinear(_ name: String, _ unit: [UInt8]) {
        let n = 32 << 10
        let small = LogSanitizer.operationCount(redacting: Self.repeated(unit, bytes: n))
        let large = LogSanitizer.operationCount(redacting: Self.repeated(unit, bytes: 4 * n))
        let ratio = Double(large) / Double(max(small, 1))
        #expect(ratio <= 4.5, "\(name): \(small) operations at n, \(large) at 4n (ratio \(ratio))")
        #expect(large <= 40 * 4 * n, "\(name): \(large) operations for \(4 * n) bytes")
    }
}
