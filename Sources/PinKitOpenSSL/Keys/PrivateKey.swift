internal import COpenSSL
internal import CPinKitShims
import Foundation
public import PinKit

/// A private key backed by an OpenSSL `EVP_PKEY`: generation, PEM in and out, and its pin.
public final class PrivateKey: @unchecked Sendable {
    // @unchecked Sendable: the EVP_PKEY is never mutated after init; OpenSSL 3 allows
    // concurrent signing and encoding with one key.
    package let pkey: OpaquePointer

    /// The algorithms PinKit generates.
    public enum Kind: String, Sendable, CaseIterable {
        case ecP256 = "ec-p256"
        case ecP384 = "ec-p384"
        case rsa2048 = "rsa-2048"
        case rsa3072 = "rsa-3072"
        case rsa4096 = "rsa-4096"
        case ed25519 = "ed25519"
    }

    package init(takingOwnership pkey: OpaquePointer) { self.pkey = pkey }

    deinit { EVP_PKEY_free(pkey) }

    /// Generates a fresh key.
    /// - Throws: ``PinKitError/Code/openSSL`` when OpenSSL cannot generate it.
    public static func generate(_ kind: Kind) throws(PinKitError) -> PrivateKey {
        OpenSSLErrorQueue.clear()
        let key: OpaquePointer?
        switch kind {
        case .ecP256: key = generate(algorithm: "EC", curve: "P-256")
        case .ecP384: key = generate(algorithm: "EC", curve: "P-384")
        case .rsa2048: key = generate(algorithm: "RSA", bits: 2048)
        case .rsa3072: key = generate(algorithm: "RSA", bits: 3072)
        case .rsa4096: key = generate(algorithm: "RSA", bits: 4096)
        case .ed25519: key = generate(algorithm: "ED25519")
        }
        guard let key else { throw OpenSSLErrorQueue.error(.openSSL, "cannot generate a \(kind.rawValue) key") }
        return PrivateKey(takingOwnership: key)
    }

    private static func generate(algorithm: String) -> OpaquePointer? {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_generate(context, &key) == 1 else { return nil }
        return key
    }

    private static func generate(algorithm: String, curve: String) -> OpaquePointer? {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
            curve.withCString({ EVP_PKEY_CTX_set_group_name(context, $0) }) == 1,
            EVP_PKEY_generate(context, &key) == 1
        else { return nil }
        return key
    }

    private static func generate(algorithm: String, bits: UInt32) -> OpaquePointer? {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1,
            EVP_PKEY_generate(context, &key) == 1
        else { return nil }
        return key
    }

    /// Reads a PEM private key (PKCS#8, or traditional RSA/EC), unencrypted.
    /// - Throws: ``PinKitError/Code/malformedPEM`` when `pem` holds no readable private key.
    public convenience init(pem: String) throws(PinKitError) {
        OpenSSLErrorQueue.clear()
        let key: OpaquePointer? = pem.withCString { text in
            guard let bio = BIO_new_mem_buf(text, Int32(strlen(text))) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key else { throw OpenSSLErrorQueue.error(.malformedPEM, "no readable unencrypted private key") }
        self.init(takingOwnership: key)
    }

    /// The DER SubjectPublicKeyInfo of the public half.
    public var publicKeyDER: [UInt8] {
        derEncoded { i2d_PUBKEY(pkey, $0) }
    }

    /// The pin of the public key: what a certificate for this key will pin to.
    public var spkiPin: SPKIPin {
        // A 32-byte SHA-256 digest always makes a valid pin.
        try! SPKIPin(digest: X509Certificate.sha256(publicKeyDER))
    }

    /// PKCS#8 PEM of the private key. Handle with care: never log or print it.
    public var privateKeyPEM: String {
        bioString { PEM_write_bio_PrivateKey($0, pkey, nil, nil, 0, nil, nil) }
    }

    /// PEM of the public key (`-----BEGIN PUBLIC KEY-----`).
    public var publicKeyPEM: String { PEM.encode(publicKeyDER, label: "PUBLIC KEY") }

    /// True for keys whose signatures take no separate digest (Ed25519, Ed448).
    package var isEdwards: Bool {
        let id = EVP_PKEY_get_base_id(pkey)
        return id == EVP_PKEY_ED25519 || id == EVP_PKEY_ED448
    }
}

/// Runs `write` against a memory BIO and returns what it wrote.
func bioString(_ write: (OpaquePointer) -> Int32) -> String {
    guard let bio = BIO_new(BIO_s_mem()) else { return "" }
    defer { BIO_free(bio) }
    guard write(bio) == 1 else { return "" }
    var data: UnsafeMutablePointer<CChar>?
    let length = pinkit_BIO_get_mem_data(bio, &data)
    guard let data, length > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
}

extension PrivateKey {
    /// A PKCS#10 certificate signing request for this key, as PEM.
    /// - Parameter subject: attribute/value pairs in order, e.g. `[("O", "Acme"), ("CN", "backup")]`.
    /// - Throws: ``PinKitError/Code/openSSL`` when OpenSSL refuses a field or the signature.
    public func certificateSigningRequest(subject: [(attribute: String, value: String)]) throws(PinKitError) -> String {
        OpenSSLErrorQueue.clear()
        guard let request = X509_REQ_new(), let name = X509_NAME_new() else {
            throw OpenSSLErrorQueue.error(.openSSL, "cannot allocate a request")
        }
        defer {
            X509_REQ_free(request)
            X509_NAME_free(name)
        }
        for (attribute, value) in subject {
            guard X509_NAME_add_entry_by_txt(name, attribute, MBSTRING_UTF8, value, -1, -1, 0) == 1 else {
                throw OpenSSLErrorQueue.error(.openSSL, "cannot add \(attribute)=\(value) to the subject")
            }
        }
        guard X509_REQ_set_version(request, 0) == 1, X509_REQ_set_subject_name(request, name) == 1,
            X509_REQ_set_pubkey(request, pkey) == 1, X509_REQ_sign(request, pkey, isEdwards ? nil : EVP_sha256()) > 0
        else { throw OpenSSLErrorQueue.error(.openSSL, "cannot build or sign the request") }
        return bioString { PEM_write_bio_X509_REQ($0, request) }
    }

    /// Parses `/C=DE/O=Acme/CN=name` or `CN=name,O=Acme` into attribute/value pairs.
    public static func parseSubject(_ text: String) -> [(attribute: String, value: String)]? {
        let parts =
            text.hasPrefix("/")
            ? text.dropFirst().split(separator: "/").map(String.init)
            : text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var result: [(String, String)] = []
        for part in parts {
            let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty else { return nil }
            result.append((pieces[0], pieces[1]))
        }
        return result.isEmpty ? nil : result
    }
}
