public import Foundation
public import PinKit
public import PinKitOpenSSL

/// A certificate authority of the lab: its certificate and its key.
public struct LabAuthority: Sendable {
    public let certificate: X509Certificate
    public let key: PrivateKey

    public var pin: SPKIPin { certificate.spkiSHA256 }

    public init(certificate: X509Certificate, key: PrivateKey) {
        self.certificate = certificate
        self.key = key
    }

    /// Issues a certificate signed by this authority.
    public func issue(_ builder: CertificateBuilder, for key: PrivateKey) throws(PinKitError) -> X509Certificate {
        try builder.issue(for: key, issuer: (certificate, self.key))
    }
}

/// A certificate chain with the private key of its leaf: what a TLS server serves.
public struct LabIdentity: Sendable {
    /// Leaf first, then whatever the server sends after it (in that order, unchecked).
    public var chain: [X509Certificate]
    public var key: PrivateKey

    public init(chain: [X509Certificate], key: PrivateKey) {
        self.chain = chain
        self.key = key
    }

    public var leaf: X509Certificate { chain[0] }

    /// The same identity serving extra certificates after its own chain (the "append a pinned
    /// certificate to an unrelated chain" attack).
    public func appending(_ extra: [X509Certificate]) -> LabIdentity { LabIdentity(chain: chain + extra, key: key) }
}

/// A complete, self-contained PKI for tests and `pinctl lab`: a root, an issuing intermediate,
/// a backup key held in reserve, and factories for leaves of every kind.
///
/// Validity is relative to `referenceTime`: TLS libraries check certificates against the real
/// clock, so lab certificates are valid around *now* unless a test asks otherwise.
public struct LabPKI: Sendable {
    public let name: String
    public let referenceTime: Date
    public let root: LabAuthority
    public let intermediate: LabAuthority
    /// A key in no chain, whose pin a configuration carries as its backup.
    public let backupKey: PrivateKey

    /// Creates a PKI named `name` (it appears in every subject).
    /// - Parameters:
    ///   - keyKind: the intermediate's and backup key's algorithm.
    ///   - rootKeyKind: the root's (default P-384 with P-256 below it, like GTS Root R4 over WE1).
    public init(
        name: String = "PinKit Lab",
        referenceTime: Date = Date(),
        keyKind: PrivateKey.Kind = .ecP256,
        rootKeyKind: PrivateKey.Kind? = nil
    ) throws(PinKitError) {
        self.name = name
        self.referenceTime = referenceTime
        let rootKey = try PrivateKey.generate(rootKeyKind ?? (keyKind == .ecP256 ? .ecP384 : keyKind))
        let root = try CertificateBuilder(
            commonName: "\(name) Root",
            organization: name,
            notBefore: referenceTime.addingTimeInterval(-30 * 86_400),
            notAfter: referenceTime.addingTimeInterval(3650 * 86_400),
            isCA: true
        ).issue(for: rootKey)
        self.root = LabAuthority(certificate: root, key: rootKey)
        let intermediateKey = try PrivateKey.generate(keyKind)
        self.intermediate = LabAuthority(
            certificate: try self.root.issue(
                CertificateBuilder(
                    commonName: "\(name) Issuing CA",
                    organization: name,
                    notBefore: referenceTime.addingTimeInterval(-30 * 86_400),
                    notAfter: referenceTime.addingTimeInterval(1825 * 86_400),
                    isCA: true,
                    pathLength: 0
                ),
                for: intermediateKey
            ),
            key: intermediateKey
        )
        self.backupKey = try PrivateKey.generate(keyKind)
    }

    /// A leaf for `names`, issued by `issuer` (default: the intermediate); the chain served is
    /// leaf + issuer, as real servers send it (the root stays in the trust store).
    public func leaf(
        _ names: [String],
        key: PrivateKey? = nil,
        issuer: LabAuthority? = nil,
        validFor days: Double = 90,
        startingDaysAgo: Double = 1
    ) throws(PinKitError) -> LabIdentity {
        let leafKey: PrivateKey
        if let key { leafKey = key } else { leafKey = try PrivateKey.generate(.ecP256) }
        let authority = issuer ?? intermediate
        let certificate = try authority.issue(
            CertificateBuilder(
                commonName: names.first ?? "leaf",
                notBefore: referenceTime.addingTimeInterval(-startingDaysAgo * 86_400),
                notAfter: referenceTime.addingTimeInterval((days - startingDaysAgo) * 86_400),
                dnsNames: names.filter { !HostName.isIPLiteral($0) },
                ipAddresses: names.filter { HostName.isIPLiteral($0) }
            ),
            for: leafKey
        )
        let chain = authority.certificate.isSelfIssued ? [certificate] : [certificate, authority.certificate]
        return LabIdentity(chain: chain, key: leafKey)
    }

    /// A leaf that expired yesterday.
    public func expiredLeaf(_ names: [String]) throws(PinKitError) -> LabIdentity {
        try leaf(names, validFor: 30, startingDaysAgo: 31)
    }

    /// A self-signed leaf (no CA at all).
    public func selfSignedLeaf(_ names: [String]) throws(PinKitError) -> LabIdentity {
        let key = try PrivateKey.generate(.ecP256)
        let certificate = try CertificateBuilder(
            commonName: names.first ?? "self-signed",
            notBefore: referenceTime.addingTimeInterval(-86_400),
            notAfter: referenceTime.addingTimeInterval(90 * 86_400),
            dnsNames: names
        ).issue(for: key)
        return LabIdentity(chain: [certificate], key: key)
    }

    /// A new intermediate certificate for `key` (default: the backup key), signed by the root:
    /// what a CA issues when the server rotates to its backup key.
    public func intermediate(for key: PrivateKey? = nil, commonName: String? = nil) throws(PinKitError)
        -> LabAuthority
    {
        let key = key ?? backupKey
        let certificate = try root.issue(
            CertificateBuilder(
                commonName: commonName ?? "\(name) Issuing CA 2",
                organization: name,
                notBefore: referenceTime.addingTimeInterval(-86_400),
                notAfter: referenceTime.addingTimeInterval(1825 * 86_400),
                isCA: true,
                pathLength: 0
            ),
            for: key
        )
        return LabAuthority(certificate: certificate, key: key)
    }

    /// `authority`'s certificate re-issued by `issuer` with the same subject and key, expiring at
    /// `notAfter` (a cross-signed certificate: one key, two certificates, two deadlines).
    public static func crossSign(_ authority: LabAuthority, by issuer: LabAuthority, notAfter: Date)
        throws(PinKitError) -> X509Certificate
    {
        var builder = CertificateBuilder(
            commonName: "",
            notBefore: authority.certificate.notBefore,
            notAfter: notAfter,
            isCA: true
        )
        builder.subject = authority.certificate.subjectAttributes
        return try issuer.issue(builder, for: authority.key)
    }

    /// Writes a PEM CA file (for `--ca-file` / a client's trust store) and returns its path.
    public static func writeCAFile(_ certificates: [X509Certificate], to path: String) throws(PinKitError) -> String {
        let text = certificates.map(\.pem).joined()
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw PinKitError(.io, "cannot write \(path): \(error)")
        }
        return path
    }
}
