import Foundation
import PinKit
import PinKitOpenSSL

/// The system CA bundle (Debian's `ca-certificates`).
let systemTrustStore = "/etc/ssl/certs/ca-certificates.crt"

/// Certificates from a file; unreadable content is a failed check (exit 1).
func loadCertificates(_ path: String) throws(CommandFailure) -> [Certificate] {
    try requireReadable(path)
    do {
        return try Certificate.load(contentsOf: path)
    } catch {
        throw CommandFailure(.checkFailed, error.reason)
    }
}

/// The chain as it will be verified: when it stops below a root, the issuing roots from the
/// trust store are appended (matched by name, as chain building does).
func completedChain(_ chain: [Certificate], trustStore: String?) -> [CertificateFacts] {
    var facts = chain.map(\.facts)
    guard let last = chain.last, !last.isSelfIssued, let store = trustStore,
        let roots = try? Certificate.load(contentsOf: store)
    else { return facts }
    facts += roots.filter { $0.subject == last.issuer }.map(\.facts)
    return facts
}

/// `pinctl rotation-check`.
struct RotationCheckCommand: Command {
    static let name = "rotation-check"
    static let abstract = "Check a chain (and the next release) against every release still installed."
    static let help = """
        USAGE: pinctl rotation-check --releases FILE --chain CHAIN.pem [--next CONFIG] [--min-share FRACTION]
                                     [--host HOST] [--trust-store FILE] [--now DATE] [--json]
                                     [--installed-base URL|FILE [--token-file FILE]]

        For every release still installed (installedShare at least --min-share, or
        supportedUntil after now): whether CHAIN matches one of its pins, at which depth and
        label, and whether it keeps a backup pin outside the chain. With --next, also whether
        the next release would drop a pin an installed release relies on for this chain, or
        ships without a backup. CHAIN is completed with its root from the trust store (default
        the system bundle) when it stops below one. The host defaults to the leaf's first name.
        \(InstalledBaseSource.usage)

        EXIT CODES: 0 safe; 1 an installed release would be bricked or a rule is broken;
        2 usage error.
        """

    var releasesPath: String
    var chainPath: String
    var nextPath: String?
    var minimumShare: Double
    var host: String?
    var trustStore: String
    var now: Date
    var json: Bool
    var installedBase: (spec: String, tokenFile: String?, connection: ConnectionOptions)?

    init(parsing arguments: inout Arguments) throws(UsageError) {
        json = try arguments.flag("--json")
        if let spec = try arguments.value("--installed-base") {
            installedBase = (spec, try arguments.value("--token-file"), try ConnectionOptions(parsing: &arguments))
        }
        guard let releases = try arguments.value("--releases"), let chain = try arguments.value("--chain") else {
            throw UsageError("rotation-check needs --releases FILE and --chain CHAIN.pem")
        }
        releasesPath = releases
        chainPath = chain
        nextPath = try arguments.value("--next")
        let share = try arguments.value("--min-share") ?? "0"
        guard let value = Double(share), (0...1).contains(value) else {
            throw UsageError("--min-share expects a fraction between 0 and 1, saw \(share)")
        }
        minimumShare = value
        host = try arguments.value("--host")
        trustStore = try arguments.value("--trust-store") ?? systemTrustStore
        now = try parseNow(try arguments.value("--now"))
        if let extra = try arguments.positionals().first { throw UsageError("unexpected argument \(extra)") }
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        try requireReadable(releasesPath)
        var history: ReleaseHistory
        do {
            history = try ReleaseHistory.load(contentsOf: releasesPath)
        } catch {
            throw CommandFailure(.checkFailed, error.description)
        }
        let measured = try installedBase.map { base throws(CommandFailure) in
            try InstalledBaseSource.load(base.spec, tokenFile: base.tokenFile, connection: base.connection)
        }
        if let measured {
            history = measured.apply(to: history, now: now)
            console.err(
                "installed shares from \(TerminalText.escaped(measured.source)), window \(TerminalText.escaped(measured.window))"
            )
        }
        let chain = completedChain(try loadCertificates(chainPath), trustStore: trustStore)
        let next = try nextPath.map { path throws(CommandFailure) in try loadConfiguration(path) }
        let check = RotationCheck(
            history: history, chain: chain, host: host, next: next, minimumShare: minimumShare, now: now)
        if json {
            console.out(Self.json(check).serialized(pretty: true))
        } else {
            console.out(
                "host \(check.host), chain: "
                    + chain.map { "\($0.subject) \($0.spki.base64.prefix(12))…" }.joined(separator: " <- "))
            var rows = [["release", "installed", "matches", "depth", "pin", "backup"]]
            for result in check.releases {
                let installed =
                    result.installed
                    ? (result.installedShare.map { String(format: "%.0f%%", $0 * 100) } ?? "yes") : "no"
                var matches = "NO — BRICKED"
                var depth = "-"
                var pin = "-"
                switch result.evaluation {
                case .matched(let match):
                    matches = "yes"
                    depth = String(match.depth)
                    pin = match.label ?? String(match.pin.base64.prefix(12))
                case .unpinnedHost: matches = "not pinned"
                case .pinSetExpired: matches = "set expired"
                case .mismatch: if !result.installed { matches = "no (not installed)" }
                }
                rows.append([
                    result.version, installed, matches, depth, pin,
                    result.backupPins.isEmpty ? "NONE" : "\(result.backupPins.count)",
                ])
            }
            let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
            for row in rows {
                console.out(
                    row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(
                        separator: "  "))
            }
            if let next = check.next {
                let matched = { if case .matched = next.evaluation { true } else { false } }()
                console.out(
                    "next release: \(matched ? "matches the chain" : "DOES NOT match the chain"), \(next.backupPins.count) backup pin(s), \(next.droppedPins.count) relied-on pin(s) dropped"
                )
            }
            for problem in check.problems { console.out("PROBLEM: \(problem)") }
            console.out(check.isSafe ? "SAFE" : "UNSAFE")
        }
        return check.isSafe ? .success : .checkFailed
    }

