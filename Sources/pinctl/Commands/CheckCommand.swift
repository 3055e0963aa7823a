import Foundation
import PinKit
import PinKitOpenSSL
import PinKitTransport

/// `pinctl check`: a real handshake under a configuration.
struct CheckCommand: Command {
    static let name = "check"
    static let abstract = "Handshake with a host under a configuration and say which pin matched."
    static let help = """
        USAGE: pinctl check [--json] [--config FILE] [--ca-file FILE] [--resolve HOST:PORT:ADDRESS] URL|HOST[:PORT]

        Performs a real TLS handshake (normal X.509 validation, then pinning on the chain
        OpenSSL built and verified) and prints which pin matched at which depth (0 is the leaf,
        as openssl counts), or why it failed: on a pin mismatch the verified chain's keys and
        the pins expected, on an untrusted chain the chain the server sent and the likely cause.
        Without --config the host gets system trust only.

        OPTIONS:
          --config FILE    the pin configuration (JSON or property list)
        \(ConnectionOptions.help)
          --json           print {"schemaVersion":1,"host","port","result","pinSet","match","verifiedChain",
                           "servedChain","error"} (docs/CLI.md)
          -h, --help       show this help

        EXIT CODES: 0 the connection is allowed (pin matched, or the host is not pinned, or its
        set has expired: the configuration is loaded as an app loads it at run time, and what the
        ship-time gate would refuse is noted on stderr); 1 pin mismatch (also in report-only mode)
        or a configuration that cannot load;
        2 usage error; 3 any other TLS or network error (untrusted, expired, wrong host, refused).
        """

    var json: Bool
    var configPath: String?
    var connection: ConnectionOptions
    var target: HostTarget

    init(parsing arguments: inout Arguments) throws(UsageError) {
        json = try arguments.flag("--json")
        configPath = try arguments.value("--config")
        connection = try ConnectionOptions(parsing: &arguments)
        let rest = try arguments.positionals()
        guard rest.count == 1 else {
            throw UsageError(rest.isEmpty ? "give the URL or HOST[:PORT] to check" : "give one target")
        }
        target = try HostTarget(parsing: rest[0])
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        let policy = try configPath.map { path throws(CommandFailure) in try loadPolicy(path) } ?? .systemTrustOnly
        try connection.requireResolveCovers(target)
        if configPath != nil {
            // Loaded as an app loads it at run time; say what the ship-time gate would refuse.
            for problem in policy.configuration.validate() where problem.severity == .error {
                console.err(
                    "note: ship-time gate (pinctl validate) refuses: \(TerminalText.escaped(problem.description))")
            }
        }
        let client = try connection.client(policy)
        let target = self.target
        let outcome = runBlocking { () -> Result<HandshakeReport, TransportError> in
            do throws(TransportError) {
                return .success(try await client.handshake(host: target.host, port: target.port))
            } catch {
                return .failure(error)
            }
        }
        client.shutdown()
        let pinSet = policy.pinSet(for: target.host)
        var document: [(key: String, value: JSONValue)] = [
            ("schemaVersion", .int(1)),
            ("host", .string(HostName.normalize(target.host))), ("port", .int(target.port)),
            ("pinSet", .optionalString(pinSet?.name)),
        ]
        var lines = ["\(TerminalText.escaped(HostName.normalize(target.host))):\(target.port)"]
        let code: ExitCode
        switch outcome {
        case .success(let report):
            let (result, detail, exit) = Self.describe(report.pinning)
            code = exit
            document += [
                ("result", .string(result)), ("match", Self.matchJSON(report.pinning)),
                ("verifiedChain", Self.chainJSON(report.verifiedChain, policy: policy, host: target.host)),
                ("servedChain", Self.chainJSON(report.servedChain, policy: policy, host: target.host)),
                ("error", .null),
            ]
            lines.append("  \(TerminalText.escaped(detail))")
            if case .mismatch(let failure) = report.pinning {
                lines += Self.mismatchBlocks(failure, policy: policy)
            } else {
                lines.append("  verified chain (as OpenSSL built it):")
                lines += Self.chainText(report.verifiedChain, policy: policy, host: target.host)
            }
        case .failure(let error):
            let mismatch = error.code == .pinMismatch
            code = mismatch ? .checkFailed : .network
            let chain = error.pinFailure?.verifiedChain ?? []
            let served = ((try? X509Certificate.load(pem: error.servedChainPEM.joined())) ?? []).map(\.facts)
            let hint = mismatch ? nil : Self.hint(for: error, served: served, caFile: connection.caFile)
            document += [
                ("result", .string(mismatch ? "mismatch" : "error")), ("match", .null),
                ("verifiedChain", Self.chainJSON(chain, policy: policy, host: target.host)),
                ("servedChain", Self.chainJSON(served, policy: policy, host: target.host)),
                (
                    "error",
                    [
                        "code": .string(error.code.rawValue), "message": .string(error.reason),
                        "hint": .optionalString(hint),
                    ]
                ),
            ]
            if let failure = error.pinFailure, mismatch {
                lines.append("  FAILED [\(error.code)] certificate pinning failure")
                lines += Self.mismatchBlocks(failure, policy: policy)
            } else {
                lines.append("  FAILED [\(error.code)] \(TerminalText.escaped(error.reason))")
                if !served.isEmpty {
                    lines.append("  served chain (as the server sent it, not trusted):")
                    lines += Self.chainText(served, policy: policy, host: target.host)
                }
                if let hint { lines.append("  likely cause: \(hint)") }
            }
        }
        if json {
            console.out(JSONValue.object(document).serialized(pretty: true))
        } else {
            console.out(lines.joined(separator: "\n"))
        }
        return code
    }

