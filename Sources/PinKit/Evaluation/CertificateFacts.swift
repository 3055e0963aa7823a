public import Foundation

/// What the pinning core needs to know about one certificate, independent of any TLS library.
///
/// The platform layer (OpenSSL today, SecTrust later) fills these in from the chain it has
/// already built and verified; the core never parses certificates itself.
public struct CertificateFacts: Hashable, Sendable {
    /// SHA-256 of the DER SubjectPublicKeyInfo.
    public var spki: SPKIPin
    /// The subject as `openssl x509 -noout -subject -nameopt RFC2253` prints it (without `subject=`).
    public var subject: String
    public var issuer: String
    public var notBefore: Date
    public var notAfter: Date
    /// DNS names of the subjectAltName extension (only meaningful for a leaf).
    public var dnsNames: [String]

    public init(
        spki: SPKIPin,
        subject: String,
        issuer: String,
        notBefore: Date,
        notAfter: Date,
        dnsNames: [String] = []
    ) {
        self.spki = spki
        self.subject = subject
        self.issuer = issuer
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.dnsNames = dnsNames
    }
}
