/// A pin: the SHA-256 digest of a certificate's DER-encoded SubjectPublicKeyInfo.
///
/// The canonical text form is standard base64, exactly what
/// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`
/// prints. Equality is evaluated in constant time.
public struct SPKIPin: Hashable, Sendable, CustomStringConvertible {
    // Four words rather than an array: no allocation, and a branch-free comparison.
    private let w0: UInt64
    private let w1: UInt64
    private let w2: UInt64
    private let w3: UInt64

    /// The digest length in bytes.
    public static let byteCount = 32

    /// Creates a pin from the 32 digest bytes.
    /// - Throws: ``PinKitError/Code/invalidPin`` when `digest` is not 32 bytes.
    public init<Bytes: Collection>(digest: Bytes) throws(PinKitError) where Bytes.Element == UInt8 {
        guard digest.count == Self.byteCount else {
            throw PinKitError(.invalidPin, "a SHA-256 pin is 32 bytes, saw \(digest.count)")
        }
        var words: [UInt64] = [0, 0, 0, 0]
        for (offset, byte) in digest.enumerated() {
            words[offset / 8] = words[offset / 8] << 8 | UInt64(byte)
        }
        (w0, w1, w2, w3) = (words[0], words[1], words[2], words[3])
    }

    /// Creates a pin from exactly 32 digest bytes without copying them into an array (the
    /// handshake path). The caller guarantees the count.
    package init(unsafeDigest bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count == Self.byteCount)
        func word(_ offset: Int) -> UInt64 {
            UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        (w0, w1, w2, w3) = (word(0), word(8), word(16), word(24))
    }

    /// Parses a pin in any accepted form: plain base64, `sha256/…` (OkHttp), `sha256//…` (curl)
    /// or `pin-sha256="…"` (HPKP). Surrounding white space is ignored.
    /// - Throws: ``PinKitError/Code/invalidPin`` saying what was expected and what was seen.
    public init(parsing text: String) throws(PinKitError) {
        let trimmed = text.trimmingASCIIWhitespace()
        let encoded = try Self.stripForm(trimmed)
        switch Base64.decode(encoded) {
        case .success(let digest):
            guard digest.count == Self.byteCount else {
                throw PinKitError(
                    .invalidPin,
                    "\"\(Self.excerpt(text))\" decodes to \(digest.count) bytes, a SHA-256 pin is 32 bytes"
                )
            }
            try self.init(digest: digest)
        case .failure(let failure):
            var reason = "\"\(Self.excerpt(text))\" is not standard base64: \(failure)"
            if case .wrongAlphabet = failure { reason += " (base64url is not accepted; use '+' and '/')" }
            throw PinKitError(.invalidPin, reason)
        }
    }

    private static func stripForm(_ text: String) throws(PinKitError) -> String {
        // Plain base64 first: every character of "sha256/" or "sha512/" is also base64, so a real
        // pin can begin with them (found by fuzzing). The forms differ in length, so this is exact.
        if text.utf8.count == 44, case .success(let digest) = Base64.decode(text), digest.count == byteCount {
            return text
        }
        let lower = text.lowercased()
        if lower.hasPrefix("pin-sha256=") {
            let value = text.dropFirst("pin-sha256=".count)
            guard value.count >= 2, value.first == "\"", value.last == "\"" else {
                throw PinKitError(.invalidPin, "HPKP form must be pin-sha256=\"<base64>\", saw \"\(excerpt(text))\"")
            }
            return String(value.dropFirst().dropLast())
        }
        // "sha256//X" is curl's form, but also OkHttp's "sha256/" + a base64 text that starts
        // with "/". Only one reading can be the 44 characters of a 32-byte digest.
        if lower.hasPrefix("sha256//") {
            let curl = String(text.dropFirst("sha256//".count))
            return curl.utf8.count == 44 ? curl : String(text.dropFirst("sha256/".count))
        }
        if lower.hasPrefix("sha256/") { return String(text.dropFirst("sha256/".count)) }
        for other in ["sha1/", "sha384/", "sha512/", "pin-sha1=", "md5/"] where lower.hasPrefix(other) {
            throw PinKitError(
                .invalidPin,
                "only SHA-256 pins are supported, saw a \(other.dropLast()) pin \"\(excerpt(text))\""
            )
        }
        if text.isEmpty { throw PinKitError(.invalidPin, "empty pin, expected 44 characters of base64") }
        return text
    }

    /// Input is echoed back in errors; keep it bounded.
    private static func excerpt(_ text: String) -> String {
        text.count <= 80 ? text : String(text.prefix(77)) + "..."
    }

    /// The 32 digest bytes.
    public var digest: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for word in [w0, w1, w2, w3] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        return bytes
    }

    /// Standard base64, as the openssl pipeline prints it.
    public var base64: String { Base64.encode(digest) }

    public var description: String { base64 }

    /// True when every byte is the same: `AAAA…=` and friends are placeholders, never real digests.
    public var isPlaceholder: Bool {
        let first = UInt8(truncatingIfNeeded: w0 >> 56)
        let repeated = UInt64(first) &* 0x0101_0101_0101_0101
        return w0 == repeated && w1 == repeated && w2 == repeated && w3 == repeated
    }

    /// Constant-time comparison: the time taken does not depend on where the digests differ.
    public static func == (lhs: SPKIPin, rhs: SPKIPin) -> Bool {
        ((lhs.w0 ^ rhs.w0) | (lhs.w1 ^ rhs.w1) | (lhs.w2 ^ rhs.w2) | (lhs.w3 ^ rhs.w3)) == 0
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(w0)
        hasher.combine(w1)
        hasher.combine(w2)
        hasher.combine(w3)
    }
}

extension StringProtocol {
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
