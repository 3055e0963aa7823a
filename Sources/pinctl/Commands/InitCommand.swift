import Foundation
import PinKit
import PinKitOpenSSL

/// `pinctl init`: propose a configuration from the chain a server sends.
struct InitCommand: Command {
    static let name = "init"
    static let abstract = "Propose a pin configuration from a chain: CA-level pins, backups, hosts, expiry."
    static let help = """
        USAGE: pinctl init --chain FILE [--trust-store FILE] [--backup-key FILE]... [--backup-ca FILE]...
                           [--backup-pin PIN [--backup-label LABEL]]... [--no-backup] [--hosts H,...]
                           [--name NAME] [--expires DATE] [--kill-switch-state FILE] [--now DATE]
                           [--out FILE] [--json]

        Completes the chain a server sends (servers do not send the root) from --trust-store
        (a PEM bundle; default the system bundle) by signature, and pins every CA certificate
        of every path the store allows, never the leaf (its key changes at every renewal). When
        the issuer is an intermediate its CA rotates among (Let's Encrypt, Google Trust
        Services), the root(s) are pinned instead of it. Backups, one strategy or several:
          --backup-key FILE  an operator-held spare key (pinctl keygen; private or public PEM):
                             at rotation the CA certifies the next leaf for it. Marked
                             "operatorHeld": true.
          --backup-ca FILE   a second CA's certificate(s): its key is the backup for a CA change.
          --backup-pin PIN   any other key's pin; --backup-label names it (in order).
          --no-backup        CA-level pins only: survives renewals, not a CA change (the guard
                             warns; acknowledge it in the configuration with a reason).
        Hosts default to the leaf's names; a wildcard *.example.com is proposed as its apex
        example.com (with subdomains) and said so: narrow it with --hosts. "expires" defaults
        to the earliest deadline of the pinned CA keys, at most 18 months out. Prints the
        configuration (or writes --out FILE, never overwriting) and a summary on stderr (on
        stdout with --out).
          --kill-switch-state FILE  the kill-switch state (killswitch sign --state, the app's
                             persisted state, or the last signed document): the summary proposes
                             the release's "killSwitch": {"minimumSerial": N}, as killswitch
                             status does, so no old "off" can be replayed to fresh installs.

        EXIT CODES: 0 proposed; 1 the chain or a backup is unreadable, or the guard finds an
        error in the proposal (nothing is written); 2 usage error.
        """

    var chainPath: String
    var trustStore: String
    var backupPins: [String]
    var backupLabels: [String]
    var backupKeys: [String]
    var backupCAs: [String]
    var hosts: [String]?
    var name: String
    var noBackup: Bool
    var expires: Date?
    var now: Date
    var out: String?
    var json: Bool
    var killSwitchState: String?

    /// "expires" is at most this far out: a set that outlives its keys' review is a risk.
    static let maximumLifetime: TimeInterval = 548 * 86_400

    init(parsing arguments: inout Arguments) throws(UsageError) {
        json = try arguments.flag("--json")
        guard let chain = try arguments.value("--chain") else { throw UsageError("init needs --chain FILE") }
        chainPath = chain
        trustStore = try arguments.value("--trust-store") ?? systemTrustStore
        backupPins = try arguments.values("--backup-pin")
        backupLabels = try arguments.values("--backup-label")
        backupKeys = try arguments.values("--backup-key")
        backupCAs = try arguments.values("--backup-ca")
        hosts = try arguments.value("--hosts").map { $0.split(separator: ",").map(String.init) }
        name = try arguments.value("--name") ?? "production"
        noBackup = try arguments.flag("--no-backup")
        if let text = try arguments.value("--expires") {
            guard let date = RFC3339.parse(text) ?? RFC3339.parseDay(text) else {
                throw UsageError("--expires expects a date (2027-06-01) or an RFC 3339 time, saw \(text)")
            }
            expires = date
        }
        now = try parseNow(try arguments.value("--now"))
        out = try arguments.value("--out")
        killSwitchState = try arguments.value("--kill-switch-state")
        if let extra = try arguments.positionals().first { throw UsageError("unexpected argument \(extra)") }
    }

    func validate() throws(UsageError) {
        if backupPins.isEmpty && backupKeys.isEmpty && backupCAs.isEmpty && !noBackup {
            throw UsageError(
                "refusing to propose a configuration without a backup pin: give --backup-key (an operator-held spare from pinctl keygen), --backup-ca (a second CA) or --backup-pin, or --no-backup to accept CA-level pins only (they survive renewals, not a CA change)"
            )
        }
        if backupLabels.count > backupPins.count {
            throw UsageError("--backup-label names a --backup-pin; give one pin per label")
        }
    }

