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
        OpenSSL built and verified) and prints which pin matched at which depth, or why it
        failed. Without --config the host gets system trust only.

        OPTIONS:
          --config FILE    the pin configuration (JSON or property list)
        \(ConnectionOptions.help)
          --json           print {"host","port","result","pinSet","match","verifiedChain","servedChain","error"}
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
            ("host", .string(HostName.normalize(target.host))), ("port", .int(target.port)),
            ("pinSet", .optionalString(pinSet?.name)),
        ]
        var lines = ["\(HostName.normalize(target.host)):\(target.port)"]
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
            lines.append("  \(detail)")
            lines.append("  verified chain (as OpenSSL built it):")
            lines += Self.chainText(report.verifiedChain, policy: policy, host: target.host)
        case .failure(let error):
            let mismatch = error.code == .pinMismatch
            code = mismatch ? .checkFailed : .network
            let chain = error.pinFailure?.verifiedChain ?? []
            document += [
                ("result", .string(mismatch ? "mismatch" : "error")), ("match", .null),
                ("verifiedChain", Self.chainJSON(chain, policy: policy, host: target.host)),
                ("servedChain", .array([])),
                ("error", ["code": .string(error.code.rawValue), "message": .string(error.reason)]),
            ]
            lines.append("  FAILED [\(error.code)] \(error.reason)")
            if !chain.isEmpty {
                lines.append("  verified chain (as OpenSSL built it):")
                lines += Self.chainText(chain, policy: policy, host: target.host)
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
                "OK: pin \(match.pin.base64)\(label) of set \(match.setName) matched at depth \(match.depth)", .success
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
            "depth": .int(match.depth), "spkiSHA256": .string(match.pin.base64), "label": .optionalString(match.label),
            "pinSet": .string(match.setName),
        ]
    }

    static func chainJSON(_ chain: [CertificateFacts], policy: PinPolicy, host: String) -> JSONValue {
        let pins = Set(policy.pinSet(for: host)?.pins ?? [])
        return .array(
            chain.enumerated().map { offset, facts in
                [
                    "index": .int(offset + 1), "subject": .string(facts.subject), "issuer": .string(facts.issuer),
                    "notAfter": .string(RFC3339.format(facts.notAfter)), "spkiSHA256": .string(facts.spki.base64),
                    "pinned": .bool(pins.contains(facts.spki)),
                ]
            }
        )
    }

    static func chainText(_ chain: [CertificateFacts], policy: PinPolicy, host: String) -> [String] {
        let set = policy.pinSet(for: host)
        return chain.enumerated().map { offset, facts in
            let pinned =
                set.map {
                    $0.pins.contains(facts.spki)
                        ? "  <- pinned" + ($0.labels[facts.spki].map { " \"\($0)\"" } ?? "") : ""
                } ?? ""
            return "    [\(offset + 1)] \(facts.subject)  \(facts.spki.base64)\(pinned)"
        }
    }
}

/// A configuration file turned into an enforceable policy; invalid is a failed check (exit 1).
func loadPolicy(_ path: String) throws(CommandFailure) -> PinPolicy {
    let configuration = try loadConfiguration(path)
    do {
        return try PinPolicy(configuration)
    } catch {
        throw CommandFailure(.checkFailed, error.description)
    }
}
