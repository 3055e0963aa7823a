import Foundation
import PinKit
import PinKitOpenSSL

/// `pinctl killswitch keygen`: a kill-switch signing key, 0600 from its first byte.
struct KillSwitchKeygen: GroupAction {
    static let name = "keygen"
    static let usage = "pinctl killswitch keygen --out DIR [--type ed25519|ec-p256] [--json]"

    var out: String
    var type: PrivateKey.Kind

    init(parsing arguments: inout Arguments) throws(UsageError) {
        let typeText = try arguments.value("--type") ?? "ed25519"
        guard let kind = ["ed25519": PrivateKey.Kind.ed25519, "ec-p256": .ecP256][typeText] else {
            throw UsageError("--type is ed25519 or ec-p256, saw \(typeText)")
        }
        type = kind
        guard let out = try arguments.value("--out") else { throw UsageError("keygen needs --out DIR") }
        self.out = out
        try KillSwitchOptions.noPositionals(&arguments)
    }

    func run(_ output: ActionOutput) throws(CommandFailure) -> ExitCode {
        let keyPath = (out as NSString).appendingPathComponent("kill-switch.key")
        let publicPath = (out as NSString).appendingPathComponent("kill-switch.pub")
        for path in [keyPath, publicPath] where FileManager.default.fileExists(atPath: path) {
            throw CommandFailure(.usage, "\(path) exists; refusing to overwrite a key")
        }
        let key: PrivateKey
        do {
            key = try PrivateKey.generate(type)
        } catch {
            throw CommandFailure(.checkFailed, error.reason)
        }
        do throws(SecretFile.Failure) {
            try SecretFile.makeDirectory(out)
            try SecretFile.write(Array(key.privateKeyPEM.utf8), to: keyPath)
        } catch {
            throw CommandFailure(.usage, error.description)
        }
        try Loading.write(Array(key.publicKeyPEM.utf8), to: publicPath)
        let entry: JSONValue = [
            "keyId": .string(VerifyingKey.keyID(spkiDER: key.publicKeyDER)),
            "spki": .string(Base64.encode(key.publicKeyDER)),
        ]
        output.result(
            [
                "keyId": entry["keyId"]!, "spki": entry["spki"]!, "privateKey": .string(keyPath),
                "publicKey": .string(publicPath),
            ],
            human: """
                wrote \(keyPath) (private, 0600 — give it to one key holder, never print it) and \(publicPath)
                add to killSwitch.publicKeys (with at least one more key, held by someone else): \(entry.serialized())
                """)
        return .success
    }
}
