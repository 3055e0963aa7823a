internal import COpenSSL
internal import CPinKitShims
public import Foundation
public import PinKit

/// One chain a device could build from a served chain: leaf first, a trust anchor last.
public struct CertificatePath: Sendable, Hashable {
    /// Leaf first, then each issuer, ending with a self-signed certificate of the trust store.
    public let certificates: [X509Certificate]

    /// The trust anchor that ends the path.
    public var root: X509Certificate { certificates[certificates.count - 1] }
    /// The certificates' platform-neutral facts, in path order.
    public var facts: [CertificateFacts] { certificates.map(\.facts) }
}

/// A candidate path that OpenSSL refused (expired cross-sign, wrong key usage, …), with its reason.
public struct RejectedCertificatePath: Sendable {
    public let certificates: [X509Certificate]
    /// OpenSSL's verification error, e.g. "certificate has expired".
    public let reason: String
}

/// Builds every certificate path a device could take from a served chain to a trust anchor,
/// linking certificates **by signature**, never by name alone.
///
/// Devices build their own paths: iOS and Android choose among cross-signed certificates and
/// fetch missing intermediates, so a pin decision that holds on one path can fail on another.
/// Two roots may share a name and differ in key (a re-keyed root, a cross-sign): linking by
/// subject string would let either stand in for the other. Here a certificate is an issuer
/// candidate only when OpenSSL's `X509_check_issued` accepts it (name, authority key identifier,
/// key usage) *and* its key verifies the child's signature. Each complete candidate path is then
/// verified by OpenSSL (`X509_verify_cert`, the path's anchor as the only trusted certificate,
/// partial chains off, at `time`), so only paths OpenSSL itself accepts are returned.
///
/// The search is bounded (`maximumDepth`, `maximumCandidates` candidates, each issuer and child
/// pair checked once) so a hostile store full of same-name certificates costs a bounded amount
/// of work. A certificate whose RSA public exponent is over 33 bits is never an issuer: one
/// signature check with it costs a full modular exponentiation (about 120 times a normal one at
/// 3072 bits), and devices refuse such keys anyway (BoringSSL's limit is 33 bits).
public struct CertificatePathBuilder: Sendable {
    /// The devices' trust store: only its self-signed certificates end a path.
    public let trustStore: [X509Certificate]
    public var maximumDepth = 8
    public var maximumCandidates = 4096
    /// False only in tests: no per-pair memo and no exponent limit, to show the work a hostile
    /// upload could cause without them.
    var boundsSignatureWork = true

    public init(trustStore: [X509Certificate]) {
        var seen = Set<[UInt8]>()
        self.trustStore = trustStore.filter { seen.insert($0.der).inserted }
    }

    /// Loads a PEM bundle (or one DER certificate) as the trust store.
    /// - Throws: ``PinKitError`` when the file cannot be read or holds no certificate.
    public init(trustStoreAt path: String) throws(PinKitError) {
        self.init(trustStore: try X509Certificate.load(contentsOf: path))
    }

    /// The outcome of one search.
    public struct Result: Sendable {
        /// Every path OpenSSL verified, shortest first.
        public var paths: [CertificatePath]
        /// Candidate paths OpenSSL refused.
        public var rejected: [RejectedCertificatePath]
        /// True when a bound stopped the search (more paths may exist).
        public var truncated: Bool
        /// Signature checks the search made (`X509_verify` with a candidate issuer's key).
        public var signatureChecks = 0
    }

    /// Every path from `served[0]` (the leaf) to a self-signed certificate of the trust store.
    ///
    /// - Parameters:
    ///   - served: the chain as a server sends it, leaf first; its other certificates (in any
    ///     order, unordered extras included) are issuer candidates next to the trust store's.
    ///     A served root that is not in the trust store never ends a path.
    ///   - time: the verification time (certificates outside their validity then are refused).
    /// - Returns: the verified paths and the refused candidates; no path means no device
    ///   that uses this trust store would accept the chain.
    public func paths(for served: [X509Certificate], at time: Date = Date()) -> Result {
        guard let leaf = served.first else { return Result(paths: [], rejected: [], truncated: false) }
        var seen = Set<[UInt8]>()
        let pool = (Array(served.dropFirst()) + trustStore).filter {
            seen.insert($0.der).inserted && (!boundsSignatureWork || $0.hasBoundedPublicExponent)
        }
        // Issuer candidates by the hash of their canonical subject name, the form X509_NAME_cmp
        // and X509_check_issued compare: a child's issuer can only be a certificate of that name,
        // so certificates of other names cost no lookup and no share of the bound. Without the
        // index a bundle of a few thousand unrelated roots exhausted the bound before the search
        // reached the root devices stop at, and the path that bricks a release went unseen.
        var bySubject: [UInt: [X509Certificate]] = [:]
        for certificate in pool { bySubject[certificate.subjectNameHash, default: []].append(certificate) }
        let anchors = Set(trustStore.filter(\.isSelfSigned).map(\.der))
        var candidates: [[X509Certificate]] = []
        var budget = maximumCandidates
        var truncated = false
        var signatureChecks = 0
        var verdicts: [IssuerAndChild: Bool] = [:]
        func issued(_ issuer: X509Certificate, _ child: X509Certificate) -> Bool {
            let pair = IssuerAndChild(issuer: ObjectIdentifier(issuer), child: ObjectIdentifier(child))
            if boundsSignatureWork, let known = verdicts[pair] { return known }
            signatureChecks += 1
            let verdict = issuer.issued(child)
            verdicts[pair] = verdict
            return verdict
        }

        func extend(_ path: [X509Certificate]) {
            let last = path[path.count - 1]
            if anchors.contains(last.der) {
                candidates.append(path)
                return
            }
            guard path.count < maximumDepth else {
                truncated = true
                return
            }
            for issuer in bySubject[last.issuerNameHash] ?? []
            where !path.contains(where: { $0.der == issuer.der || $0.sameSubjectAndKey(issuer) }) {
                guard budget > 0 else {
                    truncated = true
                    return
                }
                budget -= 1
                if issued(issuer, last) { extend(path + [issuer]) }
            }
        }
        extend([leaf])

        var paths: [CertificatePath] = []
        var rejected: [RejectedCertificatePath] = []
        for candidate in candidates {
            switch Self.verify(candidate, at: time) {
            case .verified(let verified):
                let path = CertificatePath(certificates: verified)
                if !paths.contains(path) { paths.append(path) }
            case .refused(let reason):
                rejected.append(RejectedCertificatePath(certificates: candidate, reason: reason))
            }
        }
        paths.sort { $0.certificates.count < $1.certificates.count }
        return Result(paths: paths, rejected: rejected, truncated: truncated, signatureChecks: signatureChecks)
    }

