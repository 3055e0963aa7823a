internal import COpenSSL
internal import CPinKitShims
public import Foundation
public import PinKit

/// An X.509 certificate backed by an OpenSSL `X509`.
///
/// Every fact the pinning core needs is read once, at creation, into Swift values: the SPKI
/// digest is computed from the `X509_PUBKEY` already decoded (about a microsecond), never by
/// re-parsing DER.
public final class X509Certificate: Hashable, @unchecked Sendable {
    // @unchecked Sendable: `x509` is never mutated after init (only const OpenSSL accessors are
    // called on it, which are thread-safe in OpenSSL 3) and every other stored property is a let.
    package let x509: OpaquePointer

    /// The platform-neutral facts the core evaluates.
    public let facts: CertificateFacts
    /// Key algorithm: `RSA`, `EC`, `Ed25519`, `Ed448`, `RSA-PSS`, `DSA`, or OpenSSL's name.
    public let keyType: String
    /// Key size in bits as OpenSSL reports it (RSA modulus, EC field size, 256 for Ed25519, 456 for Ed448).
    public let keyBits: Int
    /// For EC keys, the curve (`P-256`, `P-384`, `P-521`, or OpenSSL's name).
    public let curve: String?

    public var spkiSHA256: SPKIPin { facts.spki }
    public var subject: String { facts.subject }
    public var issuer: String { facts.issuer }
    public var notBefore: Date { facts.notBefore }
    public var notAfter: Date { facts.notAfter }
    public var dnsNames: [String] { facts.dnsNames }

    /// Wraps `x509`, taking over the caller's reference (it is freed with this object).
    /// - Throws: ``PinKitError/Code/malformedDER`` when a field the core needs cannot be read.
    package init(takingOwnership x509: OpaquePointer) throws(PinKitError) {
        self.x509 = x509
        do throws(PinKitError) {
            guard let pubkey = X509_get_X509_PUBKEY(x509), let key = X509_get0_pubkey(x509) else {
                throw OpenSSLErrorQueue.error(.malformedDER, "the certificate's public key cannot be decoded")
            }
            let spki = try Self.sha256(ofEncoded: pubkey)
            let (type, curve) = Self.keyType(of: key)
            self.keyType = type
            self.curve = curve
            self.keyBits = Int(EVP_PKEY_get_bits(key))
            guard let notBefore = Self.date(X509_get0_notBefore(x509)),
                let notAfter = Self.date(X509_get0_notAfter(x509))
            else { throw PinKitError(.malformedDER, "the certificate's validity dates cannot be read") }
            self.facts = CertificateFacts(
                spki: spki,
                subject: Self.rfc2253(X509_get_subject_name(x509)),
                issuer: Self.rfc2253(X509_get_issuer_name(x509)),
                notBefore: notBefore,
                notAfter: notAfter,
                dnsNames: Self.dnsNames(x509)
            )
        } catch {
            X509_free(x509)
            throw error
        }
    }

    /// Makes a new reference to an `X509` that someone else owns (e.g. a chain in a store context).
    package convenience init(borrowing x509: OpaquePointer) throws(PinKitError) {
        X509_up_ref(x509)
        try self.init(takingOwnership: x509)
    }

    deinit { X509_free(x509) }

