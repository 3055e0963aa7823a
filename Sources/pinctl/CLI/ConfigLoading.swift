import Foundation
import PinKit
import PinKitOpenSSL

/// The system CA bundle (Debian's `ca-certificates`).
let systemTrustStore = "/etc/ssl/certs/ca-certificates.crt"

/// Certificates from a file; unreadable content is a failed check (exit 1).
func loadCertificates(_ path: String) throws(CommandFailure) -> [Certificate] {
    try requireReadable(path)
    do {
        return try Certificate.load(contentsOf: path)
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
