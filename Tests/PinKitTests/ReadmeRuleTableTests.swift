import Foundation
import Testing

@testable import PinKit

/// The README's table of redaction rules ("Logging that cannot leak") is what `LogSanitizer`
/// does: every example in its middle column, redacted, is the text in its last column. Found
/// needed in the eighteenth session: three rows had drifted from the scanner (an escaped tab
/// before a header, a key glued to a percent-encoded token, an output shortened with `…`), and
/// one had a code span that Markdown could not render.
@Suite("README: the redaction rules' examples")
struct ReadmeRuleTableTests {
    /// One piece of a table cell: a code span, the word `unchanged`, or a `;` between groups.
    enum Piece: Equatable {
        case code(String)
        case unchanged
        case groupEnd
    }

    @Test("every example of the rule table redacts to the output the table shows")
    func examples() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let rows = Self.ruleRows(try String(contentsOf: readme, encoding: .utf8))
        var checked = 0
        for row in rows {
            let cells = Self.cells(row)
            guard cells.count == 3 else {
                Issue.record("a row of the rule table does not have three cells: \(row)")
                continue
            }
            let inputs = Self.groups(Self.pieces(cells[1]))
            let outputs = Self.groups(Self.pieces(cells[2]))
            guard inputs.count == outputs.count else {
                Issue.record("the example and output cells have different groups: \(row)")
                continue
            }
            for (group, expected) in zip(inputs, outputs) {
                // One output for a group of examples holds for each of them.
                let answers = expected.count == 1 ? Array(repeating: expected[0], count: group.count) : expected
                guard answers.count == group.count else {
                    Issue.record("\(group.count) examples, \(answers.count) outputs: \(row)")
                    continue
                }
                for (piece, answer) in zip(group, answers) {
                    guard case .code(let input) = piece else {
                        Issue.record("an example that is not a code span: \(row)")
                        continue
                    }
                    let output: String
                    switch answer {
                    case .code(let text): output = text
                    case .unchanged: output = input
                    case .groupEnd: continue
                    }
                    #expect(LogSanitizer.redact(input) == output, "\(input)")
                    checked += 1
                }
            }
        }
        // The table is long: if the parser found few rows, it read the wrong place.
        #expect(rows.count >= 30 && checked >= 80, "\(rows.count) rows, \(checked) examples")
    }

    @Test("the cell reader: code spans of one or more backticks, `unchanged`, and groups")
    func reader() {
        #expect(
            Self.pieces("`a|b`, `` `c` ``; unchanged")
                == [.code("a|b"), .code("`c`"), .groupEnd, .unchanged])
        #expect(Self.cells("| x `|` y | `a` | unchanged |") == ["x `|` y", "`a`", "unchanged"])
        #expect(
            Self.groups([.code("a"), .groupEnd, .code("b"), .code("c")]) == [[.code("a")], [.code("b"), .code("c")]])
    }

    /// The rows of the table under the header `| rule | example in | out |`.
    static func ruleRows(_ readme: String) -> [String] {
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.firstIndex(of: "| rule | example in | out |") else { return [] }
        return Array(lines[(header + 2)...].prefix { $0.hasPrefix("|") })
    }

    /// A row's cells, split at `|` outside code spans.
    static func cells(_ row: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var index = row.startIndex
        while index < row.endIndex {
            if row[index] == "`", let end = spanEnd(row, from: index) {
                current += row[index..<end]
                index = end
                continue
            }
            if row[index] == "|" {
                cells.append(current)
                current = ""
            } else {
                current.append(row[index])
            }
            index = row.index(after: index)
        }
        cells.append(current)
        return cells.dropFirst().dropLast().map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A cell's code spans, `unchanged` words and `;` group separators, in order.
    static func pieces(_ cell: String) -> [Piece] {
        var pieces: [Piece] = []
        var index = cell.startIndex
        while index < cell.endIndex {
            if cell[index] == "`", let end = spanEnd(cell, from: index) {
                let ticks = cell[index...].prefix { $0 == "`" }.count
                var body = String(cell[cell.index(index, offsetBy: ticks)..<cell.index(end, offsetBy: -ticks)])
                // CommonMark: one space on each side of a span's content is stripped.
                if body.count >= 2, body.hasPrefix(" "), body.hasSuffix(" "), body.contains(where: { $0 != " " }) {
                    body = String(body.dropFirst().dropLast())
                }
                pieces.append(.code(body))
                index = end
            } else if cell[index...].hasPrefix("unchanged") {
                pieces.append(.unchanged)
                index = cell.index(index, offsetBy: 9)
            } else {
                if cell[index] == ";" { pieces.append(.groupEnd) }
                index = cell.index(after: index)
            }
        }
        return pieces
    }

    /// Pieces split at group ends.
    static func groups(_ pieces: [Piece]) -> [[Piece]] {
        pieces.split(separator: .groupEnd, omittingEmptySubsequences: false).map(Array.init)
    }

    /// The end of the code span opening at `start`: after the next run of exactly as many
    /// backticks. `nil` when it never closes (then the backticks are text).
    static func spanEnd(_ text: String, from start: String.Index) -> String.Index? {
        let ticks = text[start...].prefix { $0 == "`" }.count
        var index = text.index(start, offsetBy: ticks)
        while index < text.endIndex {
            guard text[index] == "`" else {
                index = text.index(after: index)
                continue
            }
            let run = text[index...].prefix { $0 == "`" }.count
            let after = text.index(index, offsetBy: run)
            if run == ticks { return after }
            index = after
        }
        return nil
    }
}