    /// Parses exactly one DER certificate.
    /// - Throws: ``PinKitError/Code/malformedDER`` for anything else, including trailing bytes.
    public convenience init(der: [UInt8]) throws(PinKitError) {
        OpenSSLErrorQueue.clear()
        var consumed = 0
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let start = buffer.baseAddress, buffer.count > 0 else { return nil }
            var cursor: UnsafePointer<UInt8>? = start
            let x509 = d2i_X509(nil, &cursor, buffer.count)
            consumed = cursor.map { start.distance(to: $0) } ?? 0
            return x509
        }
        guard let parsed else {
            throw OpenSSLErrorQueue.error(.malformedDER, "\(der.count) bytes are not a DER certificate")
        }
        guard consumed == der.count else {
            X509_free(parsed)
            throw PinKitError(
                .malformedDER,
                "a DER certificate of \(consumed) bytes is followed by \(der.count - consumed) unexpected bytes"
            )
        }
        try self.init(takingOwnership: parsed)
    }

    /// Every certificate in PEM text (several blocks, with or without text around them).
    /// Blocks with other labels (keys, CSRs) are skipped.
    /// - Throws: ``PinKitError/Code/malformedPEM`` or ``PinKitError/Code/malformedDER`` naming the
    ///   bad block, or ``PinKitError/Code/noCertificate`` when there is none.
    public static func load(pem text: String) throws(PinKitError) -> [X509Certificate] {
        let blocks = try PEM.blocks(in: text)
        var certificates: [X509Certificate] = []
        for block in blocks where ["CERTIFICATE", "X509 CERTIFICATE"].contains(block.label) {
            do {
                certificates.append(try X509Certificate(der: block.der))
            } catch {
                throw PinKitError(error.code, "the CERTIFICATE block at line \(block.line): \(error.reason)")
            }
        }
        guard !certificates.isEmpty else {
            let seen =
                blocks.isEmpty ? "no PEM block" : "only " + Set(blocks.map(\.label)).sorted().joined(separator: ", ")
            throw PinKitError(.noCertificate, "expected a CERTIFICATE block, found \(seen)")
        }
        return certificates
    }

    /// Certificates from bytes in PEM or DER form, detected from the content.
    public static func load(bytes: [UInt8]) throws(PinKitError) -> [X509Certificate] {
        if bytes.isEmpty { throw PinKitError(.noCertificate, "the input is empty") }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains("-----BEGIN ") || text.contains("-----END ") { return try load(pem: text) }
        if bytes.first == 0x30 { return [try X509Certificate(der: bytes)] }
        throw PinKitError(.noCertificate, "expected PEM text with a CERTIFICATE block or DER bytes, found neither")
    }

    /// Certificates from a PEM or DER file.
    public static func load(contentsOf path: String) throws(PinKitError) -> [X509Certificate] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PinKitError(.io, "cannot read \(path)")
        }
        do {
            return try load(bytes: Array(data))
        } catch {
            throw PinKitError(error.code, "\(path): \(error.reason)")
        }
    }

    /// The DER encoding.
    public var der: [UInt8] {
        derEncoded { i2d_X509(x509, $0) }
    }

    /// PEM text with one CERTIFICATE block.
    public var pem: String { PEM.encode(der, label: "CERTIFICATE") }

    /// True when subject and issuer are equal (a self-issued certificate, typically a root).
    public var isSelfIssued: Bool { X509_NAME_cmp(X509_get_subject_name(x509), X509_get_issuer_name(x509)) == 0 }

    public static func == (lhs: X509Certificate, rhs: X509Certificate) -> Bool {
        X509_cmp(lhs.x509, rhs.x509) == 0
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(der) }

    // MARK: - Reading fields

    /// SHA-256 over the DER SubjectPublicKeyInfo exactly as the certificate encodes it.
    ///
    /// On the handshake path: one encoding of the already-decoded key, one digest with an
    /// algorithm fetched once (OpenSSL 3's one-shot `PortableSHA256()` fetches it on every call).
    package static func sha256(ofEncoded pubkey: OpaquePointer) throws(PinKitError) -> SPKIPin {
        var encoded: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509_PUBKEY(pubkey, &encoded)
        guard length > 0, let encoded else {
            throw OpenSSLErrorQueue.error(.malformedDER, "the public key cannot be encoded")
        }
        defer { pinkit_OPENSSL_free(encoded) }
        return try digestPin(UnsafeRawBufferPointer(start: encoded, count: Int(length)))
    }

    package static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { input in
            var digest = [UInt8](repeating: 0, count: 32)
            var size: UInt32 = 32
            _ = EVP_Digest(input.baseAddress, input.count, &digest, &size, sha256Algorithm, nil)
            return digest
        }
    }

    private static func digestPin(_ bytes: UnsafeRawBufferPointer) throws(PinKitError) -> SPKIPin {
        var digest: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var size: UInt32 = 32
        let ok = withUnsafeMutableBytes(of: &digest) { output in
            EVP_Digest(bytes.baseAddress, bytes.count, output.baseAddress, &size, sha256Algorithm, nil)
        }
        guard ok == 1, size == 32 else { throw OpenSSLErrorQueue.error(.openSSL, "SHA-256 failed") }
        return withUnsafeBytes(of: &digest) { SPKIPin(unsafeDigest: $0) }
    }

    /// Fetched once: a fetched algorithm is immutable and safe to share between threads.
    nonisolated(unsafe) private static let sha256Algorithm: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

    private static func keyType(of key: OpaquePointer) -> (String, String?) {
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA: return ("RSA", nil)
        case EVP_PKEY_RSA_PSS: return ("RSA-PSS", nil)
        case EVP_PKEY_DSA: return ("DSA", nil)
        case EVP_PKEY_ED25519: return ("Ed25519", nil)
        case EVP_PKEY_ED448: return ("Ed448", nil)
        case EVP_PKEY_EC:
            var name = [CChar](repeating: 0, count: 80)
            var length = 0
            guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else { return ("EC", nil) }
            let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let friendly = ["prime256v1": "P-256", "secp384r1": "P-384", "secp521r1": "P-521"]
            return ("EC", friendly[group] ?? group)
        default:
            guard let name = EVP_PKEY_get0_type_name(key) else { return ("unknown", nil) }
            return (String(cString: name), nil)
        }
    }

    /// The name as `openssl x509 -noout -subject -nameopt RFC2253` prints it, without the prefix.
    private static func rfc2253(_ name: OpaquePointer?) -> String {
        guard let name, let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        guard X509_NAME_print_ex(bio, name, 0, pinkit_XN_FLAG_RFC2253()) >= 0 else { return "" }
        var data: UnsafeMutablePointer<CChar>?
        let length = pinkit_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return RFC3339.date(
            year: Int(parts.tm_year) + 1900,
            month: Int(parts.tm_mon) + 1,
            day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour),
            minute: Int(parts.tm_min),
            second: Int(parts.tm_sec)
        )
    }

    private static func dnsNames(_ x509: OpaquePointer) -> [String] {
        let needed = pinkit_X509_copy_dns_names(x509, nil, 0)
        guard needed > 0 else { return [] }
        var buffer = [CChar](repeating: 0, count: needed)
        _ = pinkit_X509_copy_dns_names(x509, &buffer, needed)
        return buffer.split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }
}

