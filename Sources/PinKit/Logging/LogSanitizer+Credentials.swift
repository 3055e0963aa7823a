/// Rule 2: credentials in headers and key–value pairs. The key (any ASCII case) is kept with its
/// separator and opening quote; the value becomes `[redacted-secret]`.
struct CredentialRule<Counter: LogSanitizerCounting> {
    let text: SanitizerInput<Counter>
    typealias Classes = LogSanitizer.Classes
    typealias Kind = LogSanitizer.CredentialKind

    /// Whether a key can end before the separator at `separator`: after `[ \t]*`, an optional
    /// closing quote and an optional `]` or `[]`, the last byte is one a key ends in (`n e d t y`,
    /// any case).
    @inline(__always) func keyMayEnd(before separator: Int, bound: Int) -> Bool {
        var k = blanksStart(before: separator, bound: bound)
        if k > bound, text.has(k - 1, Classes.quote) {
            k = backslashesStart(before: k - 1, bound: bound)
        }
        k = bracketStart(before: k, bound: bound)
        return k > bound && text.has(k - 1, Classes.keyEnd)
    }

    /// Where the backslashes that escape a key's closing `"` (JSON in a string: `\"`, `\\\"`, …;
    /// at most ``maximumEscapes``) and end at `k` start; more of them end no key (`bound` then).
    @inline(__always) func backslashesStart(before k: Int, bound: Int) -> Int {
        var start = k
        while start > bound, text.byte(start - 1) == UInt8(ascii: "\\") {
            start -= 1
            if k - start > Self.maximumEscapes { return bound }
        }
        return start
    }

    /// The most backslashes before a quote that rule 2 takes as the quote's escapes (JSON escaped
    /// four times over: 15).
    static var maximumEscapes: Int { 15 }

    /// Where a form key's closing bracket (`]` of `user[password]`, or `[]` of `password[]`)
    /// ending at `k` starts; `k` when there is none.
    @inline(__always) func bracketStart(before k: Int, bound: Int) -> Int {
        guard k > bound, text.byte(k - 1) == UInt8(ascii: "]") else { return k }
        return k - 1 > bound && text.byte(k - 2) == UInt8(ascii: "[") ? k - 2 : k - 1
    }