    /// One pin of the proposal and where it came from.
    struct Proposed {
        var pin: SPKIPin
        var label: String
        var role: PinConfiguration.Role
        var operatorHeld: Bool
        var source: String
        var deadline: Date?

        var json: JSONValue {
            var members: [(key: String, value: JSONValue)] = [
                ("sha256", .string(pin.base64)), ("label", .string(label)),
            ]
            if role == .backup { members.append(("role", "backup")) }
            if operatorHeld { members.append(("operatorHeld", true)) }
            return .object(members)
        }
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        let served = try Loading.certificates(chainPath)
        guard served.count >= 1 else { throw CommandFailure(.checkFailed, "\(chainPath) holds no certificate") }
        var notes: [String] = []
        let floor = try killSwitchState.map { path throws(CommandFailure) in
            KillSwitchFloor(machine: try Loading.killSwitchState(path, forFloor: true), now: now)
        }
        let (pins, completed) = try caPins(served, notes: &notes)
        var proposal = pins
        try proposal += backups()
        if proposal.filter({ $0.role == .active }).isEmpty {
            throw CommandFailure(
                .checkFailed,
                "\(chainPath) holds only a leaf and no root of \(trustStore) signed it; give the chain with its intermediate"
            )
        }
        let names = proposedHosts(leaf: served[0], notes: &notes)
        let deadline = proposal.filter { $0.role == .active }.compactMap(\.deadline).min()
        let cap = now.addingTimeInterval(Self.maximumLifetime)
        // Whole days: what an operator writes and reads back.
        let setExpires =
            expires
            ?? Date(
                timeIntervalSince1970: (min(deadline ?? cap, cap).timeIntervalSince1970 / 86_400).rounded(.down)
                    * 86_400)
        if expires == nil {
            notes.append(
                "expires \(RFC3339.format(setExpires)): \(deadline.map { $0 <= cap ? "the earliest pinned CA key's deadline" : "18 months from now (the keys live longer)" } ?? "18 months from now")"
            )
        }
        let set: [(key: String, value: JSONValue)] = [
            ("name", .string(name)), ("hosts", .array(names.map(JSONValue.string))),
            ("expires", .string(RFC3339.format(setExpires))), ("pins", .array(proposal.map(\.json))),
        ]
        if proposal.allSatisfy({ $0.role == .active }) {
            notes.append(
                "WARNING: no backup pin. CA-level pins survive renewals, not a CA change: the guard warns no-backup-pin until you add an off-chain backup or acknowledge it in the set with a reason: \"acknowledged\": [{\"code\": \"no-backup-pin\", \"reason\": \"…\"}]"
            )
        }
        let document: JSONValue = ["pinSets": [.object(set)]]
        let text = document.serialized(pretty: true) + "\n"
        let configuration: PinConfiguration
        do {
            configuration = try PinConfiguration.parse(Data(text.utf8))
        } catch {
            throw CommandFailure(.checkFailed, "the proposal does not read back: \(error.description)")
        }
        if let out, FileManager.default.fileExists(atPath: out) {
            throw CommandFailure(.usage, "\(out) exists; refusing to overwrite")
        }
        let problems = configuration.productionProblems(chain: completed, now: now)
        let errors = problems.filter { $0.severity == .error }
        let strategy = backupStrategy(proposal)
        if json {
            console.out(
                JSONValue.object([
                    ("schemaVersion", .int(1)), ("configuration", document),
                    (
                        "summary",
                        [
                            "hosts": .array(names.map(JSONValue.string)),
                            "pins": .array(
                                proposal.map {
                                    [
                                        "spkiSHA256": .string($0.pin.base64), "label": .string($0.label),
                                        "role": .string($0.role.rawValue), "operatorHeld": .bool($0.operatorHeld),
                                        "source": .string($0.source),
                                    ]
                                }),
                            "backupStrategy": .string(strategy), "expires": .string(RFC3339.format(setExpires)),
                            "notes": .array(notes.map(JSONValue.string)),
                            "killSwitch": floor?.json ?? .null,
                        ]
                    ),
                    (
                        "problems",
                        .array(
                            problems.map {
                                [
                                    "code": .string($0.code.rawValue), "severity": .string($0.severity.rawValue),
                                    "path": .string($0.path), "message": .string($0.message),
                                ]
                            })
                    ),
                    ("written", .optionalString(errors.isEmpty ? out : nil)),
                ]).serialized(pretty: true))
        }
        let summary =
            summaryLines(names: names, proposal: proposal, strategy: strategy, expires: setExpires, notes: notes)
            + (floor?.lines ?? [])
            + problems.map { "guard: " + TerminalText.escaped($0.description) }
        guard errors.isEmpty else {
            let message = "pinctl init: the proposal has \(errors.count) guard error(s); nothing was written"
            // With --json the document above already says so (problems, "written": null): one
            // document on stdout, so no error document after it.
            if !json { for line in summary { console.err(line) } }
            console.err(message)
            return .checkFailed
        }
        if let out {
            guard FileManager.default.createFile(atPath: out, contents: Data(text.utf8)) else {
                throw CommandFailure(.usage, "cannot write \(out)")
            }
            if !json {
                for line in summary { console.out(line) }
                console.out("wrote \(TerminalText.escaped(out))")
            }
        } else if !json {
            console.out(text, terminator: "")
            for line in summary { console.err(line) }
        }
        return .success
    }

