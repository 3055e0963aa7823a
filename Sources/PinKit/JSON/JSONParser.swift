/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Rejects, with the line and column: invalid UTF-8, control characters in strings, lone
/// surrogates, leading zeros, trailing commas, duplicate object keys, trailing content and
/// nesting deeper than ``maximumDepth``.
public struct JSONParser: Sendable {
    /// Nesting deeper than this is rejected, so hostile input cannot exhaust the stack.
    public static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one JSON document.
    /// - Throws: ``PinKitError`` with code ``PinKitError/Code/malformedJSON`` naming the position.
    public static func parse<Bytes: Sequence>(_ input: Bytes) throws(PinKitError) -> JSONValue
    where Bytes.Element == UInt8 {
        var parser = JSONParser(bytes: Array(input))
        // A UTF-8 byte order mark is tolerated, as RFC 8259 permits parsers to.
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < parser.bytes.count {
            throw parser.error("unexpected content after the end of the document")
        }
        return value
    }

    /// Parses a JSON document from a string.
    public static func parse(_ text: String) throws(PinKitError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private func error(_ message: String, at offset: Int? = nil) -> PinKitError {
        let position = min(offset ?? index, bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[..<position] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return PinKitError(.malformedJSON, "\(message) at line \(line), column \(column)")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(PinKitError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character \(describe(bytes[index])), expected a value")
        }
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(PinKitError) -> JSONValue {
        let utf8 = Array(word.utf8)
        guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw error("invalid literal, expected '\(word)'")
        }
        index += utf8.count
        return value
    }

    private mutating func parseNumber() throws(PinKitError) -> JSONValue {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let begin = parser.index
            while parser.index < parser.bytes.count, (0x30...0x39).contains(parser.bytes[parser.index]) {
                parser.index += 1
            }
            return parser.index - begin
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else {
            throw error("invalid number, expected a digit")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                throw error("invalid number, leading zeros are not allowed")
            }
        } else {
            _ = digits(&self)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("invalid number, expected a digit after '.'") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw error("invalid number, expected a digit in the exponent") }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func parseString() throws(PinKitError) -> String {
        let start = index
        index += 1  // opening quote
        var output: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: output, as: UTF8.self) else {
                    throw error("string is not valid UTF-8", at: start)
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated escape sequence") }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): output.append(0x22)
                case UInt8(ascii: "\\"): output.append(0x5C)
                case UInt8(ascii: "/"): output.append(0x2F)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "u"): output.append(contentsOf: try parseUnicodeEscape())
                default: throw error("invalid escape sequence '\\\(describe(escaped))'", at: index - 2)
                }
            case 0x00..<0x20:
                throw error("unescaped control character \(describe(byte)) in string")
            default:
                output.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseHex4() throws(PinKitError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw error("invalid hex digit \(describe(byte)) in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(PinKitError) -> [UInt8] {
        let escapeStart = index - 2
        var scalarValue = try parseHex4()
        if (0xD800...0xDBFF).contains(scalarValue) {
            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw error("lone high surrogate in \\u escape", at: escapeStart) }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error("high surrogate not followed by a low surrogate", at: escapeStart)
            }
            scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalarValue) {
            throw error("lone low surrogate in \\u escape", at: escapeStart)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw error("invalid \\u escape", at: escapeStart) }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func parseArray(depth: Int) throws(PinKitError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array, expected ',' or ']'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: throw error("unexpected character \(describe(bytes[index])), expected ',' or ']'")
            }
        }
    }

    private mutating func parseObject(depth: Int) throws(PinKitError) -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        var seen: Set<String> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key")
            }
            let keyStart = index
            let key = try parseString()
            guard seen.insert(key).inserted else { throw error("duplicate key \"\(key)\"", at: keyStart) }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after key") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object, expected ',' or '}'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw error("unexpected character \(describe(bytes[index])), expected ',' or '}'")
            }
        }
    }
}
