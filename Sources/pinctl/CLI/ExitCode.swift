import PinKit

/// `pinctl`'s exit codes, relied on by outside scripts exactly as written.
enum ExitCode: Int32 {
    /// The command ran and everything it checked passed.
    case success = 0
    /// The check ran and failed: pin mismatch, invalid or malformed configuration, unsafe
    /// rotation, bad signature, unreadable certificate content.
    case checkFailed = 1
    /// The command line was wrong (unknown option, missing argument, file not found).
    case usage = 2
    /// A network or TLS error other than a pin mismatch.
    case network = 3
}

/// A command-line mistake: printed with the command's usage line, exit code 2.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// A failure that ends the command with a given exit code and message on stderr.
struct CommandFailure: Error {
    var code: ExitCode
    var message: String
    /// The stable code of the JSON error (`{"error":{"code","message"}}`); by default the exit
    /// code's name: `check-failed`, `usage` or `network`.
    var reasonCode: String
    init(_ code: ExitCode, _ message: String, reason: String? = nil) {
        self.code = code
        self.message = message
        self.reasonCode = reason ?? code.name
    }
}

extension ExitCode {
    /// The name scripts see in JSON errors.
    var name: String {
        switch self {
        case .success: "success"
        case .checkFailed: "check-failed"
        case .usage: "usage"
        case .network: "network"
        }
    }
}

extension CommandFailure {
    /// The JSON document printed on stdout instead of a result when `--json` was given:
    /// `{"schemaVersion": 1, "error": {"code": …, "message": …}}`.
    static func jsonError(code: String, message: String) -> String {
        let document: JSONValue = [
            "schemaVersion": .int(1), "error": ["code": .string(code), "message": .string(message)],
        ]
        return document.serialized(pretty: true)
    }
}