    /// The CA certificates of every path the trust store allows (by signature), leaf excluded;
    /// rotating intermediates replaced by their roots. Also returns the first completed path
    /// for the guard.
    private func caPins(_ served: [X509Certificate], notes: inout [String]) throws(CommandFailure) -> (
        [Proposed], [CertificateFacts]
    ) {
        let builder = try Loading.pathBuilder(trustStore)
        let search = builder.paths(for: served, at: now)
        var certificates: [X509Certificate] = []
        var completed = served.map(\.facts)
        if let first = search.paths.first {
            completed = first.facts
            for path in search.paths { certificates += path.certificates.dropFirst() }
            let added = search.paths.flatMap(\.certificates).filter { !served.contains($0) }
            for root in Set(added.map(\.subject)).sorted() {
                notes.append("completed from the trust store by signature: \(root)")
            }
            if search.paths.count > 1 {
                notes.append(
                    "\(search.paths.count) paths to a trusted root (cross-signed): every path's CA keys are pinned so that any path a device builds matches"
                )
            }
        } else {
            certificates = Array(served.dropFirst())
            if let last = served.last, !last.isSelfSigned {
                notes.append(
                    "THE ROOT IS MISSING: servers do not send it, and no root of \(trustStore) signed this chain; only the served intermediates are pinned. Give --trust-store FILE (a PEM bundle holding the root) to pin the root too"
                )
            } else {
                notes.append("the chain does not verify against \(trustStore); its certificates are pinned as served")
            }
        }
        if search.truncated {
            notes.append(
                "WARNING: the path search in \(trustStore) stopped at its bound (many certificates share a CA's name): devices may build paths through CAs this proposal does not pin; rotation-check will call nothing safe until the bundle is trimmed"
            )
        }
        var seen = Set<SPKIPin>()
        var proposal: [Proposed] = []
        var rotating: [RotatingIntermediates.Family] = []
        let hasRoot = certificates.contains { $0.isSelfSigned }
        for certificate in certificates where seen.insert(certificate.spkiSHA256).inserted {
            if !certificate.isSelfSigned, hasRoot,
                let family = RotatingIntermediates.family(ofSubject: certificate.subject)
            {
                rotating.append(family)
                notes.append(
                    "not pinning \(certificate.subject): \(family.organization) rotates among intermediates (\(family.current.joined(separator: ", ")) as of \(family.asOf); \(family.source)); the root is pinned instead"
                )
                continue
            }
            let carriers = certificates.filter { $0.spkiSHA256 == certificate.spkiSHA256 }
            proposal.append(
                Proposed(
                    pin: certificate.spkiSHA256, label: certificate.subject, role: .active, operatorHeld: false,
                    source: certificate.isSelfSigned
                        ? "root \(certificate.subject)" : "intermediate \(certificate.subject)",
                    deadline: carriers.map(\.notAfter).max()))
        }
        return (proposal, completed)
    }

