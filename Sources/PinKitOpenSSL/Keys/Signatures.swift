internal import COpenSSL
internal import CPinKitShims
import Foundation
public import PinKit

extension PrivateKey {
    /// The JOSE algorithm name for this key's signatures: `Ed25519` or `ES256`; nil otherwise.
    public var signatureAlgorithm: String? { PublicKey.algorithm(of: pkey) }

    /// Signs `message`: Ed25519 (64 bytes), or ECDSA P-256 with SHA-256 as JOSE's raw `r‖s`
    /// (64 bytes).
    /// - Throws: ``PinKitError/Code/openSSL`` for other key types or a failed signature.
    public func sign(_ message: [UInt8]) throws(PinKitError) -> [UInt8] {
        guard let algorithm = signatureAlgorithm else {
            throw PinKitError(.openSSL, "only Ed25519 and EC P-256 keys sign kill-switch documents")
        }
        OpenSSLErrorQueue.clear()
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLErrorQueue.error(.openSSL, "no digest context") }
        defer { EVP_MD_CTX_free(context) }
        let digest = algorithm == "Ed25519" ? nil : EVP_sha256()
        guard EVP_DigestSignInit(context, nil, digest, nil, pkey) == 1 else {
            throw OpenSSLErrorQueue.error(.openSSL, "cannot start signing")
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw OpenSSLErrorQueue.error(.openSSL, "cannot size the signature")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw OpenSSLErrorQueue.error(.openSSL, "signing failed")
        }
        signature = Array(signature.prefix(length))
        return algorithm == "ES256" ? try PublicKey.rawECDSA(fromDER: signature) : signature
    }
}

/// A public key read from its DER SubjectPublicKeyInfo, for verifying signatures.
public final class PublicKey: @unchecked Sendable {
    // @unchecked Sendable: the EVP_PKEY is never mutated after init; verification with one key
    // from several threads is safe in OpenSSL 3.
    package let pkey: OpaquePointer

    /// - Throws: ``PinKitError/Code/malformedDER`` when `der` is not a SubjectPublicKeyInfo.
    public init(spkiDER der: [UInt8]) throws(PinKitError) {
        OpenSSLErrorQueue.clear()
        var consumed = 0
        let key: OpaquePointer? = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let start = buffer.baseAddress, !buffer.isEmpty else { return nil }
            var cursor: UnsafePointer<UInt8>? = start
            let key = d2i_PUBKEY(nil, &cursor, buffer.count)
            consumed = cursor.map { start.distance(to: $0) } ?? 0
            return key
        }
        guard let key else { throw OpenSSLErrorQueue.error(.malformedDER, "not a DER SubjectPublicKeyInfo") }
        guard consumed == der.count else {
            EVP_PKEY_free(key)
            throw PinKitError(.malformedDER, "unexpected bytes after the SubjectPublicKeyInfo")
        }
        pkey = key
    }

    /// Reads a `-----BEGIN PUBLIC KEY-----` PEM.
    public convenience init(pem: String) throws(PinKitError) {
        guard let block = try PEM.blocks(in: pem).first(where: { $0.label == "PUBLIC KEY" }) else {
            throw PinKitError(.malformedPEM, "expected a PUBLIC KEY block")
        }
        try self.init(spkiDER: block.der)
    }

    deinit { EVP_PKEY_free(pkey) }

    /// `Ed25519`, `ES256` (EC P-256), or nil for keys that cannot verify kill-switch documents.
    public var algorithm: String? { Self.algorithm(of: pkey) }

    static func algorithm(of pkey: OpaquePointer) -> String? {
        switch EVP_PKEY_get_base_id(pkey) {
        case EVP_PKEY_ED25519: return "Ed25519"
        case EVP_PKEY_EC:
            var name = [CChar](repeating: 0, count: 64)
            var length = 0
            guard EVP_PKEY_get_group_name(pkey, &name, name.count, &length) == 1 else { return nil }
            return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1"
                ? "ES256" : nil
        default: return nil
        }
    }

    /// True when `signature` is this key's valid signature of `message` under `algorithm`.
    /// Any malformed input is simply "not valid".
    public func verify(signature: [UInt8], message: [UInt8], algorithm: String) -> Bool {
        guard algorithm == self.algorithm else { return false }
        let encoded: [UInt8]
        if algorithm == "ES256" {
            guard signature.count == 64, let der = Self.derECDSA(fromRaw: signature) else { return false }
            encoded = der
        } else {
            guard signature.count == 64 else { return false }
            encoded = signature
        }
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, algorithm == "Ed25519" ? nil : EVP_sha256(), nil, pkey) == 1 else {
            return false
        }
        return EVP_DigestVerify(context, encoded, encoded.count, message, message.count) == 1
    }

    static func rawECDSA(fromDER der: [UInt8]) throws(PinKitError) -> [UInt8] {
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw OpenSSLErrorQueue.error(.openSSL, "unreadable ECDSA signature") }
        defer { ECDSA_SIG_free(signature) }
        var raw = [UInt8](repeating: 0, count: 64)
        guard let r = ECDSA_SIG_get0_r(signature), let s = ECDSA_SIG_get0_s(signature),
            BN_bn2binpad(r, &raw, 32) == 32,
            raw.withUnsafeMutableBufferPointer({ BN_bn2binpad(s, $0.baseAddress! + 32, 32) }) == 32
        else { throw PinKitError(.openSSL, "ECDSA signature components out of range") }
        return raw
    }

    static func derECDSA(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = BN_bin2bn(raw, 32, nil)
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let der = derEncoded { i2d_ECDSA_SIG(signature, $0) }
        return der.isEmpty ? nil : der
    }
}

/// Kill-switch signature checks with OpenSSL, for the core's state machine.
public struct OpenSSLSignatureVerifier: KillSwitchSignatureVerifying {
    public init() {}

    public func isValid(signature: [UInt8], message: [UInt8], algorithm: String, publicKeySPKI: [UInt8]) -> Bool {
        guard let key = try? PublicKey(spkiDER: publicKeySPKI) else { return false }
        return key.verify(signature: signature, message: message, algorithm: algorithm)
    }
}

extension PublicKey {
    /// A stable key id derived from the key: `ks-` and 12 hex digits of its SPKI's SHA-256.
    public static func keyID(spkiDER: [UInt8]) -> String {
        "ks-" + SHA256.hex(spkiDER).prefix(12)
    }
}