    static func describe(_ evaluation: PinEvaluation) -> (String, String, ExitCode) {
        switch evaluation {
        case .matched(let match):
            let label = match.label.map { " \"\($0)\"" } ?? ""
            return (
                "matched",
                "OK: pin \(match.pin.base64)\(label) of set \(match.setName) matched at depth \(match.depth - 1)",
                .success
            )
        case .unpinnedHost:
            return ("unpinned", "OK: not a pinned host; system trust accepted the chain", .success)
        case .pinSetExpired(let name, let expired):
            return (
                "expired", "OK, UNPINNED: pin set \(name) expired at \(RFC3339.format(expired)); not enforced", .success
            )
        case .mismatch(let failure):
            return ("mismatch", "REPORT-ONLY MISMATCH (connection allowed): \(failure)", .checkFailed)
        }
    }

    static func matchJSON(_ evaluation: PinEvaluation) -> JSONValue {
        guard case .matched(let match) = evaluation else { return .null }
        return [
            "depth": .int(match.depth - 1), "spkiSHA256": .string(match.pin.base64),
            "label": .optionalString(match.label),
            "pinSet": .string(match.setName),
        ]
    }

    static func chainJSON(_ chain: [CertificateFacts], policy: PinPolicy, host: String) -> JSONValue {
        let pins = Set(policy.pinSet(for: host)?.pins ?? [])
        return .array(
            chain.enumerated().map { offset, facts in
                [
                    "index": .int(offset + 1), "depth": .int(offset),
                    "position": .string(Self.position(offset, in: chain)),
                    "subject": .string(facts.subject), "issuer": .string(facts.issuer),
                    "notAfter": .string(RFC3339.format(facts.notAfter)), "spkiSHA256": .string(facts.spki.base64),
                    "pinned": .bool(pins.contains(facts.spki)),
                ]
            }
        )
    }

    /// "leaf", "intermediate" or "root" (self-issued), for a chain printed leaf first.
    static func position(_ depth: Int, in chain: [CertificateFacts]) -> String {
        if depth == 0 { return "leaf" }
        return chain[depth].subject == chain[depth].issuer ? "root" : "intermediate"
    }

    static func chainText(_ chain: [CertificateFacts], policy: PinPolicy, host: String) -> [String] {
        let set = policy.pinSet(for: host)
        return chain.enumerated().map { offset, facts in
            let pinned =
                set.map {
                    $0.pins.contains(facts.spki)
                        ? "  <- pinned" + ($0.labels[facts.spki].map { " \"\(TerminalText.escaped($0))\"" } ?? "") : ""
                } ?? ""
            let position = Self.position(offset, in: chain).padding(toLength: 12, withPad: " ", startingAt: 0)
            return
                "    \(offset) \(position) sha256/\(facts.spki.base64)  \(TerminalText.escaped(facts.subject))\(pinned)"
        }
    }

    /// The two blocks OkHttp prints on a pin failure: the verified chain with each key (and
    /// which other pin set of the configuration would match it), then the pins expected.
    static func mismatchBlocks(_ failure: PinFailure, policy: PinPolicy) -> [String] {
        var lines = ["  Peer certificate chain (verified by OpenSSL):"]
        for (depth, facts) in failure.verifiedChain.enumerated() {
            let others = policy.configuration.pinSets.filter { set in
                set.name != failure.setName && set.pins.contains { (try? SPKIPin(parsing: $0.sha256)) == facts.spki }
            }
            let position = Self.position(depth, in: failure.verifiedChain).padding(
                toLength: 12, withPad: " ", startingAt: 0)
            let note = others.isEmpty ? "" : "  (matches pin set \(others.map(\.name).joined(separator: ", ")))"
            lines.append(
                "    \(depth) \(position) sha256/\(facts.spki.base64)  \(TerminalText.escaped(facts.subject))\(TerminalText.escaped(note))"
            )
        }
        let set = policy.pinSet(for: failure.host)
        lines.append(
            "  Pinned for \(TerminalText.escaped(failure.host)) (pin set \(TerminalText.escaped(failure.setName))):")
        for pin in failure.expectedPins {
            let label = set?.labels[pin].map { "  \"\(TerminalText.escaped($0))\"" } ?? ""
            lines.append("    sha256/\(pin.base64)\(label)")
        }
        return lines
    }

    /// What is likely wrong with a chain system trust refused.
    static func hint(for error: TransportError, served: [CertificateFacts], caFile: String?) -> String? {
        guard [.untrustedCertificate, .tlsHandshake].contains(error.code), let leaf = served.first else { return nil }
        let last = served[served.count - 1]
        if served.count == 1 && leaf.subject != leaf.issuer {
            return "the server sent only its leaf: it is missing its intermediate certificate (fix the server's chain)"
        }
        if last.subject == last.issuer || served.count > 1 {
            return caFile == nil
                ? "the chain ends at a CA this machine does not trust: a private or staging CA? pass its root with --ca-file FILE"
                : "the chain does not lead to a certificate of --ca-file: check that the file holds this chain's root"
        }
        return nil
    }
}

/// A configuration file turned into an enforceable policy; invalid is a failed check (exit 1).
func loadPolicy(_ path: String) throws(CommandFailure) -> PinPolicy {
    let configuration = try Loading.configuration(path)
    do {
        return try PinPolicy(configuration)
    } catch {
        throw CommandFailure(.checkFailed, error.description)
    }
}