    private func backups() throws(CommandFailure) -> [Proposed] {
        var result: [Proposed] = []
        for (index, pin) in backupPins.enumerated() {
            do {
                let label = index < backupLabels.count ? backupLabels[index] : "backup"
                result.append(
                    Proposed(
                        pin: try SPKIPin(parsing: pin), label: label, role: .backup, operatorHeld: false,
                        source: "--backup-pin"))
            } catch {
                throw CommandFailure(.checkFailed, error.reason)
            }
        }
        for path in backupKeys {
            try Loading.requireReadable(path)
            let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
            let der: [UInt8]
            if let key = try? PrivateKey(pem: text) {
                der = key.publicKeyDER
            } else if let block = (try? PEM.blocks(in: text))?.first(where: { $0.label == "PUBLIC KEY" }) {
                der = block.der
            } else {
                throw CommandFailure(.checkFailed, "\(path) holds no readable private or public key")
            }
            let label = "operator-held " + ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            let pin: SPKIPin
            do {
                pin = try SPKIPin(digest: PortableSHA256.hash(der))
            } catch {
                throw CommandFailure(.checkFailed, error.reason)
            }
            result.append(
                Proposed(
                    pin: pin, label: label, role: .backup, operatorHeld: true, source: "operator-held key \(path)"))
        }
        for path in backupCAs {
            for certificate in try Loading.certificates(path) {
                result.append(
                    Proposed(
                        pin: certificate.spkiSHA256, label: certificate.subject, role: .backup, operatorHeld: false,
                        source: "second CA \(certificate.subject)", deadline: certificate.notAfter))
            }
        }
        return result
    }

    /// The leaf's names; a wildcard becomes its apex (with subdomains), said plainly.
    private func proposedHosts(leaf: X509Certificate, notes: inout [String]) -> [String] {
        if let hosts { return hosts }
        var names: [String] = []
        for name in leaf.dnsNames {
            let host = name.hasPrefix("*.") ? String(name.dropFirst(2)) : name
            if name.hasPrefix("*.") {
                notes.append(
                    "the leaf's name \(name) is a wildcard: proposing its apex \(host) with subdomains, which pins every name under \(host); narrow it with --hosts (e.g. --hosts api.\(host))"
                )
            }
            if !names.contains(host) { names.append(host) }
        }
        // A name below another listed apex is already covered by it.
        return names.filter { name in !names.contains { $0 != name && name.hasSuffix("." + $0) } }
    }

    /// The kill-switch floor to ship, from a state file: the same proposal as `killswitch status`.
    struct KillSwitchFloor {
        var lastSerial: Int64
        var minimumSerial: Int64
        var activeOff: KillSwitchDocument.Payload?

        init(machine: KillSwitchStateMachine, now: Date) {
            lastSerial = machine.highestSerial
            minimumSerial = machine.proposedMinimumSerial(now: now)
            activeOff = machine.activeOff.flatMap { $0.expiresAt > now ? $0 : nil }
        }

        var json: JSONValue {
            [
                "lastSerial": .int(lastSerial), "minimumSerial": .int(minimumSerial),
                "activeOffUntil": .optionalString(activeOff.map { RFC3339.format($0.expiresAt) }),
            ]
        }

        var lines: [String] {
            var line =
                "kill switch: last signed serial \(lastSerial); ship \"killSwitch\": {…, \"minimumSerial\": \(minimumSerial)}"
            if let activeOff {
                line +=
                    " (below the off in force until \(RFC3339.format(activeOff.expiresAt)); raise it to \(lastSerial) once that off has expired)"
            }
            return [line]
        }
    }

    private func backupStrategy(_ proposal: [Proposed]) -> String {
        var parts: [String] = []
        if proposal.contains(where: \.operatorHeld) { parts.append("operator-held spare key") }
        if proposal.contains(where: { $0.source.hasPrefix("second CA") }) { parts.append("second CA") }
        if proposal.contains(where: { $0.source == "--backup-pin" }) { parts.append("backup pin") }
        return parts.isEmpty ? "CA-level pins only (no off-chain backup)" : parts.joined(separator: " + ")
    }

    private func summaryLines(
        names: [String], proposal: [Proposed], strategy: String, expires: Date, notes: [String]
    ) -> [String] {
        var lines = [
            "pin set \(TerminalText.escaped(name)) for \(names.map(TerminalText.escaped).joined(separator: ", "))"
        ]
        for pin in proposal {
            let role = pin.role == .backup ? (pin.operatorHeld ? "backup, operator-held" : "backup") : "active"
            lines.append(
                "  \(pin.pin.base64)  \(TerminalText.escaped(pin.label)) [\(role)] from \(TerminalText.escaped(pin.source))"
            )
        }
        lines.append("backup strategy: \(strategy)")
        lines.append("expires: \(RFC3339.format(expires))")
        lines += notes.map { "note: " + TerminalText.escaped($0) }
        return lines
    }
}
