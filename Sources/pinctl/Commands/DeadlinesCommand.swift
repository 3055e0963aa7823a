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
        let configuration = try loadConfiguration(configPath)
        var certificates: [CertificateFacts] = []
        if let chainPath { certificates += try loadCertificates(chainPath).map(\.facts) }
        try requireReadable(trustStore)
        certificates += try loadCertificates(trustStore).map(\.facts)
        var history: ReleaseHistory?
        if let releasesPath { history = try loadReleaseHistory(releasesPath) }
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
                let name = key.label ?? key.pin.base64
                guard let deadline = key.deadline, let deciding = key.decidingCertificate else {
                    console.out(
                        "\(key.pinSet) / \(name) [\(key.role.rawValue)]: no certificate carries this key yet (deadline: when one is issued)"
                    )
                    continue
                }
                let days = Int(deadline.timeIntervalSince(now) / 86_400)
                console.out(
                    "\(key.pinSet) / \(name) [\(key.role.rawValue)]: deadline \(RFC3339.format(deadline)) (\(days) days), set by \(deciding.subject) issued by \(deciding.issuer)"
                )
                for certificate in key.certificates.sorted(by: { $0.notAfter < $1.notAfter })
                where certificate != deciding {
                    console.out(
                        "    also carried by \(certificate.subject) issued by \(certificate.issuer), until \(RFC3339.format(certificate.notAfter)) (not the deadline)"
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
                    ("keys", .array(rows)), ("warnings", .array(deadlines.warnings.map(JSONValue.string))),
                ]).serialized(pretty: true))
        } else {
            for warning in deadlines.warnings { console.out("WARNING: \(warning)") }
            if let icsPath { console.out("wrote \(icsPath)") }
        }
        return expired ? .checkFailed : .success
    }
}

/// `pinctl init`: propose a configuration from a chain.
struct InitCommand: Command {
    static let name = "init"
    static let abstract = "Propose a pin configuration from a chain: intermediate and root pins plus backups."
    static let help = """
        USAGE: pinctl init --chain FILE [--backup-pin PIN | --backup-key FILE]... [--hosts H,...]
                           [--name NAME] [--no-backup] [--out FILE]

        Pins every certificate of the chain except the leaf (whose key changes at each renewal),
        adds the backup pins (from pins or key files: private or public PEM) as "role": "backup",
        and prints the configuration (or writes it to FILE, never overwriting). Hosts default to
        the leaf's DNS names. Without a backup it refuses, unless --no-backup: then the server
        can never move to a new key without a release first.

        EXIT CODES: 0 proposed; 1 the chain or a backup is unreadable; 2 usage error.
        """

    var chainPath: String
    var backupPins: [String]
    var backupKeys: [String]
    var hosts: [String]?
    var name: String
    var noBackup: Bool
    var out: String?

    init(parsing arguments: inout Arguments) throws(UsageError) {
        guard let chain = try arguments.value("--chain") else { throw UsageError("init needs --chain FILE") }
        chainPath = chain
        backupPins = try arguments.values("--backup-pin")
        backupKeys = try arguments.values("--backup-key")
        hosts = try arguments.value("--hosts").map { $0.split(separator: ",").map(String.init) }
        name = try arguments.value("--name") ?? "production"
        noBackup = try arguments.flag("--no-backup")
        out = try arguments.value("--out")
        if let extra = try arguments.positionals().first { throw UsageError("unexpected argument \(extra)") }
    }

    func validate() throws(UsageError) {
        if backupPins.isEmpty && backupKeys.isEmpty && !noBackup {
            throw UsageError(
                "refusing to propose a configuration without a backup pin: give --backup-pin or --backup-key (make one with pinctl keygen), or --no-backup to accept that the server can never change keys without a release"
            )
        }
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        let chain = try loadCertificates(chainPath)
        guard chain.count >= 2 else {
            throw CommandFailure(
                .checkFailed, "\(chainPath) holds only a leaf; give the chain with its intermediate (and root)")
        }
        var pins: [JSONValue] = chain.dropFirst().map { certificate in
            ["sha256": .string(certificate.spkiSHA256.base64), "label": .string(certificate.subject)]
        }
        for pin in backupPins {
            do {
                pins.append(["sha256": .string(try SPKIPin(parsing: pin).base64), "label": "backup", "role": "backup"])
            } catch {
                throw CommandFailure(.checkFailed, error.reason)
            }
        }
        for path in backupKeys {
            try requireReadable(path)
            let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
            let der: [UInt8]
            if let key = try? PrivateKey(pem: text) {
                der = key.publicKeyDER
            } else if let block = (try? PEM.blocks(in: text))?.first(where: { $0.label == "PUBLIC KEY" }) {
                der = block.der
            } else {
                throw CommandFailure(.checkFailed, "\(path) holds no readable private or public key")
            }
            let pin = SHA256.hash(der)
            pins.append([
                "sha256": .string(Base64.encode(pin)),
                "label": .string("backup \((path as NSString).lastPathComponent)"), "role": "backup",
            ])
        }
        let names =
            hosts
            ?? chain[0].dnsNames.map { $0.hasPrefix("*.") ? String($0.dropFirst(2)) : $0 }.reduce(into: [String]()) {
                if !$0.contains($1) { $0.append($1) }
            }
        let document: JSONValue = [
            "pinSets": [["name": .string(name), "hosts": .array(names.map(JSONValue.string)), "pins": .array(pins)]]
        ]
        let text = document.serialized(pretty: true) + "\n"
        if noBackup && backupPins.isEmpty && backupKeys.isEmpty {
            console.err(
                "WARNING: no backup pin. If this CA's keys change, every installed release is bricked until users update; the guard will report no-backup-pin."
            )
        }
        // Show what the guard says about the proposal.
        if let configuration = try? PinConfiguration.parse(Data(text.utf8)) {
            for problem in configuration.validate(chain: chain.map(\.facts)) { console.err("guard: \(problem)") }
        }
        if let out {
            if FileManager.default.fileExists(atPath: out) {
                throw CommandFailure(.usage, "\(out) exists; refusing to overwrite")
            }
            guard FileManager.default.createFile(atPath: out, contents: Data(text.utf8)) else {
                throw CommandFailure(.usage, "cannot write \(out)")
            }
            console.out("wrote \(out)")
        } else {
            console.out(text, terminator: "")
        }
        return .success
    }
}
