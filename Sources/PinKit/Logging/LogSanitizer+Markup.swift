/// Rule 2's credentials that markup labels, with no `=` or `:` after the key: an XML element named
/// by a credential key (a SOAP body, WS-Security's `<wsse:Password>`), and a multipart form-data
/// part named by one (a request body logged as it went out).
///
/// Linear: an element is read back from its `>` over its start tag only (at most
/// ``maximumTagLength`` bytes, stopping at a `<` or `>`, so each byte is read back for one `>`),
/// and a part's name forward from its `=` over one quoted string; each value is read once, and
/// the pass goes on after it.
extension CredentialRule {
    /// The most `[A-Za-z0-9_.-]` in a namespace prefix, and before the key in an element's local name.
    static var maximumTagNamePart: Int { 64 }
    /// The most bytes of a start tag's attributes, after the blank that ends its name.
    static var maximumTagAttributes: Int { 192 }
    /// The most bytes from an element's `<` to its start tag's `>`: `<`, a prefix and `:`, a local
    /// name (its key 13 bytes at most), a blank and attributes.
    static var maximumTagLength: Int {
        1 + Self.maximumTagNamePart + 1 + Self.maximumTagNamePart + 13 + 1 + Self.maximumTagAttributes
    }

    /// Where the value of the XML element whose start tag ends at the `>` at `close` starts, when
    /// that tag names a credential (see ``element(close:value:stop:end:)``), else nil.
    @inline(never) func elementValueStart(close: Int, bound: Int, end: Int) -> Int? {
        guard close > bound, text.byte(close - 1) != UInt8(ascii: "/") else { return nil }
        // Back to the tag's `<` over anything but `<` and `>`.
        var open = close - 1
        let limit = max(bound, close - Self.maximumTagLength)
        while open >= limit, text.byte(open) != UInt8(ascii: "<") {
            guard text.byte(open) != UInt8(ascii: ">") else { return nil }
            open -= 1
        }
        guard open >= limit else { return nil }
        // The name: an optional prefix and `:`, then the local name.
        @inline(__always) func nameRun(from start: Int) -> Int {
            var p = start
            while p < close, text.has(p, Classes.alphanumeric) || isNameSymbol(p) { p += 1 }
            return p
        }
        var localStart = open + 1
        var nameEnd = nameRun(from: localStart)
        if nameEnd < close, text.byte(nameEnd) == UInt8(ascii: ":") {
            guard nameEnd - localStart <= Self.maximumTagNamePart else { return nil }
            localStart = nameEnd + 1
            nameEnd = nameRun(from: localStart)
        }
        guard
            nameEnd == close
                || (text.byte(nameEnd) == 0x20 || (0x09...0x0D).contains(text.byte(nameEnd)))
                    && close - (nameEnd + 1) <= Self.maximumTagAttributes,
            keyEnding(at: nameEnd, from: localStart, prefix: Self.maximumTagNamePart) != nil
        else { return nil }
        return close + 1
    }

    /// The value of an XML element whose start tag ends at the `>` at `close`: a tag `<`, an
    /// optional prefix of up to 64 `[A-Za-z0-9_.-]` and `:`, a local name that is up to 64 of them
    /// and one of rule 2's keys (any case), then `>` or a blank (`[\t-\r ]`) and up to 192 bytes of
    /// attributes (no `<` or `>`) that end in a letter, digit or quote, the tag at or after `bound`. The value is what
    /// follows up to a `<`, a line break, `stop` (the next URL; before the quote and backslashes
    /// right before it) or `end`, when it holds a byte other than a space or tab and is no
    /// placeholder alone; or a CDATA section's content (`<![CDATA[` … `]]>`, a line break, `stop`
    /// as before), when it is not empty. The span keeps the `>`
    /// (and `<![CDATA[`). The tag is found by ``elementValueStart(close:bound:end:)``, which
    /// gives `v`.
    @inline(never) func element(close: Int, value v: Int, stop: Int, end: Int) -> LogSanitizer.Span? {
        if v + 9 <= end, exactly("<![CDATA[", at: v, end: end) {
            let content = v + 9
            var p = content
            while p < min(stop, end), !isLineBreak(p),
                !(text.byte(p) == UInt8(ascii: "]") && p + 2 < end && text.byte(p + 1) == UInt8(ascii: "]")
                    && text.byte(p + 2) == UInt8(ascii: ">"))
            {
                p += 1
            }
            p = beforeContextQuote(p, from: content, stop: stop)
            guard p > content else { return nil }
            return LogSanitizer.Span(start: close, end: p, keepEnd: content, placeholder: .secret)
        }
        var p = v
        while p < min(stop, end), text.byte(p) != UInt8(ascii: "<"), !isLineBreak(p) { p += 1 }
        p = beforeContextQuote(p, from: v, stop: stop)
        var blank = true
        for q in v..<p where text.byte(q) != 0x20 && text.byte(q) != 0x09 {
            blank = false
            break
        }
        guard !blank, placeholderEnd(at: v, end: end, stop: stop) != p else { return nil }
        return LogSanitizer.Span(start: close, end: p, keepEnd: v, placeholder: .secret)
    }

