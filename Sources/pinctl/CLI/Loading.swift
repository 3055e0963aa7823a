import Foundation
import PinKit
import PinKitOpenSSL

/// The system CA bundle (Debian's `ca-certificates`).
let systemTrustStore = "/etc/ssl/certs/ca-certificates.crt"

/// Reading the files a command is given, with the exit codes the README promises: a missing,
/// unreadable or directory path is a usage error (2); content that cannot be understood is a
/// failed check (1).
enum Loading {
    /// A path that must name a readable regular file: missing, a directory or unreadable is a
    /// usage error (exit 2), the same sentence for every command.
    static func requireReadable(_ path: String, what: String = "file") throws(CommandFailure) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure(.usage, "cannot read \(path): no such \(what)")
        }
        if isDirectory.boolValue {
            throw CommandFailure(
                .usage,
                "cannot read \(path): it is a directory, expected \(what.first.map { "aeiou".contains($0) } == true ? "an" : "a") \(what)"
            )
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw CommandFailure(.usage, "cannot read \(path): permission denied")
        }
    }

    /// The bytes of a regular file.
    static func bytes(_ path: String, what: String = "file") throws(CommandFailure) -> [UInt8] {
        try requireReadable(path, what: what)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(.usage, "cannot read \(path): not readable")
        }
        return Array(data)
    }

    /// Certificates from a PEM bundle or one DER certificate; unreadable content is a failed
    /// check (exit 1).
    static func certificates(_ path: String, what: String = "certificate file") throws(CommandFailure)
        -> [X509Certificate]
    {
        try requireReadable(path, what: what)
        do {
            return try X509Certificate.load(contentsOf: path)
        } catch {
            throw CommandFailure(.checkFailed, error.reason)
        }
    }

    /// The devices' trust store as a path builder; a missing or unreadable bundle is a usage
    /// error (exit 2), a file without certificates a failed check (exit 1).
    static func pathBuilder(_ path: String) throws(CommandFailure) -> CertificatePathBuilder {
        CertificatePathBuilder(trustStore: try certificates(path, what: "trust-store bundle"))
    }

    /// A release history; a missing history or a release configuration that does not exist is
    /// a usage error (exit 2), any other problem a failed check (exit 1).
    static func releaseHistory(_ path: String) throws(CommandFailure) -> ReleaseHistory {
        try requireReadable(path, what: "releases file")
        do {
            return try ReleaseHistory.load(contentsOf: path)
        } catch {
            let missing = error.problems.contains { $0.code == .missingFile }
            throw CommandFailure(missing ? .usage : .checkFailed, error.description)
        }
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

    /// A configuration file (JSON or property list), read structurally; a malformed one is a
    /// failed check (exit 1) listing every problem.
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
    ///
    /// - Parameter forFloor: the state will propose the next release's `minimumSerial`
    ///   (`killswitch status`, `init --kill-switch-state`). Then a document is refused: nothing
    ///   here checks its signature, and a forged one (fetched from the unpinned kill-switch URL,
    ///   say) with serial 2^53 − 1 would propose a floor that leaves the release no kill switch.
    static func killSwitchState(_ path: String, forFloor: Bool = false) throws(CommandFailure)
        -> KillSwitchStateMachine
    {
        let data = try bytes(path, what: "kill-switch state file")
        do throws(PinKitError) {
            let value = try JSONParser.parse(data)
            if value["payload"] != nil {
                if forFloor {
                    throw PinKitError(
                        .invalidDocument,
                        "it is a kill-switch document, whose signature is not checked here, so its serial cannot propose a floor; check it with pinctl killswitch verify and give the state file killswitch sign --state keeps"
                    )
                }
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

/// `--now DATE`, or the clock.
func parseNow(_ text: String?) throws(UsageError) -> Date {
    guard let text else { return Date() }
    guard let date = RFC3339.parse(text) else { throw UsageError("--now expects an RFC 3339 date, saw \(text)") }
    return date
}

/// Multi-line text from a file made terminal-safe line by line: the line breaks pinctl put
/// there stay, every control character inside a line is shown escaped.
func escapedLines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }.joined(
        separator: "\n")
}
