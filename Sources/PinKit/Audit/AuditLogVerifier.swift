public import Foundation

/// Checks an audit log's hash chain and says where it breaks.
public enum AuditLogVerifier {
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// 1-based line of the file.
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    public struct Result: Hashable, Sendable {
        public var entries: Int
        /// Entries removed behind a truncation marker (uploaded or over the size limit).
        public var truncated: Int
        public var problems: [Problem]
        public var isIntact: Bool { problems.isEmpty }
    }

    /// Verifies `data` (the log) and, when given, the head record `{"seq","hash"}`.
    public static func verify(_ data: Data, head: Data? = nil) -> Result {
        var problems: [Problem] = []
        var expectedSeq: Int64 = 1
        var expectedPrev = AuditLog.genesis
        var entries = 0
        var truncated = 0
        var lastSeq: Int64 = 0
        var lastHash = AuditLog.genesis
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let count = lines.last?.isEmpty == true ? lines.count - 1 : lines.count
        if count < lines.count || data.isEmpty {
            // the file ends with a newline, as it should (or is empty)
        } else {
            problems.append(Problem(line: count, message: "the last line is incomplete (a torn write)"))
        }
        for (offset, line) in lines.prefix(count).enumerated() {
            let number = offset + 1
            guard let value = try? JSONParser.parse(line), case .number(let seqText)? = value["seq"],
                let seq = Int64(seqText), case .string(let type)? = value["type"]
            else {
                problems.append(Problem(line: number, message: "not an audit entry: the line was edited or corrupted"))
                continue
            }
            if type == "truncated" {
                guard number == 1, case .string(let anchor)? = value["anchor"] else {
                    problems.append(Problem(line: number, message: "a truncation marker may only be the first line"))
                    continue
                }
                if case .number(let removed)? = value["removed"] { truncated = Int(removed) ?? 0 }
                expectedSeq = seq + 1
                expectedPrev = anchor
                lastSeq = seq
                lastHash = anchor
                continue
            }
            entries += 1
            guard case .string(let prev)? = value["prev"] else {
                problems.append(Problem(line: number, message: "entry \(seq) has no prev hash: edited"))
                continue
            }
            if seq > expectedSeq {
                problems.append(
                    Problem(
                        line: number,
                        message: seq == expectedSeq + 1
                            ? "entry \(expectedSeq) is missing before entry \(seq): removed"
                            : "entries \(expectedSeq)…\(seq - 1) are missing before entry \(seq): removed"
                    )
                )
            } else if seq < expectedSeq {
                problems.append(
                    Problem(
                        line: number,
                        message: "entry \(seq) appears after entry \(expectedSeq - 1): reordered or duplicated")
                )
            } else if prev != expectedPrev {
                problems.append(
                    Problem(
                        line: number - 1 < 1 ? number : number - 1,
                        message: number == 1
                            ? "entry \(seq) does not continue the chain's start: edited"
                            : "entry \(seq - 1) was edited: its hash no longer matches entry \(seq)'s prev"
                    )
                )
            }
            expectedSeq = seq + 1
            expectedPrev = SHA256.hex(line)
            lastSeq = seq
            lastHash = expectedPrev
        }
        if let head, let value = try? JSONParser.parse(head), case .number(let seqText)? = value["seq"],
            let headSeq = Int64(seqText), case .string(let headHash)? = value["hash"]
        {
            if headSeq > lastSeq {
                problems.append(
                    Problem(
                        line: count + 1,
                        message:
                            "entries \(lastSeq + 1)…\(headSeq) were removed from the end (the head records \(headSeq))")
                )
            } else if headSeq == lastSeq && headHash != lastHash {
                problems.append(
                    Problem(
                        line: count, message: "entry \(lastSeq), the newest, was edited (it no longer matches the head)"
                    ))
            }
        }
        return Result(entries: entries, truncated: truncated, problems: problems)
    }
}
