/// Rule 2: credentials in headers and key–value pairs. The key (any ASCII case) is kept with its
/// separator and opening quote; the value becomes `[redacted-secret]`.
struct CredentialRule<Counter: LogSanitizerCounting> {
    let text: SanitizerInput<Counter>
    typealias Classes = LogSanitizer.Classes
    typealias Kind = LogSanitizer.CredentialKind

    /// Whether a key can end before the separator at `separator`: after `[ \t]*` and an optional
    /// closing quote, the last byte is one a key ends in (`n e d t y`, any case).
    @inline(__always) func keyMayEnd(before separator: Int, bound: Int) -> Bool {
        var k = separator
        while k > bound, text.byte(k - 1) == 0x20 || text.byte(k - 1) == 0x09 { k -= 1 }
        if k > bound, text.has(k - 1, Classes.quote) {
            k -= 1
            if k > bound, text.byte(k - 1) == UInt8(ascii: "\\") { k -= 1 }
        }
        return k > bound && text.has(k - 1, Classes.keyEnd)
    }

    /// The credential key before the separator at `separator` (not reaching below `gapStart`):
    /// where it starts and its kind, or nil.
    func key(before separator: Int, gapStart: Int) -> (start: Int, kind: Kind)? {
        // Backwards: [ \t]*, an optional closing quote of the key (", \" or '), the key.
        var k = separator
        while k > gapStart, text.byte(k - 1) == 0x20 || text.byte(k - 1) == 0x09 { k -= 1 }
        if k > gapStart, text.byte(k - 1) == UInt8(ascii: "\"") {
            k -= 1
            if k > gapStart, text.byte(k - 1) == UInt8(ascii: "\\") { k -= 1 }
        } else if k > gapStart, text.byte(k - 1) == UInt8(ascii: "'") {
            k -= 1
        }
        // Every key ends in one of "n", "e", "d", "t", "y": most separators are rejected here, and
        // the last letter leaves one to three keys to compare.
        guard k > gapStart else { return nil }
        var keyStart = k
        func key(_ name: StaticString) -> Bool {
            let length = name.utf8CodeUnitCount
            guard k - length >= gapStart, text.matches(name, at: k - length, end: k) else { return false }
            keyStart = k - length
            return true
        }
        let kind: Kind
        switch text.lowered(k - 1) {
        case UInt8(ascii: "n"):
            if key("authorization") {
                kind = .header
            } else if key("token") {
                kind = .value
            } else {
                return nil
            }
        case UInt8(ascii: "e"):
            guard key("cookie") else { return nil }
            kind = .header
        case UInt8(ascii: "d"):
            guard key("password") || key("passwd") else { return nil }
            kind = .value
        case UInt8(ascii: "t"):
            guard key("secret") else { return nil }
            kind = .value
        case UInt8(ascii: "y"):
            guard key("api_key") || key("api-key") || key("apikey") else { return nil }
            kind = .value
        default:
            return nil
        }
        return (keyStart, kind)
    }