extension X509Certificate {
    /// The subject as (short attribute name, UTF-8 value) pairs, in order; for re-issuing a
    /// certificate with the same subject (cross-signing).
    public var subjectAttributes: [(attribute: String, value: String)] {
        guard let name = X509_get_subject_name(x509) else { return [] }
        var result: [(String, String)] = []
        for index in 0..<X509_NAME_entry_count(name) {
            guard let entry = X509_NAME_get_entry(name, index),
                let object = X509_NAME_ENTRY_get_object(entry),
                let data = X509_NAME_ENTRY_get_data(entry)
            else { continue }
            let nid = OBJ_obj2nid(object)
            let short = OBJ_nid2sn(nid).map { String(cString: $0) } ?? "CN"
            var utf8: UnsafeMutablePointer<UInt8>?
            let length = ASN1_STRING_to_UTF8(&utf8, data)
            guard length >= 0, let utf8 else { continue }
            result.append(
                (short, String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)))
            pinkit_OPENSSL_free(utf8)
        }
        return result
    }
}

extension X509Certificate {
    /// Hashes the SPKI again from the decoded `X509` (what the handshake path does per
    /// certificate); for benchmarks that compare it with re-parsing DER.
    package func recomputedSPKI() throws(PinKitError) -> SPKIPin {
        guard let pubkey = X509_get_X509_PUBKEY(x509) else { throw PinKitError(.malformedDER, "no public key") }
        return try Self.sha256(ofEncoded: pubkey)
    }
}
