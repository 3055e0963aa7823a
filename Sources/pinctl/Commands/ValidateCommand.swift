import Foundation
import PinKit
import PinKitOpenSSL

/// `pinctl validate`: the configuration guard, every problem at once.
struct ValidateCommand: Command {
    static let name = "validate"
    static let abstract = "Check a pin configuration and print every problem."
    static let help = """
        USAGE: pinctl validate [--json] [--production] [--chain FILE] [--now DATE] CONFIG

        Reads CONFIG (JSON, or a property list; full schema or the flat HLPinnedHosts +
        HLPinnedSPKIHashes keys) and prints every problem with its code, its path in the
        document and what was expected. With --chain, also checks the configuration against
        that chain (leaf first): some pin must match it (else it would brick today), some pin
        must not be in it (a real backup), and no pin may be the leaf's key.

        OPTIONS:
          --production     the release gate (meetsProductionPinPolicy): warnings fail too
          --chain FILE     PEM or DER chain, leaf first, the configuration must work with
          --now DATE       reference time for expiry rules (RFC 3339; default: now)
          --json           print {"schemaVersion":1,"valid","production","errorCount","warningCount",
                           "noteCount","problems":[...]} (see docs/CLI.md)
          -h, --help       show this help

        A configuration that declares no pinning ({} or empty HLPinnedHosts/HLPinnedSPKIHashes)
        is the operator-neutral build: valid, also with --production, with a note.

        EXIT CODES: 0 no error (and, with --production, no warning; notes never fail); 1 a
        problem was found, including a malformed file (with its line and column); 2 usage error
        (including a missing file, a directory or an unreadable file).
        """

    var json: Bool
    var production: Bool
    var chainPath: String?
    var now: Date
    var configPath: String

    init(parsing arguments: inout Arguments) throws(UsageError) {
        json = try arguments.flag("--json")
        production = try arguments.flag("--production")
        chainPath = try arguments.value("--chain")
        if let text = try arguments.value("--now") {
            guard let date = RFC3339.parse(text) else {
                throw UsageError("--now expects an RFC 3339 date such as 2027-01-01T00:00:00Z, saw \(text)")
            }
            now = date
        } else {
            now = Date()
        }
        let rest = try arguments.positionals()
        guard rest.count == 1 else {
            throw UsageError(
                rest.isEmpty ? "give the configuration file to validate" : "give exactly one configuration file")
        }
        configPath = rest[0]
    }

    /// Kill-switch keys must be keys that can verify documents (the core cannot parse DER).
    static func keyProblems(_ configuration: PinConfiguration) -> [ConfigurationProblem] {
        (configuration.killSwitch?.publicKeys ?? []).enumerated().compactMap { index, key in
            guard case .success(let der) = Base64.decode(key.spki) else { return nil }  // reported by the guard
            let algorithm = (try? VerifyingKey(spkiDER: der))?.algorithm
            guard algorithm == nil else { return nil }
            return ConfigurationProblem(
                .invalidValue,
                path: "killSwitch.publicKeys[\(index)].spki",
                "expected the DER SubjectPublicKeyInfo of an Ed25519 or EC P-256 key"
            )
        }
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        try Loading.requireReadable(configPath)
        var chain: [CertificateFacts]?
        if let chainPath {
            try Loading.requireReadable(chainPath)
            do {
                chain = try X509Certificate.load(contentsOf: chainPath).map(\.facts)
            } catch {
                throw CommandFailure(.checkFailed, error.reason)
            }
        }
        let problems: [ConfigurationProblem]
        do {
            let configuration = try PinConfiguration.load(contentsOf: configPath)
            problems =
                (production
                    ? configuration.productionProblems(chain: chain, now: now)
                    : configuration.validate(chain: chain, now: now)) + Self.keyProblems(configuration)
        } catch {
            // Unparseable: report it in the same shape as guard problems.
            problems =
                error.problems.isEmpty
                ? [ConfigurationProblem(.init(rawValue: error.code.rawValue), path: "", error.reason)]
                : error.problems
        }
        let errors = problems.filter { $0.severity == .error }.count
        let warnings = problems.filter { $0.severity == .warning }.count
        let notes = problems.count - errors - warnings
        let passed = errors == 0 && (!production || warnings == 0)
        if json {
            let document: JSONValue = [
                "schemaVersion": .int(1),
                "valid": .bool(passed),
                "production": .bool(production),
                "errorCount": .int(errors),
                "warningCount": .int(warnings),
                "noteCount": .int(notes),
                "problems": .array(
                    problems.map {
                        [
                            "code": .string($0.code.rawValue),
                            "severity": .string($0.severity.rawValue),
                            "path": .string($0.path),
                            "message": .string($0.message),
                        ]
                    }
                ),
            ]
            console.out(document.serialized(pretty: true))
        } else {
            for problem in problems { console.out(TerminalText.escaped(problem.description)) }
            let gate = production ? "production policy" : "configuration"
            let noteText = notes == 0 ? "" : ", \(notes) note\(notes == 1 ? "" : "s")"
            console.out(
                "\(TerminalText.escaped(configPath)): \(passed ? "OK" : "FAILED") — \(gate), \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")\(noteText)"
            )
        }
        return passed ? .success : .checkFailed
    }
}
