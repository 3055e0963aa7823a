import Foundation
import PinKit
import PinKitOpenSSL

/// The system CA bundle (Debian's `ca-certificates`).
let systemTrustStore = "/etc/ssl/certs/ca-certificates.crt"

/// Certificates from a file; unreadable content is a failed check (exit 1).
func loadCertificates(_ path: String) throws(CommandFailure) -> [X509Certificate] {
    try requireReadable(path)
    do {
        return try X509Certificate.load(contentsOf: path)
    } catch {
        throw CommandFailure(.checkFailed, error.reason)
    }
}

/// The devices' trust store as a path builder; a missing or unreadable bundle is a usage error
/// (exit 2), a file without certificates a failed check (exit 1).
func loadPathBuilder(_ path: String) throws(CommandFailure) -> CertificatePathBuilder {
    CertificatePathBuilder(trustStore: try loadCertificates(path))
}

func parseNow(_ text: String?) throws(UsageError) -> Date {
    guard let text else { return Date() }
    guard let date = RFC3339.parse(text) else { throw UsageError("--now expects an RFC 3339 date, saw \(text)") }
    return date
}

/// A release history; a missing history or a release configuration that does not exist is a
/// usage error (exit 2), any other problem a failed check (exit 1).
func loadReleaseHistory(_ path: String) throws(CommandFailure) -> ReleaseHistory {
    try requireReadable(path)
    do {
        return try ReleaseHistory.load(contentsOf: path)
    } catch {
        let missing = error.problems.contains { $0.code == .missingFile }
        throw CommandFailure(missing ? .usage : .checkFailed, error.description)
    }
}

/// Multi-line text from a file made terminal-safe line by line: the line breaks pinctl put
/// there stay, every control character inside a line is shown escaped.
func escapedLines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }.joined(
        separator: "\n")
}
