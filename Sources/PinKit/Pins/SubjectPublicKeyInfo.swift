/// A DER SubjectPublicKeyInfo built from a raw public key, the way an Apple adapter gets keys.
///
/// `SecKeyCopyExternalRepresentation` does not return an SPKI: for RSA it returns the PKCS#1
/// `RSAPublicKey` DER, for EC keys the X9.63 uncompressed point `04‖X‖Y`. Prepending a fixed
/// header per key size (TrustKit's way) gives wrong pins for every size nobody listed; this type
/// encodes the structure instead:
///
/// ```
/// SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
/// rsaEncryption (1.2.840.113549.1.1.1) with NULL parameters; BIT STRING = RSAPublicKey DER
/// id-ecPublicKey (1.2.840.10045.2.1) with the named curve's OID; BIT STRING = 04‖X‖Y
/// ```
///
/// Input is checked strictly (DER, positive integers, the curve's exact point length, coordinates
/// below the field prime), so whatever is accepted encodes back to the same raw bytes:
/// ``rawRepresentation`` of ``init(derEncoded:)`` of ``derEncoded`` is the input. A point's
/// membership of its curve is not checked (that needs field arithmetic); such a key yields a pin
/// that no certificate carries.
public struct SubjectPublicKeyInfo: Hashable, Sendable {
    /// The key algorithm and, for EC, the curve. A struct so that new types can be added.
    public struct KeyType: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public static let rsa = KeyType(rawValue: "rsa")
        public static let ecP256 = KeyType(rawValue: "ec-p256")
        public static let ecP384 = KeyType(rawValue: "ec-p384")
        public static let ecP521 = KeyType(rawValue: "ec-p521")
        public static let all: [KeyType] = [.rsa, .ecP256, .ecP384, .ecP521]
        public var description: String { rawValue }
        private init(rawValue: String) { self.rawValue = rawValue }
    }

    public let keyType: KeyType
    /// The key as `SecKeyCopyExternalRepresentation` returns it.
    public let rawRepresentation: [UInt8]
    /// The DER SubjectPublicKeyInfo: what `openssl pkey -pubin -outform der` prints.
    public let derEncoded: [UInt8]

    /// Encodes the SubjectPublicKeyInfo of a raw public key.
    /// - Parameters:
    ///   - keyType: RSA, or the EC curve.
    ///   - rawRepresentation: PKCS#1 `RSAPublicKey` DER for RSA; `04‖X‖Y` for EC.
    /// - Throws: ``PinKitError/Code/malformedPublicKey`` saying what was expected and what was seen:
    ///   a point of the wrong length, compressed or of another form, a coordinate not below the
    ///   prime, DER that is not minimal, a negative or zero integer, trailing bytes.
    public init<Bytes: Collection>(keyType: KeyType, rawRepresentation: Bytes) throws(PinKitError)
    where Bytes.Element == UInt8 {
        let raw = Array(rawRepresentation)
        let algorithm: [UInt8]
        switch keyType {
        case .rsa:
            try Self.checkRSAPublicKey(raw)
            algorithm = DER.sequence(DER.Tag.oid + [UInt8(OID.rsaEncryption.count)] + OID.rsaEncryption + DER.null)
        default:
            let curve = try Curve(keyType)
            try curve.checkPoint(raw)
            algorithm = DER.sequence(
                DER.Tag.oid + [UInt8(OID.ecPublicKey.count)] + OID.ecPublicKey + DER.Tag.oid + [UInt8(curve.oid.count)]
                    + curve.oid)
        }
        self.keyType = keyType
        self.rawRepresentation = raw
        self.derEncoded = DER.sequence(algorithm + DER.element(DER.Tag.bitString, [0] + raw))
    }

    /// Reads a DER SubjectPublicKeyInfo of one of the supported types.
    /// - Throws: ``PinKitError/Code/malformedPublicKey`` for anything else, or for DER that is not
    ///   exactly what ``init(keyType:rawRepresentation:)`` would encode.
    public init<Bytes: Collection>(derEncoded: Bytes) throws(PinKitError) where Bytes.Element == UInt8 {
        let der = Array(derEncoded)
        var reader = DER.Reader(der[...])
        var outer = try reader.read(DER.Tag.sequence[0], "SubjectPublicKeyInfo")
        try reader.expectEnd("after the SubjectPublicKeyInfo")
        var algorithm = try outer.read(DER.Tag.sequence[0], "AlgorithmIdentifier")
        let key = try outer.read(DER.Tag.bitString[0], "subjectPublicKey BIT STRING")
        try outer.expectEnd("after the subjectPublicKey")
        let oid = try algorithm.read(DER.Tag.oid[0], "algorithm OID")
        let keyType: KeyType
        if Array(oid.bytes) == OID.rsaEncryption {
            keyType = .rsa
        } else if Array(oid.bytes) == OID.ecPublicKey {
            let curveOID = try algorithm.read(DER.Tag.oid[0], "named curve OID")
            guard let curve = Curve.all.first(where: { $0.oid == Array(curveOID.bytes) }) else {
                throw Self.error("the curve is not P-256, P-384 or P-521")
            }
            keyType = curve.keyType
        } else {
            throw Self.error("the algorithm is neither rsaEncryption nor id-ecPublicKey")
        }
        guard let unused = key.bytes.first, unused == 0 else {
            throw Self.error("the BIT STRING must start with 0 unused bits")
        }
        let built = try SubjectPublicKeyInfo(keyType: keyType, rawRepresentation: key.bytes.dropFirst())
        guard built.derEncoded == der else {
            throw Self.error("the algorithm parameters are not the canonical ones for \(keyType)")
        }
        self = built
    }

    /// The pin: SHA-256 over ``derEncoded``, base64 in its text form.
    public var pin: SPKIPin {
        // Thirty-two bytes from SHA-256, always.
        try! SPKIPin(digest: PortableSHA256.hash(derEncoded))
    }

    // MARK: - Checks

    static func error(_ reason: String) -> PinKitError { PinKitError(.malformedPublicKey, reason) }

    /// RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }, DER, both positive.
    private static func checkRSAPublicKey(_ raw: [UInt8]) throws(PinKitError) {
        var reader = DER.Reader(raw[...])
        var sequence = try reader.read(DER.Tag.sequence[0], "RSAPublicKey")
        try reader.expectEnd("after the RSAPublicKey")
        for name in ["modulus", "public exponent"] {
            let integer = try sequence.read(DER.Tag.integer[0], "the \(name) INTEGER")
            let bytes = integer.bytes
            guard let first = bytes.first else { throw error("the \(name) is an empty INTEGER") }
            if first & 0x80 != 0 { throw error("the \(name) is negative (its first byte is 0x\(hex(first)))") }
            if bytes.count > 1, first == 0, bytes[bytes.startIndex + 1] & 0x80 == 0 {
                throw error("the \(name) is not minimally encoded (a needless leading zero byte)")
            }
            if bytes.allSatisfy({ $0 == 0 }) { throw error("the \(name) is zero") }
        }
        try sequence.expectEnd("after the public exponent")
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    private struct Curve {
        let keyType: KeyType
        let name: String
        let oid: [UInt8]
        /// The field prime, big-endian, as long as a coordinate.
        let prime: [UInt8]

        static let all = [
            Curve(
                keyType: .ecP256, name: "P-256", oid: [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07],
                prime: [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01] + [UInt8](repeating: 0, count: 12)
                    + [UInt8](repeating: 0xFF, count: 12)),
            Curve(
                keyType: .ecP384, name: "P-384", oid: [0x2B, 0x81, 0x04, 0x00, 0x22],
                prime: [UInt8](repeating: 0xFF, count: 31) + [0xFE] + [UInt8](repeating: 0xFF, count: 4)
                    + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 4)),
            Curve(
                keyType: .ecP521, name: "P-521", oid: [0x2B, 0x81, 0x04, 0x00, 0x23],
                prime: [0x01] + [UInt8](repeating: 0xFF, count: 65)),
        ]

        init(keyType: KeyType, name: String, oid: [UInt8], prime: [UInt8]) {
            (self.keyType, self.name, self.oid, self.prime) = (keyType, name, oid, prime)
        }

        init(_ keyType: KeyType) throws(PinKitError) {
            guard let curve = Self.all.first(where: { $0.keyType == keyType }) else {
                throw SubjectPublicKeyInfo.error("unsupported key type \(keyType)")
            }
            self = curve
        }

        func checkPoint(_ raw: [UInt8]) throws(PinKitError) {
            let size = prime.count
            guard let form = raw.first else { throw SubjectPublicKeyInfo.error("an empty \(name) point") }
            switch form {
            case 0x04:
                break
            case 0x02, 0x03:
                throw SubjectPublicKeyInfo.error(
                    "a compressed \(name) point (0x0\(form)); expected the uncompressed 04‖X‖Y that SecKey returns")
            default:
                throw SubjectPublicKeyInfo.error(
                    "a \(name) point must start with 0x04 (uncompressed), saw 0x\(SubjectPublicKeyInfo.hex(form))")
            }
            guard raw.count == 1 + 2 * size else {
                throw SubjectPublicKeyInfo.error(
                    "an uncompressed \(name) point is \(1 + 2 * size) bytes (04‖X‖Y), saw \(raw.count)")
            }
            for (name, start) in [("X", 1), ("Y", 1 + size)] {
                // Big-endian byte strings of equal length compare like the numbers.
                guard raw[start..<start + size].lexicographicallyPrecedes(prime) else {
                    throw SubjectPublicKeyInfo.error("the \(self.name) \(name) coordinate is not below the field prime")
                }
            }
        }
    }

    private enum OID {
        static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
        static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    }
}

extension SPKIPin {
    /// The pin of a raw public key as Apple's `SecKeyCopyExternalRepresentation` returns it.
    /// - Throws: ``PinKitError/Code/malformedPublicKey``; see ``SubjectPublicKeyInfo``.
    public init<Bytes: Collection>(keyType: SubjectPublicKeyInfo.KeyType, rawRepresentation: Bytes)
        throws(PinKitError)
    where Bytes.Element == UInt8 {
        self = try SubjectPublicKeyInfo(keyType: keyType, rawRepresentation: rawRepresentation).pin
    }
}
