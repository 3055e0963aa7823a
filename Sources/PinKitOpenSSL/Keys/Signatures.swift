internal import COpenSSL
internal import CPinKitShims
import Foundation
public import PinKit

extension PrivateKey {
    /// The JOSE algorithm name for this key's signatures: `Ed25519` or `ES256`; nil otherwise.
    public var signatureAlgorithm: String? { VerifyingKey.algorithm(of: pkey) }

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
        return algorithm == "ES256" ? VerifyingKey.lowS(try VerifyingKey.rawECDSA(fromDER: signature)) : signature
    }
}

extension VerifyingKey {
    /// The order n of the P-256 group, big-endian.
    static let p256Order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// A raw P-256 `r‖s` with `s` in the lower half of the group order (`s ≤ n/2`, replacing
    /// `s` by `n - s`): the canonical form strict verifiers (Bitcoin's BIP 62, some KMS checks)
    /// require. Both forms verify here; the serial, not the signature bytes, stops replays.
    public static func lowS(_ raw: [UInt8]) -> [UInt8] {
        guard raw.count == 64 else { return raw }
        let s = Array(raw[32...])
        guard isHigh(s) else { return raw }
        return Array(raw[..<32]) + subtract(p256Order, s)
    }

    /// The same signature with `s` replaced by `n - s`: the other of the two valid forms.
    public static func flippedS(_ raw: [UInt8]) -> [UInt8] {
        guard raw.count == 64 else { return raw }
        return Array(raw[..<32]) + subtract(p256Order, Array(raw[32...]))
    }

    /// True when the 32-byte big-endian `s` is above n/2.
    public static func isHigh(_ s: [UInt8]) -> Bool {
        // n/2 rounded down; s > n/2 ⇔ 2s > n.
        var doubled = [UInt8](repeating: 0, count: 33)
        var carry = 0
        for index in stride(from: 31, through: 0, by: -1) {
            let value = Int(s[index]) * 2 + carry
            doubled[index + 1] = UInt8(value & 0xFF)
            carry = value >> 8
        }
        doubled[0] = UInt8(carry)
        let order = [0] + p256Order
        for (a, b) in zip(doubled, order) where a != b { return a > b }
        return false
    }

    private static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: a.count)
        var borrow = 0
        for index in stride(from: a.count - 1, through: 0, by: -1) {
            var value = Int(a[index]) - Int(b[index]) - borrow
            borrow = value < 0 ? 1 : 0
            if value < 0 { value += 256 }
            result[index] = UInt8(value)
        }
        return result
    }

    /// The JOSE form of a signature made elsewhere (a KMS, an HSM, `openssl pkeyutl`): ES256 as
    /// raw `r‖s` (64 bytes) or DER `ECDSA-Sig-Value`, Ed25519 as its 64 bytes.
    /// - Throws: ``PinKitError/Code/openSSL`` when the bytes are neither form.
    public static func joseSignature(_ bytes: [UInt8], algorithm: String) throws(PinKitError) -> [UInt8] {
        switch algorithm {
        case "Ed25519":
            guard bytes.count == 64 else {
                throw PinKitError(.openSSL, "an Ed25519 signature has 64 bytes, saw \(bytes.count)")
            }
            return bytes
        case "ES256":
            if bytes.count == 64 { return bytes }
            let raw = try rawECDSA(fromDER: bytes)
            // Strict DER: re-encoding must give the same bytes (no trailing garbage, no BER).
            guard derECDSA(fromRaw: raw) == bytes else {
                throw PinKitError(.openSSL, "the ECDSA signature is neither 64 raw bytes nor strict DER")
            }
            return raw
        default:
            throw PinKitError(.openSSL, "unknown signature algorithm \(algorithm)")
        }
    }
}

/// A public key read from its DER SubjectPublicKeyInfo, for verifying signatures.
public final class VerifyingKey: @unchecked Sendable {
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
        guard let key = try? VerifyingKey(spkiDER: publicKeySPKI) else { return false }
        return key.verify(signature: signature, message: message, algorithm: algorithm)
    }
}

extension VerifyingKey {
    /// A stable key id derived from the key: `ks-` and 12 hex digits of its SPKI's SHA-256.
    public static func keyID(spkiDER: [UInt8]) -> String {
        "ks-" + PortableSHA256.hex(spkiDER).prefix(12)
    }
}