    /// The credential key before the separator at `separator` (not reaching below `gapStart`):
    /// where it starts and its kind, or nil.
    func key(before separator: Int, gapStart: Int) -> (start: Int, kind: Kind)? {
        // Backwards: [ \t]*, an optional closing quote of the key (", \", ' or a backtick), an optional `]` or
        // `[]` (a form key: `user[password]`, `password[]`), the key.
        var k = blanksStart(before: separator, bound: gapStart)
        if k > gapStart, text.byte(k - 1) == UInt8(ascii: "\"") {
            k = backslashesStart(before: k - 1, bound: gapStart)
        } else if k > gapStart, text.byte(k - 1) == UInt8(ascii: "'") || text.byte(k - 1) == UInt8(ascii: "`") {
            k -= 1
        }
        let bracket = k
        k = bracketStart(before: k, bound: gapStart)
        // A placeholder's own `]` closes no form key: `[redacted-token]:x` has no key (a second pass
        // must not find one in what the first wrote).
        if bracket - k == 1,
            (bracket - 16 >= gapStart && exactly("[redacted-token]", at: bracket - 16, end: bracket))
                || (bracket - 17 >= gapStart && exactly("[redacted-secret]", at: bracket - 17, end: bracket))
        {
            return nil
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
    /// `stop` (the next URL's start, `Int.max`: none), unless it is a structure, which takes URLs
    /// whole: `units(p)` is the first URL that starts at or after `p`, as a
    /// range (`Int.max` for both ends: none). Nil when the value is empty.
    func credential(
        key: (start: Int, kind: Kind), separator: Int, stop: Int, units: (Int) -> Unit
    ) -> LogSanitizer.Span? {
        let end = text.count
        let (keyStart, kind) = key
        // Forwards: the `>` of `=>` (Ruby, PHP, Perl), [ \t]*, openers, an optional opening quote,
        // the value.
        var v = separator + 1
        if v < end, v != stop, text.byte(separator) == UInt8(ascii: "="), text.byte(v) == UInt8(ascii: ">") { v += 1 }
        v = blanksEnd(from: v, end: end, stop: stop)
        // A JSON object or array (or a Python dict or list) as the value: all of it goes.
        if v < end, v != stop, case let byte = text.byte(v),
            byte == UInt8(ascii: "{")
                || (byte == UInt8(ascii: "[") && !exactly("[redacted-", at: v, end: min(end, stop)))
        {
            return structure(keyStart: keyStart, opener: v, end: end, units: units)
        }
        // Openers the value sits in: `Optional(` (Swift's interpolation of an optional), `[`, `{`
        // (a JSON array or object), `<`; not the `[` of a placeholder. Blanks may follow each.
        while v < end, v != stop {
            let byte = text.byte(v)
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "<")
                || (byte == UInt8(ascii: "[") && !exactly("[redacted-", at: v, end: min(end, stop)))
            {
                v += 1
            } else if byte == UInt8(ascii: "O"), exactly("Optional(", at: v, end: end) {
                v += 9
            } else {
                break
            }
            v = blanksEnd(from: v, end: end, stop: stop)
        }
        var quote: UInt8?
        // The backslashes of an escaped opening quote (`\"`, or `\\\"` in JSON escaped twice).
        var escapes = 0
        if v < end, v != stop {
            let byte = text.byte(v)
            if byte == UInt8(ascii: "\\"), case let run = backslashRun(from: v, limit: min(end, stop)),
                run <= Self.maximumEscapes, v + run < end, v + run != stop, text.byte(v + run) == UInt8(ascii: "\"")
            {
                escapes = run
                v += run + 1
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "`") {
                quote = byte
                v += 1
            }
        }
        let placeholder = placeholderEnd(at: v, end: end, stop: stop)
        let valueEnd: Int
        let length: Int
        if escapes == 1 {
            (valueEnd, length) = SanitizerScan.escapedQuoteEnd(text, from: v, end: end, stop: stop)
        } else if escapes > 1 {
            (valueEnd, length) = escapedValueEnd(from: v, end: end, stop: stop, escapes: escapes)
        } else if let quote {
            (valueEnd, length) = SanitizerScan.quotedEnd(text, from: v, end: end, quote: quote, stop: stop)
        } else if kind == .header {
            (valueEnd, length) = headerEnd(from: v, end: end, stop: stop)
        } else if let placeholder {
            // A placeholder's `]` would end an unquoted value: what follows it is measured alone.
            (valueEnd, length) = unquotedEnd(from: placeholder, end: end, stop: stop)
        } else {
            (valueEnd, length) = unquotedEnd(from: v, end: end, stop: stop)
        }
        if let placeholder {
            // A value that already is a placeholder, and nothing more, stays as it is, and so does
            // its key: a second pass then sees the same spans and gaps as the first. One that goes
            // on after it (`password=[redacted-token]hunter2`) is a value like any other.
            if valueEnd == placeholder {
                return LogSanitizer.Span(start: keyStart, end: placeholder, keepEnd: placeholder, placeholder: .none)
            }
            return LogSanitizer.Span(start: keyStart, end: valueEnd, keepEnd: v, placeholder: .secret)
        }
        guard length > 0 else { return nil }
        return LogSanitizer.Span(start: keyStart, end: valueEnd, keepEnd: v, placeholder: .secret)
    }

    /// The length of the run of backslashes at `start` (below `limit`), counted up to one more than
    /// ``maximumEscapes``.
    @inline(__always) func backslashRun(from start: Int, limit: Int) -> Int {
        var p = start
        while p < limit, p - start <= Self.maximumEscapes, text.byte(p) == UInt8(ascii: "\\") { p += 1 }
        return p - start
    }

    /// The end of a value opened by `escapes` backslashes and `"`: the first place the same
    /// backslashes and `"` start (a run of more ends there too, at its last `escapes`), a line
    /// break, `stop` or a quote right before it, or `end`. Each backslash looks ahead `escapes`
    /// bytes at most.
    func escapedValueEnd(from start: Int, end: Int, stop: Int, escapes: Int) -> (Int, Int) {
        let limit = min(end, stop)
        var p = start
        while p < limit {
            if p + 16 >= stop, SanitizerScan.quoteBeforeURL(text, at: p, end: end, stop: stop) { break }
            let byte = text.byte(p)
            if byte == 0x0A || byte == 0x0D { break }
            if byte == UInt8(ascii: "\\"), p + escapes < limit, text.byte(p + escapes) == UInt8(ascii: "\""),
                backslashRun(from: p, limit: p + escapes) == escapes
            {
                break
            }
            p += 1
        }
        return (p, p - start)
    }

    /// A URL a structure takes whole: its scan passes it at once.
    typealias Unit = (start: Int, end: Int)

    /// A value that is a structure: what is inside the `{` or `[` at `opener` and its closing
    /// bracket (strings skipped, at most ``structureDepth`` levels), or, when it does not close on
    /// the line, everything after it to the line's end. URLs inside go with it. A content that is a
    /// placeholder and nothing more is left alone.
    func structure(keyStart: Int, opener: Int, end: Int, units: (Int) -> Unit) -> LogSanitizer.Span? {
        let start = opener + 1
        let valueEnd = structureClose(from: start, end: end, units: units) ?? restOfLine(from: start, end: end)
        guard valueEnd > start else { return nil }
        if let placeholder = placeholderEnd(at: start, end: end, stop: units(start).start), placeholder == valueEnd {
            return LogSanitizer.Span(start: keyStart, end: valueEnd, keepEnd: valueEnd, placeholder: .none)
        }
        return LogSanitizer.Span(start: keyStart, end: valueEnd, keepEnd: start, placeholder: .secret)
    }

    /// How deep structures nest in a value that closes: deeper ones count as not closing (the
    /// regular-expression reference spells the levels out).
    static var structureDepth: Int { 4 }

    /// Inside a structure opened before `start`: the position of the bracket that closes it, or nil
    /// when none does before a line break or `end`. Any of `}` `]` closes any of `{` `[`; a `"` or
    /// `'` string (a backslash escapes) or a `\"` string is passed whole, and one that does not
    /// close on the line leaves the structure open. Units are passed whole, inside strings too.
    func structureClose(from start: Int, end: Int, units: (Int) -> Unit) -> Int? {
        var unit = units(start)
        var depth = 1
        var p = start
        while p < end {
            if p == unit.start {
                p = unit.end
                unit = units(p)
                continue
            }
            let byte = text.byte(p)
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                guard depth <= Self.structureDepth else { return nil }
                p += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return p }
                p += 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard let close = stringClose(from: p + 1, end: end, quote: byte, units: units) else { return nil }
                p = close
                unit = units(p)
            case UInt8(ascii: "\\"):
                if p + 1 < min(end, unit.start), text.byte(p + 1) == UInt8(ascii: "\"") {
                    guard let close = escapedStringClose(from: p + 2, end: end, units: units) else { return nil }
                    p = close
                    unit = units(p)
                } else {
                    p += 1
                }
            case 0x0A, 0x0D:
                return nil
            default:
                p += 1
            }
        }
        return nil
    }

    /// After a `"` or `'` (`quote`) in a structure: the end of its closing quote, where a backslash
    /// escapes the next character (not a unit); nil at a line break or `end` first.
    func stringClose(from start: Int, end: Int, quote: UInt8, units: (Int) -> Unit) -> Int? {
        var unit = units(start)
        var q = start
        while q < end {
            if q == unit.start {
                q = unit.end
                unit = units(q)
                continue
            }
            let byte = text.byte(q)
            if byte == quote { return q + 1 }
            if byte == 0x0A || byte == 0x0D { return nil }
            if byte == UInt8(ascii: "\\") {
                guard q + 1 < min(end, unit.start), case let next = text.byte(q + 1), next != 0x0A, next != 0x0D
                else { return nil }
                q += 2
            } else {
                q += 1
            }
        }
        return nil
    }

    /// After a `\"` in a structure: the end of the next `\"`; nil at a line break or `end` first.
    func escapedStringClose(from start: Int, end: Int, units: (Int) -> Unit) -> Int? {
        var unit = units(start)
        var q = start
        while q < end {
            if q == unit.start {
                q = unit.end
                unit = units(q)
                continue
            }
            let byte = text.byte(q)
            if byte == UInt8(ascii: "\\"), q + 1 < min(end, unit.start), text.byte(q + 1) == UInt8(ascii: "\"") {
                return q + 2
            }
            if byte == 0x0A || byte == 0x0D { return nil }
            q += 1
        }
        return nil
    }

    /// From `start` to a line break or `end` (no URL holds a line break).
    func restOfLine(from start: Int, end: Int) -> Int {
        var p = start
        while p < end {
            let byte = text.byte(p)
            if byte == 0x0A || byte == 0x0D { break }
            p += 1
        }
        return p
    }

    /// The end of the blanks (spaces, tabs, Unicode spaces, ANSI colour codes) from `start` (not
    /// past `stop`).
    @inline(__always) func blanksEnd(from start: Int, end: Int, stop: Int) -> Int {
        var v = start
        while v < end, v != stop {
            let byte = text.byte(v)
            if byte == 0x20 || byte == 0x09 {
                v += 1
            } else if byte >= 0x80, case let length = text.unicodeSpaceLength(at: v, end: min(end, stop)), length > 0 {
                v += length
            } else if byte == 0x1B, case let length = text.colourCodeLength(at: v, end: min(end, stop)), length > 0 {
                v += length
            } else {
                break
            }
        }
        return v
    }

    /// The start of the blanks (spaces, tabs, Unicode spaces, ANSI colour codes) that end at `k`
    /// (not below `bound`).
    @inline(__always) func blanksStart(before k: Int, bound: Int) -> Int {
        var k = k
        while k > bound {
            let byte = text.byte(k - 1)
            if byte == 0x20 || byte == 0x09 {
                k -= 1
            } else if byte >= 0x80, case let length = text.unicodeSpaceLength(endingAt: k - 1, start: bound), length > 0
            {
                k -= length
            } else if byte == UInt8(ascii: "m"), case let length = text.colourCodeLength(endingAt: k - 1, start: bound),
                length > 0
            {
                k -= length
            } else {
                break
            }
        }
        return k
    }

    /// Whether `[index, index + word.count)` lies below `end` and is `word`, byte for byte.
    @inline(__always) func exactly(_ word: StaticString, at index: Int, end: Int) -> Bool {
        let length = word.utf8CodeUnitCount
        guard index + length <= end else { return false }
        for offset in 0..<length where text.byte(index + offset) != word.utf8Start[offset] { return false }
        return true
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

    /// An unquoted header value: to a line break (or `\r`, `\n` written as escapes, as in a JSON
    /// string), or to a quote that closes the string it is in. An inner string is part of it, its
    /// closing quote too: a `"` or `'` string after `=`, `[`, `(` or `{` (`theme="dark"`,
    /// `['X-Token' => 'x']`), or a `\"` string after `=` (`realm=\"api\"`).
    func headerEnd(from start: Int, end: Int, stop: Int) -> (Int, Int) {
        let limit = min(end, stop)
        var p = start
        while p < limit {
            let byte = text.byte(p)
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'"), p >= 1, Self.opensInner(text.byte(p - 1)),
                let close = parameterQuoteEnd(from: p + 1, limit: limit, quote: byte)
            {
                p = close
                continue
            }
            if byte == UInt8(ascii: "\\"), p + 1 < limit, p >= 1, text.byte(p + 1) == UInt8(ascii: "\""),
                text.byte(p - 1) == UInt8(ascii: "="),
                let close = parameterQuoteEnd(from: p + 2, limit: limit, quote: nil)
            {
                p = close
                continue
            }
            if byte == 0x0A || byte == 0x0D { break }
            if byte == UInt8(ascii: "\\"), p > start, escapedLineBreakEnds(at: p, limit: limit) { break }
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

    /// Whether the `\` at `p` starts an escaped line break (`\r\n`, `\r` or `\n`) that ends a
    /// header value: one not followed by a space or tab (or `\t`), which would fold the header onto the next
    /// line (RFC 7230 §3.2.4). A value that starts with one is not ended by it (an empty value
    /// would leave the text after it to later rules, which a second pass would then see as the
    /// header's value).
    @inline(__always) func escapedLineBreakEnds(at p: Int, limit: Int) -> Bool {
        guard p + 1 < limit else { return false }
        let letter = text.byte(p + 1)
        guard letter == UInt8(ascii: "r") || letter == UInt8(ascii: "n") else { return false }
        var after = p + 2
        if letter == UInt8(ascii: "r"), after + 1 < limit, text.byte(after) == UInt8(ascii: "\\"),
            text.byte(after + 1) == UInt8(ascii: "n")
        {
            after += 2
        }
        guard after < limit else { return true }
        let next = text.byte(after)
        if next == 0x20 || next == 0x09 { return false }
        // The fold's tab written as an escape too (`\r\n\t`).
        return !(next == UInt8(ascii: "\\") && after + 1 < limit && text.byte(after + 1) == UInt8(ascii: "t"))
    }

    /// Whether a quote after `byte` opens an inner string of a header value.
    @inline(__always) static func opensInner(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{")
    }

    /// After an inner string's opening quote (`quote`, or `\"` when nil), the end of its closing one
    /// before `limit` with no line break (and, for `quote`, no backslash) between; nil when there is none,
    /// or when it is right before a URL (`limit` below the end is the URL's start): that quote is the
    /// URL's context, and the value stops before it.
    func parameterQuoteEnd(from start: Int, limit: Int, quote: UInt8?) -> Int? {
        var q = start
        while q < limit {
            let byte = text.byte(q)
            if byte == 0x0A || byte == 0x0D { return nil }
            if let quote {
                if byte == quote { return q + 1 == limit && limit < text.count ? nil : q + 1 }
                if byte == UInt8(ascii: "\\") { return nil }
            } else {
                if byte == UInt8(ascii: "\\"), q + 1 < limit, text.byte(q + 1) == UInt8(ascii: "\"") {
                    return q + 2 == limit && limit < text.count ? nil : q + 2
                }
            }
            q += 1
        }
        return nil
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
