/// Strict base64 (RFC 4648 section 4) and base64url (section 5) without Foundation.
///
/// Strict means: no whitespace, no characters of the other alphabet, padding exactly as the
/// alphabet requires (standard: required; url: forbidden), and zero unused trailing bits, so
/// that every byte string has exactly one accepted encoding.
public enum Base64 {
    public enum Alphabet: Sendable {
        /// `+` and `/`, padded with `=`.
        case standard
        /// `-` and `_`, unpadded (as JWS and the kill-switch envelope use it).
        case url
    }

    private static let standardTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    public static func encode<Bytes: Collection>(_ bytes: Bytes, alphabet: Alphabet = .standard) -> String
    where Bytes.Element == UInt8 {
        let table = alphabet == .standard ? standardTable : urlTable
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let chunk = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(table[Int(chunk >> 18 & 63)])
            output.append(table[Int(chunk >> 12 & 63)])
            if second != nil {
                output.append(table[Int(chunk >> 6 & 63)])
            } else if alphabet == .standard {
                output.append(UInt8(ascii: "="))
            }
            if third != nil {
                output.append(table[Int(chunk & 63)])
            } else if alphabet == .standard {
                output.append(UInt8(ascii: "="))
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes `text`, or returns why it is not valid in the given alphabet.
    public static func decode(_ text: String, alphabet: Alphabet = .standard) -> Result<[UInt8], DecodingFailure> {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var padding = 0
        for (offset, byte) in text.utf8.enumerated() {
            if byte == UInt8(ascii: "=") {
                guard alphabet == .standard else { return .failure(.unexpectedPadding) }
                padding += 1
                continue
            }
            guard padding == 0 else { return .failure(.dataAfterPadding) }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+") where alphabet == .standard, UInt8(ascii: "-") where alphabet == .url: value = 62
            case UInt8(ascii: "/") where alphabet == .standard, UInt8(ascii: "_") where alphabet == .url: value = 63
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                return .failure(.wrongAlphabet(offset: offset))
            default: return .failure(.invalidCharacter(offset: offset))
            }
            values.append(value)
        }
        let remainder = values.count % 4
        if remainder == 1 { return .failure(.truncated) }
        if alphabet == .standard {
            let expectedPadding = remainder == 0 ? 0 : 4 - remainder
            guard padding == expectedPadding else { return .failure(.wrongPadding) }
        }
        var output: [UInt8] = []
        output.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index + 4 <= values.count {
            let chunk =
                UInt32(values[index]) << 18 | UInt32(values[index + 1]) << 12 | UInt32(values[index + 2]) << 6
                | UInt32(values[index + 3])
            output.append(UInt8(chunk >> 16 & 0xFF))
            output.append(UInt8(chunk >> 8 & 0xFF))
            output.append(UInt8(chunk & 0xFF))
            index += 4
        }
        switch remainder {
        case 2:
            guard values[index + 1] & 0x0F == 0 else { return .failure(.nonZeroTrailingBits) }
            output.append(values[index] << 2 | values[index + 1] >> 4)
        case 3:
            guard values[index + 2] & 0x03 == 0 else { return .failure(.nonZeroTrailingBits) }
            output.append(values[index] << 2 | values[index + 1] >> 4)
            output.append((values[index + 1] & 0x0F) << 4 | values[index + 2] >> 2)
        default: break
        }
        return .success(output)
    }

    public enum DecodingFailure: Error, Equatable, Sendable, CustomStringConvertible {
        case invalidCharacter(offset: Int)
        case wrongAlphabet(offset: Int)
        case unexpectedPadding
        case dataAfterPadding
        case wrongPadding
        case truncated
        case nonZeroTrailingBits

        public var description: String {
            switch self {
            case .invalidCharacter(let offset): return "a character that is not base64 at offset \(offset)"
            case .wrongAlphabet(let offset): return "a character of the other base64 alphabet at offset \(offset)"
            case .unexpectedPadding: return "'=' padding, which base64url does not use"
            case .dataAfterPadding: return "characters after '=' padding"
            case .wrongPadding: return "wrong '=' padding for the length"
            case .truncated: return "a truncated final group"
            case .nonZeroTrailingBits: return "non-zero unused bits in the final group (not canonical)"
            }
        }
    }
}