    /// One issuer candidate for one child; the certificates of one search outlive it.
    private struct IssuerAndChild: Hashable {
        var issuer: ObjectIdentifier
        var child: ObjectIdentifier
    }

    /// OpenSSL's verdict on exactly this path: its anchor as the only trusted certificate, its
    /// intermediates as the only untrusted ones, partial chains off, TLS-server purpose.
    private static func verify(_ path: [X509Certificate], at time: Date) -> Verdict {
        OpenSSLErrorQueue.clear()
        guard let store = X509_STORE_new() else { return .refused("X509_STORE_new failed") }
        defer { X509_STORE_free(store) }
        guard X509_STORE_add_cert(store, path[path.count - 1].x509) == 1 else {
            return .refused(OpenSSLErrorQueue.drain().joined(separator: "; "))
        }
        guard let untrusted = OPENSSL_sk_new_null() else { return .refused("no stack") }
        defer { OPENSSL_sk_free(untrusted) }
        for certificate in path.dropFirst().dropLast() {
            _ = OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate.x509))
        }
        guard let context = X509_STORE_CTX_new() else { return .refused("X509_STORE_CTX_new failed") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, path[0].x509, untrusted) == 1 else {
            return .refused(OpenSSLErrorQueue.drain().joined(separator: "; "))
        }
        X509_STORE_CTX_set_time(context, 0, time_t(time.timeIntervalSince1970))
        _ = X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER)
        guard X509_verify_cert(context) == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            let text = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
            OpenSSLErrorQueue.clear()
            return .refused(text)
        }
        guard let chain = X509_STORE_CTX_get0_chain(context) else { return .refused("no chain") }
        var verified: [X509Certificate] = []
        for index in 0..<pinkit_sk_X509_num(chain) {
            guard let x509 = pinkit_sk_X509_value(chain, index), let certificate = try? X509Certificate(borrowing: x509)
            else { return .refused("the verified chain cannot be read") }
            verified.append(certificate)
        }
        return .verified(verified)
    }

    private enum Verdict {
        case verified([X509Certificate])
        case refused(String)
    }
}

extension X509Certificate {
    /// True when the certificate is self-issued and its own key verifies its signature.
    public var isSelfSigned: Bool { issued(self) }

    /// True when this certificate's key signed `child` and OpenSSL's issuer checks (name,
    /// authority key identifier, key usage) accept this certificate as `child`'s issuer.
    public func issued(_ child: X509Certificate) -> Bool {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        guard X509_check_issued(x509, child.x509) == X509_V_OK, let key = X509_get0_pubkey(x509) else { return false }
        return X509_verify(child.x509, key) == 1
    }

    /// False for an RSA key whose public exponent is over 33 bits (BoringSSL's limit; real CAs
    /// use 65537): verifying with it costs a full modular exponentiation.
    var hasBoundedPublicExponent: Bool {
        guard let key = X509_get0_pubkey(x509) else { return true }
        var exponent: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, "e", &exponent) == 1, let exponent else {
            OpenSSLErrorQueue.clear()
            return true
        }
        defer { BN_free(exponent) }
        return BN_num_bits(exponent) <= 33
    }

    /// The hash of the canonical subject name (OpenSSL's `X509_NAME_hash_ex`, the `c_rehash` name).
    var subjectNameHash: UInt { UInt(X509_NAME_hash_ex(X509_get_subject_name(x509), nil, nil, nil)) }
    /// The hash of the canonical issuer name: equal to the issuer certificate's `subjectNameHash`.
    var issuerNameHash: UInt { UInt(X509_NAME_hash_ex(X509_get_issuer_name(x509), nil, nil, nil)) }

    /// Same subject name and same key: two certificates for one CA (a cross-sign and its
    /// self-signed twin), which one path never needs twice.
    func sameSubjectAndKey(_ other: X509Certificate) -> Bool {
        X509_NAME_cmp(X509_get_subject_name(x509), X509_get_subject_name(other.x509)) == 0
            && spkiSHA256 == other.spkiSHA256
    }
}
