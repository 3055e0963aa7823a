import Foundation
import PinKit
import PinKitOpenSSL

/// `pinctl killswitch verify`: would an app with these keys (and this floor) accept DOC, and why not.
struct KillSwitchVerify: GroupAction {
    static let name = "verify"
    static let usage = """
        pinctl killswitch verify (--public-key FILE [--key-id ID])... [--config FILE] [--now DATE]
                                  [--after-serial N] [--state FILE] [--json] DOC
        """

    var keys: TrustedKeyOptions
    var now: Date
    var afterSerial: Int64
    var state: String?
    var document: String

    init(parsing arguments: inout Arguments) throws(UsageError) {
        keys = try TrustedKeyOptions(parsing: &arguments)
        now = try KillSwitchOptions.date(&arguments, "--now") ?? Date()
        afterSerial = try KillSwitchOptions.serial(&arguments, "--after-serial", allowZero: true) ?? 0
        state = try arguments.value("--state")
        document = try KillSwitchOptions.document(&arguments, action: Self.name)
    }

    func validate() throws(UsageError) {
        if keys.publicKeys.isEmpty && keys.config == nil {
            throw UsageError("verify needs --public-key FILE or --config FILE (its killSwitch.publicKeys)")
        }
    }

    func run(_ output: ActionOutput) throws(CommandFailure) -> ExitCode {
        let bytes = try Loading.bytes(document, what: "kill-switch document")
        let (trusted, configuration) = try keys.load()
        var machine = KillSwitchStateMachine()
        let highest = max(
            afterSerial,
            try state.map { path throws(CommandFailure) in try Loading.killSwitchState(path).highestSerial } ?? 0)
        if highest > 0 {
            machine =
                (try? KillSwitchStateMachine(json: ["highestSerial": .int(highest), "activeOff": .null])) ?? machine
        }
        var settings = KillSwitchStateMachine.Settings(publicKeys: trusted, verifier: OpenSSLSignatureVerifier())
        settings.minimumSerial = configuration?.killSwitch?.minimumSerial ?? 0
        let parsed: KillSwitchDocument
        do {
            parsed = try KillSwitchDocument.parse(bytes)
        } catch {
            let problems = error.problems.map { "\($0.path): \($0.message)" }
            output.result(
                [
                    "accepted": false, "code": "malformed", "reason": .string(error.reason),
                    "problems": .array(problems.map(JSONValue.string)),
                ],
                human: (["REJECTED [malformed]: \(TerminalText.escaped(error.reason))"]
                    + problems.map { "  " + TerminalText.escaped($0) }).joined(separator: "\n"))
            return .checkFailed
        }
        let checks = parsed.checkSignatures(trustedKeys: trusted, verifier: settings.verifier)
        let rejection = machine.rejectionReason(of: parsed, settings: settings, now: now)
        let scope = KillSwitchScopeCheck.problems(parsed.payload.scope, configuration: configuration)
        let accepted = rejection == nil && scope.isEmpty
        let code = rejection?.code.rawValue ?? scope.first.map { _ in "scope" } ?? "accepted"
        let reason = rejection?.message ?? scope.map(\.message).joined(separator: "; ")
        let payload = parsed.payload
        let signers = checks.filter { $0.status == .verified }.map(\.signature.keyId)
        var lines: [String] = []
        if accepted {
            lines.append(
                "ACCEPTED: serial \(payload.serial), pinning \(payload.pinning.rawValue) until \(RFC3339.format(payload.expiresAt)), signed by \(signers.map(TerminalText.escaped).joined(separator: ", "))"
            )
        } else {
            lines.append("REJECTED [\(code)]: \(TerminalText.escaped(reason))")
        }
        lines += checks.map { check in
            "  signature \(TerminalText.escaped(check.signature.keyId)) (\(TerminalText.escaped(check.signature.algorithm))): \(check.status.rawValue)"
        }
        if configuration == nil, payload.scope.hosts != nil {
            lines.append("  note: without --config the scope's hosts were not checked against the pin sets")
        }
        output.result(
            [
                "accepted": .bool(accepted), "code": .string(code), "reason": .string(reason),
                "document": KillSwitchShow.describe(payload),
                "signatures": KillSwitchShow.describe(checks),
                "scopeProblems": .array(scope.map { ["code": .string($0.code), "message": .string($0.message)] }),
                "scopeCheckedAgainstConfiguration": .bool(configuration != nil),
            ],
            human: lines.joined(separator: "\n"))
        return accepted ? .success : .checkFailed
    }
}

/// `--public-key FILE [--key-id ID]` (repeatable) and `--config FILE`: the keys an app trusts.
struct TrustedKeyOptions {
    var publicKeys: [String]
    var keyIds: [String]
    var config: String?

    init(parsing arguments: inout Arguments) throws(UsageError) {
        publicKeys = try arguments.values("--public-key")
        keyIds = try arguments.values("--key-id")
        config = try arguments.value("--config")
        if !keyIds.isEmpty && keyIds.count != publicKeys.count {
            throw UsageError("give one --key-id per --public-key, or none (the ids are then derived from the keys)")
        }
    }

    /// Key id → DER SPKI from the files and the configuration's killSwitch.publicKeys.
    func load() throws(CommandFailure) -> (keys: [String: [UInt8]], configuration: PinConfiguration?) {
        var keys: [String: [UInt8]] = [:]
        for (index, path) in publicKeys.enumerated() {
            let (der, _) = try Loading.publicKey(path)
            keys[keyIds.isEmpty ? VerifyingKey.keyID(spkiDER: der) : keyIds[index]] = der
        }
        let configuration = try config.map { path throws(CommandFailure) in try Loading.configuration(path) }
        for key in configuration?.killSwitch?.publicKeys ?? [] {
            guard case .success(let der) = Base64.decode(key.spki) else {
                throw CommandFailure(
                    .checkFailed, "\(config ?? ""): killSwitch key \(TerminalText.escaped(key.keyId)) is not base64")
            }
            keys[key.keyId] = der
        }
        if keys.isEmpty, let config {
            throw CommandFailure(
                .checkFailed, "\(config) configures no kill-switch public keys: no document would be honoured")
        }
        return (keys, configuration)
    }
}
