import Foundation
import PinKit
import PinKitOpenSSL

/// Reading the files a command is given, with the exit codes the README promises: a missing,
/// unreadable or directory path is a usage error (2); content that cannot be understood is a
/// failed check (1).
enum Loading {
    /// The bytes of a regular file.
    static func bytes(_ path: String, what: String = "file") throws(CommandFailure) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure(.usage, "cannot read \(path): no such \(what)")
        }
        if isDirectory.boolValue { throw CommandFailure(.usage, "\(path) is a directory; expected a \(what)") }
        guard FileManager.default.isReadableFile(atPath: path), let data = FileManager.default.contents(atPath: path)
        else { throw CommandFailure(.usage, "cannot read \(path): not readable") }
        return Array(data)
    }

    /// Refuses to overwrite: outputs of these commands are keys and signed documents.
    static func refuseExisting(_ path: String) throws(CommandFailure) {
        if FileManager.default.fileExists(atPath: path) {
            throw CommandFailure(.usage, "\(path) exists; refusing to overwrite")
        }
    }

    /// Writes a new file; never replaces an existing one (`O_EXCL`).
    static func write(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: [.withoutOverwriting])
        } catch {
            throw CommandFailure(.usage, "cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// A `PUBLIC KEY` PEM (Ed25519 or EC P-256): its DER SubjectPublicKeyInfo and JOSE algorithm.
    static func publicKey(_ path: String) throws(CommandFailure) -> (der: [UInt8], algorithm: String) {
        let text = String(decoding: try bytes(path, what: "public key file"), as: UTF8.self)
        do throws(PinKitError) {
            guard let block = try PEM.blocks(in: text).first(where: { $0.label == "PUBLIC KEY" }) else {
                throw PinKitError(.malformedPEM, "expected a PUBLIC KEY block")
            }
            guard let algorithm = try VerifyingKey(spkiDER: block.der).algorithm else {
                throw PinKitError(.malformedPEM, "not an Ed25519 or EC P-256 key")
            }
            return (block.der, algorithm)
        } catch {
            throw CommandFailure(.checkFailed, "\(path): \(error.reason)")
        }
    }

    /// An unencrypted PEM private key that can sign kill-switch documents.
    static func signingKey(_ path: String) throws(CommandFailure) -> (key: PrivateKey, algorithm: String) {
        let text = String(decoding: try bytes(path, what: "private key file"), as: UTF8.self)
        let key: PrivateKey
        do {
            key = try PrivateKey(pem: text)
        } catch {
            throw CommandFailure(.checkFailed, "\(path): \(error.reason)")
        }
        guard let algorithm = key.signatureAlgorithm else {
            throw CommandFailure(.checkFailed, "\(path) is not an Ed25519 or EC P-256 key")
        }
        return (key, algorithm)
    }

    /// A configuration file (JSON or property list), read structurally.
    static func configuration(_ path: String) throws(CommandFailure) -> PinConfiguration {
        let data = try bytes(path, what: "configuration file")
        do {
            return try PinConfiguration.parse(Data(data))
        } catch {
            throw CommandFailure(.checkFailed, "\(path): \(error.description)")
        }
    }

    /// A kill-switch state: the app's persisted `{"highestSerial","activeOff"}` (also what
    /// `killswitch sign --state` keeps), or a signed document standing for its own serial.
    static func killSwitchState(_ path: String) throws(CommandFailure) -> KillSwitchStateMachine {
        let data = try bytes(path, what: "kill-switch state file")
        do throws(PinKitError) {
            let value = try JSONParser.parse(data)
            if value["payload"] != nil {
                let payload = try KillSwitchDocument.parse(data).payload
                return try KillSwitchStateMachine(json: [
                    "highestSerial": .int(payload.serial), "activeOff": payload.pinning == .off ? payload.json : .null,
                ])
            }
            return try KillSwitchStateMachine(json: value)
        } catch {
            throw CommandFailure(.checkFailed, "\(path) is not a kill-switch state or document: \(error.reason)")
        }
    }
}
