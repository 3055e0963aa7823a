public import Foundation

/// Checks an audit log's hash chain and says where it breaks.
public enum AuditLogVerifier {
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// 1-based line of the file.
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// A truncation marker: entries 1…`throughSeq` were cut (uploaded and acknowledged, or over
    /// the size limit). The device cannot prove them; only the server's copy can.
    public struct Marker: Hashable, Sendable {
        public var line: Int
        public var throughSeq: Int64
        public var removed: Int
    }

    public enum Status: String, Hashable, Sendable {
        /// Every entry chains, the head matches, and there was something to check.
        case intact
        /// At least one problem.
        case broken
        /// No entries and no head: nothing was verified (not the same as "intact").
        case empty
    }

    public struct Result: Hashable, Sendable {
        public var entries: Int
        /// Entries removed behind a truncation marker (uploaded or over the size limit).
        public var truncated: Int
        public var markers: [Marker] = []
        public var problems: [Problem]
        /// True when the file held nothing at all (and no head claimed otherwise).
        public var isEmpty = false
        public var status: Status { !problems.isEmpty ? .broken : isEmpty ? .empty : .intact }
        /// True only when something was verified and nothing is wrong.
        public var isIntact: Bool { status == .intact }
    }

    /// Verifies `data` (the log) against its head record `{"seq","hash"}`.
    ///
    /// Strict: a missing or unreadable head is a problem unless the log is empty (a new log has
    /// no head yet), a head behind the log is a problem (entries were appended by someone other
    /// than the writer), and each truncation marker is reported with its count and must anchor
    /// exactly the entries it says it removed.
    /// > Warning: an on-device hash chain cannot detect a rewrite of the whole file and head, nor
    /// > a hand-made marker whose count is consistent; the server's copy is the anchor.
    /// - Parameter head: the head file's bytes; nil when it does not exist.
    public static func verify(_ data: Data, head: Data?) -> Result {
        var problems: [Problem] = []
        var expectedSeq: Int64 = 1
        var expectedPrev = AuditLog.genesis
        var entries = 0
        var truncated = 0
        var markers: [Marker] = []
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
                let seq = Int64(seqText), (1...AuditLog.maximumSequence).contains(seq),
                case .string(let type)? = value["type"]
            else {
                problems.append(Problem(line: number, message: "not an audit entry: the line was edited or corrupted"))
                continue
            }
            if type == "truncated" {
                guard number == 1, case .string(let anchor)? = value["anchor"] else {
                    problems.append(Problem(line: number, message: "a truncation marker may only be the first line"))
                    continue
                }
                let removed: Int? = if case .number(let text)? = value["removed"] { Int(text) } else { nil }
                // Every entry up to the anchored one was cut, so an honest marker's count is its seq.
                if removed != Int(exactly: seq) || seq < 1 {
                    problems.append(
                        Problem(
                            line: number,
                            message:
                                "the truncation marker anchors entry \(seq) but says \(removed.map(String.init) ?? "nothing about how many") entries were removed: not written by the log (hand-made?)"
                        ))
                }
                truncated += removed ?? 0
                markers.append(Marker(line: number, throughSeq: seq, removed: removed ?? 0))
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
            expectedPrev = PortableSHA256.hex(line)
            lastSeq = seq
            lastHash = expectedPrev
        }
        let isEmpty = data.isEmpty
        if let head {
            if let value = try? JSONParser.parse(head), case .number(let seqText)? = value["seq"],
                let headSeq = Int64(seqText), (0...AuditLog.maximumSequence).contains(headSeq),
                case .string(let headHash)? = value["hash"]
            {
                if headSeq > lastSeq {
                    problems.append(
                        Problem(
                            line: count + 1,
                            message: lastSeq == 0 && isEmpty
                                ? "the log is empty but its head records entry \(headSeq): entries 1…\(headSeq) were removed"
                                : "entries \(lastSeq + 1)…\(headSeq) were removed from the end (the head records \(headSeq))"
                        )
                    )
                } else if headSeq < lastSeq {
                    problems.append(
                        Problem(
                            line: count,
                            message:
                                "entries \(headSeq + 1)…\(lastSeq) come after the head (which records \(headSeq)): appended by something other than the log's writer"
                        ))
                } else if headHash != lastHash {
                    problems.append(
                        Problem(
                            line: count,
                            message: "entry \(lastSeq), the newest, was edited (it no longer matches the head)"
                        ))
                }
            } else {
                problems.append(
                    Problem(
                        line: count + 1,
                        message:
                            "the head file is unreadable, so removal or editing of the newest entries cannot be ruled out"
                    ))
            }
        } else if !isEmpty {
            problems.append(
                Problem(
                    line: count + 1,
                    message:
                        "the head file is missing, so removal of the newest entries (with the head) cannot be ruled out"
                ))
        }
        return Result(
            entries: entries, truncated: truncated, markers: markers, problems: problems,
            isEmpty: isEmpty && head == nil)
    }
}