    /// The value of a multipart form-data part named by a credential key, when the `=` at
    /// `separator` follows a `name` (any case, not right after an `[A-Za-z0-9_.-]`, at or after
    /// `bound`): then `"`, or `\"` (a body in a JSON string), a name that is any run of
    /// `[A-Za-z0-9_.-]` and one of rule 2's keys, the same closing quote, and a blank line (`\r\n\r\n`
    /// or `\n\n`, real or each break escaped as `\r`, `\n`): the value is the part's first line, up
    /// to a line break, an escaped one, `stop` (the next URL; before the quote and backslashes right
    /// before it) or `end`, when it is not empty and no placeholder alone. The span keeps `name=` up to the value.
    @inline(never) func formPart(separator: Int, bound: Int, stop: Int, end: Int) -> LogSanitizer.Span? {
        let start = separator - 4
        guard start >= bound, text.matches("name", at: start, end: separator),
            start == bound || !(text.has(start - 1, Classes.alphanumeric) || isNameSymbol(start - 1))
        else { return nil }
        var p = separator + 1
        let escaped = p < end && text.byte(p) == UInt8(ascii: "\\")
        if escaped { p += 1 }
        guard p < end, text.byte(p) == UInt8(ascii: "\"") else { return nil }
        let nameStart = p + 1
        p = nameStart
        while p < end, text.has(p, Classes.alphanumeric) || isNameSymbol(p) { p += 1 }
        guard keyEnding(at: p, from: nameStart, prefix: Int.max) != nil else { return nil }
        if escaped {
            guard p < end, text.byte(p) == UInt8(ascii: "\\") else { return nil }
            p += 1
        }
        guard p < end, text.byte(p) == UInt8(ascii: "\"") else { return nil }
        p += 1
        // The blank line.
        let v: Int
        if let real = blankLineEnd(at: p, end: end, escaped: false) {
            v = real
        } else if let written = blankLineEnd(at: p, end: end, escaped: true) {
            v = written
        } else {
            return nil
        }
        var q = v
        while q < min(stop, end), !isLineBreak(q),
            !(text.byte(q) == UInt8(ascii: "\\") && q + 1 < end
                && (text.byte(q + 1) == UInt8(ascii: "r") || text.byte(q + 1) == UInt8(ascii: "n")))
        {
            q += 1
        }
        q = beforeContextQuote(q, from: v, stop: stop)
        guard q > v, placeholderEnd(at: v, end: end, stop: stop) != q else { return nil }
        return LogSanitizer.Span(start: start, end: q, keepEnd: v, placeholder: .secret)
    }

    /// A markup value's end `p` when it is no URL's start (`stop`); else before the quote (`"`, `'`,
    /// backtick) and up to ``maximumEscapes`` backslashes right before the URL, not before `start`:
    /// that quote is the URL's context, and a second pass must see it.
    @inline(__always) func beforeContextQuote(_ p: Int, from start: Int, stop: Int) -> Int {
        guard p == stop, p > start, text.has(p - 1, Classes.quote) else { return p }
        var q = p - 1
        while q > start, p - 1 - q < Self.maximumEscapes, text.byte(q - 1) == UInt8(ascii: "\\") { q -= 1 }
        return q
    }

    /// The end of `\r\n\r\n` or `\n\n` at `p` (each break a real one, or escaped: `\r`, `\n`), or nil.
    @inline(__always) func blankLineEnd(at p: Int, end: Int, escaped: Bool) -> Int? {
        var q = p
        @inline(__always) func take(_ letter: UInt8, _ byte: UInt8) -> Bool {
            if escaped {
                guard q + 1 < end, text.byte(q) == UInt8(ascii: "\\"), text.byte(q + 1) == letter else { return false }
                q += 2
            } else {
                guard q < end, text.byte(q) == byte else { return false }
                q += 1
            }
            return true
        }
        let r = UInt8(ascii: "r")
        let n = UInt8(ascii: "n")
        if take(r, 0x0D) {
            guard take(n, 0x0A), take(r, 0x0D), take(n, 0x0A) else { return nil }
            return q
        }
        guard take(n, 0x0A), take(n, 0x0A) else { return nil }
        return q
    }

    /// Where one of rule 2's keys (any case) ending at `end` starts, when it starts at or after
    /// `start` and at most `prefix` bytes after it; else nil.
    @inline(__always) func keyEnding(at end: Int, from start: Int, prefix: Int) -> Int? {
        // Every key ends in one of `n e d t y s`: most names are rejected at one table test.
        guard end > start, text.has(end - 1, Classes.keyEnd), let keyStart = keyWordStart(endingAt: end, from: start)
        else { return nil }
        return keyStart - start <= prefix ? keyStart : nil
    }

    /// Whether the byte at `index` is a line break (`\n` or `\r`).
    @inline(__always) func isLineBreak(_ index: Int) -> Bool {
        text.byte(index) == 0x0A || text.byte(index) == 0x0D
    }
}
