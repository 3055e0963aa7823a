import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// The scanner is being rebuilt as one forward pass in steps; the previous engine stays as a second
/// oracle (next to the regular-expression reference) until the new one has replaced it. These
/// tests compare the two byte for byte, with operation counts to show they are different code.
@Suite("Log sanitizer engines")
struct LogSanitizerEngineTests {
    typealias Engine = LogSanitizer.Engine

    static func mismatch(_ input: [UInt8]) -> String? {
        let current = LogSanitizer.countingRedact(input, engine: .current).output
        let previous = LogSanitizer.countingRedact(input, engine: .regionByRegion).output
        guard current != previous else { return nil }
        let show = { (bytes: [UInt8]) in String(decoding: bytes.prefix(400), as: UTF8.self).debugDescription }
        return "input: \(show(input))\n current: \(show(current))\nprevious: \(show(previous))"
    }

    @Test("the engines are different code: their byte examinations differ where every rule has many regions")
    func enginesDiffer() {
        // Every rule matches here, so every rule's regions are small. The previous engine searches
        // its triggers afresh in each region, stopping at its end; the current one searches each
        // trigger once per input, past region ends and matches (more bytes, far fewer searches).
        let unit = "Bearer abc a@b.io 550e8400-e29b-41d4-a716-446655440000 sha256 x "
        let line = Array(String(repeating: unit, count: 200).utf8)
        let current = LogSanitizer.countingRedact(line, engine: .current)
        let previous = LogSanitizer.countingRedact(line, engine: .regionByRegion)
        #expect(current.output == previous.output)
        #expect(current.operations != previous.operations, "\(current.operations) vs \(previous.operations)")
    }

