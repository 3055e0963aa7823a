import Foundation
import PinKit

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