    /// The credential whose key `key` ends before the separator at `separator`; its value stops at
    /// `stop` (the next URL's start, `Int.max`: none). Nil when the value is empty.
    func credential(key: (start: Int, kind: Kind), separator: Int, stop: Int) -> LogSanitizer.Span? {
        let end = text.count
        let (keyStart, kind) = key
        // Forwards: [ \t]*, an optional opening quote, the value.
        var v = separator + 1
        while v < end, v != stop, text.byte(v) == 0x20 || text.byte(v) == 0x09 { v += 1 }
        var quote: UInt8?
        var escaped = false
        if v < end, v != stop {
            let byte = text.byte(v)
            if byte == UInt8(ascii: "\\"), v + 1 < end, v + 1 != stop, text.byte(v + 1) == UInt8(ascii: "\"") {
                escaped = true
                v += 2
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
                v += 1
            }
        }
        // A value that already is a placeholder stays as it is, and so does its key: a second pass
        // then sees the same spans and gaps as the first.
        if let placeholderEnd = placeholderEnd(at: v, end: end, stop: stop) {
            return LogSanitizer.Span(start: keyStart, end: placeholderEnd, keepEnd: placeholderEnd, placeholder: .none)
        }
        let valueEnd: Int
        let length: Int
        if escaped {
            (valueEnd, length) = SanitizerScan.escapedQuoteEnd(text, from: v, end: end, stop: stop)
        } else if let quote {
            (valueEnd, length) = SanitizerScan.quotedEnd(text, from: v, end: end, quote: quote, stop: stop)
        } else if kind == .header {
            (valueEnd, length) = headerEnd(from: v, end: end, stop: stop)
        } else {
            (valueEnd, length) = unquotedEnd(from: v, end: end, stop: stop)
        }
        guard length > 0 else { return nil }
        return LogSanitizer.Span(start: keyStart, end: valueEnd, keepEnd: v, placeholder: .secret)
    }

    /// The end of `[redacted-` + `[a-z]+` + `]` at `start` (no URL span inside), or nil.
    func placeholderEnd(at start: Int, end: Int, stop: Int) -> Int? {
        let prefix: StaticString = "[redacted-"
        let length = prefix.utf8CodeUnitCount
        guard start + length < end else { return nil }
        for offset in 0..<length where text.byte(start + offset) != prefix.utf8Start[offset] { return nil }
        var p = start + length
        while p < end, text.byte(p) >= UInt8(ascii: "a"), text.byte(p) <= UInt8(ascii: "z") { p += 1 }
        guard p > start + length, p < end, text.byte(p) == UInt8(ascii: "]") else { return nil }
        guard stop > p else { return nil }
        return p + 1
    }

    /// An unquoted header value: to a line break, or to a quote that closes the string it is in.
    func headerEnd(from start: Int, end: Int, stop: Int) -> (Int, Int) {
        let limit = min(end, stop)
        var p = start
        while p < limit {
            let byte = text.byte(p)
            if byte == 0x0A || byte == 0x0D { break }
            if text.table[Int(byte)] & Classes.quote != 0, SanitizerScan.closes(text, quoteAt: p, end: end, stop: stop)
            {
                break
            }
            if byte == UInt8(ascii: "\\"), p + 1 < limit, text.has(p + 1, Classes.quote),
                SanitizerScan.closes(text, quoteAt: p + 1, end: end, stop: stop)
            {
                break
            }
            p += 1
        }
        return (p, p - start)
    }

    /// An unquoted value: to white space, a control character, one of `&,;"'<>)]}` and backtick,
    /// or a backslash before a quote.
    func unquotedEnd(from start: Int, end: Int, stop: Int) -> (Int, Int) {
        let limit = min(end, stop)
        var p = start
        while p < limit {
            let byte = text.byte(p)
            if text.table[Int(byte)] & Classes.valueStop != 0 { break }
            // A backslash before a quote ends the value too (`\"` closes a JSON string in a string).
            if byte == UInt8(ascii: "\\"), p + 1 < limit, text.has(p + 1, Classes.quote) { break }
            if byte >= 0x80, text.unicodeSpaceLength(at: p, end: end) > 0 { break }
            p += 1
        }
        return (p, p - start)
    }
}

extension LogSanitizer {
    enum CredentialKind {
        /// The value runs to the end of the line (or of the quoted string the header is in).
        case header
        /// The value runs to white space or punctuation that ends a parameter.
        case value
    }

    // The credential keys, any ASCII case: `authorization`, `cookie` (headers), `password`,
    // `passwd`, `secret`, `token`, `api_key`, `api-key`, `apikey` (values). None is a suffix of
    // another, so the key before a separator is unique; `credential(separator:gapStart:stop:)`
    // compares them by their last letter.

    static let wordRuleCount = 5
}
