import Foundation
import PinKit

/// `pinctl audit verify|show`: check and read the security audit log. Each action is its own type.
struct AuditCommand: Command {
    static let name = "audit"
    static let abstract = "Verify the audit log's hash chain and head, or show its entries."
    static var actions: [ActionEntry] { [AuditVerify.entry, AuditShow.entry] }

    static var help: String {
        """
        USAGE: \(ActionGroup.usage(actions))

        verify checks that no entry was removed, reordered or edited (each entry carries the
        SHA-256 of the one before it) and that FILE.head, which records the newest entry, exists
        and matches: a missing or unreadable head, or a head behind the log, is a problem. Every
        truncation marker (entries uploaded or cut for size) is reported with its count; those
        entries can only be checked against the server's copy. An empty log is reported as
        "empty", never as intact. show prints the entries, control characters escaped.

        OPTIONS:
          --json           verify: {"schemaVersion":1,"status","intact","entries","truncated","markers","problems"}
                           show: {"schemaVersion":1,"entries":[…]}; errors as {"error":{"code","message"}}
          -h, --help       show this help

        EXIT CODES: 0 intact (or shown); 1 the chain is broken, or the log is empty (nothing was
        verified); 2 usage error (a missing file, a directory).
        """
    }

    let group: ActionGroup

    init(parsing arguments: inout Arguments) throws(UsageError) {
        group = ActionGroup(command: Self.name, actions: Self.actions, parsing: &arguments)
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode { try group.run(console) }

    /// The one positional argument: the log file.
    static func file(_ arguments: inout Arguments) throws(UsageError) -> String {
        let rest = try arguments.positionals()
        guard rest.count == 1 else {
            throw UsageError(rest.isEmpty ? "give the audit log file" : "give one audit log file")
        }
        return rest[0]
    }
}

/// `pinctl audit verify FILE`.
struct AuditVerify: GroupAction {
    static let name = "verify"
    static let usage = "pinctl audit verify [--json] FILE"

    var path: String

    init(parsing arguments: inout Arguments) throws(UsageError) {
        path = try AuditCommand.file(&arguments)
    }

    func run(_ output: ActionOutput) throws(CommandFailure) -> ExitCode {
        let data = Data(try Loading.bytes(path, what: "audit log"))
        let headPath = path + ".head"
        var isDirectory: ObjCBool = false
        let head: Data?
        if FileManager.default.fileExists(atPath: headPath, isDirectory: &isDirectory) {
            // A head that exists but cannot be read is the verifier's "unreadable head".
            head = isDirectory.boolValue ? Data() : FileManager.default.contents(atPath: headPath) ?? Data()
        } else {
            head = nil
        }
        let result = AuditLogVerifier.verify(data, head: head)
        var lines = result.problems.map { TerminalText.escaped($0.description) }
        lines += result.markers.map {
            "line \($0.line): truncation marker: entries 1…\($0.throughSeq) (\($0.removed) entries) were cut before this log starts; only the server's copy can vouch for them"
        }
        let summary: String =
            switch result.status {
            case .intact: "intact — \(result.entries) entries"
            case .broken: "BROKEN — \(result.entries) entries, \(result.problems.count) problem(s)"
            case .empty: "empty — no entries and no head: nothing was verified"
            }
        let truncated = result.truncated > 0 ? ", \(result.truncated) earlier entries cut behind a marker" : ""
        lines.append("\(TerminalText.escaped(path)): \(summary)\(truncated)")
        output.result(
            [
                "status": .string(result.status.rawValue), "intact": .bool(result.isIntact),
                "entries": .int(result.entries), "truncated": .int(result.truncated),
                "markers": .array(
                    result.markers.map {
                        ["line": .int($0.line), "throughSeq": .int($0.throughSeq), "removed": .int($0.removed)]
                    }),
                "problems": .array(result.problems.map { ["line": .int($0.line), "message": .string($0.message)] }),
            ],
            human: lines.joined(separator: "\n"))
        return result.isIntact ? .success : .checkFailed
    }
}

/// `pinctl audit show FILE`.
struct AuditShow: GroupAction {
    static let name = "show"
    static let usage = "pinctl audit show [--json] FILE"

    var path: String

    init(parsing arguments: inout Arguments) throws(UsageError) {
        path = try AuditCommand.file(&arguments)
    }

    func run(_ output: ActionOutput) throws(CommandFailure) -> ExitCode {
        let data = try Loading.bytes(path, what: "audit log")
        var entries: [JSONValue] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
            guard let value = try? JSONParser.parse(line) else {
                throw CommandFailure(.checkFailed, "line \(index + 1) is not an audit entry; run pinctl audit verify")
            }
            entries.append(value)
        }
        func text(_ value: JSONValue?) -> String {
            switch value {
            case .string(let text)?: TerminalText.escaped(text)
            case let other?: TerminalText.escaped(other.serialized())
            case nil: ""
            }
        }
        output.result(
            ["entries": .array(entries)],
            human: entries.map { entry in
                [text(entry["seq"]), text(entry["time"]), text(entry["type"]), text(entry["fields"])].joined(
                    separator: "\t")
            }.joined(separator: "\n"))
        return .success
    }
}
