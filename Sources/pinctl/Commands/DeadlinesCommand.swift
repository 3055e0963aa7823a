import Foundation
import PinKit
import PinKitOpenSSL

/// `pinctl deadlines`: per-key deadlines with reminders and an optional calendar.
struct DeadlinesCommand: Command {
    static let name = "deadlines"
    static let abstract = "Each pinned key's real deadline, reminders, and an RFC 5545 calendar."
    static let help = """
        USAGE: pinctl deadlines --config CONFIG [--chain FILE] [--trust-store FILE] [--releases FILE]
                                [--now DATE] [--lead 90d,30d,14d] [--ics FILE] [--json]

        For every pinned key: the certificates that carry it (in the chain and in the trust
        store, default the system bundle) and the key's deadline, the latest notAfter among
        them. A cross-signed certificate that expires early is not the key's deadline while a
        self-signed one with the same key lives on. Reminders fall at each lead time before the
        deadline; --ics writes them as a calendar (one VEVENT per key, a VALARM per reminder).
        With --releases, warns when a set's expiry or a key's deadline falls before a release's
        supportedUntil.

        EXIT CODES: 0 listed (also when a reminder is due: see "due"); 1 a pinned key has
        already expired, or the configuration is malformed; 2 usage error.
        """

    var configPath: String
    var chainPath: String?
    var trustStore: String
    var releasesPath: String?
    var now: Date
    var leads: [TimeInterval]
    var icsPath: String?
    var json: Bool

    init(parsing arguments: inout Arguments) throws(UsageError) {
        json = try arguments.flag("--json")
        guard let config = try arguments.value("--config") else { throw UsageError("deadlines needs --config CONFIG") }
        configPath = config
        chainPath = try arguments.value("--chain")
        trustStore = try arguments.value("--trust-store") ?? systemTrustStore
        releasesPath = try arguments.value("--releases")
        now = try parseNow(try arguments.value("--now"))
        let leadText = try arguments.value("--lead") ?? "90d,30d,14d"
        var leads: [TimeInterval] = []
        for part in leadText.split(separator: ",") {
            guard let seconds = KillSwitchCommand.duration(String(part)) else {
                throw UsageError("--lead expects durations like 90d,30d,14d, saw \(part)")
            }
            leads.append(seconds)
        }
        self.leads = leads.sorted(by: >)
        icsPath = try arguments.value("--ics")
        if let extra = try arguments.positionals().first { throw UsageError("unexpected argument \(extra)") }
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        let configuration = try Loading.configuration(configPath)
        var certificates: [CertificateFacts] = []
        if let chainPath { certificates += try Loading.certificates(chainPath).map(\.facts) }
        try Loading.requireReadable(trustStore)
        certificates += try Loading.certificates(trustStore).map(\.facts)
        var history: ReleaseHistory?
        if let releasesPath { history = try Loading.releaseHistory(releasesPath) }
        let deadlines = KeyDeadlines(configuration: configuration, certificates: certificates, history: history)
        if let icsPath {
            let calendar = ICalendar.deadlines(deadlines, leads: leads, stamp: now)
            guard FileManager.default.createFile(atPath: icsPath, contents: Data(calendar.utf8)) else {
                throw CommandFailure(.usage, "cannot write \(icsPath)")
            }
        }
        var expired = false
        var rows: [JSONValue] = []
        for key in deadlines.keys {
            let reminders = deadlines.reminders(for: key, leads: leads)
            let due = reminders.filter { $0 <= now }
            if let deadline = key.deadline, deadline <= now { expired = true }
            rows.append([
                "pinSet": .string(key.pinSet), "label": .optionalString(key.label), "role": .string(key.role.rawValue),
                "spkiSHA256": .string(key.pin.base64), "deadline": .optionalString(key.deadline.map(RFC3339.format)),
                "certificates": .array(
                    key.certificates.map {
                        [
                            "subject": .string($0.subject), "issuer": .string($0.issuer),
                            "notAfter": .string(RFC3339.format($0.notAfter)),
                        ]
                    }
                ),
                "reminders": .array(reminders.map { .string(RFC3339.format($0)) }), "due": .bool(!due.isEmpty),
            ])
            if !json {
                let name = TerminalText.escaped(key.label ?? key.pin.base64)
                let set = TerminalText.escaped(key.pinSet)
                guard let deadline = key.deadline, let deciding = key.decidingCertificate else {
                    console.out(
                        "\(set) / \(name) [\(key.role.rawValue)]: no certificate carries this key yet (deadline: when one is issued)"
                    )
                    continue
                }
                let days = Int(deadline.timeIntervalSince(now) / 86_400)
                console.out(
                    "\(set) / \(name) [\(key.role.rawValue)]: deadline \(RFC3339.format(deadline)) (\(days) days), set by \(TerminalText.escaped(deciding.subject)) issued by \(TerminalText.escaped(deciding.issuer))"
                )
                for certificate in key.certificates.sorted(by: { $0.notAfter < $1.notAfter })
                where certificate != deciding {
                    console.out(
                        "    also carried by \(TerminalText.escaped(certificate.subject)) issued by \(TerminalText.escaped(certificate.issuer)), until \(RFC3339.format(certificate.notAfter)) (not the deadline)"
                    )
                }
                console.out(
                    "    reminders: "
                        + reminders.map { RFC3339.format($0) + ($0 <= now ? " (DUE)" : "") }.joined(separator: ", "))
            }
        }
        if json {
            console.out(
                JSONValue.object([
                    ("schemaVersion", .int(1)), ("keys", .array(rows)),
                    ("warnings", .array(deadlines.warnings.map(JSONValue.string))),
                ]).serialized(pretty: true))
        } else {
            for warning in deadlines.warnings { console.out("WARNING: \(TerminalText.escaped(warning))") }
            if let icsPath { console.out("wrote \(icsPath)") }
        }
        return expired ? .checkFailed : .success
    }
}
