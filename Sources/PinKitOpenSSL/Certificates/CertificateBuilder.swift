internal import COpenSSL
internal import CPinKitShims
public import Foundation
public import PinKit

/// Issues X.509 v3 certificates: roots, intermediates, cross-signed certificates and leaves.
///
/// For test PKIs, the lab and `pinctl` tooling; not a CA product (no revocation, no policy).
public struct CertificateBuilder: Sendable {
    public var subject: [(attribute: String, value: String)]
    public var notBefore: Date
    public var notAfter: Date
    public var isCA: Bool
    public var pathLength: Int?
    public var dnsNames: [String]
    public var ipAddresses: [String]
    public var serial: UInt64

    /// - Parameters:
    ///   - commonName: the subject CN; `organization` adds an O attribute before it.
    public init(
        commonName: String,
        organization: String? = nil,
        notBefore: Date,
        notAfter: Date,
        isCA: Bool = false,
        pathLength: Int? = nil,
        dnsNames: [String] = [],
        ipAddresses: [String] = [],
        serial: UInt64 = UInt64.random(in: 1...UInt64(Int64.max))
    ) {
        self.subject = (organization.map { [("O", $0)] } ?? []) + [("CN", commonName)]
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.isCA = isCA
        self.pathLength = pathLength
        self.dnsNames = dnsNames
        self.ipAddresses = ipAddresses
        self.serial = serial
    }

    /// Issues the certificate for `key`'s public half, signed by `issuer` (self-signed when nil).
    /// - Throws: ``PinKitError/Code/openSSL`` when OpenSSL refuses a field or the signature.
    public func issue(for key: PrivateKey, issuer: (certificate: X509Certificate, key: PrivateKey)? = nil)
        throws(PinKitError) -> X509Certificate
    {
        OpenSSLErrorQueue.clear()
        guard let x509 = X509_new() else { throw OpenSSLErrorQueue.error(.openSSL, "X509_new failed") }
        var owned = true
        defer { if owned { X509_free(x509) } }
        guard X509_set_version(x509, 2) == 1 else { throw OpenSSLErrorQueue.error(.openSSL, "cannot set version") }
        guard let serialNumber = ASN1_INTEGER_new() else { throw OpenSSLErrorQueue.error(.openSSL, "no serial") }
        defer { ASN1_INTEGER_free(serialNumber) }
        ASN1_INTEGER_set_uint64(serialNumber, serial)
        X509_set_serialNumber(x509, serialNumber)
        guard let name = X509_NAME_new() else { throw OpenSSLErrorQueue.error(.openSSL, "no name") }
        defer { X509_NAME_free(name) }
        for (attribute, value) in subject {
            guard X509_NAME_add_entry_by_txt(name, attribute, MBSTRING_UTF8, value, -1, -1, 0) == 1 else {
                throw OpenSSLErrorQueue.error(.openSSL, "cannot add \(attribute)=\(value) to the subject")
            }
        }
        X509_set_subject_name(x509, name)
        X509_set_issuer_name(x509, issuer.map { X509_get_subject_name($0.certificate.x509) } ?? name)
        // Absolute instants: X509_time_adj_ex adds its offsets to the base time given.
        var start = time_t(notBefore.timeIntervalSince1970)
        var end = time_t(notAfter.timeIntervalSince1970)
        guard X509_time_adj_ex(X509_getm_notBefore(x509), 0, 0, &start) != nil,
            X509_time_adj_ex(X509_getm_notAfter(x509), 0, 0, &end) != nil
        else { throw OpenSSLErrorQueue.error(.openSSL, "cannot set the validity dates") }
        guard X509_set_pubkey(x509, key.pkey) == 1 else { throw OpenSSLErrorQueue.error(.openSSL, "cannot set key") }

        var extensions: [(Int32, String)] = []
        if isCA {
            extensions.append((NID_basic_constraints, "critical,CA:TRUE" + (pathLength.map { ",pathlen:\($0)" } ?? "")))
            extensions.append((NID_key_usage, "critical,keyCertSign,cRLSign"))
        } else {
            extensions.append((NID_basic_constraints, "critical,CA:FALSE"))
            extensions.append((NID_key_usage, "critical,digitalSignature" + (key.isEdwards ? "" : ",keyEncipherment")))
            extensions.append((NID_ext_key_usage, "serverAuth,clientAuth"))
        }
        let alternativeNames = dnsNames.map { "DNS:\($0)" } + ipAddresses.map { "IP:\($0)" }
        if !alternativeNames.isEmpty {
            extensions.append((NID_subject_alt_name, alternativeNames.joined(separator: ",")))
        }
        extensions.append((NID_subject_key_identifier, "hash"))
        if issuer != nil { extensions.append((NID_authority_key_identifier, "keyid:always")) }
        for (nid, value) in extensions {
            guard pinkit_X509_add_extension(x509, issuer?.certificate.x509, nid, value) == 1 else {
                throw OpenSSLErrorQueue.error(.openSSL, "cannot add extension \(value)")
            }
        }
        let signer = issuer?.key ?? key
        let digest = signer.isEdwards ? nil : EVP_sha256()
        guard X509_sign(x509, signer.pkey, digest) > 0 else { throw OpenSSLErrorQueue.error(.openSSL, "cannot sign") }
        owned = false
        return try X509Certificate(takingOwnership: x509)
    }
}
