import Foundation
import PinKit
import PinKitOpenSSL

/// `pinctl killswitch show`: a document's payload and each signature entry with its status.
struct KillSwitchShow: GroupAction {
    static let name = "show"
    static let usage = "pinctl killswitch show [(--public-key FILE [--key-id ID])...] [--config FILE] [--json] DOC"

    var keys: TrustedKeyOptions
    var document: String

    init(parsing arguments: inout Arguments) throws(UsageError) {
        keys = try TrustedKeyOptions(parsing: &arguments)
        document = try KillSwitchOptions.document(&arguments, action: Self.name)
    }

    func run(_ output: ActionOutput) throws(CommandFailure) -> ExitCode {
        let bytes = try Loading.bytes(document, what: "kill-switch document")
        let parsed: KillSwitchDocument
        do {
            parsed = try KillSwitchDocument.parse(bytes)
        } catch {
            throw CommandFailure(
                .checkFailed, "\(document) is not a readable kill-switch document: \(error.description)")
        }
        let checked = !keys.publicKeys.isEmpty || keys.config != nil
        let trusted = checked ? try keys.load().keys : [:]
        let checks = parsed.checkSignatures(trustedKeys: trusted, verifier: OpenSSLSignatureVerifier())
        let payload = parsed.payload
        let signatureLines = zip(parsed.signatures, checks).map { signature, check in
            let status: String
            if check.status == .unknownAlgorithm {
                status = "ignored: unknown algorithm"
            } else if !checked {
                status = "not checked (give --public-key or --config)"
            } else {
                status = check.status == .unknownKey ? "ignored: key not configured" : check.status.rawValue
            }
            return
                "  \(TerminalText.escaped(signature.keyId)) (\(TerminalText.escaped(signature.algorithm))): \(status)"
        }
        let scopeHosts = payload.scope.hosts?.map(TerminalText.escaped).joined(separator: ", ") ?? "every pinned host"
        output.result(
            [
                "document": Self.describe(payload),
                "signatures": Self.describe(checks, checked: checked),
            ],
            human: """
                serial:     \(payload.serial)
                pinning:    \(payload.pinning.rawValue)
                issued:     \(RFC3339.format(payload.issuedAt))
                expires:    \(RFC3339.format(payload.expiresAt))
                hosts:      \(scopeHosts)
                versions:   \(TerminalText.escaped(payload.scope.minimumAppVersion ?? "*")) - \(TerminalText.escaped(payload.scope.maximumAppVersion ?? "*"))
                reason:     \(TerminalText.escaped(payload.reason))
                signatures: \(parsed.signatures.isEmpty ? "none (no app honours an unsigned document)" : "\(parsed.signatures.count)")
                """ + (signatureLines.isEmpty ? "" : "\n" + signatureLines.joined(separator: "\n")))
        return .success
    }

    static func describe(_ payload: KillSwitchDocument.Payload) -> JSONValue {
        [
            "serial": .int(payload.serial), "pinning": .string(payload.pinning.rawValue),
            "issuedAt": .string(RFC3339.format(payload.issuedAt)),
            "expiresAt": .string(RFC3339.format(payload.expiresAt)),
            "hosts": payload.scope.hosts.map { .array($0.map(JSONValue.string)) } ?? .null,
            "appVersions": [
                "min": .optionalString(payload.scope.minimumAppVersion),
                "max": .optionalString(payload.scope.maximumAppVersion),
            ],
            "reason": .string(payload.reason),
        ]
    }

    static func describe(_ checks: [KillSwitchDocument.SignatureCheck], checked: Bool = true) -> JSONValue {
        .array(
            checks.map { check in
                let status =
                    checked || check.status == .unknownAlgorithm ? check.status.rawValue : "not-checked"
                return [
                    "keyId": .string(check.signature.keyId), "alg": .string(check.signature.algorithm),
                    "status": .string(status), "message": .string(checked ? check.message : ""),
                ]
            })
    }
}
