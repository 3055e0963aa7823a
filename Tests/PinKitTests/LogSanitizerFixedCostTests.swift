import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// The word rules' per-line set-up: the finders' patterns written out as constants, and the one
/// pass that marks the finders whose trigger is absent from the rest of the line.
@Suite("Log sanitizer fixed costs")
struct LogSanitizerFixedCostTests {
    typealias Classes = LogSanitizer.Classes
    typealias Rules = WordRules<LogSanitizer.Uncounted>

    @Test("each finder pattern written out equals the one derived from its classes")
    func patternsMatchTheirDerivation() {
        let derived = [
            FinderPattern.derived(UInt8(ascii: "@"), requireBefore: Classes.emailLocal | Classes.high),
            FinderPattern.derived(UInt8(ascii: "%"), requireBefore: Classes.emailLocal | Classes.high),
            FinderPattern.derived(UInt8(ascii: "-"), requireBefore: Classes.hex | Classes.high),
            FinderPattern.derived(UInt8(ascii: "2"), requireBefore: Classes.letterA, after: UInt8(ascii: "5")),
            FinderPattern.derived(UInt8(ascii: "x"), requireBefore: Classes.lowerE, after: UInt8(ascii: "p")),
            FinderPattern.derived(UInt8(ascii: "J"), requireBefore: Classes.lowerY),
        ]
        let written: [FinderPattern] = [.emailAt, .emailPercent, .uuidDash, .pinTwo, .listX, .jwtJay]
        #expect(derived == written)
        // The comparison sees every derived field: a filter admitting both cases of `e` gives a
        // different pair fold, and `0` (a letter that is no class of the filter) no pair at all.
        #expect(FinderPattern.derived(UInt8(ascii: "x"), requireBefore: Classes.lowerE) != .listX)
        #expect(FinderPattern.derived(UInt8(ascii: "@"), requireBefore: Classes.emailLocal) != .emailAt)
        #expect(FinderPattern.derived(UInt8(ascii: "2"), requireBefore: Classes.letterA).pairFold == 0x20)
        #expect(FinderPattern.derived(UInt8(ascii: "x"), requireBefore: Classes.lowerE).pairFold == 0)
    }

    /// Lines of `length` bytes of filler with `trigger` at `position`: the triggers of every finder,
    /// whole and cut (a pair's letter without its byte, or the byte after missing), at the edges of
    /// the sixteen-byte blocks and of the line.
    static func lines() -> [[UInt8]] {
        let triggers = [
            "@", "a-", "-", "a25", "A25", "a2", "25", "exp", "ex", "xp", "Exp", "yJ", "J", "YJ", "be", "BE", "bE", "b",
            "2", "x", "sha256/", "expected",
        ]
        var lines: [[UInt8]] = []
        for length in [17, 18, 19, 20, 31, 32, 33, 34, 47, 48, 49, 50, 64, 65, 100] {
            for trigger in triggers {
                let bytes = Array(trigger.utf8)
                guard bytes.count <= length else { continue }
                for position in 0...(length - bytes.count) {
                    var line = Array(repeating: UInt8(ascii: "q"), count: length)
                    line.replaceSubrange(position..<(position + bytes.count), with: bytes)
                    lines.append(line)
                }
            }
        }
        return lines
    }

    /// Whether each finder, searched from `start` to the end with no marking, finds nothing.
    static func absent(_ line: [UInt8], from start: Int) -> [Bool] {
        line.withUnsafeBufferPointer { buffer in
            let text = SanitizerInput(input: buffer, counter: LogSanitizer.Uncounted())
            var bearer = BearerStartFinder()
            var finders = [CachedFinder](repeating: CachedFinder(), count: 5)
            let patterns: [FinderPattern] = [.emailAt, .uuidDash, .pinTwo, .listX, .jwtJay]
            var answers = [bearer.next(from: start, to: line.count, in: text) == nil]
            for index in 0..<5 {
                answers.append(finders[index].next(patterns[index], from: start, to: line.count, in: text) == nil)
            }
            return answers
        }
    }

    /// Which finders the one pass marks as searched to the end, from `start`.
    static func marked(_ line: [UInt8], from start: Int) -> [Bool] {
        line.withUnsafeBufferPointer { buffer in
            let text = SanitizerInput(input: buffer, counter: LogSanitizer.Uncounted())
            var state = Rules.State(searchEnd: line.count)
            Rules(text: text).markAbsentTriggers(from: start, &state)
            #expect(state.triggersChecked)
            // Each finder is either untouched or marked "nothing from `start` on".
            let finders = [state.at, state.dash, state.two, state.x, state.jay]
            return [state.bearerStart.exhaustedFrom == start] + finders.map { $0.exhaustedFrom == start }
        }
    }

    @Test("the presence pass marks a finder absent only when its search finds nothing, at every edge")
    func presencePassIsExact() {
        var wrong: [String] = []
        var markedCount = 0
        var presentCount = 0
        for line in Self.lines() {
            for start in Set([0, 1, 2, 15, 16, 17, line.count / 2, line.count - 2, line.count - 1]) {
                let marked = Self.marked(line, from: start)
                let absent = Self.absent(line, from: start)
                for finder in 0..<6 {
                    if marked[finder] { markedCount += 1 } else { presentCount += 1 }
                    // Marked means absent. (Absent but unmarked only costs a search: the pass may
                    // take a trigger before `start`, or the bearer `be` at the last byte, as present.)
                    if marked[finder], !absent[finder], wrong.count < 10 {
                        wrong.append("finder \(finder) from \(start) in \(String(decoding: line, as: UTF8.self))")
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
        // Both outcomes occur many times: the test is not vacuous.
        #expect(markedCount > 10_000 && presentCount > 10_000, "\(markedCount) marked, \(presentCount) present")
    }

    @Test("the presence pass marks every finder whose trigger is nowhere from the start on")
    func presencePassMarksAbsentTriggers() {
        // Filler with no trigger of any finder, of every length around the block edges: every
        // finder is marked, and a trigger before `start` does not count. Below 18 bytes the pass
        // does not run (a line that short is searched in a block or two anyway).
        for length in 1...70 {
            let line = Array(repeating: UInt8(ascii: "q"), count: length)
            let expected = Array(repeating: length >= 18, count: 6)
            #expect(Self.marked(line, from: 0) == expected, "length \(length)")
            // (The last block ends at the line's end: in a line under 20 bytes it reaches back before
            // `start = 3`, where a trigger counts as present, which costs a search, no more.)
            guard length >= 20 else { continue }
            var prefixed = line
            prefixed.replaceSubrange(0..<3, with: Array("a2@".utf8))
            #expect(Self.marked(prefixed, from: 3) == expected, "length \(length)")
        }
    }

    @Test("redaction with the presence pass equals the previous engine's on lines with triggers at every edge")
    func redactionUnchangedAtEdges() {
        var mismatches = 0
        for line in Self.lines() {
            let framed = [line, Array("Bearer tok ".utf8) + line, line + Array(" a@b.io".utf8)]
            for input in framed {
                let current = LogSanitizer.countingRedact(input, engine: .current).output
                let previous = LogSanitizer.countingRedact(input, engine: .regionByRegion).output
                if current != previous { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }
}
