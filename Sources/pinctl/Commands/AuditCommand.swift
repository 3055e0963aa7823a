import Foundation
import PinKit

/// `pinctl audit verify|show`: check and read the security audit log.
struct AuditCommand: Command {
    static let name = "audit"
    static let abstract = "Verify the audit log's hash chain, or show its entries."
    static let help = """
        USAGE: pinctl audit verify FILE
               pinctl audit show [--json] FILE

        verify checks that no entry was removed, reordered or edited (each entry carries the
        SHA-256 of the one before it; FILE.head, when present, covers the newest entry) and
        says where the chain breaks. show prints the entries.

        OPTIONS:
          --json           show: print {"entries":[…]} / verify: {"intact","entries","truncated","problems"}
          -h, --help       show this help

        EXIT CODES: 0 intact (or shown); 1 the chain is broken; 2 usage error.
        """

    enum Action: String { case verify, show }
    var action: Action
    var json: Bool
    var path: String

    init(parsing arguments: inout Arguments) throws(UsageError) {
        json = try arguments.flag("--json")
        let rest = try arguments.positionals()
        guard let first = rest.first, let action = Action(rawValue: first) else {
            throw UsageError("expected verify or show, saw \(rest.first ?? "nothing")")
        }
        guard rest.count == 2 else { throw UsageError("give one audit log file") }
        self.action = action
        path = rest[1]
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        try requireReadable(path)
        let data = FileManager.default.contents(atPath: path) ?? Data()
        switch action {
        case .verify:
            let result = AuditLogVerifier.verify(data, head: FileManager.default.contents(atPath: path + ".head"))
            if json {
                let document: JSONValue = [
                    "intact": .bool(result.isIntact), "entries": .int(result.entries),
                    "truncated": .int(result.truncated),
                    "problems": .array(
                        result.problems.map { ["line": .int($0.line), "message": .string($0.message)] }),
                ]
                console.out(document.serialized(pretty: true))
            } else {
                for problem in result.problems { console.out(problem.description) }
                let truncated = result.truncated > 0 ? ", \(result.truncated) earlier entries cut behind a marker" : ""
                console.out("\(path): \(result.isIntact ? "intact" : "BROKEN") — \(result.entries) entries\(truncated)")
            }
            return result.isIntact ? .success : .checkFailed
        case .show:
            var entries: [JSONValue] = []
            for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
                guard let value = try? JSONParser.parse(line) else {
                    throw CommandFailure(
                        .checkFailed, "line \(index + 1) is not an audit entry; run pinctl audit verify")
                }
                entries.append(value)
            }
            if json {
                console.out(JSONValue.object([("entries", .array(entries))]).serialized(pretty: true))
            } else {
                for entry in entries {
                    let fields = entry["fields"].map { $0.serialized() } ?? ""
                    let seq = entry["seq"].map { $0.serialized() } ?? "?"
                    let time = entry["time"].map { if case .string(let t) = $0 { t } else { "" } } ?? ""
                    let type = entry["type"].map { if case .string(let t) = $0 { t } else { "" } } ?? ""
                    console.out("\(seq)\t\(time)\t\(type)\t\(fields)")
                }
            }
            return .success
        }
    }
}

/// `pinctl reports show`: the pin-failure reports waiting for upload.
struct ReportsCommand: Command {
    static let name = "reports"
    static let abstract = "Show the pin-failure reports stored for upload."
    static let help = """
        USAGE: pinctl reports show [--json] DIR

        Reads the report store in DIR without changing it: each report (RFC 7469 fields plus
        app version, reason and mode), how many identical failures it stands for, and how many
        reports were dropped to stay within the store's limits.

        OPTIONS:
          --json           print {"schemaVersion":1,"reports":[…],"dropped-reports":N}
          -h, --help       show this help

        EXIT CODES: 0 shown; 2 usage error (including no store in DIR).
        """

    var json: Bool
    var directory: String

    init(parsing arguments: inout Arguments) throws(UsageError) {
        json = try arguments.flag("--json")
        let rest = try arguments.positionals()
        guard rest.count == 2, rest[0] == "show" else { throw UsageError("expected: reports show DIR") }
        directory = rest[1]
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        let snapshot: (entries: [PinFailureReportStore.Entry], dropped: Int)
        do {
            snapshot = try PinFailureReportStore.snapshot(directory: directory)
        } catch {
            throw CommandFailure(.usage, error.reason)
        }
        if json {
            let reports: [JSONValue] = snapshot.entries.map { entry in
                guard case .object(var members) = entry.report.json else { return .null }
                members.insert(("id", .string(entry.id)), at: 0)
                members += [
                    ("count", .int(entry.count)), ("first-seen", .string(RFC3339.format(entry.firstSeen))),
                    ("last-seen", .string(RFC3339.format(entry.lastSeen))),
                ]
                return .object(members)
            }
            console.out(
                JSONValue.object([
                    ("schemaVersion", .int(1)), ("reports", .array(reports)),
                    ("dropped-reports", .int(snapshot.dropped)),
                ])
                .serialized(pretty: true))
        } else {
            for entry in snapshot.entries {
                let event = entry.report.event
                console.out(
                    "\(RFC3339.format(entry.firstSeen))  \(TerminalText.escaped(event.hostname)):\(event.port)  ×\(entry.count)  \(event.mode.rawValue)  app \(TerminalText.escaped(entry.report.appVersion))\n    \(TerminalText.escaped(event.reason))"
                )
            }
            console.out("\(snapshot.entries.count) report(s) waiting, \(snapshot.dropped) dropped")
        }
        return .success
    }
}
