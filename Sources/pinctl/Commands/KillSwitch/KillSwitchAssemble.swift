import Foundation
import PinKit
import PinKitOpenSSL

/// `pinctl killswitch assemble`: a document from payload bytes and signatures made elsewhere (a
/// KMS or HSM, `openssl pkeyutl`). Each signature is checked against its public key first.
struct KillSwitchAssemble: GroupAction {
    static let name = "assemble"
    static let usage = """
        pinctl killswitch assemble --payload FILE (--signature FILE --key-id ID --public-key FILE)... --out DOC
                                   [--config FILE] [--now DATE] [--json]
        """

    var payload: String
    var signatures: [(signature: String, keyId: String, publicKey: String)]
    var out: String
    var config: String?
    var now: Date

    init(parsing arguments: inout Arguments) throws(UsageError) {
        guard let payload = try arguments.value("--payload") else { throw UsageError("assemble needs --payload FILE") }
        self.payload = payload
        let files = try arguments.values("--signature")
        let ids = try arguments.values("--key-id")
        let keys = try arguments.values("--public-key")
        guard !files.isEmpty, files.count == ids.count, ids.count == keys.count else {
            throw UsageError(
                "assemble needs one --key-id and one --public-key per --signature (saw \(files.count), \(ids.count), \(keys.count))"
            )
        }
        signatures = (0..<files.count).map { (files[$0], ids[$0], keys[$0]) }
        guard let out = try arguments.value("--out") else { throw UsageError("assemble needs --out DOC") }
        self.out = out
        config = try arguments.value("--config")
        now = try KillSwitchOptions.date(&arguments, "--now") ?? Date()
        try KillSwitchOptions.noPositionals(&arguments)
    }

    func validate() throws(UsageError) {
        for entry in signatures
        where entry.keyId.isEmpty || entry.keyId.unicodeScalars.contains(where: KillSwitchSign.isControl) {
            throw UsageError("--key-id must be non-empty, without control characters")
        }
    }

    /// The signature file's bytes: binary as the tool wrote it, or base64/base64url text (KMS CLIs).
    static func signatureBytes(_ raw: [UInt8]) -> [UInt8] {
        // Base64 tools wrap lines; a binary signature is never all base64 characters and line ends.
        let isText = raw.allSatisfy { byte in
            byte == 0x0A || byte == 0x0D || byte == 0x20 || (byte > 0x20 && byte < 0x7F)
        }
        let text = String(decoding: raw.filter { $0 > 0x20 && $0 < 0x7F }, as: UTF8.self)
        guard isText, !text.isEmpty else { return raw }
        for alphabet in [Base64.Alphabet.standard, .url] {
            if case .success(let decoded) = Base64.decode(text, alphabet: alphabet) { return decoded }
        }
        return raw
    }

    func run(_ output: ActionOutput) throws(CommandFailure) -> ExitCode {
        let bytes = try Loading.bytes(payload, what: "payload file")
        // The payload must be one an app would parse: the same strict reader, on an unsigned envelope.
        let parsed: KillSwitchDocument.Payload
        do {
            parsed = try KillSwitchDocument.parse(
                Array(KillSwitchDocument.envelope(payloadBytes: bytes, signatures: []).utf8)
            ).payload
        } catch {
            throw CommandFailure(.checkFailed, "\(payload) is not a kill-switch payload: \(error.description)")
        }
        // The rules sign applies to what it signs: a payload made or edited elsewhere gets no pass.
        let configuration = try config.map { path throws(CommandFailure) in try Loading.configuration(path) }
        let problems = KillSwitchScopeCheck.payloadProblems(parsed, configuration: configuration, now: now)
        if !problems.isEmpty {
            throw CommandFailure(
                .checkFailed,
                "\(payload) would be refused by sign: \(problems.map(\.message).joined(separator: "; ")); nothing written"
            )
        }
        try Loading.refuseExisting(out)
        var entries: [KillSwitchDocument.Signature] = []
        for entry in signatures {
            let (der, algorithm) = try Loading.publicKey(entry.publicKey)
            let made = Self.signatureBytes(try Loading.bytes(entry.signature, what: "signature file"))
            let jose: [UInt8]
            do {
                jose = try VerifyingKey.joseSignature(made, algorithm: algorithm)
            } catch {
                throw CommandFailure(.checkFailed, "\(entry.signature): \(error.reason)")
            }
            guard
                OpenSSLSignatureVerifier().isValid(
                    signature: jose, message: bytes, algorithm: algorithm, publicKeySPKI: der)
            else {
                throw CommandFailure(
                    .checkFailed,
                    "\(entry.signature) is not a valid \(algorithm) signature of \(payload) by \(entry.publicKey); nothing written"
                )
            }
            entries.append(.init(keyId: entry.keyId, algorithm: algorithm, bytes: jose))
        }
        let text = KillSwitchDocument.envelope(payloadBytes: bytes, signatures: entries)
        try Loading.write(Array((text + "\n").utf8), to: out)
        output.result(
            [
                "document": .string(out), "serial": .int(parsed.serial), "pinning": .string(parsed.pinning.rawValue),
                "expiresAt": .string(RFC3339.format(parsed.expiresAt)),
                "signatures": .array(entries.map { ["keyId": .string($0.keyId), "alg": .string($0.algorithm)] }),
            ],
            human:
                "wrote \(out): serial \(parsed.serial), pinning \(parsed.pinning.rawValue) until \(RFC3339.format(parsed.expiresAt)), signed by \(entries.map { TerminalText.escaped($0.keyId) }.joined(separator: ", "))"
        )
        return .success
    }
}