    @Test("the engines agree byte for byte on 20,000 generated lines, one by one and joined into long texts")
    func corpus() async {
        var corpus = LogCorpus(seed: 0x5CA7_0001)
        var mismatches: [String] = []
        var block: [String] = []
        for index in 0..<20_000 {
            if index % 100 == 0 { await Task.yield() }
            let line = corpus.line()
            if let mismatch = Self.mismatch(Array(line.utf8)), mismatches.count < 5 { mismatches.append(mismatch) }
            block.append(line)
            // Joined lines put many rules' regions and many URL and credential gaps into one input.
            if block.count == 100 {
                for separator in ["\n", " ", ""] {
                    let joined = Array(block.joined(separator: separator).utf8)
                    if let mismatch = Self.mismatch(joined), mismatches.count < 5 { mismatches.append(mismatch) }
                }
                block.removeAll(keepingCapacity: true)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test(
        "the engines agree on every adversarial family, alone and between two others",
        arguments: AdversarialLogFamilies.all)
    func adversarial(_ name: String, _ unit: String) {
        let families = AdversarialLogFamilies.all
        let line = AdversarialLogFamilies.line(unit, bytes: 8 << 10)
        #expect(Self.mismatch(line) == nil, "\(name)")
        // Between the families before and after it in the list, so every pair of neighbours meets.
        let index = families.firstIndex { $0.0 == name } ?? 0
        let before = AdversarialLogFamilies.line(families[(index + families.count - 1) % families.count].1, bytes: 700)
        let after = AdversarialLogFamilies.line(families[(index + 1) % families.count].1, bytes: 700)
        let mixed = before + line + Array(" Bearer x a@b.c ".utf8) + after + line
        #expect(Self.mismatch(mixed) == nil, "\(name) between its neighbours")
    }

    @Test("a word rule sees its region's start as the start of the text, whichever engine finds its candidates")
    func regionStartIsABoundary() {
        // The bearer rule does not look behind its region's start: there the byte before does not
        // count, as in the previous engine, whichever way the current engine's finder finds its
        // candidates. (Each email, UUID and pin filter only drops what its rule rejects anyway,
        // whatever the region.)
        let bytes = Array("xyzabearer tok1 Bbearer tok2".utf8)
        bytes.withUnsafeBufferPointer { buffer in
            let text = SanitizerInput(input: buffer, counter: LogSanitizer.Uncounted())
            let rules = WordRules(text: text)
            // Each "bearer" right after a letter: "xyza|bearer tok1 B|bearer tok2".
            for regionStart in [4, 17] {
                var current = WordRules<LogSanitizer.Uncounted>.State(searchEnd: bytes.count)
                var previous = WordRules<LogSanitizer.Uncounted>.State(searchEnd: bytes.count, regionByRegion: true)
                let found = rules.next(
                    rule: 0, from: regionStart, regionStart: regionStart, end: bytes.count, state: &current)
                let expected = rules.next(
                    rule: 0, from: regionStart, regionStart: regionStart, end: bytes.count, state: &previous)
                #expect(expected?.start == regionStart, "the previous engine finds the bearer at \(regionStart)")
                #expect(found?.start == expected?.start && found?.end == expected?.end, "at \(regionStart)")
            }
        }
    }

    /// Lines that put the token rule's skip at its edges: runs of 28–36 bytes cut at every offset
    /// by what ends a run, by what does not (an invisible separator, `+`), by a multi-byte character
    /// that is no separator; `eyJ` at every offset of a short run, with and without the `.` a JWT
    /// needs; all of it at every alignment to the 32-byte look-ahead.
    static func tokenEdgeLines() -> [[UInt8]] {
        let cuts = [" ", ".", "\u{200B}", "\u{00AD}", "é", "\u{00A0}", "+", "=", "@", "\u{FEFF}"]
        var lines: [[UInt8]] = []
        let alphabet = Array(String(repeating: "AbC1dE2fG3hI4jK5lM6nO7pQ8rS9tU0vWxYz", count: 2))
        for length in 28...36 {
            let run = String(alphabet.prefix(length))
            for offset in stride(from: 0, through: length, by: 1) {
                for cut in cuts {
                    let characters = Array(run)
                    let cutRun = String(characters[..<offset]) + cut + String(characters[offset...])
                    // Leads that put the run's start on either side of the first look-ahead byte.
                    for lead in [
                        "", "x ", "ab.", "0123456789 ", String(repeating: " ", count: 31),
                        "a" + String(repeating: " ", count: 31),
                    ] {
                        lines.append(Array((lead + cutRun + " tail").utf8))
                    }
                }
            }
        }
        for length in 1...40 {
            let run = String(alphabet.prefix(length))
            for offset in 0...length {
                let characters = Array(run)
                let withJWT = String(characters[..<offset]) + "eyJ" + String(characters[offset...])
                for after in [".x.y", ".x", " .x", "", ".\u{200B}x"] {
                    lines.append(Array(("q " + withJWT + after + " w").utf8))
                }
            }
        }
        return lines
    }

    @Test("the token rule's skip passes over no match: runs cut around 32 bytes, JWT starts, multi-byte characters")
    func tokenSkipEdges() {
        var mismatches: [String] = []
        for line in Self.tokenEdgeLines() {
            if let mismatch = Self.mismatch(line), mismatches.count < 5 { mismatches.append(mismatch) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test("random lines of token characters, separators and JWT pieces: the engines agree")
    func tokenSkipRandom() {
        var generator = SeededGenerator(seed: 0x70_4B3E)
        let pieces = [
            "A", "b", "7", "+", "/", "=", "-", "_", ".", " ", "é", "\u{200B}", "\u{00AD}", "\u{00A0}", "eyJ", "ey", "J",
            "AbCdEfGhIjKlMnOp", "0123456789abcdef", "@", ":", "\u{FEFF}",
        ]
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let count = Int.random(in: 1...60, using: &generator)
            let line = (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
            if let mismatch = Self.mismatch(Array(line.utf8)), mismatches.count < 5 { mismatches.append(mismatch) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test(
        "block searches at every distance from a line's ends: each trigger at each position of lines of 0 to 70 bytes")
    func blockSearchEdges() {
        // The finders compare sixteen bytes at once and read the last block of a range backwards
        // from its end; pairs read the byte before and after. Each line is its own allocation of
        // exactly its length, so a read past either end is caught by the address sanitizer (CI).
        let triggers = [
            "be", "Be", "bE", "a2", "A25", "sha256/", "ex", "exp", "eyJ", "yJ", "-", "@", "a@b.c", "12345678-",
            "550e8400-e29b-41d4-a716-446655440000", "bearer x", "expected one of ",
        ]
        var mismatches: [String] = []
        for filler in ["x", " ", "0", "é"] {
            for length in 0...70 {
                for trigger in triggers where trigger.utf8.count <= length {
                    for position in 0...(length - trigger.utf8.count) {
                        var line = Array(String(repeating: filler, count: length).utf8.prefix(length))
                        line.replaceSubrange(position..<(position + trigger.utf8.count), with: trigger.utf8)
                        if let mismatch = Self.mismatch(line), mismatches.count < 5 { mismatches.append(mismatch) }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// A UUID with one byte changed or moved: a non-hex letter, a dash, a multi-byte character, an
    /// invisible separator, upper case, a digit more or less in a group; then cut or glued.
    static func mutatedUUID(_ generator: inout SeededGenerator) -> String {
        var characters = Array("550e8400-e29b-41d4-a716-446655440000").map(String.init)
        if Bool.random(using: &generator) { characters = characters.map { $0.uppercased() } }
        let replacements = ["g", "-", "é", "\u{200B}", "\u{00A0}", "F", "0", "", "00", "x", ".", "\u{00AD}"]
        for _ in 0..<Int.random(in: 0...2, using: &generator) {
            let at = Int.random(in: 0..<characters.count, using: &generator)
            characters[at] = replacements[Int.random(in: 0..<replacements.count, using: &generator)]
        }
        let uuid = characters.joined()
        let cut = Int.random(in: 0...10, using: &generator)
        return cut < 3 ? String(uuid.prefix(uuid.count - cut * 3)) : uuid
    }

    @Test("a UUID read as one 36-byte shape agrees with the byte-by-byte reading on mutated UUIDs")
    func uuidShapeRandom() {
        var generator = SeededGenerator(seed: 0x55_1D)
        let glue = ["", " ", "-", "0", "ab", "é", "\u{200B}", "x-", "12345678-", "\"", "\t"]
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            var line = ""
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                line += glue[Int.random(in: 0..<glue.count, using: &generator)] + Self.mutatedUUID(&generator)
            }
            if let mismatch = Self.mismatch(Array(line.utf8)), mismatches.count < 5 { mismatches.append(mismatch) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test("a failed UUID candidate's search goes on after its last group dash, and misses no UUID that starts there")
    func uuidSkipEdges() {
        let uuid = "550e8400-e29b-41d4-a716-446655440000"
        // Candidates that fail after one, two or three groups (or in the last), then a UUID glued
        // on, after a separator, or sharing the failed candidate's digits.
        let failures = [
            "12345678-1234", "12345678-1234-", "12345678-1234-abcd", "12345678-1234-abcd-", "12345678-1234-abcd-ef01-",
            "12345678-1234-abcd-ef01-12345678901", "1234567-1234-", "12345678-12\u{200B}34-abcd-",
        ]
        var mismatches: [String] = []
        for failure in failures {
            for glue in ["", "-", " ", "x", "\u{200B}", "0", "00000000-"] {
                for tail in [uuid, "deadbeef-" + uuid.dropFirst(9), String(uuid.dropFirst(4))] {
                    let line = Array(("id " + failure + glue + tail + " end").utf8)
                    if let mismatch = Self.mismatch(line), mismatches.count < 5 { mismatches.append(mismatch) }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }
}
