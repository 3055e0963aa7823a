import Foundation
import PinKit
import PinKitOpenSSL

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
        ships without a backup. Certificates are linked by signature, as devices do: every path
        from the leaf to a self-signed root of --trust-store (a PEM bundle of the devices'
        store; default the system bundle) that OpenSSL verifies at --now is checked, using the
        served certificates and the store's. SAFE means every path contains a pin of every
        installed release. Each path is printed with the root that ends it; a candidate path
        OpenSSL refuses (an expired cross-sign) is listed with the reason. Intermediates in the
        bundle stand in for those devices fetch themselves (AIA). The host defaults to the
        leaf's first name.
        \(InstalledBaseSource.usage)

        Problem codes (in --json): release-bricked, release-without-backup, next-bricked,
        next-drops-relied-pin, next-without-backup, next-without-new-spare, no-trusted-path,
        path-search-incomplete (a trust store so full of same-name certificates that the search
        stopped at its bound: not every path was seen, so nothing is called safe).

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
        var history = try Loading.releaseHistory(releasesPath)
        let measured = try installedBase.map { base throws(CommandFailure) in
            try InstalledBaseSource.load(base.spec, tokenFile: base.tokenFile, connection: base.connection)
        }
        if let measured {
            history = measured.apply(to: history, now: now)
            console.err(
                "installed shares from \(TerminalText.escaped(measured.source)), window \(TerminalText.escaped(measured.window))"
            )
        }
        let served = try Loading.certificates(chainPath)
        let builder = try Loading.pathBuilder(trustStore)
        let search = builder.paths(for: served, at: now)
        let next = try nextPath.map { path throws(CommandFailure) in try Loading.configuration(path) }
        let check = RotationCheck(
            history: history, paths: search.paths.map(\.facts),
            host: host ?? served.first.map { RotationCheck.defaultHost(leaf: $0.facts) }, next: next,
            minimumShare: minimumShare,
            now: now, allPathsFound: !search.truncated)
        if json {
            console.out(Self.json(check, search: search).serialized(pretty: true))
        } else {
            printHuman(check, search: search, console)
        }
        return check.isSafe ? .success : .checkFailed
    }

    private func printHuman(_ check: RotationCheck, search: CertificatePathBuilder.Result, _ console: Console) {
        console.out("host \(TerminalText.escaped(check.host)), trust store \(TerminalText.escaped(trustStore))")
        for (index, path) in check.paths.enumerated() {
            console.out(
                "path \(index + 1) (root \(TerminalText.escaped(path.last?.subject ?? "?"))): "
                    + path.map { "\(TerminalText.escaped($0.subject)) \($0.spki.base64.prefix(12))…" }.joined(
                        separator: " <- "))
        }
        for refused in search.rejected {
            console.out(
                "refused path (\(refused.reason)): "
                    + refused.certificates.map { TerminalText.escaped($0.subject) }.joined(separator: " <- "))
        }
        var rows = [["release", "installed", "matches", "at", "pin", "backup"]]
        for result in check.releases {
            let installed =
                result.installed
                ? (result.installedShare.map { String(format: "%.0f%%", $0 * 100) } ?? "yes") : "no"
            var matches = "NO — BRICKED"
            var at = "-"
            var pin = "-"
            switch result.evaluation {
            case .matched(let match):
                matches = check.paths.count > 1 ? "yes, all \(check.paths.count) paths" : "yes"
                at = ChainPosition.name(depth: match.depth - 1, length: check.paths.first?.count ?? 0)
                pin = TerminalText.escaped(match.label ?? String(match.pin.base64.prefix(12)))
            case .unpinnedHost: matches = "not pinned"
            case .pinSetExpired: matches = "set expired"
            case .mismatch:
                if !result.installed { matches = "no (not installed)" }
                if let index = result.pathEvaluations.firstIndex(where: {
                    if case .mismatch = $0 { true } else { false }
                }),
                    check.paths.count > 1
                {
                    matches += " on path \(index + 1)"
                }
            }
            rows.append([
                TerminalText.escaped(result.version), installed, matches, at, pin,
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
        for problem in check.problems { console.out("PROBLEM [\(problem.code)]: \(problem.message)") }
        console.out(check.isSafe ? "SAFE" : "UNSAFE")
    }

    static func json(_ check: RotationCheck, search: CertificatePathBuilder.Result) -> JSONValue {
        func certificate(_ facts: CertificateFacts) -> JSONValue {
            [
                "subject": .string(facts.subject), "issuer": .string(facts.issuer),
                "spkiSHA256": .string(facts.spki.base64),
            ]
        }
        return [
            "schemaVersion": .int(1),
            "host": .string(check.host), "safe": .bool(check.isSafe),
            "paths": .array(
                check.paths.map { path in
                    ["root": path.last.map(certificate) ?? .null, "certificates": .array(path.map(certificate))]
                }),
            "refusedPaths": .array(
                search.rejected.map { refused in
                    [
                        "reason": .string(refused.reason),
                        "certificates": .array(refused.certificates.map { certificate($0.facts) }),
                    ]
                }),
            "releases": .array(
                check.releases.map { result in
                    var match: JSONValue = .null
                    if case .matched(let found) = result.evaluation {
                        match = [
                            "depth": .int(found.depth - 1),
                            "position": .string(
                                ChainPosition.name(depth: found.depth - 1, length: check.paths.first?.count ?? 0)
                                    .split(separator: " ").last.map(String.init) ?? ""),
                            "spkiSHA256": .string(found.pin.base64),
                            "label": .optionalString(found.label),
                        ]
                    }
                    let mismatched = result.pathEvaluations.indices.filter {
                        if case .mismatch = result.pathEvaluations[$0] { true } else { false }
                    }
                    return [
                        "version": .string(result.version), "installed": .bool(result.installed),
                        "installedShare": result.installedShare.map { .number(String($0)) } ?? .null,
                        "bricked": .bool(result.bricked), "match": match,
                        "mismatchedPaths": .array(mismatched.map { .int($0 + 1) }),
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
            "problems": .array(
                check.problems.map { ["code": .string($0.code.rawValue), "message": .string($0.message)] }),
        ]
    }
}