    static func json(_ check: RotationCheck) -> JSONValue {
        [
            "host": .string(check.host), "safe": .bool(check.isSafe),
            "releases": .array(
                check.releases.map { result in
                    var match: JSONValue = .null
                    if case .matched(let found) = result.evaluation {
                        match = [
                            "depth": .int(found.depth), "spkiSHA256": .string(found.pin.base64),
                            "label": .optionalString(found.label),
                        ]
                    }
                    return [
                        "version": .string(result.version), "installed": .bool(result.installed),
                        "installedShare": result.installedShare.map { .number(String($0)) } ?? .null,
                        "bricked": .bool(result.bricked), "match": match,
                        "backupPins": .array(result.backupPins.map { .string($0.base64) }),
                    ]
                }
            ),
            "next": check.next.map { next in
                [
                    "matches": .bool({ if case .matched = next.evaluation { true } else { false } }()),
                    "droppedPins": .array(
                        next.droppedPins.map {
                            [
                                "spkiSHA256": .string($0.pin.base64),
                                "reliedOnBy": .array($0.reliedOnBy.map(JSONValue.string)),
                            ]
                        }),
                    "backupPins": .array(next.backupPins.map { .string($0.base64) }),
                ]
            } ?? .null,
            "problems": .array(check.problems.map(JSONValue.string)),
        ]
    }
}

func parseNow(_ text: String?) throws(UsageError) -> Date {
    guard let text else { return Date() }
    guard let date = RFC3339.parse(text) else { throw UsageError("--now expects an RFC 3339 date, saw \(text)") }
    return date
}

/// `pinctl keygen`: a backup key pair, its CSR and its pin.
struct KeygenCommand: Command {
    static let name = "keygen"
    static let abstract = "Generate a backup key pair, a CSR for it, and its pin."
    static let help = """
        USAGE: pinctl keygen --type ec-p256|ec-p384|rsa-3072|rsa-4096 --out DIR [--subject DN] [--name NAME]

        Writes DIR/NAME.key (the private key, mode 0600, never printed), DIR/NAME.csr and
        DIR/NAME.pin, and prints the pin: add it to your pin sets as "role": "backup" now, long
        before you need it. NAME defaults to "backup". Refuses to overwrite.
        DN is "/O=Acme/CN=Acme backup 2027" or "CN=Acme backup 2027,O=Acme".

        EXIT CODES: 0 written; 2 usage error (including an existing file).
        """

    var kind: PrivateKey.Kind
    var out: String
    var subject: [(attribute: String, value: String)]
    var name: String

    init(parsing arguments: inout Arguments) throws(UsageError) {
        let type = try arguments.value("--type") ?? ""
        guard let kind = PrivateKey.Kind(rawValue: type), [.ecP256, .ecP384, .rsa3072, .rsa4096].contains(kind) else {
            throw UsageError("--type is ec-p256, ec-p384, rsa-3072 or rsa-4096, saw \(type.isEmpty ? "nothing" : type)")
        }
        self.kind = kind
        guard let out = try arguments.value("--out") else { throw UsageError("keygen needs --out DIR") }
        self.out = out
        let dn = try arguments.value("--subject") ?? "CN=PinKit backup key"
        guard let subject = PrivateKey.parseSubject(dn) else { throw UsageError("--subject is not a DN: \(dn)") }
        self.subject = subject
        name = try arguments.value("--name") ?? "backup"
        guard !name.contains("/"), !name.isEmpty else { throw UsageError("--name must be a plain file name") }
        if let extra = try arguments.positionals().first { throw UsageError("unexpected argument \(extra)") }
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        let paths = ["key", "csr", "pin"].map { (out as NSString).appendingPathComponent("\(name).\($0)") }
        for path in paths where FileManager.default.fileExists(atPath: path) {
            throw CommandFailure(.usage, "\(path) exists; refusing to overwrite")
        }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(.usage, "cannot create \(out): \(error)")
        }
        let key: PrivateKey
        let request: String
        do {
            key = try PrivateKey.generate(kind)
            request = try key.certificateSigningRequest(subject: subject)
        } catch {
            throw CommandFailure(.checkFailed, error.reason)
        }
        let pin = key.spkiPin.base64
        guard
            FileManager.default.createFile(
                atPath: paths[0], contents: Data(key.privateKeyPEM.utf8), attributes: [.posixPermissions: 0o600]),
            FileManager.default.createFile(atPath: paths[1], contents: Data(request.utf8)),
            FileManager.default.createFile(atPath: paths[2], contents: Data((pin + "\n").utf8))
        else { throw CommandFailure(.usage, "cannot write the files in \(out)") }
        console.out(
            """
            \(pin)
            wrote \(paths[0]) (private key, 0600 — keep it offline), \(paths[1]) and \(paths[2])
            add to the pin set: {"sha256": "\(pin)", "label": "\(subject.last?.value ?? name)", "role": "backup"}
            """)
        return .success
    }
}
