extension KillSwitchDocument {
    /// What one signature entry amounts to for a given set of trusted keys.
    public struct SignatureCheck: Hashable, Sendable {
        public enum Status: String, Hashable, Sendable {
            /// A trusted key's valid signature over the payload bytes.
            case verified
            /// A trusted key id whose signature does not verify (another trusted entry may).
            case invalid = "invalid-signature"
            /// A trusted key id whose entry cannot even be read (not base64url, wrong length):
            /// rejects the whole document.
            case malformed
            /// An `alg` this version does not know: ignored, for forward compatibility.
            case unknownAlgorithm = "unknown-algorithm"
            /// A key id that is not configured: ignored.
            case unknownKey = "unknown-key"
        }

        public var signature: Signature
        public var status: Status
        /// One sentence for humans; the status is the stable code.
        public var message: String
    }

    /// Checks every signature entry against `trustedKeys` (key id → DER SubjectPublicKeyInfo).
    ///
    /// A document is acceptable when at least one entry is ``SignatureCheck/Status-swift.enum/verified``
    /// and none is ``SignatureCheck/Status-swift.enum/malformed``; entries with an unknown
    /// algorithm or key id are ignored.
    public func checkSignatures(trustedKeys: [String: [UInt8]], verifier: any KillSwitchSignatureVerifying)
        -> [SignatureCheck]
    {
        signatures.map { signature in
            func check(_ status: SignatureCheck.Status, _ message: String) -> SignatureCheck {
                SignatureCheck(signature: signature, status: status, message: message)
            }
            guard Self.knownAlgorithms.utf8Contains(signature.algorithm) else {
                return check(
                    .unknownAlgorithm, "alg \"\(signature.algorithm)\" is not one this version verifies; ignored")
            }
            guard let key = trustedKeys.first(where: { $0.key.utf8.elementsEqual(signature.keyId.utf8) })?.value else {
                return check(.unknownKey, "key id \"\(signature.keyId)\" is not configured; ignored")
            }
            guard let bytes = signature.bytes else {
                return check(.malformed, "the signature of trusted key \"\(signature.keyId)\" is not base64url")
            }
            guard bytes.count == 64 else {
                return check(
                    .malformed,
                    "the \(signature.algorithm) signature of trusted key \"\(signature.keyId)\" has \(bytes.count) bytes, expected 64"
                )
            }
            guard
                verifier.isValid(
                    signature: bytes, message: payloadBytes, algorithm: signature.algorithm, publicKeySPKI: key)
            else {
                return check(.invalid, "the signature of trusted key \"\(signature.keyId)\" does not verify")
            }
            return check(.verified, "signed by trusted key \"\(signature.keyId)\"")
        }
    }
}

extension [String] {
    /// Membership by UTF-8 bytes, not Unicode canonical equivalence (U+212A is not "K").
    func utf8Contains(_ element: String) -> Bool { contains { $0.utf8.elementsEqual(element.utf8) } }
}
