/// Rule 2: credentials in headers and key–value pairs. The key (any ASCII case) is kept with its
/// separator and opening quote; the value becomes `[redacted-secret]`.
struct CredentialRule<Counter: LogSanitizerCounting> {
    let text: SanitizerInput<Counter>
    typealias Classes = LogSanitizer.Classes
    typealias Kind = LogSanitizer.CredentialKind

    /// Whether a key can end before the separator at `separator`: after `%20`s (before `%3D` or
    /// `%3A`), `[ \t]*`, an optional closing quote and optional form suffixes
    /// (``formSuffixesStart(before:bound:)``), the last byte is one a key ends in (`n e d t y s`, any
    /// case). A `%5D` ends in `d`, so it passes as it is; a `]` (a form suffix), the `2`, `7` or `;`
    /// of a quote written in another way or a doubled quote's first takes the look-back here.
    @inline(__always) func keyMayEnd(before separator: Int, bound: Int) -> Bool {
        keyMayEnd(
            afterBlanks: blanksStart(
                before: percentBlanksStart(before: separator, bound: bound), bound: bound, escaped: false),
            bound: bound)
    }

    /// ``keyMayEnd(before:bound:)`` from `blanks`, where the blanks before the separator start (no
    /// escapes read). A JSON escape of a Unicode space (`\u00a0`, `\u2002`) there ends in a hex
    /// digit, which no key ends in (or in a `2` or `7`, which a quote's spelling ends in): only when
    /// the test fails at such a byte with a `\` six bytes before it is the escape read, out of
    /// line, and the test made again before it (also after a closing quote, where no blank may be:
    /// a filter may let more through, and ``key(before:gapStart:)`` decides).
    @inline(__always) func keyMayEnd(afterBlanks blanks: Int, bound: Int) -> Bool {
        var k = blanks
        if k > bound, text.has(k - 1, Classes.quote) {
            k = backslashesStart(before: k - 1, bound: bound)
        }
        guard k > bound else { return false }
        // One table test rejects most candidates; `]`, `2` and `7` go on out of line.
        let last = text.byte(k - 1)
        let classes = text.table[Int(last)]
        if classes & Classes.keyTailEnd == 0 {
            return classes & Classes.hex != 0 && k - 6 >= bound
                && text.byte(k - 6) == UInt8(ascii: "\\") && keyMayEndAfterEscapedSpace(k, bound: bound)
        }
        guard classes & Classes.keyEnd != 0 else {
            return keyMayEndAfterSuffix(k, bound: bound)
                || keyMayEndAfterEscapedSpace(k, bound: bound)
        }
        // A key's last letter: the one before it too (`status=`, `code=`, `s=` repeated go here,
        // without the key's look-back). Every key word is three letters or more.
        guard k - 2 >= bound else { return false }
        let pairs = text.table + Classes.keyPairs
        return pairs[Int(text.byte(k - 2))] & pairs[Int(last)] &>> 16 != 0
    }

    /// ``keyMayEnd(afterBlanks:bound:)`` when a JSON escape of a Unicode space may end at `k`: the
    /// blanks before it (escaped ones too), then the same test. Out of line: rare.
    @inline(never) func keyMayEndAfterEscapedSpace(_ k: Int, bound: Int) -> Bool {
        guard k - 6 >= bound, text.byte(k - 6) == UInt8(ascii: "\\"),
            text.escapedSpaceLength(endingAt: k - 1, start: bound) > 0
        else { return false }
        return keyMayEnd(afterBlanks: blanksStart(before: k - 6, bound: bound), bound: bound)
    }

    /// `keyMayEnd(before:bound:)` where the byte before `k` is `]`, `2`, `7`, `;`, `"` or `'`: a form
    /// suffix, or a closing quote written in another way (`spelledQuoteStart(before:bound:)`; the
    /// first of a doubled `""` or `''`) and then form suffixes. A quote encoded twice (`%2522`) passes
    /// before any separator: a key only before one encoded twice, which `key(before:gapStart:)`
    /// decides (this check may let more through, never fewer). Out of line: rare.
    @inline(never) func keyMayEndAfterSuffix(_ k: Int, bound: Int) -> Bool {
        var k = k
        let last = text.byte(k - 1)
        if last == UInt8(ascii: "\"") || last == UInt8(ascii: "'") {
            k -= 1
        } else if last != UInt8(ascii: "]") {
            guard let start = spelledQuoteStart(before: k, bound: bound, doubled: true) else { return false }
            k = start
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

    /// Before a percent-encoded separator at `separator`, where the `%20`s and `+`s (encoded spaces;
    /// form encoding writes a space `+`) that end at it start (not below `bound`); before one encoded
    /// twice (`%253D`), the same encoded once more, `%2520`s and `%2B`s (any case); `separator` before
    /// any other. The run belongs to this separator only (a key's check reads it, twice at most).
    @inline(__always) func percentBlanksStart(before separator: Int, bound: Int) -> Int {
        guard text.byte(separator) == UInt8(ascii: "%") else { return separator }
        var k = separator
        if isDoubledPercent(at: separator) { return doubledPercentBlanksStart(before: separator, bound: bound) }
        while k > bound {
            if text.byte(k - 1) == UInt8(ascii: "+") {
                k -= 1
            } else if k - 3 >= bound, text.byte(k - 1) == UInt8(ascii: "0"), text.byte(k - 2) == UInt8(ascii: "2"),
                text.byte(k - 3) == UInt8(ascii: "%")
            {
                k -= 3
            } else {
                break
            }
        }
        return k
    }

    /// `percentBlanksStart(before:bound:)` before a separator encoded twice: `%2520`s and `%2B`s
    /// (any case). Out of line, so the common separators' check stays as small as it was.
    @inline(never) func doubledPercentBlanksStart(before separator: Int, bound: Int) -> Int {
        var k = separator
        while k - 3 >= bound {
            let last = text.byte(k - 1)
            if last | 0x20 == UInt8(ascii: "b"), text.byte(k - 3) == UInt8(ascii: "%"),
                text.byte(k - 2) == UInt8(ascii: "2")
            {
                k -= 3
            } else if last == UInt8(ascii: "0"), k - 5 >= bound, exactly("%252", at: k - 5, end: k - 1) {
                k -= 5
            } else {
                break
            }
        }
        return k
    }

    /// The length of a JSON escape of `=` or `:` at `index` (below `end`), `\u003d` or `\u003a` (the
    /// letter in either case), as Gson's default HTML-safe escaping writes `=`: 6; else 0.
    @inline(__always) func escapedSeparatorLength(at index: Int, end: Int) -> Int {
        guard index + 5 < end, text.byte(index + 1) == UInt8(ascii: "u"), exactly("003", at: index + 2, end: end)
        else { return 0 }
        let letter = text.lowered(index + 5)
        return letter == UInt8(ascii: "d") || letter == UInt8(ascii: "a") ? 6 : 0
    }

    /// The length of a full-width `＝` (U+FF1D) or `：` (U+FF1A) at `index` (below `end`), as CJK input
    /// methods type them: 3 (its UTF-8 bytes); else 0.
    @inline(__always) func fullWidthSeparatorLength(at index: Int, end: Int) -> Int {
        guard index + 2 < end, text.byte(index + 1) == 0xBC else { return 0 }
        let last = text.byte(index + 2)
        return last == 0x9D || last == 0x9A ? 3 : 0
    }

    /// The length of a percent-encoded `=` or `:` at the `%` at `index` (below `end`, any case):
    /// `%3D` or `%3A`, 3; encoded twice (a form in a parameter of another URL), `%253D` or `%253A`, 5;
    /// else 0.
    @inline(__always) func percentSeparatorLength(at index: Int, end: Int) -> Int {
        guard index + 2 < end else { return 0 }
        var digit = index + 1
        if text.byte(digit) == UInt8(ascii: "2") {
            guard index + 4 < end, text.byte(index + 2) == UInt8(ascii: "5") else { return 0 }
            digit += 2
        }
        guard text.byte(digit) == UInt8(ascii: "3") else { return 0 }
        let letter = text.lowered(digit + 1)
        return letter == UInt8(ascii: "d") || letter == UInt8(ascii: "a") ? digit + 2 - index : 0
    }

    /// Whether the `%` at `index` starts `%25`: the percent-encoded separator there (already read
    /// as one) is encoded twice.
    @inline(__always) func isDoubledPercent(at index: Int) -> Bool {
        text.byte(index) == UInt8(ascii: "%") && text.byte(index + 1) == UInt8(ascii: "2")
    }

    /// The quote a `%2522` or `%2527` at `index` (below `end`) encodes twice, or nil.
    @inline(__always) func doubledPercentQuote(at index: Int, end: Int) -> UInt8? {
        guard index >= 0, index + 5 <= end, exactly("%252", at: index, end: end) else { return nil }
        let digit = text.byte(index + 4)
        return digit == UInt8(ascii: "2") ? UInt8(ascii: "\"") : digit == UInt8(ascii: "7") ? UInt8(ascii: "'") : nil
    }

    /// The quote a `%22` or `%27` at `index` (below `end`) encodes, or nil.
    @inline(__always) func percentQuote(at index: Int, end: Int) -> UInt8? {
        guard index >= 0, index + 3 <= end, text.byte(index) == UInt8(ascii: "%"),
            text.byte(index + 1) == UInt8(ascii: "2")
        else { return nil }
        let digit = text.byte(index + 2)
        return digit == UInt8(ascii: "2") ? UInt8(ascii: "\"") : digit == UInt8(ascii: "7") ? UInt8(ascii: "'") : nil
    }

    /// The quote a `\x22` or `\x27` (`x` in either case) at `index` (below `end`) escapes, or nil:
    /// nginx's access log (`escape=default`) writes `"` so.
    @inline(__always) func hexQuote(at index: Int, end: Int) -> UInt8? {
        guard index >= 0, index + 4 <= end, text.byte(index) == UInt8(ascii: "\\"),
            text.lowered(index + 1) == UInt8(ascii: "x"), text.byte(index + 2) == UInt8(ascii: "2")
        else { return nil }
        let digit = text.byte(index + 3)
        return digit == UInt8(ascii: "2") ? UInt8(ascii: "\"") : digit == UInt8(ascii: "7") ? UInt8(ascii: "'") : nil
    }

    /// The length of a quote written in another escaping at `index` (below `end`), or 0: nginx's
    /// `\x22`, `\x27` (`x` in either case); JSON's `\u0022`, `\u0027` (.NET's `System.Text.Json`,
    /// Gson, Python's `ensure_ascii`); HTML's `&quot;`, `&apos;`, `&#34;`, `&#39;`, `&#x22;`,
    /// `&#x27;`. (A `\'` is a quote after backslashes, as `\"` is; an opening one is a value's
    /// spelled quote in `credential(key:separator:length:percent:stop:bound:)`.)
    @inline(__always) func spelledQuoteLength(at index: Int, end: Int) -> Int {
        guard index >= 0, index + 4 <= end else { return 0 }
        let first = text.byte(index)
        if first == UInt8(ascii: "\\") {
            if hexQuote(at: index, end: end) != nil { return 4 }
            return text.byte(index + 1) == UInt8(ascii: "u") && exactly("00", at: index + 2, end: end)
                && quoteDigits(at: index + 4, end: end) ? 6 : 0
        }
        guard first == UInt8(ascii: "&") else { return 0 }
        if exactly("&quot;", at: index, end: end) || exactly("&apos;", at: index, end: end) { return 6 }
        guard text.byte(index + 1) == UInt8(ascii: "#") else { return 0 }
        if text.byte(index + 2) == UInt8(ascii: "x") {
            return quoteDigits(at: index + 3, end: end) && index + 6 <= end
                && text.byte(index + 5) == UInt8(ascii: ";") ? 6 : 0
        }
        return index + 5 <= end && text.byte(index + 4) == UInt8(ascii: ";")
            && (exactly("34", at: index + 2, end: end) || exactly("39", at: index + 2, end: end)) ? 5 : 0
    }

    /// Whether `22` or `27` is at `index` (below `end`).
    @inline(__always) func quoteDigits(at index: Int, end: Int) -> Bool {
        index + 2 <= end && text.byte(index) == UInt8(ascii: "2")
            && (text.byte(index + 1) == UInt8(ascii: "2") || text.byte(index + 1) == UInt8(ascii: "7"))
    }

    /// Where a key's closing quote written in another way that ends at `k` starts (not below
    /// `bound`), or nil: `%22`, `%27`, or a spelled quote (``spelledQuoteLength(at:end:)``); when
    /// `doubled` (before a separator encoded twice), also `%2522`, `%2527`.
    @inline(__always) func spelledQuoteStart(before k: Int, bound: Int, doubled: Bool = false) -> Int? {
        guard k - 3 >= bound else { return nil }
        let last = text.byte(k - 1)
        if last == UInt8(ascii: ";") {
            if k - 5 >= bound, spelledQuoteLength(at: k - 5, end: k) == 5 { return k - 5 }
        } else if last == UInt8(ascii: "2") || last == UInt8(ascii: "7") {
            // Every spelling that ends in a digit ends in `22` or `27` (`%22`, `%2522`, `\x22`,
            // `\u0022`): a time's `12:` or a port's `:8087` goes at one more byte.
            guard text.byte(k - 2) == UInt8(ascii: "2") else { return nil }
            if percentQuote(at: k - 3, end: k) != nil { return k - 3 }
            if doubled, k - 5 >= bound, doubledPercentQuote(at: k - 5, end: k) != nil { return k - 5 }
            if k - 4 >= bound, spelledQuoteLength(at: k - 4, end: k) == 4 { return k - 4 }
        } else {
            return nil
        }
        return k - 6 >= bound && spelledQuoteLength(at: k - 6, end: k) == 6 ? k - 6 : nil
    }

    /// Where a key's closing quote that ends at `k` starts (not below `bound`; `bound` when more
    /// than ``maximumEscapes`` backslashes precede a `"` or `'`), or `k` when there is none: `"` or
    /// `'` after 0–15 backslashes, a doubled `""` or `''` (CSV, SQL), a backtick, or one written in
    /// another way (``spelledQuoteStart(before:bound:)``).
    @inline(__always) func keyQuoteStart(before k: Int, bound: Int, doubled: Bool = false) -> Int {
        // Most keys end in a letter: one table test, and no call.
        guard k > bound, text.has(k - 1, Classes.keyQuoteEnd) else { return k }
        return quotedKeyStart(before: k, bound: bound, doubled: doubled)
    }

    /// ``keyQuoteStart(before:bound:doubled:)`` where the byte before `k` (above `bound`) is one a
    /// quote may end in (``LogSanitizer/Classes/keyQuoteEnd``). Out of line.
    @inline(never) func quotedKeyStart(before k: Int, bound: Int, doubled: Bool) -> Int {
        let last = text.byte(k - 1)
        if last == UInt8(ascii: "\"") || last == UInt8(ascii: "'") {
            if k - 2 >= bound, text.byte(k - 2) == last { return k - 2 }
            return backslashesStart(before: k - 1, bound: bound)
        }
        if last == UInt8(ascii: "`") { return k - 1 }
        return spelledQuoteStart(before: k, bound: bound, doubled: doubled) ?? k
    }

    /// Where the form suffixes after a key start, when they end at `k`; `k` when there is none.
    @inline(__always) func bracketStart(before k: Int, bound: Int) -> Int {
        guard k > bound else { return k }
        let last = text.byte(k - 1)
        guard
            last == UInt8(ascii: "]")
                || (last | 0x20 == UInt8(ascii: "d") && k - 3 >= bound && text.matches("%5d", at: k - 3, end: k))
        else { return k }
        return formSuffixesStart(before: k, bound: bound)
    }

    /// The most form suffixes a key takes, and the most digits of an index in one.
    static var maxFormSuffixes: Int { 4 }
    static var maxIndexDigits: Int { 6 }

    /// Where the form suffixes that end at `k` start (not below `bound`); `k` when there is none.
    /// A form key's suffixes, after the key word, as Rails, PHP and `qs` write them: up to
    /// ``maxFormSuffixes`` of `]` (`user[password]`), `[]` (`password[]`) and `[` + up to
    /// ``maxIndexDigits`` digits + `]` (`password[0]`), where `[` may be `%5B` and `]` `%5D`
    /// (any case, as a browser encodes them: `user%5Bpassword%5D`). Read backwards, greedily: an
    /// opening `[` or `%5B` never ends a key (`[`, `B`), and the `d` of a `%5D` never ends one
    /// either (a key's `d` follows `r`, `w` or `i`), so the suffixes are found the one way they can be.
    /// The look-back is bounded: 4 × 12 bytes.
    @inline(never) func formSuffixesStart(before k: Int, bound: Int) -> Int {
        var k = k
        for _ in 0..<Self.maxFormSuffixes {
            // A closing `]` or `%5D`…
            let close: Int
            if k > bound, text.byte(k - 1) == UInt8(ascii: "]") {
                close = k - 1
            } else if k - 3 >= bound, text.matches("%5d", at: k - 3, end: k) {
                close = k - 3
            } else {
                break
            }
            // …after digits and an opening `[` or `%5B`, or alone.
            var digits = close
            while digits > bound, close - digits < Self.maxIndexDigits, text.has(digits - 1, Classes.digit) {
                digits -= 1
            }
            if digits > bound, text.byte(digits - 1) == UInt8(ascii: "[") {
                k = digits - 1
            } else if digits - 3 >= bound, text.matches("%5b", at: digits - 3, end: digits) {
                k = digits - 3
            } else {
                // A lone `]` (digits before it end no key).
                k = close
            }
        }
        return k
    }

    /// The credential key before the separator at `separator` (not reaching below `gapStart`):
    /// where it starts and its kind, or nil.
    func key(before separator: Int, gapStart: Int) -> (start: Int, kind: Kind)? {
        // Backwards: [ \t]*, an optional closing quote of the key (", \", ' or a backtick, or `%22`,
        // `%27`, `\x22`, `\x27`), optional form suffixes (`user[password]`, `password[0]`, `user%5Bpassword%5D`), the key.
        var k = keyQuoteStart(
            before: blanksStart(
                before: percentBlanksStart(before: separator, bound: gapStart), bound: gapStart),
            bound: gapStart, doubled: isDoubledPercent(at: separator))
        let suffixesEnd = k
        k = bracketStart(before: k, bound: gapStart)
        // A placeholder's own `]` closes no form key: `[redacted-token]:x` and `[redacted-token][0]=x`
        // have no key (a second pass must not find one in what the first wrote). Only the suffix
        // right after the key word can be that `]` (a lone `]`: the others start `[` or `%`).
        if k < suffixesEnd, text.byte(k) == UInt8(ascii: "]"),
            (k - 15 >= gapStart && exactly("[redacted-token", at: k - 15, end: k))
                || (k - 16 >= gapStart && exactly("[redacted-secret", at: k - 16, end: k))
        {
            return nil
        }
        // Every key ends in one of "n", "e", "d", "t", "y", "s": most separators are rejected here,
        // and the last letter leaves one to seven keys to compare.
        guard k > gapStart else { return nil }
        var keyStart = k
        let keyEnd = k
        // Inlined, so `keyStart` stays a plain local: a call that captured it (the key list grew
        // past what the compiler inlines by itself) paid a dynamic exclusivity check each time.
        @inline(__always) func key(_ name: StaticString) -> Bool {
            let length = name.utf8CodeUnitCount
            guard keyEnd - length >= gapStart, text.matches(name, at: keyEnd - length, end: keyEnd) else {
                return false
            }
            keyStart = keyEnd - length
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
            if key("cookie") {
                kind = .header
            } else if key("passphrase") {
                kind = .value
            } else if text.byte(separator) != UInt8(ascii: "%"), k - 6 >= gapStart,
                text.lowered(k - 2) == UInt8(ascii: "u"), let pair = pairValueKey(end: k, gapStart: gapStart)
            {
                // (A pair's `value` ends in `ue`, with its member's quote or blank and more before
                // it: `time=`, `name=` and `type=` go without the call.)
                keyStart = pair
                kind = .value
            } else {
                return nil
            }
        case UInt8(ascii: "d"):
            // `…id` is common (`user_id`, `request_id`): the byte before the `d` leaves at most two
            // keys to compare.
            guard k - 2 >= gapStart else { return nil }
            switch text.lowered(k - 2) {
            case UInt8(ascii: "r"): guard key("password") else { return nil }
            case UInt8(ascii: "w"): guard key("passwd") || key("pwd") else { return nil }
            case UInt8(ascii: "i"): guard key("sessionid") || key("session_id") || key("sessid") else { return nil }
            default: return nil
            }
            kind = .value
        case UInt8(ascii: "t"):
            guard key("secret") else { return nil }
            kind = .value
        case UInt8(ascii: "y"):
            guard
                key("api_key") || key("api-key") || key("apikey") || key("secret_key") || key("secret-key")
                    || key("secretkey") || key("private_key") || key("private-key") || key("privatekey")
                    || key("access_key") || key("access-key") || key("accesskey")
            else { return nil }
            kind = .value
        case UInt8(ascii: "s"):
            guard key("credentials") || (keyEnd - 4 >= gapStart && passStarts(at: keyEnd - 4) && key("pass")) else {
                return nil
            }
            kind = .value
        default:
            return nil
        }
        return (keyStart, kind)
    }

    /// A long command-line option named by a key at the `-` at `dash` (a candidate of the span
    /// pass: the first of `--`, or with `memchr` any `-`): `--` not right after an `[A-Za-z0-9_-]` or a `]`,
    /// then a run of `[A-Za-z0-9_-]` that ends in one of the keys (`--password`, `--db-password`,
    /// `--access-token`; any case), then spaces or tabs (the separator, `[nameEnd, valueStart)`) and,
    /// after rule 2's blanks, a byte that is no `-` (another option: `--password --host=x` keeps it;
    /// nor a token's or an email's placeholder, which may stand for a run from a `-`)
    /// and starts no separator (`=`, `:` and their other spellings: `--X--secret = 'x'` is the
    /// separator's credential). `keyStart` is nil when
    /// it is none; `nameEnd` is where the option's name ends (or `dash + 1` after a lone `-`): no `--`
    /// before it starts another option, each being right after a name's byte. The name is read
    /// forward once, its last two bytes tested against the key-pair table before the key is read
    /// back (`password x`: a key whatever its case; `--verbose x` goes at that test).
    @inline(never) func option(at dash: Int, end: Int) -> (keyStart: Int?, nameEnd: Int, valueStart: Int) {
        guard dash + 1 < end, text.byte(dash + 1) == UInt8(ascii: "-") else { return (nil, dash + 1, dash + 1) }
        var nameEnd = dash + 2
        while nameEnd < end, text.has(nameEnd, Classes.token) { nameEnd += 1 }
        let nameStart = dash + 2
        // (Nor right after a `]`: a UUID's placeholder glued before `--password` stands for a hex
        // digit there, the third review of the twenty-second session.)
        guard dash == 0 || !(text.has(dash - 1, Classes.token) || text.byte(dash - 1) == UInt8(ascii: "]")),
            nameEnd - nameStart >= 3, nameEnd < end,
            text.byte(nameEnd) == 0x20 || text.byte(nameEnd) == 0x09
        else { return (nil, nameEnd, nameEnd) }
        let pairs = text.table + Classes.keyPairs
        guard text.has(nameEnd - 1, Classes.keyEnd),
            pairs[Int(text.byte(nameEnd - 2))] & pairs[Int(text.byte(nameEnd - 1))] &>> 16 != 0,
            let key = key(before: nameEnd, gapStart: nameStart)
        else { return (nil, nameEnd, nameEnd) }
        var valueStart = nameEnd + 1
        while valueStart < end, text.byte(valueStart) == 0x20 || text.byte(valueStart) == 0x09 { valueStart += 1 }
        // Not another option, and not a separator after more blanks (`--X--secret = 'x'`, a multipart
        // boundary glued to a key: the separator's own credential, found at it).
        let first = text.blanksEnd(from: valueStart, end: end, stop: Int.max)
        if first < end {
            let byte = text.byte(first)
            // (Nor what rules 4 and 7 leave of a run that starts with a `-`: `optionValueMayStart(at:end:)`.)
            if !optionValueMayStart(at: first, end: end) || byte == UInt8(ascii: "=") || byte == UInt8(ascii: ":")
                || (byte == UInt8(ascii: "\\") && escapedSeparatorLength(at: first, end: end) > 0)
                || (byte == 0xEF && fullWidthSeparatorLength(at: first, end: end) > 0)
                || (byte == UInt8(ascii: "%") && percentSeparatorLength(at: first, end: end) > 0)
            {
                return (nil, nameEnd, nameEnd)
            }
        }
        return (key.start, nameEnd, valueStart)
    }

    /// How a user option's password opens (``userOptionPassword(colon:bound:curl:)``): after a bare
    /// name, or inside the string a quote before the name opened (`"`, `'`, or JSON's `\"`), which
    /// the same quote closes: the password runs to it, blanks and `;` included (`--user "bob:correct
    /// horse"`).
    enum UserOptionOpening: Equatable {
        case bare
        case quoted(UInt8)
        case escaped

        /// The quote and its backslashes for ``CredentialRule/credential(key:separator:length:percent:stop:bound:opened:)``.
        var opened: (quote: UInt8, escapes: Int)? {
            switch self {
            case .bare: return nil
            case .quoted(let quote): return (quote, 0)
            case .escaped: return (UInt8(ascii: "\""), 1)
            }
        }
    }

    /// Whether the `:` at `colon` is the one between a user name and a password after an option
    /// that names both, and how the password opens: curl's `-u alice:hunter2`, `--user`, `-U`,
    /// `--proxy-user`, and `-u` or `-U` glued to the name (`-ualice:hunter2`; each of curl's only
    /// where the word `curl` starts before the `:`, at `curl`: `date -u 10:00`, `nc -u host:8125`,
    /// `mvn -U dependency:tree` and `docker run -u root:root` are no credential), or HTTPie's
    /// `--auth`; as Alamofire's `cURLDescription()` writes a request's credential. The option stands
    /// at `bound`, after white space, a quote or an escaped `\t`, `\n` or `\r` (a command in a JSON
    /// string); then 1 to ``maximumUserName`` spaces or tabs or an `=`, and an optional quote (`"`,
    /// `\"` or `'`); or, in an argument list, the option in quotes, a `,`, a space at most, the same
    /// quote (`['curl', '-u', 'alice:x']`, `["curl", "-u", "alice:x"]`); or nothing (glued: the
    /// quote, if any, is the one before the option, `["curl", "-ualice:x"]`). Then the user name:
    /// empty (Azure DevOps' `-u :token`; not right after `=`) or up to ``maximumUserName``
    /// `[A-Za-z0-9._@+~!$%\-]` ending in a letter or digit and not digits alone (a user and a group,
    /// `1000:1000`). The password, the value after the `:`, is then read as a credential's after an
    /// empty key, so the name is left to rules 3–7 (`-u me@a.io:x` → `-u
    /// [redacted-email]:[redacted-secret]`); after a quote, as the rest of that quote's string
    /// (``UserOptionOpening``), which the same quote right after the `:` leaves empty (`-u
    /// 'alice:'`). The pass asks only where no key ends at the `:` (a user named by a key, `-u
    /// token:x`, is that key's credential) and the input holds an option's start
    /// (``userOptionContext(end:)``).
    ///
    /// Linear: it reads back from one `:` over a bounded run, quotes, blanks and names.
    @inline(never) func userOptionPassword(colon: Int, bound: Int, curl: Int) -> UserOptionOpening? {
        // The run of name bytes before the `:` (longer than a name by a glued option, its flags
        // included, `-sSu`), and the last byte in it that is not a digit.
        var u = colon
        var nonDigit = -1
        while u > bound, colon - u < Self.maximumUserName + 2 + Self.maximumCombinedFlags,
            case let byte = text.byte(u - 1), userNameByte(at: u - 1) || byte == UInt8(ascii: "\\")
        {
            if nonDigit < 0, !(0x30...0x39).contains(byte) { nonDigit = u - 1 }
            u -= 1
        }
        // A name from `start` to the `:`: empty, or ending in a letter or digit and not digits alone.
        @inline(__always) func nameFits(from start: Int) -> Bool {
            start == colon
                || (colon - start <= Self.maximumUserName && nonDigit >= start
                    && text.has(colon - 1, Classes.alphanumeric))
        }
        // The quote that opens the string before `q` (`"`, `\"` after a backslash, `'`), if any.
        @inline(__always) func opening(before q: Int) -> UserOptionOpening {
            guard q > bound else { return .bare }
            switch text.byte(q - 1) {
            case UInt8(ascii: "\""):
                return q - 2 >= bound && text.byte(q - 2) == UInt8(ascii: "\\") ? .escaped : .quoted(UInt8(ascii: "\""))
            case UInt8(ascii: "'"): return .quoted(UInt8(ascii: "'"))
            default: return .bare
            }
        }
        var found: UserOptionOpening?
        if nameFits(from: u) { found = separatedUserOption(nameStart: u, colon: colon, bound: bound, curl: curl) }
        if found == nil, curl < colon {
            // Glued (curl's short options only): the first `-u` or `-U` in the run at a boundary, flags
            // combined before it (`-sualice:x`), its name fitting; the quote before the run opens the
            // password only for an option at its start.
            var s = u
            while s + 2 <= colon {
                if text.byte(s) == UInt8(ascii: "-"), optionBoundary(before: s, bound: bound),
                    let letter = curlUserOptionLetter(afterDash: s, end: colon), nameFits(from: letter + 1)
                {
                    found = s == u ? opening(before: u) : .bare
                    break
                }
                s += 1
            }
        }
        // After a quote, the same quote right after the `:` closes the name's string: no password
        // (`-u 'alice:'`, Stripe's `-u "sk_test_…:"`).
        guard let found, let opened = found.opened, colon + 1 < text.count else { return found }
        let next = text.byte(colon + 1)
        if next == opened.quote
            || (opened.quote == UInt8(ascii: "\"") && next == UInt8(ascii: "\\") && colon + 2 < text.count
                && text.byte(colon + 2) == opened.quote)
        {
            return nil
        }
        return found
    }

    /// Whether the byte at `index` may be in a user option's name: `[A-Za-z0-9._@+~!$%-]` (curl's and
    /// lftp's; curl's run also takes a `\`, `CORP\jdoe`).
    @inline(__always) func userNameByte(at index: Int) -> Bool {
        if text.has(index, Classes.alphanumeric) { return true }
        let byte = text.byte(index)
        return byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "@")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "%")
    }

    /// Whether an option starting at `start` stands at a boundary: at `bound`, after white space,
    /// a quote, or an escaped `\t`, `\n` or `\r`.
    @inline(__always) func optionBoundary(before start: Int, bound: Int) -> Bool {
        guard start > bound else { return true }
        let byte = text.byte(start - 1)
        if (0x09...0x0D).contains(byte) || byte == 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            return true
        }
        return (byte == UInt8(ascii: "t") || byte == UInt8(ascii: "n") || byte == UInt8(ascii: "r"))
            && start - 2 >= bound && text.byte(start - 2) == UInt8(ascii: "\\")
    }

    /// The most of curl's flags combined before `-u` or `-U` in one word (`-fsSLu`: four).
    static var maximumCombinedFlags: Int { 8 }

    /// Whether `byte` names one of curl's short options that take no argument (`-s`, `-S`, `-k`,
    /// `-L`, `-f`, `-v`, …, and `-0`, `-1`, `-2`, `-3`, `-4`, `-6`, the protocol and IP versions;
    /// not `-5`, `-7`, `-8`, `-9`, which curl has not, nor `-#`, which no user name's run holds). Combined before `-u` or `-U` in one word, each is
    /// a flag and the letter after them names the user option (`curl -su alice:x`); an option that
    /// takes an argument (`-x`, `-o`, `-H`, `-u` itself) takes the rest of the word instead
    /// (`-xualice:x` is a proxy, `-uu alice:x` the user `u`), so none of those may stand before it.
    @inline(__always) static func isCurlFlag(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a"), UInt8(ascii: "B"), UInt8(ascii: "f"), UInt8(ascii: "g"), UInt8(ascii: "G"),
            UInt8(ascii: "i"), UInt8(ascii: "I"), UInt8(ascii: "j"), UInt8(ascii: "J"), UInt8(ascii: "k"),
            UInt8(ascii: "l"), UInt8(ascii: "L"), UInt8(ascii: "M"), UInt8(ascii: "n"), UInt8(ascii: "N"),
            UInt8(ascii: "O"), UInt8(ascii: "p"), UInt8(ascii: "q"), UInt8(ascii: "R"), UInt8(ascii: "s"),
            UInt8(ascii: "S"), UInt8(ascii: "v"), UInt8(ascii: "V"), UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "4"), UInt8(ascii: "6"):
            return true
        default: return false
        }
    }

    /// Where curl's short user option whose letter (`u` or `U`) is at `letter` starts: its `-`,
    /// right before the letter or before up to ``maximumCombinedFlags`` of curl's flags
    /// (``isCurlFlag(_:)``), not before `bound`; else nil. Linear: a bounded walk back.
    @inline(__always) func curlUserOptionStart(letter: Int, bound: Int) -> Int? {
        guard letter - 1 >= bound, text.byte(letter) | 0x20 == UInt8(ascii: "u") else { return nil }
        var d = letter - 1
        while d > bound, letter - d <= Self.maximumCombinedFlags, Self.isCurlFlag(text.byte(d)) { d -= 1 }
        return text.byte(d) == UInt8(ascii: "-") ? d : nil
    }

    /// The letter (`u` or `U`) of curl's short user option whose `-` is at `dash`, after up to
    /// ``maximumCombinedFlags`` of curl's flags, before `end`; else nil. Linear: a bounded walk on.
    @inline(__always) func curlUserOptionLetter(afterDash dash: Int, end: Int) -> Int? {
        var l = dash + 1
        while l < end, l - dash <= Self.maximumCombinedFlags, Self.isCurlFlag(text.byte(l)) { l += 1 }
        return l < end && text.byte(l) | 0x20 == UInt8(ascii: "u") ? l : nil
    }

    /// ``userOptionPassword(colon:bound:curl:)`` for an option apart from the name at `nameStart`
    /// (blanks, `=` or an argument list's quotes between them): how the password opens, or nil.
    @inline(__always) func separatedUserOption(nameStart u: Int, colon: Int, bound: Int, curl: Int)
        -> UserOptionOpening?
    {
        guard u > bound else { return nil }
        var p = u
        var quote: UInt8?
        var opening = UserOptionOpening.bare
        var list = false
        let before = text.byte(p - 1)
        if before == UInt8(ascii: "\"") || before == UInt8(ascii: "'") {
            quote = before
            opening = .quoted(before)
            p -= 1
            // An argument list: the option in the same quotes, then `,` and a space at most.
            var q = p
            if q > bound, text.byte(q - 1) == 0x20 { q -= 1 }
            if q - 2 >= bound, text.byte(q - 1) == UInt8(ascii: ","), text.byte(q - 2) == before {
                p = q - 2
                list = true
            } else if before == UInt8(ascii: "\""), p > bound, text.byte(p - 1) == UInt8(ascii: "\\") {
                p -= 1
                opening = .escaped
            }
        }
        if !list {
            guard p > bound else { return nil }
            if text.byte(p - 1) == UInt8(ascii: "=") {
                // (An empty name right after `=` is none: the span pass passes over a `:` right
                // after another trigger.)
                guard u < colon || quote != nil else { return nil }
                p -= 1
            } else {
                let blanksEnd = p
                while p > bound, blanksEnd - p < Self.maximumUserName,
                    text.byte(p - 1) == 0x20 || text.byte(p - 1) == 0x09
                {
                    p -= 1
                }
                if p == blanksEnd {
                    // No blanks: the quote right after curl's `-u` or `-U`, mid-word as a shell
                    // reads it (`-u"alice:x y"`, `-u'alice:x'`).
                    guard quote != nil, curl < colon, let dash = curlUserOptionStart(letter: p - 1, bound: bound),
                        optionBoundary(before: dash, bound: bound)
                    else { return nil }
                    return opening
                }
            }
        }
        // The option starting at `start` stands after its boundary, or in its list's quote.
        @inline(__always) func stands(at start: Int) -> Bool {
            if list { return start > bound && text.byte(start - 1) == quote }
            return optionBoundary(before: start, bound: bound)
        }
        @inline(__always) func option(_ name: StaticString, afterCurl: Bool) -> Bool {
            let start = p - name.utf8CodeUnitCount
            guard start >= bound, !afterCurl || curl < colon, exactly(name, at: start, end: p) else { return false }
            return stands(at: start)
        }
        // The option's last letter leaves one or two to compare.
        guard p - 2 >= bound else { return nil }
        let found: Bool
        switch text.byte(p - 1) {
        case UInt8(ascii: "r"): found = option("--user", afterCurl: true) || option("--proxy-user", afterCurl: true)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            // `-u`, `-U`, or either after curl's flags in the same word (`-su`, `-ksSU`).
            found = curl < colon && curlUserOptionStart(letter: p - 1, bound: bound).map(stands(at:)) == true
        case UInt8(ascii: "h"): found = option("--auth", afterCurl: false)
        default: found = false
        }
        return found ? opening : nil
    }

    /// What ``userOptionPassword(colon:bound:curl:)`` needs to know of the input up to `end`, found
    /// once and only when a `:` may end a user name: nil when it holds no user option's start (`-u`,
    /// `-U`, also inside `--user` and `--proxy-user`; `--a`; curl's flags and `u` or `U` after a
    /// boundary, ``curlUserOptionLetter(afterDash:end:)``), the case of most inputs with
    /// timestamps or JSON members; else where the first word `curl` starts (`curl` not right after
    /// an ASCII letter or digit, nor where no command's word starts, ``commandWordMayStart(at:)``:
    /// after `-`, a placeholder's `]` or a host's `@`, `//`, `\/`; and before a space, a tab, `\`,
    /// a quote or the end: a command, not `curl.se` or `curl/8.5`), or `Int.max` when none does. One pass over the `-`s, and one over
    /// the `c`s of an input that holds an option's start.
    @inline(never) func userOptionContext(end: Int) -> Int? {
        var p = 0
        var found = false
        while let dash = text.find(UInt8(ascii: "-"), from: p, to: end - 1) {
            let next = text.byte(dash + 1)
            if next | 0x20 == UInt8(ascii: "u")
                || (next == UInt8(ascii: "-") && dash + 2 < end && text.byte(dash + 2) == UInt8(ascii: "a"))
                || (Self.isCurlFlag(next) && optionBoundary(before: dash, bound: 0)
                    && curlUserOptionLetter(afterDash: dash, end: end) != nil)
            {
                found = true
                break
            }
            p = dash + 1
        }
        guard found else { return nil }
        p = 0
        while let c = text.find(UInt8(ascii: "c"), from: p, to: end) {
            if (c == 0
                || ((!text.has(c - 1, Classes.alphanumeric) || afterEscapedBreak(c - 1)) && commandWordMayStart(at: c)))
                && exactly("curl", at: c, end: end)
            {
                guard c + 4 < end else { return c }
                let after = text.byte(c + 4)
                if after == 0x20 || after == 0x09 || after == UInt8(ascii: "\\") || after == UInt8(ascii: "\"")
                    || after == UInt8(ascii: "'")
                {
                    return c
                }
            }
            p = c + 1
        }
        return Int.max
    }

    /// The longest user name, and the most blanks between it and its option
    /// (``userOptionPassword(colon:bound:curl:)``).
    static var maximumUserName: Int { 64 }

    /// A name–value pair's `value` key (any case) that ends at `end`, as HAR files, Kubernetes and
    /// ECS `env` lists, AWS SSM parameters and many config APIs write a credential:
    /// `{"name":"DB_PASSWORD","value":"x"}`, `{"key":"access_token","value":"x"}`, Python's
    /// `{'name': 'DB_PASSWORD', 'value': 'x'}`, Go's `{Name:DB_PASSWORD Value:x}` and
    /// `&EnvVar{Name:DB_PASSWORD,Value:x,}`, `{"Name":"/prod/db/password","Type":"SecureString",
    /// "Value":"x"}`. Its start when a member before it in the same object, at most
    /// ``maximumPairMembersBetween`` members back, is a `name` or `key` (any case) whose string ends
    /// in one of rule 2's keys (after any run of `[A-Za-z0-9_./-]`), every quote the same: `"`, `\"`
    /// (JSON in a JSON string), `'`, or none (then the `name` or `key` not right after a name's
    /// character, the members apart by a `,` or one space, and each string unquoted or in quotes of
    /// its own, `"` or `'`: `{ name: 'DB_PASSWORD', value: 'x' }`); a space at most around each `:` and
    /// `,`; or each member on a line of its own (pretty-printed JSON, Python's `pprint`, or
    /// unquoted with no `,`, YAML's `- name: DB_PASSWORD⏎  value: x`: a `,`, a line break, real or
    /// escaped, and up to 64 spaces or tabs, a tab also escaped); else nil. A member between them
    /// (``plainMemberStart(endingAt:quote:escapes:gapStart:)``) is a key other than `value` and a
    /// short plain string or scalar.
    ///
    /// Linear: it reads back from one `value` candidate over fixed pieces, at most
    /// ``maximumPairMembersBetween`` members of bounded length and the name's run, no further than
    /// `gapStart`. No member it reads over is a `value` member, and the name's run holds no quote,
    /// blank or `,`, so the members and names that two candidates read back over lie between them:
    /// no byte is read for two candidates but the bounded pieces around each.
    @inline(never) func pairValueKey(end: Int, gapStart: Int) -> Int? {
        let start = end - 5
        guard start - 1 >= gapStart, text.matches("value", at: start, end: end) else { return nil }
        // The members' quote: the byte before `value` (and a backslash before a `"`), or none.
        let quoteByte: UInt8?
        var escapes = 0
        switch text.byte(start - 1) {
        case UInt8(ascii: "\""):
            quoteByte = UInt8(ascii: "\"")
            escapes = start - 2 >= gapStart && text.byte(start - 2) == UInt8(ascii: "\\") ? 1 : 0
        case UInt8(ascii: "'"): quoteByte = UInt8(ascii: "'")
        // Unquoted also after a line's indentation or break (YAML: `- name: DB_PASSWORD⏎  value: x`),
        // an escaped one included (`\n`).
        case 0x20, UInt8(ascii: ","), 0x09, 0x0A: quoteByte = nil
        case UInt8(ascii: "n"), UInt8(ascii: "t"):
            guard start - 2 >= gapStart, text.byte(start - 2) == UInt8(ascii: "\\") else { return nil }
            quoteByte = nil
        default: return nil
        }
        guard let valueQuote = pairQuote(endingAt: start, quote: quoteByte, escapes: escapes, gapStart: gapStart),
            var memberEnd = pairMemberEnd(before: valueQuote, quote: quoteByte, gapStart: gapStart)
        else { return nil }
        for between in 0...Self.maximumPairMembersBetween {
            if pairNameMember(endingAt: memberEnd, quote: quoteByte, escapes: escapes, gapStart: gapStart) {
                return start
            }
            guard between < Self.maximumPairMembersBetween,
                let member = plainMemberStart(
                    endingAt: memberEnd, quote: quoteByte, escapes: escapes, gapStart: gapStart),
                let previous = pairMemberEnd(before: member, quote: quoteByte, gapStart: gapStart)
            else { return nil }
            memberEnd = previous
        }
        return nil
    }

    /// How many members may stand between a pair's `name` and its `value` (``pairValueKey(end:gapStart:)``):
    /// AWS SSM writes `Type` between them, JSON with sorted keys anything from `o` to `u`.
    static var maximumPairMembersBetween: Int { 4 }
    /// The longest key and the longest string or scalar of a member between them.
    static var maximumPairMemberKey: Int { 32 }
    static var maximumPairMemberValue: Int { 64 }
    /// The most spaces and tabs that indent a member on a line of its own.
    static var maximumPairIndentation: Int { 64 }

    /// In a pair's members, the start of the quote (and its backslash) that ends at `q`, or nil;
    /// unquoted, `q`.
    @inline(__always) func pairQuote(endingAt q: Int, quote: UInt8?, escapes: Int, gapStart: Int) -> Int? {
        guard let quote else { return q }
        let opening = q - 1 - escapes
        guard opening >= gapStart, text.byte(q - 1) == quote, escapes == 0 || text.byte(opening) == UInt8(ascii: "\\")
        else { return nil }
        return opening
    }

    /// `p - 1` when the byte there is `byte` (not below `gapStart`), else nil.
    @inline(__always) func pairByte(_ byte: UInt8, before p: Int, gapStart: Int) -> Int? {
        p > gapStart && text.byte(p - 1) == byte ? p - 1 : nil
    }

    /// `p - 1` when a space is there, else `p`.
    @inline(__always) func pairSpace(before p: Int, gapStart: Int) -> Int {
        p > gapStart && text.byte(p - 1) == 0x20 ? p - 1 : p
    }

    /// Where the member before the one starting at `member` ends: before a `,` with a space at most
    /// around it, or a `,` (a space at most before it) and a line break (``pairLineBreak(before:gapStart:)``:
    /// pretty-printed JSON, Python's `pprint`); unquoted, also before one space alone or a line break
    /// alone (YAML); or nil.
    @inline(__always) func pairMemberEnd(before member: Int, quote: UInt8?, gapStart: Int) -> Int? {
        if let comma = pairByte(
            UInt8(ascii: ","), before: pairSpace(before: member, gapStart: gapStart), gapStart: gapStart)
        {
            return pairSpace(before: comma, gapStart: gapStart)
        }
        if let lineBreak = pairLineBreak(before: member, gapStart: gapStart) {
            if let comma = pairByte(UInt8(ascii: ","), before: lineBreak, gapStart: gapStart) {
                return pairSpace(before: comma, gapStart: gapStart)
            }
            return quote == nil ? lineBreak : nil
        }
        return quote == nil ? pairByte(0x20, before: member, gapStart: gapStart) : nil
    }

    /// The start of the line break and indentation that end at `p` (a member on a line of its own):
    /// `\n` or `\r\n`, real or written as JSON escapes (a pretty-printed document in a JSON string),
    /// then up to ``maximumPairIndentation`` spaces or tabs, a tab also escaped, `\t` (`json.MarshalIndent`
    /// with a tab, escaped by a JSON logger); or nil.
    @inline(__always) func pairLineBreak(before p: Int, gapStart: Int) -> Int? {
        var i = p
        var units = 0
        while i > gapStart, units < Self.maximumPairIndentation {
            let byte = text.byte(i - 1)
            if byte == 0x20 || byte == 0x09 {
                i -= 1
            } else if byte == UInt8(ascii: "t"), i - 2 >= gapStart, text.byte(i - 2) == UInt8(ascii: "\\") {
                i -= 2
            } else {
                break
            }
            units += 1
        }
        guard i > gapStart else { return nil }
        switch text.byte(i - 1) {
        case 0x0A:
            return i - 2 >= gapStart && text.byte(i - 2) == 0x0D ? i - 2 : i - 1
        case UInt8(ascii: "n"):
            guard i - 2 >= gapStart, text.byte(i - 2) == UInt8(ascii: "\\") else { return nil }
            return i - 4 >= gapStart && text.byte(i - 4) == UInt8(ascii: "\\") && text.byte(i - 3) == UInt8(ascii: "r")
                ? i - 4 : i - 2
        default:
            return nil
        }
    }

    /// Whether the member ending at `memberEnd` is a `name` or `key` (any case) whose string ends in
    /// one of rule 2's keys (``pairValueKey(end:gapStart:)``).
    @inline(__always) func pairNameMember(endingAt memberEnd: Int, quote quoteByte: UInt8?, escapes: Int, gapStart: Int)
        -> Bool
    {
        func quote(endingAt q: Int) -> Int? {
            pairQuote(endingAt: q, quote: quoteByte, escapes: escapes, gapStart: gapStart)
        }
        // (Each quote's start is where the text before it ends.)
        guard var close = quote(endingAt: memberEnd) else { return false }
        // Unquoted members' strings may have quotes of their own (``pairStringQuote(endingAt:gapStart:)``).
        let own = quoteByte == nil ? pairStringQuote(endingAt: close, gapStart: gapStart) : nil
        if own != nil { close -= 1 }
        // A form field's name keeps its suffixes (`user[password]`, `password[]`, `user%5Bpassword%5D`:
        // HAR's `postData` params of a Rails or PHP form), as a key before a separator does; a
        // placeholder's own `]` closes none (`[redacted-token]` is no name a first pass saw).
        let keyEnd = bracketStart(before: close, bound: gapStart)
        if keyEnd < close, text.byte(keyEnd) == UInt8(ascii: "]"),
            (keyEnd - 15 >= gapStart && exactly("[redacted-token", at: keyEnd - 15, end: keyEnd))
                || (keyEnd - 16 >= gapStart && exactly("[redacted-secret", at: keyEnd - 16, end: keyEnd))
        {
            return false
        }
        // The name's credential key, then its prefix (`[` and `%` too, before a form key).
        guard let keyword = keyWordStart(endingAt: keyEnd, from: gapStart) else { return false }
        var nameStart = keyword
        while nameStart > gapStart,
            text.has(nameStart - 1, Classes.alphanumeric) || isPairNameSymbol(nameStart - 1)
                || text.byte(nameStart - 1) == UInt8(ascii: "[") || text.byte(nameStart - 1) == UInt8(ascii: "%")
        {
            nameStart -= 1
        }
        let nameOpen: Int?
        if let own {
            nameOpen = pairByte(own, before: nameStart, gapStart: gapStart)
        } else {
            nameOpen = quote(endingAt: nameStart)
        }
        guard let nameOpen,
            let colon = pairByte(
                UInt8(ascii: ":"), before: pairSpace(before: nameOpen, gapStart: gapStart), gapStart: gapStart),
            let memberWordEnd = quote(endingAt: pairSpace(before: colon, gapStart: gapStart))
        else { return false }
        let member =
            memberWordEnd - 4 >= gapStart && text.matches("name", at: memberWordEnd - 4, end: memberWordEnd)
            ? memberWordEnd - 4
            : memberWordEnd - 3 >= gapStart && text.matches("key", at: memberWordEnd - 3, end: memberWordEnd)
                ? memberWordEnd - 3 : -1
        guard member >= gapStart, let memberOpen = quote(endingAt: member) else { return false }
        // Unquoted, `name` is a word of its own (`names:` or `username:` is no member name), or on a
        // line of its own after an escaped line break or tab (`\nname:`); not right after a `]`
        // either: a placeholder's (a UUID glued to `name` is no boundary before rule 5 writes
        // `[redacted-uuid]` in its place, so it must be none after it, or a second pass would take
        // what the first left).
        if quoteByte == nil, memberOpen > gapStart,
            text.has(memberOpen - 1, Classes.alphanumeric) || isPairNameSymbol(memberOpen - 1)
                || text.byte(memberOpen - 1) == UInt8(ascii: "]"),
            !(memberOpen - 2 >= gapStart
                && (text.byte(memberOpen - 1) == UInt8(ascii: "n") || text.byte(memberOpen - 1) == UInt8(ascii: "t"))
                && text.byte(memberOpen - 2) == UInt8(ascii: "\\"))
        {
            return false
        }
        return true
    }

    /// The start of a member between a pair's `name` and `value` that ends at `memberEnd`: a key of
    /// 1 to 32 `[A-Za-z0-9_.-]` other than `value` (any case), in the pair's quotes, a space at most
    /// around the `:`, and a string of 0 to 64 `[A-Za-z0-9 _.+/@:-]` in the same quotes (a time,
    /// `2024-06-19T10:51:16Z`, or an ARN, as `aws ssm get-parameter-history` writes between) or a
    /// scalar of 1 to 64 `[A-Za-z0-9_.+/@-]` (unquoted, not starting with `/`: `Url://x` would be a
    /// URL). No quote, `\`, `%` or `=` inside, and no `:` outside quotes: a URL in a string is a span
    /// the look-back stops at, and a key–value pair of its own inside one is a credential's span.
    @inline(__always) func plainMemberStart(
        endingAt memberEnd: Int, quote quoteByte: UInt8?, escapes: Int, gapStart: Int
    )
        -> Int?
    {
        func quote(endingAt q: Int) -> Int? {
            pairQuote(endingAt: q, quote: quoteByte, escapes: escapes, gapStart: gapStart)
        }
        let limit = Self.maximumPairMemberValue
        var valueStart: Int
        if quoteByte != nil, let close = quote(endingAt: memberEnd) {
            var c = close
            while c > gapStart, close - c < limit, PairMemberBytes.content[Int(text.byte(c - 1))] != 0 { c -= 1 }
            guard let open = quote(endingAt: c) else { return nil }
            valueStart = open
        } else if quoteByte == nil, let own = pairStringQuote(endingAt: memberEnd, gapStart: gapStart) {
            let close = memberEnd - 1
            var c = close
            while c > gapStart, close - c < limit, PairMemberBytes.content[Int(text.byte(c - 1))] != 0 { c -= 1 }
            guard let open = pairByte(own, before: c, gapStart: gapStart) else { return nil }
            valueStart = open
        } else {
            var c = memberEnd
            while c > gapStart, memberEnd - c < limit, PairMemberBytes.scalar[Int(text.byte(c - 1))] != 0 { c -= 1 }
            guard c < memberEnd, quoteByte != nil || text.byte(c) != UInt8(ascii: "/") else { return nil }
            valueStart = c
        }
        guard
            let colon = pairByte(
                UInt8(ascii: ":"), before: pairSpace(before: valueStart, gapStart: gapStart), gapStart: gapStart),
            let keyClose = quote(endingAt: pairSpace(before: colon, gapStart: gapStart))
        else { return nil }
        var k = keyClose
        while k > gapStart, keyClose - k < Self.maximumPairMemberKey, PairMemberBytes.key[Int(text.byte(k - 1))] != 0 {
            k -= 1
        }
        // Unquoted, a key on a line of its own after an escaped line break or tab starts after its
        // `n` or `t`.
        if quoteByte == nil, k < keyClose, k > gapStart, text.byte(k - 1) == UInt8(ascii: "\\"),
            text.byte(k) == UInt8(ascii: "n") || text.byte(k) == UInt8(ascii: "t")
        {
            k += 1
        }
        guard k < keyClose, !(keyClose - k == 5 && text.matches("value", at: k, end: keyClose)) else { return nil }
        return quote(endingAt: k)
    }

    /// The quote, `"` or `'`, right before `q` (not below `gapStart`), or nil: in unquoted members a
    /// string may have quotes of its own, as JavaScript's `util.inspect` (`{ name: 'DB_PASSWORD',
    /// value: 'x' }`), Ruby's `inspect` and YAML (`- name: "DB_PASSWORD"`) write one. (An unquoted
    /// scalar and a name's run end in no quote, so a quote there is a string's.)
    @inline(__always) func pairStringQuote(endingAt q: Int, gapStart: Int) -> UInt8? {
        guard q > gapStart else { return nil }
        let byte = text.byte(q - 1)
        return byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") ? byte : nil
    }

    /// Whether the byte at `index` is `_`, `.` or `-` (in a markup name).
    @inline(__always) func isNameSymbol(_ index: Int) -> Bool {
        let byte = text.byte(index)
        return byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    /// ``isNameSymbol(_:)`` or `/`, in a pair's name (``pairValueKey(end:gapStart:)``): an AWS SSM
    /// parameter's name is a path, `/prod/db/password`.
    @inline(__always) func isPairNameSymbol(_ index: Int) -> Bool {
        isNameSymbol(index) || text.byte(index) == UInt8(ascii: "/")
    }

    /// Whether `pass` (a key: `DB_PASS=`, `smtpPass:`, `db2pass=`, `?user=x&pass=`) may start at
    /// `index`: not inside a word (`bypass`, `compass`), so the byte before it is no lower-case
    /// ASCII letter, unless its `p` is upper case (a camel-case hump) or that letter ends an
    /// escape (`\npass=`, `%0apass=`, `\x0apass=`, `\u000apass=`); and not right after a `]`
    /// (a placeholder's: a UUID glued to `pass` is no key before rule 5 writes `[redacted-uuid]`
    /// in its place, so it must be none after it, or a second pass would take what the first
    /// left). The byte before may lie below the caller's bound: a key's look-back sees the text
    /// before the previous span, as the reference's does.
    @inline(__always) func passStarts(at index: Int) -> Bool {
        guard index > 0, text.byte(index) != UInt8(ascii: "P") else { return true }
        let before = text.byte(index - 1)
        if before == UInt8(ascii: "]") { return false }
        guard (0x61...0x7A).contains(before) else { return true }
        if index >= 2, text.byte(index - 2) == UInt8(ascii: "\\") {
            return before == UInt8(ascii: "n") || before == UInt8(ascii: "r") || before == UInt8(ascii: "t")
        }
        // A percent, `\x` or `\u` escape's last hex digit.
        guard before <= UInt8(ascii: "f") else { return false }
        func hex(_ i: Int) -> Bool { text.has(i, Classes.hex) }
        return (index >= 3 && text.byte(index - 3) == UInt8(ascii: "%") && hex(index - 2))
            || (index >= 4 && text.byte(index - 4) == UInt8(ascii: "\\") && text.byte(index - 3) == UInt8(ascii: "x")
                && hex(index - 2))
            || (index >= 6 && text.byte(index - 6) == UInt8(ascii: "\\") && text.byte(index - 5) == UInt8(ascii: "u")
                && hex(index - 4) && hex(index - 3) && hex(index - 2))
    }

    /// Where the one of rule 2's keys (``LogSanitizer/credentialKeys``, any ASCII case) that ends at
    /// `end` starts, when it starts at or after `start`; else nil. No key ends another, so at most
    /// one fits, and the last letter leaves one to seven to compare as static strings (walking the
    /// list of `String`s retained and released each one's storage: a start tag or a pair's name
    /// paid 25 instructions a byte for it).
    @inline(__always) func keyWordStart(endingAt end: Int, from start: Int) -> Int? {
        guard end - 3 >= start else { return nil }
        @inline(__always) func fits(_ key: StaticString) -> Int? {
            let keyStart = end - key.utf8CodeUnitCount
            return keyStart >= start && text.matches(key, at: keyStart, end: end) ? keyStart : nil
        }
        switch text.lowered(end - 1) {
        case UInt8(ascii: "n"): return fits("authorization") ?? fits("token")
        case UInt8(ascii: "e"): return fits("cookie") ?? fits("passphrase")
        case UInt8(ascii: "d"):
            if let key = fits("password") ?? fits("passwd") ?? fits("pwd") ?? fits("sessionid") { return key }
            return fits("session_id") ?? fits("sessid")
        case UInt8(ascii: "t"): return fits("secret")
        case UInt8(ascii: "y"):
            // (Split: one chain of eleven `??` is more than the type checker takes in time.)
            if let key = fits("api_key") ?? fits("api-key") ?? fits("apikey") ?? fits("secret_key") { return key }
            if let key = fits("secret-key") ?? fits("secretkey") ?? fits("private_key") ?? fits("private-key") {
                return key
            }
            return fits("privatekey") ?? fits("access_key") ?? fits("access-key") ?? fits("accesskey")
        case UInt8(ascii: "s"):
            if let credentials = fits("credentials") { return credentials }
            guard let pass = fits("pass"), pass == start || passStarts(at: pass) else { return nil }
            return pass
        default: return nil
        }
    }

    /// Where a header sits (``headerPlace(context:bound:)``), which decides the quote that closes
    /// its unquoted value (``headerEnd(from:end:stop:place:resumed:)``).
    enum HeaderPlace: Equatable {
        /// In running text: no quote closes the value (only the quote right before a URL ends it).
        case running
        /// In a string opened by `quote` after `escapes` backslashes (0–15), which the same quote
        /// at the same depth closes: after a run of `escapes` + j(2 `escapes` + 2) backslashes
        /// (``SanitizerScan/closesEscaped(run:escapes:)``), for `escapes` 0 an even run. When
        /// `quote` is nil the string is one an escaped line break with `escapes` backslashes before
        /// it shows (`\r\nCookie:`, `\\n` in a string escaped twice), whose quote is unknown: the
        /// first quote of any kind at that depth ends the value when it closes, and when it does
        /// not (`\nCookie: p={"a":"b"}; sid=x`, a bare `"` that no string escaped so holds) the
        /// header sits in running text from there on.
        case string(quote: UInt8?, escapes: Int)
    }

    /// How a header's unquoted value or a quoted value that stopped at a URL goes on after it
    /// (``resumption(after:kind:end:)``, ``resumedValue(from:kind:stop:)``).
    enum Resume {
        /// A header's unquoted value, and where the header sits (``headerContext(keyStart:bound:)``).
        case header(HeaderPlace)
        case quoted(UInt8)
        case escaped(Int)
        /// A value opened by a quote in another spelling: the `length` bytes at `opener` (`&quot;`,
        /// `\u0022`, `\x22`, `\'`, a doubled `""`, …), which close it again (``spelledQuotedEnd``).
        case spelled(opener: Int, length: Int)
    }

    /// The credential whose key `key` ends before the separator at `separator` (`%3D` or `%3A` when
    /// `percent`); its value stops at `stop` (the next URL's start, `Int.max`: none), unless it is a
    /// structure that does not close before it. Nil when the value is empty. `resume`: the value is
    /// a header's or a quoted one that stopped at that URL (not the one whose opening quote is the
    /// URL's context, which the URL's end closes), and goes on after it. `bound`: the previous
    /// span's end (a header's context lies after it). `opened`: the value is the rest of a string a
    /// quote (after `escapes` backslashes) opened before the key, a user option's password in quotes
    /// (``userOptionPassword(colon:bound:curl:)``), so it starts right after the separator and runs
    /// to the same quote.
    func credential(
        key: (start: Int, kind: Kind), separator: Int, length separatorLength: Int, percent: Bool, stop: Int,
        bound: Int, opened: (quote: UInt8, escapes: Int)? = nil
    ) -> (span: LogSanitizer.Span?, resume: Resume?) {
        if percent {
            return (percentCredential(key: key, separator: separator, doubled: separatorLength == 5, stop: stop), nil)
        }
        let end = text.count
        let (keyStart, kind) = key
        // A header in a string: its opening quote (or escaped line break) goes out with the key, so
        // no later rule takes it and a second pass sees the header in the same string.
        let context = kind == .header ? headerContext(keyStart: keyStart, bound: bound) : nil
        var place = context.map { headerPlace(context: $0, bound: bound) } ?? .running
        let spanStart = context ?? keyStart
        // Forwards: the `>` of `=>` (Ruby, PHP, Perl), [ \t]*, openers, an optional opening quote,
        // the value.
        var v = separator + separatorLength
        var quote: UInt8?
        // The backslashes of an escaped opening quote (`\"`, or `\\\"` in JSON escaped twice).
        var escapes = 0
        // A quote written in another way opens a value that runs to the same spelling (its opener's
        // position and length): nginx's `\x22`, JSON's `\u0022`, HTML's `&quot;` and the others of
        // `spelledQuoteLength(at:end:)`, Python's `\'` (not right before a URL, which the `'` is the
        // context of), and a doubled `""` or `''` after a key whose closing quote is doubled (CSV, SQL).
        var spelled: (opener: Int, length: Int)?
        if let opened {
            if opened.escapes > 0 { escapes = opened.escapes } else { quote = opened.quote }
        } else {
            if separatorLength == 1, v < end, v != stop, case let first = text.byte(separator),
                first == UInt8(ascii: "=") || first == UInt8(ascii: ":"),
                text.byte(v) == (first == UInt8(ascii: "=") ? UInt8(ascii: ">") : UInt8(ascii: "="))
            {
                // `=>` (Ruby, PHP, Perl) and `:=` (Go, make).
                v += 1
            }
            v = text.blanksEnd(from: v, end: end, stop: stop)
            // Openers the value sits in: `Optional(` (Swift's interpolation of an optional), a
            // constructor before what a value opens with (`Some("`, `Ok(Secret("`: Rust's `{:?}`),
            // Haskell's `Just` and blanks before one, `<`; blanks may follow each. Then a `{`, `[` (not
            // a placeholder's) or `(` starts a structure: a JSON object or array, a Python dict, list
            // or tuple, which goes whole.
            while v < end, v != stop {
                let byte = text.byte(v)
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "(")
                    || (byte == UInt8(ascii: "[") && !exactly("[redacted-", at: v, end: min(end, stop)))
                {
                    // A header's structure after a quoted key (a JSON member, `{"Cookie":["a","b"]}`) ends
                    // at its closing bracket, as a value's does.
                    // So does a member of Go's header map (`map[Cookie:[sid=x] Host:[a.io]]`).
                    let toLineEnd =
                        kind == .header && !keyQuoted(keyStart: keyStart, separator: separator)
                        && !goMapMember(keyStart: keyStart, separator: separator, opener: v, bound: bound, end: end)
                    return (structure(keyStart: spanStart, toLineEnd: toLineEnd, opener: v, end: end, stop: stop), nil)
                }
                if byte == UInt8(ascii: "<") {
                    v += 1
                } else if byte == UInt8(ascii: "O"), exactly("Optional(", at: v, end: end) {
                    v += 9
                } else if text.has(v, Classes.upper), let after = constructorEnd(at: v, limit: min(end, stop)) {
                    v = after
                } else {
                    break
                }
                v = text.blanksEnd(from: v, end: end, stop: stop)
            }
            if v < end, v != stop {
                let byte = text.byte(v)
                let limit = min(end, stop)
                if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "&"),
                    case let length = spelledQuoteLength(at: v, end: limit), length > 0
                {
                    spelled = (v, length)
                    v += length
                } else if byte == UInt8(ascii: "\\"), v + 2 < limit || (v + 2 == end && end < stop),
                    text.byte(v + 1) == UInt8(ascii: "'")
                {
                    // (At the input's end too: a lone `\'` opens an empty value, left alone. Right before
                    // a URL it is that URL's context.)
                    spelled = (v, 2)
                    v += 2
                } else if byte == UInt8(ascii: "\\"), case let run = backslashRun(from: v, limit: min(end, stop)),
                    run <= Self.maximumEscapes, v + run < end, v + run != stop, text.byte(v + run) == UInt8(ascii: "\"")
                {
                    if kind == .header, emptyEscapedQuotes(at: v, run: run, limit: min(end, stop)),
                        !keyQuoted(keyStart: keyStart, separator: separator)
                    {
                        // The same empty string escaped as JSON writes it (`{"h":"Cookie: \"\"sid=x"}`):
                        // the unquoted value after it is the value.
                        v += 2 * (run + 1)
                    } else {
                        escapes = run
                        v += run + 1
                    }
                } else if let prefixed = stringPrefixQuote(at: v, limit: min(end, stop)) {
                    // A Python string prefix (`u'`, `b"`, `rb'`) belongs to the opening quote, and stays.
                    quote = text.byte(prefixed)
                    v = prefixed + 1
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "`") {
                    if byte != UInt8(ascii: "`"), v + 2 < limit, text.byte(v + 1) == byte,
                        keyDoubled(keyStart: keyStart, separator: separator, quote: byte)
                    {
                        spelled = (v, 2)
                        v += 2
                    } else if kind == .header, v + 1 < end, v + 1 != stop, text.byte(v + 1) == byte,
                        !keyQuoted(keyStart: keyStart, separator: separator)
                    {
                        // An empty quoted string at the start of a header's value (``Cookie: ``sid=x``,
                        // `Authorization: "" Basic x`) is not the value: the unquoted value after it is.
                        // (After a quoted key, as in JSON's `"cookie":""`, an empty value stays empty.)
                        v += 2
                    } else {
                        quote = byte
                        v += 1
                    }
                }
            }
        }
        let placeholder = placeholderEnd(at: v, end: end, stop: stop)
        let valueEnd: Int
        let length: Int
        if let spelled {
            (valueEnd, length) = spelledQuotedEnd(
                from: v, end: end, opener: spelled.opener, length: spelled.length, stop: stop)
        } else if escapes > 0 {
            (valueEnd, length) = escapedValueEnd(from: v, end: end, stop: stop, escapes: escapes)
        } else if let quote {
            (valueEnd, length) = SanitizerScan.quotedEnd(text, from: v, end: end, quote: quote, stop: stop)
        } else if kind == .header {
            (valueEnd, length, place) = headerEnd(from: v, end: end, stop: stop, place: place)
        } else if let placeholder {
            // A placeholder's `]` would end an unquoted value: what follows it is measured alone.
            (valueEnd, length) = unquotedEnd(from: placeholder, end: end, stop: stop, valueStart: v)
        } else {
            (valueEnd, length) = schemeValueEnd(from: v, end: end, stop: stop)
        }
        var resume: Resume?
        if stop != Int.max,
            valueEnd == stop || SanitizerScan.quoteBeforeURL(text, at: valueEnd, end: end, stop: stop)
        {
            if let spelled {
                // (Also when the spelled quote is right before the URL: it is no URL's context, so
                // the URL ends as in running text and what follows it is the value's.)
                resume = .spelled(opener: spelled.opener, length: spelled.length)
            } else if escapes > 0 {
                resume = v == stop ? nil : .escaped(escapes)
            } else if let quote {
                resume = v == stop ? nil : .quoted(quote)
            } else if kind == .header {
                resume = .header(place)
            }
        }
        if let placeholder {
            // A value that already is a placeholder, and nothing more, stays as it is, and so does
            // its key: a second pass then sees the same spans and gaps as the first. One that goes
            // on after it (`password=[redacted-token]hunter2`) is a value like any other.
            if valueEnd == placeholder {
                return (
                    LogSanitizer.Span(start: spanStart, end: placeholder, keepEnd: placeholder, placeholder: .none),
                    resume
                )
            }
            return (LogSanitizer.Span(start: spanStart, end: valueEnd, keepEnd: v, placeholder: .secret), resume)
        }
        guard length > 0 else {
            // An empty value that resumes after a URL: a header's context goes out kept all the same.
            if let context, resume != nil {
                return (LogSanitizer.Span(start: context, end: v, keepEnd: v, placeholder: .none), resume)
            }
            return (nil, resume)
        }
        return (LogSanitizer.Span(start: spanStart, end: valueEnd, keepEnd: v, placeholder: .secret), resume)
    }

    /// After a constructor's name at `v` (an ASCII upper-case letter and up to 31 `[A-Za-z0-9_]`)
    /// and `(`, or after `Just` and blanks, the position after them when what follows opens a
    /// value (`valueOpens`), else nil. A bare word and `(` before anything else (`Summer(2024)`)
    /// is the value's own text, which goes whole.
    @inline(__always) func constructorEnd(at v: Int, limit: Int) -> Int? {
        if exactly("Just", at: v, end: limit), case let after = text.blanksEnd(from: v + 4, end: limit, stop: limit),
            after > v + 4, valueOpens(at: after, limit: limit)
        {
            return after
        }
        var p = v + 1
        let bound = min(limit, v + 32)
        while p < bound, text.has(p, Classes.alphanumeric) || text.byte(p) == UInt8(ascii: "_") { p += 1 }
        guard p < limit, text.byte(p) == UInt8(ascii: "("), valueOpens(at: p + 1, limit: limit) else { return nil }
        return p + 1
    }

    /// Whether the byte at `q` is one a constructor's value opens with: a quote, `\`, `[`, `{`,
    /// `<`, an upper-case letter (another constructor), or a Python string prefix and its quote.
    @inline(__always) func valueOpens(at q: Int, limit: Int) -> Bool {
        guard q < limit else { return false }
        switch text.byte(q) {
        case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"), UInt8(ascii: "\\"), UInt8(ascii: "["),
            UInt8(ascii: "{"), UInt8(ascii: "<"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default: return stringPrefixQuote(at: q, limit: limit) != nil
        }
    }

    /// When one or two of `u b r f` (any case) at `v` are right before a `"` or `'`: that quote's
    /// position (Python's `u'…'`, `b"…"`, `rb'…'`).
    @inline(__always) func stringPrefixQuote(at v: Int, limit: Int) -> Int? {
        @inline(__always) func prefixLetter(_ index: Int) -> Bool {
            switch text.byte(index) | 0x20 {
            case UInt8(ascii: "u"), UInt8(ascii: "b"), UInt8(ascii: "r"), UInt8(ascii: "f"): return true
            default: return false
            }
        }
        @inline(__always) func isQuote(_ index: Int) -> Bool {
            index < limit && (text.byte(index) == UInt8(ascii: "\"") || text.byte(index) == UInt8(ascii: "'"))
        }
        guard v + 1 < limit, prefixLetter(v) else { return nil }
        if isQuote(v + 1) { return v + 1 }
        return prefixLetter(v + 1) && isQuote(v + 2) ? v + 2 : nil
    }

    /// Where a value of `kind` that stopped at `url` resumes: after the URL's end, the trailing
    /// `.,;:!?` rule 1 left outside it and what ended it: in running text white space (not a line
    /// break), a Unicode space, a closing bracket, an escaped tab `\t`, or, inside a quoted value, an
    /// escaped line break (`\r`, `\n`, `\r\n`: the value runs over it) or a quote (or `\` and a
    /// quote) that is not the value's closing one, with the byte after it that made it close; after
    /// a quote (or `\"`), that quote (or `\"`) closing the URL's string. Nil at a line break, the
    /// end, or a quote that ends the URL in running text and closes the value (or the string a
    /// header is in). The bytes up to there stay as they are, so a second pass ends the URL in the
    /// same place.
    func resumption(after url: LogSanitizer.Span, kind: Resume, end: Int) -> Int? {
        let urlEnd = url.end
        let start = url.start
        if start > 0, text.has(start - 1, Classes.quote) {
            let quote = text.byte(start - 1)
            if quote == UInt8(ascii: "\""), start >= 2, text.byte(start - 2) == UInt8(ascii: "\\") {
                guard urlEnd + 1 < end, text.byte(urlEnd) == UInt8(ascii: "\\"), text.byte(urlEnd + 1) == quote else {
                    return nil
                }
                return urlEnd + 2
            }
            return urlEnd < end && text.byte(urlEnd) == quote ? urlEnd + 1 : nil
        }
        var p = urlEnd
        while p < end, text.has(p, Classes.trailingPunctuation) { p += 1 }
        guard p < end else { return nil }
        let byte = text.byte(p)
        if byte == 0x0A || byte == 0x0D { return nil }
        if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]")
            || byte == UInt8(ascii: "}") || byte == UInt8(ascii: ">")
        {
            return p + 1
        }
        if byte >= 0x80, case let length = text.unicodeSpaceLength(at: p, end: end), length > 0 { return p + length }
        if byte == UInt8(ascii: "\\"), p + 1 < end, case let next = text.byte(p + 1),
            next == UInt8(ascii: "t") || next == UInt8(ascii: "r") || next == UInt8(ascii: "n")
        {
            // An escaped tab ended the URL as white space does. An escaped line break ended it too,
            // but only a quoted value runs over one (a header's value ends there): `\r\n` as one.
            if next == UInt8(ascii: "t") { return p + 2 }
            if case .header = kind { return nil }
            return next == UInt8(ascii: "r") && escapedNewline(at: p + 2, end: end) ? p + 4 : p + 2
        }
        // A quote that closed the URL in running text: inside a quoted value, one that does not
        // close the value is part of it, and so is the byte after it (kept: it made the quote close).
        // In a value opened by one backslash and `"`, a `\"` closes it; in one opened by more, a
        // single backslash is too few. No quote closes the value of a header that sits in no string;
        // in a string, its own quote at its depth does (of a string an escaped line break shows, a
        // quote of any kind at that depth), counting only the backslash after the URL's end (the
        // URL's own backslashes are gone after a first pass).
        var q = p
        if byte == UInt8(ascii: "\\"), q + 1 < end, text.has(q + 1, Classes.quote) { q += 1 }
        guard text.has(q, Classes.quote) else { return nil }
        switch kind {
        case .quoted(let valueQuote):
            if text.byte(q) == valueQuote, q == p || valueQuote == UInt8(ascii: "`") { return nil }
        case .escaped(let escapes):
            if text.byte(q) == UInt8(ascii: "\""), q > p, escapes == 1 { return nil }
        case .spelled(let opener, let length):
            // A quote in another spelling is part of the value, but for the two spellings made of
            // one: Python's `\'` closes at `\'`, a doubled `""` or `''` at its bare quote (the URL
            // may have taken the first of the two).
            let first = text.byte(opener)
            if length == 2,
                first == UInt8(ascii: "\\")
                    ? q > p && text.byte(q) == UInt8(ascii: "'") : q == p && text.byte(q) == first
            {
                return nil
            }
        case .header(let place):
            if case .string(let quote, let escapes) = place, quote == nil || text.byte(q) == quote,
                SanitizerScan.closesEscaped(run: q - p, escapes: escapes)
            {
                return nil
            }
        }
        guard q + 1 < end, case let after = text.byte(q + 1), after != 0x0A, after != 0x0D,
            text.has(q + 1, Classes.afterClosingQuote)
        else { return nil }
        return q + 2
    }

    /// Whether `\n` is at `p` (below `end`).
    @inline(__always) func escapedNewline(at p: Int, end: Int) -> Bool {
        p + 1 < end && text.byte(p) == UInt8(ascii: "\\") && text.byte(p + 1) == UInt8(ascii: "n")
    }

    /// The rest of a value of `kind` from `start` (after a URL): to its own end or the next URL
    /// (`stop`), where it may resume again. A rest that is a placeholder and nothing more is left
    /// alone; an empty one is none.
    func resumedValue(from start: Int, kind: Resume, stop: Int) -> (span: LogSanitizer.Span?, resume: Resume?) {
        let end = text.count
        let valueEnd: Int
        let length: Int
        var kind = kind
        switch kind {
        case .header(let place):
            let header = headerEnd(from: start, end: end, stop: stop, place: place, resumed: true)
            (valueEnd, length) = (header.end, header.length)
            kind = .header(header.place)
        case .quoted(let quote):
            (valueEnd, length) = SanitizerScan.quotedEnd(text, from: start, end: end, quote: quote, stop: stop)
        case .escaped(let escapes):
            (valueEnd, length) = escapedValueEnd(from: start, end: end, stop: stop, escapes: escapes)
        case .spelled(let opener, let spelledLength):
            (valueEnd, length) = spelledQuotedEnd(
                from: start, end: end, opener: opener, length: spelledLength, stop: stop)
        }
        let again =
            stop != Int.max
                && (valueEnd == stop || SanitizerScan.quoteBeforeURL(text, at: valueEnd, end: end, stop: stop))
            ? kind : nil
        guard length > 0 else { return (nil, again) }
        if let placeholder = placeholderEnd(at: start, end: end, stop: stop), placeholder == valueEnd {
            return (LogSanitizer.Span(start: start, end: valueEnd, keepEnd: valueEnd, placeholder: .none), again)
        }
        return (LogSanitizer.Span(start: start, end: valueEnd, keepEnd: start, placeholder: .secret), again)
    }

    /// Whether the `run` backslashes and `"` at `v` are followed at once by the same run and `"`
    /// (below `limit`): an empty string escaped `run` times over (`\"\"`, `\\\"\\\"`).
    @inline(__always) func emptyEscapedQuotes(at v: Int, run: Int, limit: Int) -> Bool {
        let second = v + run + 1
        guard second + run < limit, text.byte(second + run) == UInt8(ascii: "\"") else { return false }
        for offset in 0..<run where text.byte(second + offset) != UInt8(ascii: "\\") { return false }
        return true
    }

    /// Whether the key that starts at `keyStart` ends with a closing quote before the separator at
    /// `separator` (`"cookie":`, `'cookie'=`, `cookie%22:`, `cookie\x22:`), as a JSON or dictionary key does.
    /// Whether the header key at `keyStart` is a member of Go's `%v` of an `http.Header`
    /// (`map[Cookie:[sid=x] Host:[a.io]]`): the key word right before a `:` and the `[` at `opener`
    /// (no `]` or `}` right after it: an empty member takes the rest of the line as before),
    /// its name (the key and up to ``maximumNamePrefix`` `[A-Za-z0-9-]` before it) right after
    /// `map[` or the `] ` that ends the member before, or after a placeholder and `[`, none of it
    /// below `bound`. (A bearer token or a token may take the `map`, `Bearer headers=map[Cookie:[x]]`
    /// → `[redacted-bearer][Cookie:[[redacted-secret]]]`: the member a first pass read, a second
    /// must read too, or its structure would take the rest of the line.)
    @inline(never) func goMapMember(keyStart: Int, separator: Int, opener: Int, bound: Int, end: Int) -> Bool {
        guard opener == separator + 1, text.byte(separator) == UInt8(ascii: ":"),
            text.byte(opener) == UInt8(ascii: "["), text.has(separator - 1, Classes.letter),
            opener + 1 < end, text.byte(opener + 1) != UInt8(ascii: "]"), text.byte(opener + 1) != UInt8(ascii: "}")
        else { return false }
        var p = keyStart
        let limit = max(bound, keyStart - Self.maximumNamePrefix)
        while p > limit, text.has(p - 1, Classes.alphanumeric) || text.byte(p - 1) == UInt8(ascii: "-") { p -= 1 }
        return (p - 4 >= bound && exactly("map[", at: p - 4, end: p))
            || (p - 2 >= bound && exactly("] ", at: p - 2, end: p))
            || (p - 1 >= bound && text.byte(p - 1) == UInt8(ascii: "[")
                && WordRules(text: text).followsPlaceholder(p - 1, bound))
    }

    func keyQuoted(keyStart: Int, separator: Int) -> Bool {
        let k = blanksStart(before: separator, bound: keyStart)
        return keyQuoteStart(before: k, bound: keyStart) != k
    }

    /// Whether the key that starts at `keyStart` ends with a doubled `quote` before the separator at
    /// `separator` (`""password"":`, as CSV writes a `"` inside a field; `''password'':` in SQL).
    @inline(never) func keyDoubled(keyStart: Int, separator: Int, quote: UInt8) -> Bool {
        let k = blanksStart(before: separator, bound: keyStart)
        return k - 2 > keyStart && text.byte(k - 1) == quote && text.byte(k - 2) == quote
    }

    /// The length of the run of backslashes at `start` (below `limit`), counted up to one more than
    /// ``maximumEscapes``.
    @inline(__always) func backslashRun(from start: Int, limit: Int) -> Int {
        var p = start
        while p < limit, p - start <= Self.maximumEscapes, text.byte(p) == UInt8(ascii: "\\") { p += 1 }
        return p - start
    }

    /// The end of a value opened by a quote written in another way (the `length` bytes at `opener`:
    /// `\x22`, `\u0022`, `&quot;`, `\'`, a doubled `""`, …): the same spelling (the `x` of `\x22` in
    /// either case), a line break, `stop` or the backslashes and quote right before it, or `end`;
    /// but for a doubled quote, also what rules 4, 5 and 7 leave of an escaped closing quote whose
    /// letter or digit starts their match (``eatenSpelling(at:opener:length:limit:)``), so that a
    /// second pass ends the value where the first did.
    @inline(never) func spelledQuotedEnd(from start: Int, end: Int, opener: Int, length: Int, stop: Int) -> (Int, Int) {
        let limit = min(end, stop)
        let first = text.byte(opener)
        let doubled = first == UInt8(ascii: "\"") || first == UInt8(ascii: "'")
        var p = start
        while p < limit {
            if p + 16 >= stop, SanitizerScan.quoteBeforeURL(text, at: p, end: end, stop: stop) { break }
            let byte = text.byte(p)
            if byte == 0x0A || byte == 0x0D { break }
            if byte == first, sameSpelling(at: p, opener: opener, length: length, limit: limit) { break }
            if byte == UInt8(ascii: "\\"), !doubled, eatenSpelling(at: p, opener: opener, length: length, limit: limit)
            {
                break
            }
            p += 1
        }
        return (p, p - start)
    }

    /// Whether the `\` at `p` (below `limit`) is what rules 4, 5 and 7 leave of an escaped quote
    /// whose letter or digit starts their match: the `\`, a prefix of `x2` (any case) after a value
    /// opened by nginx's `\x22` or `\x27`, else of `u002` (JSON's `\u0022`: `\x22JJ…` → `\[redacted-token]`,
    /// `\u0022a@b.io` → `\[redacted-email]`, a UUID from a digit → `\u00[redacted-uuid]`), then
    /// `[redacted-email]`, `[redacted-token]` or `[redacted-uuid]`. Linear: at most five bytes and
    /// a placeholder from one `\`.
    @inline(__always) func eatenSpelling(at p: Int, opener: Int, length: Int, limit: Int) -> Bool {
        let nginx =
            length == 4 && text.byte(opener) == UInt8(ascii: "\\") && text.byte(opener + 1) | 0x20 == UInt8(ascii: "x")
        let spelling: StaticString = nginx ? "x2" : "u002"
        var j = p + 1
        for k in 0...spelling.utf8CodeUnitCount {
            guard j < limit else { return false }
            let byte = text.byte(j)
            if byte == UInt8(ascii: "[") {
                return text.laterRulePlaceholder(at: j, end: limit)
                    || text.exactly("[redacted-uuid]", at: j, end: limit)
            }
            guard k < spelling.utf8CodeUnitCount,
                byte == spelling.utf8Start[k] || (nginx && k == 0 && byte | 0x20 == UInt8(ascii: "x"))
            else { return false }
            j += 1
        }
        return false
    }

    /// Whether the `length` bytes at `p` (below `limit`) are those at `opener`, the `x` of a `\x22`
    /// in either case.
    @inline(__always) func sameSpelling(at p: Int, opener: Int, length: Int, limit: Int) -> Bool {
        guard p + length <= limit else { return false }
        for offset in 1..<length {
            let byte = text.byte(p + offset)
            let expected = text.byte(opener + offset)
            if byte != expected, !(length == 4 && offset == 1 && byte | 0x20 == expected | 0x20) { return false }
        }
        return true
    }

    /// The end of a value opened by `escapes` backslashes and `"`: the first run of backslashes
    /// followed by `"` that closes it (``SanitizerScan/closesEscaped(run:escapes:)``: `\\\\\"`
    /// closes a `\"` string, `\\\"` is a quote inside it), before its last `escapes` backslashes
    /// (the others are escaped backslashes of the value), a line break, `stop` or the backslashes
    /// and quote right before it, or `end`. Each run of backslashes is measured once from its start.
    func escapedValueEnd(from start: Int, end: Int, stop: Int, escapes: Int) -> (Int, Int) {
        let limit = min(end, stop)
        var p = start
        while p < limit {
            if p + 16 >= stop, SanitizerScan.quoteBeforeURL(text, at: p, end: end, stop: stop) { break }
            let byte = text.byte(p)
            if byte == 0x0A || byte == 0x0D { break }
            if byte == UInt8(ascii: "\\"), p == start || text.byte(p - 1) != UInt8(ascii: "\\"),
                case let run = SanitizerScan.backslashRun(text, from: p, limit: limit), p + run < limit,
                text.byte(p + run) == UInt8(ascii: "\""), SanitizerScan.closesEscaped(run: run, escapes: escapes)
            {
                // The escaped backslashes before the closing quote are the value's.
                p += run - escapes
                break
            }
            p += 1
        }
        return (p, p - start)
    }

    /// A value that is a structure: what is inside the `{`, `[` or `(` at `opener` and its closing
    /// bracket (strings skipped, at most ``structureDepth`` levels), or, when it does not close
    /// before the line's end or the next URL (`stop`), everything after it to the line's end, URLs
    /// included. With `toLineEnd` (a header's after a key with no closing quote) it always takes the
    /// rest of the line. A content that is a placeholder and nothing more is left alone.
    func structure(keyStart: Int, toLineEnd: Bool, opener: Int, end: Int, stop: Int) -> LogSanitizer.Span? {
        let start = opener + 1
        // A header's value runs to the end of its line whatever the structure does (what follows its
        // closing bracket is more of the header: `Cookie: {"a":1}; sid=x`, `Authorization: {} Basic x`).
        let valueEnd =
            toLineEnd
            ? restOfLine(from: start, end: end)
            : structureClose(from: start, end: end, stop: stop, parentheses: text.byte(opener) == UInt8(ascii: "("))
                ?? restOfLine(from: start, end: end)
        guard valueEnd > start else { return nil }
        if let placeholder = placeholderEnd(at: start, end: end, stop: stop), placeholder == valueEnd {
            return LogSanitizer.Span(start: keyStart, end: valueEnd, keepEnd: valueEnd, placeholder: .none)
        }
        return LogSanitizer.Span(start: keyStart, end: valueEnd, keepEnd: start, placeholder: .secret)
    }

    /// How deep structures nest in a value that closes: deeper ones count as not closing (the
    /// regular-expression reference spells the levels out).
    static var structureDepth: Int { 4 }

    /// Whether the word right before the `'` at `p` is a Python string prefix: one or two of
    /// `u b r f` (any case) after a byte that ends no letter or digit (``endsLetter(_:)``; or the
    /// text's start).
    @inline(__always) func afterStringPrefix(_ p: Int) -> Bool {
        @inline(__always) func prefixLetter(_ index: Int) -> Bool {
            switch text.byte(index) | 0x20 {
            case UInt8(ascii: "u"), UInt8(ascii: "b"), UInt8(ascii: "r"), UInt8(ascii: "f"): return true
            default: return false
            }
        }
        guard prefixLetter(p - 1) else { return false }
        if p < 2 || !endsLetter(p - 2) { return true }
        return prefixLetter(p - 2) && (p < 3 || !endsLetter(p - 3))
    }

    /// Whether the byte at `index` ends a letter or digit: an ASCII one, or a non-ASCII character
    /// other than a Unicode space or an invisible separator (`é`: its last byte a continuation
    /// byte; NBSP ends none). A `'` after one inside a structure is an apostrophe.
    @inline(__always) func endsLetter(_ index: Int) -> Bool {
        let byte = text.byte(index)
        if byte < 0x80 { return text.has(index, Classes.alphanumeric) }
        return text.unicodeSpaceLength(endingAt: index, start: 0) == 0
            && text.invisibleLength(endingAt: index, start: 0) == 0
    }

    /// Inside a structure opened before `start`: the position of the bracket that closes it, or nil
    /// when none does before a line break, `stop` or `end`. Any of `}` `]` closes any of `{` `[`
    /// (with `parentheses`, a tuple's: any of `} ] )` closes any of `{ [ (`);
    /// a `"` or `'` string (a backslash escapes), a backtick string (none does) or a `\"` string is
    /// passed whole, and one that does not close on the line leaves the structure open.
    func structureClose(from start: Int, end: Int, stop: Int, parentheses: Bool) -> Int? {
        let limit = min(end, stop)
        var depth = 1
        var p = start
        while p < limit {
            let byte = text.byte(p)
            switch byte {
            // (A `where` binds to the last pattern: `(` and `)` count only in a tuple.)
            case UInt8(ascii: "{"), UInt8(ascii: "["),
                UInt8(ascii: "(") where parentheses:
                depth += 1
                guard depth <= Self.structureDepth else { return nil }
                p += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"),
                UInt8(ascii: ")") where parentheses:
                depth -= 1
                if depth == 0 { return p }
                p += 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                // A `'` right after a letter or digit is an apostrophe (`{user's session}`,
                // `{josé's session}`), not a string: Python and JavaScript open one after a bracket,
                // `,`, `:`, `=` or a blank, or after a string prefix (`u'…'`, `b'…'`, `rb'…'`).
                if byte == UInt8(ascii: "'"), p > start, endsLetter(p - 1), !afterStringPrefix(p) {
                    p += 1
                    continue
                }
                guard let close = stringClose(from: p + 1, limit: limit, quote: byte) else { return nil }
                p = close
            case UInt8(ascii: "`"):
                // A backtick string (Node's `util.inspect` picks one for a string that holds both `'`
                // and `"`): to the next backtick, no escapes.
                var q = p + 1
                while q < limit, case let next = text.byte(q), next != UInt8(ascii: "`") {
                    if next == 0x0A || next == 0x0D { return nil }
                    q += 1
                }
                guard q < limit else { return nil }
                p = q + 1
            case UInt8(ascii: "\\"):
                // A run of backslashes (never entered in its middle): before `"`, a string opened by
                // that many (at most 15); the run is passed whole otherwise.
                let run = SanitizerScan.backslashRun(text, from: p, limit: limit)
                if p + run < limit, text.byte(p + run) == UInt8(ascii: "\"") {
                    guard run <= Self.maximumEscapes,
                        let close = escapedStringClose(from: p + run + 1, limit: limit, escapes: run)
                    else { return nil }
                    p = close
                } else {
                    p += run
                }
            case 0x0A, 0x0D:
                return nil
            default:
                p += 1
            }
        }
        return nil
    }

    /// After a `"` or `'` (`quote`) in a structure: the end of its closing quote; nil at a line
    /// break or `limit` first. A run of backslashes before a quote: an odd one escapes it; after an
    /// even one a `"` closes, and a `'` leaves the structure open: JSON escaping doubles a
    /// backslash and leaves `'` alone, so `\\'` ends a Python string written plain and is a quote
    /// inside one in JSON-escaped text (`'it\\'s'`), and the text does not tell which.
    func stringClose(from start: Int, limit: Int, quote: UInt8) -> Int? {
        var q = start
        while q < limit {
            let byte = text.byte(q)
            if byte == quote { return q + 1 }
            if byte == 0x0A || byte == 0x0D { return nil }
            if byte == UInt8(ascii: "\\") {
                let run = SanitizerScan.backslashRun(text, from: q, limit: limit)
                guard q + run < limit, case let next = text.byte(q + run), next != 0x0A, next != 0x0D else {
                    return nil
                }
                if next == quote, run & 1 == 0 { return quote == UInt8(ascii: "\"") ? q + run + 1 : nil }
                q += run + 1
            } else {
                q += 1
            }
        }
        return nil
    }

    /// After `escapes` backslashes and `"` in a structure: the end of the first run of backslashes
    /// and `"` that closes the string (``SanitizerScan/closesEscaped(run:escapes:)``); nil at a line
    /// break or `limit` first. Each run is measured once.
    func escapedStringClose(from start: Int, limit: Int, escapes: Int) -> Int? {
        var q = start
        while q < limit {
            let byte = text.byte(q)
            if byte == UInt8(ascii: "\\") {
                let run = SanitizerScan.backslashRun(text, from: q, limit: limit)
                if q + run < limit, text.byte(q + run) == UInt8(ascii: "\""),
                    SanitizerScan.closesEscaped(run: run, escapes: escapes)
                {
                    return q + run + 1
                }
                q += run
                continue
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

    /// A credential after a percent-encoded separator (`password%3Dx`, `%22password%22%3A%22x%22`):
    /// the text around it is percent-encoded too, so after `%20`s an opening quote is `%22` or
    /// `%27`, a quoted value ends at the same encoded quote, an unquoted value also where the
    /// encoded form of a byte that ends one in plain text is (``percentStops(at:header:)``), and
    /// either ends where the parameter it is in ends in plain text, or at a `%` without two hex
    /// digits. After a separator encoded twice (`doubled`: `%253D`, a form in a parameter of another
    /// URL) each of those is encoded once more (`%2520` or `%2B` for a space around the separator,
    /// `%2522`, `%25` + a stop's code, `%25` without two hex digits), and what is encoded once is
    /// text of the outer level: a stop encoded once (`%26`, a real `&` there) ends the value too.
    @inline(never)
    func percentCredential(
        key: (start: Int, kind: Kind), separator: Int, doubled: Bool, stop: Int
    ) -> LogSanitizer.Span? {
        let end = text.count
        let limit = min(end, stop)
        var v = separator + (doubled ? 5 : 3)
        v = percentBlanksEnd(from: v, limit: limit, doubled: doubled)
        let quote = doubled ? doubledPercentQuote(at: v, end: limit) : percentQuote(at: v, end: limit)
        if let quote {
            v += doubled ? 5 : 3
            // An encoded quote closed at once (`%22%22`): an empty value, as the scan below would
            // find at its first byte (no placeholder starts with `%`).
            if (doubled ? doubledPercentQuote(at: v, end: limit) : percentQuote(at: v, end: limit)) == quote {
                return nil
            }
        }
        if let placeholderEnd = placeholderEnd(at: v, end: end, stop: stop) {
            return LogSanitizer.Span(start: key.start, end: placeholderEnd, keepEnd: placeholderEnd, placeholder: .none)
        }
        let header = key.kind == .header
        var p = percentValueEnd(from: v, limit: limit, quote: quote, header: header, doubled: doubled)
        guard p > v else { return nil }
        if quote == nil {
            // A scheme's name (`Bearer`, `Basic`) and `%20`s (`%2520`s) take the run after them, its
            // token (more names too), as in plain text (`schemeValueEnd(from:end:stop:)`): each step
            // moves forward.
            var run = v
            while isSchemeName(from: run, to: p), let blank = percentSpaceLength(at: p, limit: limit, doubled: doubled)
            {
                var next = p + blank
                while percentSpaceLength(at: next, limit: limit, doubled: doubled) != nil { next += blank }
                let after = percentValueEnd(from: next, limit: limit, quote: nil, header: header, doubled: doubled)
                guard after > next else { break }
                (run, p) = (next, after)
            }
        }
        return LogSanitizer.Span(start: key.start, end: p, keepEnd: v, placeholder: .secret)
    }

    /// After a percent-encoded separator, where the `%20`s and `+`s after it (`doubled`: `%2520`s and
    /// `%2B`s, any case) that start at `start` end (below `limit`).
    @inline(__always) func percentBlanksEnd(from start: Int, limit: Int, doubled: Bool) -> Int {
        var v = start
        while v < limit {
            if doubled {
                if v + 3 <= limit, text.byte(v) == UInt8(ascii: "%"), text.byte(v + 1) == UInt8(ascii: "2"),
                    text.lowered(v + 2) == UInt8(ascii: "b")
                {
                    v += 3
                } else if v + 5 <= limit, text.matches("%2520", at: v, end: limit) {
                    v += 5
                } else {
                    break
                }
            } else if text.byte(v) == UInt8(ascii: "+") {
                v += 1
            } else if v + 3 <= limit, text.matches("%20", at: v, end: limit) {
                v += 3
            } else {
                break
            }
        }
        return v
    }

    /// The length of an encoded space at `p` (below `limit`) after a scheme's name: `%20` (3), or
    /// `%2520` (5) when `doubled`; else nil.
    @inline(__always) func percentSpaceLength(at p: Int, limit: Int, doubled: Bool) -> Int? {
        if doubled { return p + 5 <= limit && text.matches("%2520", at: p, end: limit) ? 5 : nil }
        return p + 3 <= limit && text.matches("%20", at: p, end: limit) ? 3 : nil
    }

    /// The end of a percent-encoded value from `start` (below `limit`): at the encoded `quote`, or
    /// for an unquoted one where ``percentStops(at:header:)`` says, where an unquoted value ends in
    /// plain text, or at a `%` without two hex digits. When `doubled` (after `%253D`), at the quote
    /// or stop encoded twice (`%2522`, `%25` + a stop's code), at any stop encoded once (text of the
    /// outer level: `%26` is a real `&` there, `%22` a real `"`), or at a `%25` without two hex
    /// digits after it.
    @inline(__always) func percentValueEnd(from start: Int, limit: Int, quote: UInt8?, header: Bool, doubled: Bool)
        -> Int
    {
        var p = start
        while p < limit {
            let byte = text.byte(p)
            if text.table[Int(byte)] & Classes.valueStop != 0 { break }
            if byte == UInt8(ascii: "\\"), p + 1 < limit, text.has(p + 1, Classes.quote) { break }
            if byte >= 0x80, text.unicodeSpaceLength(at: p, end: text.count) > 0 { break }
            if byte == UInt8(ascii: "%") {
                // A `%` without two hex digits ends the value: a later rule's match may start at the
                // digits of an encoded byte that ended an empty value (`%29` + a token run), and a
                // second pass must end that value at the same `%`.
                guard p + 2 < limit, text.has(p + 1, Classes.hex), text.has(p + 2, Classes.hex) else { break }
                if doubled {
                    if percentStops(at: p, header: false) { break }
                    if text.byte(p + 1) == UInt8(ascii: "2"), text.byte(p + 2) == UInt8(ascii: "5") {
                        guard p + 4 < limit, text.has(p + 3, Classes.hex), text.has(p + 4, Classes.hex) else { break }
                        if let quote {
                            if doubledPercentQuote(at: p, end: limit) == quote { break }
                        } else if percentStops(at: p + 2, header: header) {
                            break
                        }
                    }
                } else if let quote {
                    if percentQuote(at: p, end: limit) == quote { break }
                } else if percentStops(at: p, header: header) {
                    break
                }
            }
            p += 1
        }
        return p
    }

    /// Whether the `%` at `index` (two bytes or more before the value's limit) encodes a byte that
    /// ends an unquoted value: a control character, a space, one of `"&'),;<>]}` and backtick, DEL
    /// (`%00`–`%20`, `%22`, `%26`, `%27`, `%29`, `%2C`, `%3B`, `%3C`, `%3E`, `%5D`, `%60`, `%7D`, `%7F`,
    /// any case); for a header value, a line break only (`%0A`, `%0D`).
    @inline(__always) func percentStops(at index: Int, header: Bool) -> Bool {
        let high = text.byte(index + 1)
        let low = text.lowered(index + 2)
        if header { return high == UInt8(ascii: "0") && (low == UInt8(ascii: "a") || low == UInt8(ascii: "d")) }
        switch high {
        case UInt8(ascii: "0"), UInt8(ascii: "1"): return text.table[Int(low)] & Classes.hex != 0
        case UInt8(ascii: "2"):
            return low == UInt8(ascii: "0") || low == UInt8(ascii: "2") || low == UInt8(ascii: "6")
                || low == UInt8(ascii: "7") || low == UInt8(ascii: "9") || low == UInt8(ascii: "c")
        case UInt8(ascii: "3"): return low == UInt8(ascii: "b") || low == UInt8(ascii: "c") || low == UInt8(ascii: "e")
        case UInt8(ascii: "5"): return low == UInt8(ascii: "d")
        case UInt8(ascii: "6"): return low == UInt8(ascii: "0")
        case UInt8(ascii: "7"): return low == UInt8(ascii: "d") || low == UInt8(ascii: "f")
        default: return false
        }
    }

    /// The start of the blanks (spaces, tabs, Unicode spaces, also as JSON escapes `\u00a0`, ANSI
    /// colour codes) that end at `k` (not below `bound`; without `escaped`, no escapes: the key
    /// check's first reading, ``keyMayEnd(afterBlanks:bound:)``, looks for one only where it may be).
    @inline(__always) func blanksStart(before k: Int, bound: Int, escaped: Bool = true) -> Int {
        // Most keys end in a byte that ends no blank (`e` of `cookie`, `d` of `password`): one
        // table test, and no call.
        guard k > bound,
            text.has(k - 1, Classes.control | Classes.high | Classes.digit | Classes.blankTail)
        else { return k }
        return blanksRunStart(before: k, bound: bound, escaped: escaped)
    }

    /// ``blanksStart(before:bound:escaped:)`` before a byte that may end a blank. Out of line.
    @inline(never) func blanksRunStart(before k: Int, bound: Int, escaped: Bool) -> Int {
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
            } else if escaped, text.table[Int(byte)] & Classes.hex != 0, k - 6 >= bound,
                text.byte(k - 6) == UInt8(ascii: "\\"),
                case let length = text.escapedSpaceLength(endingAt: k - 1, start: bound), length > 0
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
        text.exactly(word, at: index, end: end)
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

    /// Where the string a header sits in starts, when it sits in one: a quote (`"`, `'`, backtick) or
    /// an escaped line break (`\n`, `\r`, nginx's `\x0A`, `\x0D`, any case) right before the header's
    /// name, which is its key and up to ``maximumNamePrefix`` letters and `-` before it
    /// (`"Authorization: Bearer x"`, `{"h":"Set-Cookie: sid=x"}`, `…\r\nCookie: sid=x`). Nil for a
    /// header in running text, whose value no quote closes. Reads back at most 28 bytes, none below
    /// `bound` (the previous span's end).
    @inline(never) func headerContext(keyStart: Int, bound: Int) -> Int? {
        var p = keyStart
        let limit = max(bound, keyStart - Self.maximumNamePrefix)
        while p > limit, text.has(p - 1, Classes.letter) || text.byte(p - 1) == UInt8(ascii: "-") { p -= 1 }
        guard p > bound else { return nil }
        if text.has(p - 1, Classes.quote) { return p - 1 }
        @inline(__always) func breakLetter(_ index: Int) -> Bool {
            text.byte(index) == UInt8(ascii: "n") || text.byte(index) == UInt8(ascii: "r")
        }
        @inline(__always) func hexBreak(at index: Int) -> Bool {
            text.byte(index) == UInt8(ascii: "\\") && text.lowered(index + 1) == UInt8(ascii: "x")
                && text.byte(index + 2) == UInt8(ascii: "0")
                && (text.lowered(index + 3) == UInt8(ascii: "a") || text.lowered(index + 3) == UInt8(ascii: "d"))
        }
        // The escape's letter is the name's first byte the scan passed (`\nX-Cookie`), or the scan
        // stopped at the bound right after it.
        if p < keyStart, text.byte(p - 1) == UInt8(ascii: "\\"), breakLetter(p) { return p - 1 }
        if p - 2 >= bound, text.byte(p - 2) == UInt8(ascii: "\\"), breakLetter(p - 1) { return p - 2 }
        if p < keyStart, p - 3 >= bound, hexBreak(at: p - 3) { return p - 3 }
        if p - 4 >= bound, hexBreak(at: p - 4) { return p - 4 }
        return nil
    }

    /// The most letters and `-` before a header's key that ``headerContext(keyStart:bound:)`` passes
    /// (`X-Forwarded-`): fewer than any later rule's match needs, so none of them could take a name.
    static var maximumNamePrefix: Int { 24 }

    /// Where a header whose context (``headerContext(keyStart:bound:)``) is at `context` sits: in the
    /// string that quote opens, or (an escaped line break) one whose quote is unknown, with the
    /// backslashes right before it (none below `bound`, the previous span's end). With more than
    /// ``maximumEscapes`` of them the depth is none a rule reads: running text. Reads back at most 16
    /// bytes, once per header key.
    func headerPlace(context: Int, bound: Int) -> HeaderPlace {
        var p = context
        let limit = max(bound, context - Self.maximumEscapes - 1)
        while p > limit, text.byte(p - 1) == UInt8(ascii: "\\") { p -= 1 }
        let escapes = context - p
        guard escapes <= Self.maximumEscapes else { return .running }
        return .string(quote: text.has(context, Classes.quote) ? text.byte(context) : nil, escapes: escapes)
    }

    /// An unquoted header value: to a line break (or `\r`, `\n` written as escapes, as in a JSON
    /// string), or, in a string (`place`), to the quote that closes it: its own quote at its depth
    /// (``HeaderPlace``), followed by what may follow a closing quote in running text; a quote of
    /// another kind or depth is the value's, with the backslashes before it (each run measured once,
    /// from its start, and passed whole with its quote: `{"h":"Cookie: p={\"t\":1}; sid=x"}`,
    /// `'Cookie: p={"t":"d"}; sid=x'` go whole). Of a closing run the escaped backslashes before the
    /// string's own escapes are the value's. An inner string is part of it, its
    /// closing quote too: a `"` or `'` string after `=`, `[`, `(` or `{` (`theme="dark"`,
    /// `['X-Token' => 'x']`), or a `\"` string after `=` (`realm=\"api\"`), but not one whose
    /// closing quote is right before a URL (that quote closes the value: the URL keeps the context
    /// that ends it, so a second pass agrees). A `"` or `'` after the value's scheme names and
    /// blanks (``schemeQuoteEnd(from:end:stop:)``) opens the scheme's quoted token, closing nothing.
    /// A header that sits in no string (`.running`: no quote or escaped line break before its
    /// name, ``headerContext(keyStart:bound:)``) has no string to close: only the quote (or `\` and quote)
    /// right before a URL ends its value, as that URL's context (`Cookie: prefs={"theme":"dark"}; sid=x`
    /// goes whole). `resumed`: the value resumes after a URL, and an escaped line break ends it at
    /// its first byte too (a first pass leaves it there, no placeholder before it). Returns the
    /// value's end and length, and where the header sits after it (running text, once a string an
    /// escaped line break showed held a quote at its depth that does not close).
    func headerEnd(
        from start: Int, end: Int, stop: Int, place: HeaderPlace, resumed: Bool = false
    ) -> (end: Int, length: Int, place: HeaderPlace) {
        let limit = min(end, stop)
        var place = place
        var p = schemeQuoteEnd(from: start, end: end, stop: stop) ?? start
        while p < limit {
            // A byte that is no quote, `\`, LF or CR is the value's whatever comes around it: the tests
            // below only step over it. Such bytes go sixteen at a time.
            p = headerStopStart(from: p, limit: limit)
            guard p < limit else { break }
            let byte = text.byte(p)
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'"), p >= 1, Self.opensInner(text.byte(p - 1)),
                let close = parameterQuoteEnd(from: p + 1, limit: limit, quote: byte), close != stop
            {
                p = close
                continue
            }
            if byte == UInt8(ascii: "\\"), p + 1 < limit, p >= 1, text.byte(p + 1) == UInt8(ascii: "\""),
                text.byte(p - 1) == UInt8(ascii: "="),
                let close = parameterQuoteEnd(from: p + 2, limit: limit, quote: nil), close != stop
            {
                p = close
                continue
            }
            if case .string(let quote, let escapes) = place,
                byte == UInt8(ascii: "\\") || text.table[Int(byte)] & Classes.quote != 0
            {
                // A run of backslashes (none before a bare quote), measured once, and the quote after it.
                let run = byte == UInt8(ascii: "\\") ? SanitizerScan.backslashRun(text, from: p, limit: limit) : 0
                let q = p + run
                if q < limit, text.has(q, Classes.quote), q + 1 != stop {
                    if quote == nil || text.byte(q) == quote, SanitizerScan.closesEscaped(run: run, escapes: escapes) {
                        if SanitizerScan.closes(text, quoteAt: q, end: end, stop: stop) {
                            // The string's closing quote: its escapes stay outside, as the quote does.
                            p = q - escapes
                            break
                        }
                        // A quote at the depth of a string an escaped line break showed that does not
                        // close: no such string holds it, and no quote closes the value any more.
                        if quote == nil { place = .running }
                    }
                    p = q + 1
                    continue
                }
                // No quote after the run (or the one right before a URL, below): the backslashes
                // before its last are the value's (none of them starts an escaped line break).
                if run > 1 { p += run - 1 }
            }
            if byte == 0x0A || byte == 0x0D { break }
            if byte == UInt8(ascii: "\\"), p > start || resumed, escapedLineBreakEnds(at: p, limit: limit) { break }
            // The quote (or `\` and a quote) right before a URL: that URL's context.
            if text.table[Int(byte)] & Classes.quote != 0, p + 1 == stop { break }
            if byte == UInt8(ascii: "\\"), p + 2 == stop, text.has(p + 1, Classes.quote) { break }
            p += 1
        }
        return (p, p - start, place)
    }

    /// The first position in `[start, limit)` whose byte is a quote (`"`, `'`, backtick), `\`, LF or
    /// CR, or `limit` (``SanitizerInput/firstStop(from:limit:_:)``).
    @inline(__always) func headerStopStart(from start: Int, limit: Int) -> Int {
        typealias V = ByteBlock.Bytes
        @inline(__always) func stops(_ bytes: V) -> ByteBlock.Lanes {
            (bytes .== V(repeating: UInt8(ascii: "\""))) .| (bytes .== V(repeating: UInt8(ascii: "'")))
                .| (bytes .== V(repeating: UInt8(ascii: "`"))) .| (bytes .== V(repeating: UInt8(ascii: "\\")))
                .| (bytes .== V(repeating: 0x0A)) .| (bytes .== V(repeating: 0x0D))
        }
        return text.firstStop(from: start, limit: limit, stops)
    }

    /// Whether the `\` at `p` starts an escaped line break (`\r\n`, `\r` or `\n`, or nginx's
    /// `\x0D\x0A`, `\x0D` or `\x0A`, any case) that ends a header value: one not followed by a space or tab (or `\t`), which would fold the header onto the next
    /// line (RFC 7230 §3.2.4). A value that starts with one is not ended by it (an empty value
    /// would leave the text after it to later rules, which a second pass would then see as the
    /// header's value). A `\` right before `[redacted-email]` or `[redacted-token]` ends it too: that
    /// is what rules 4 and 7 leave of an escaped line break whose letter starts their match
    /// (`Cookie: sid=1\nalice@example.com` → `Cookie: [redacted-secret]\[redacted-email]`), and a
    /// second pass must end the value where the first did. No other rule's match starts at the `r`
    /// or `n`: a URL whose scheme does is the value's stop, a bearer token needs no letter before
    /// `bearer`, a UUID starts at a hex digit and a labelled pin at `sha256`. A UUID may start at
    /// the `0` or the letter of `\x0A` or `\x0D`, so `\x[redacted-uuid]` and `\x0[redacted-uuid]`
    /// end it too.
    @inline(__always) func escapedLineBreakEnds(at p: Int, limit: Int) -> Bool {
        guard p + 1 < limit else { return false }
        let letter = text.byte(p + 1)
        if letter == UInt8(ascii: "[") { return text.laterRulePlaceholder(at: p + 1, end: limit) }
        var after = p + 2
        if letter | 0x20 == UInt8(ascii: "x") {
            // nginx's `\x0D\x0A` (`escape=default`), any case; or what rule 5 leaves of one whose
            // hex digits start a UUID (`\x0A123456-…` → `\x[redacted-uuid]`).
            guard let hex = hexLineBreak(at: p, limit: limit) else {
                let uuid = p + 2 < limit && text.byte(p + 2) == UInt8(ascii: "0") ? p + 3 : p + 2
                return text.exactly("[redacted-uuid]", at: uuid, end: limit)
            }
            after = p + 4
            if hex == UInt8(ascii: "d"), hexLineBreak(at: after, limit: limit) == UInt8(ascii: "a") { after += 4 }
        } else {
            guard letter == UInt8(ascii: "r") || letter == UInt8(ascii: "n") else { return false }
            if letter == UInt8(ascii: "r"), after + 1 < limit, text.byte(after) == UInt8(ascii: "\\"),
                text.byte(after + 1) == UInt8(ascii: "n")
            {
                after += 2
            }
        }
        guard after < limit else { return true }
        let next = text.byte(after)
        if next == 0x20 || next == 0x09 { return false }
        // The fold's tab written as an escape too (`\r\n\t`).
        return !(next == UInt8(ascii: "\\") && after + 1 < limit && text.byte(after + 1) == UInt8(ascii: "t"))
    }

    /// Whether the `\` at `p` starts a JSON escape `\u00XX` (below `limit`) of a byte that ends an
    /// unquoted value (`XX` as ``percentStops(at:header:)`` reads a `%XX`: `\u0026` for `&`, as
    /// Gson writes it, `\u0027`, `\u003c`, `\u0020`, …): an unquoted value ends there as at the byte.
    @inline(__always) func escapedStop(at p: Int, limit: Int) -> Bool {
        p + 5 < limit && text.byte(p + 1) == UInt8(ascii: "u") && text.byte(p + 2) == UInt8(ascii: "0")
            && text.byte(p + 3) == UInt8(ascii: "0") && percentStops(at: p + 3, header: false)
    }

    /// `a` or `d` when a `\x0A` or `\x0D` (`x` and the letter in either case) starts at `p` (below `limit`).
    @inline(never) func hexLineBreak(at p: Int, limit: Int) -> UInt8? {
        guard p + 3 < limit, text.byte(p) == UInt8(ascii: "\\"), text.lowered(p + 1) == UInt8(ascii: "x"),
            text.byte(p + 2) == UInt8(ascii: "0")
        else { return nil }
        let letter = text.lowered(p + 3)
        return letter == UInt8(ascii: "a") || letter == UInt8(ascii: "d") ? letter : nil
    }

    /// After blanks and scheme names (`Bearer`, `Basic`, any ASCII case), each followed by blanks, at
    /// `start`: the end of a `"` or `'` followed by blanks and a byte that does not end an unquoted
    /// value, or nil. That quote opens the scheme's token, as rule 3 takes one
    /// (`Authorization: Basic " hunter2"`): followed by a blank it would otherwise close the string
    /// the header is in (rule 1's context) and end the value before the token. Read once, forward.
    @inline(__always) func schemeQuoteEnd(from start: Int, end: Int, stop: Int) -> Int? {
        let limit = min(end, stop)
        var p = text.blanksEnd(from: start, end: end, stop: stop)
        var names = 0
        while p + 5 < limit, text.lowered(p) == UInt8(ascii: "b") {
            let length =
                text.matches("bearer", at: p, end: limit) ? 6 : text.matches("basic", at: p, end: limit) ? 5 : 0
            guard length > 0, case let next = text.blanksEnd(from: p + length, end: end, stop: stop), next > p + length
            else { return nil }
            p = next
            names += 1
        }
        guard names > 0, p < limit else { return nil }
        // The quote, also an escaped `"` (`\"` in a JSON string).
        if text.byte(p) == UInt8(ascii: "\\"), case let run = escapedQuoteRun(at: p, limit: limit), run > 0 {
            p += run
        } else if text.byte(p) != UInt8(ascii: "\"") && text.byte(p) != UInt8(ascii: "'") {
            return nil
        }
        let token = text.blanksEnd(from: p + 1, end: end, stop: stop)
        return token < limit && startsUnquoted(at: token, limit: limit, end: end) ? p + 1 : nil
    }

    /// Whether the byte at `p` (below `limit`) does not end an unquoted value (``unquotedEnd(from:end:stop:)``).
    @inline(__always) func startsUnquoted(at p: Int, limit: Int, end: Int) -> Bool {
        let byte = text.byte(p)
        if text.table[Int(byte)] & Classes.valueStop != 0 { return false }
        if byte == UInt8(ascii: "\\"), p + 1 < limit, text.has(p + 1, Classes.quote) { return false }
        return byte < 0x80 || text.unicodeSpaceLength(at: p, end: end) == 0
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

    /// An unquoted value, where an authorization scheme's name (`Bearer`, `Basic`, any ASCII case)
    /// followed by blanks and its token takes that too, as rule 3 takes a token: a run, or one in
    /// `"…"`, `'…'` or `<…>` (the closing quote not one right before a URL; a run glued after it
    /// too), after more names (`Bearer Bearer x`). `token=Bearer abc` is `[redacted-secret]`, not
    /// `[redacted-secret] abc`. Each step moves forward: a name, its blanks, the next run.
    func schemeValueEnd(from start: Int, end: Int, stop: Int) -> (Int, Int) {
        let limit = min(end, stop)
        let (valueEnd, length) = unquotedEnd(from: start, end: end, stop: stop)
        guard isSchemeName(from: start, to: valueEnd) else { return (valueEnd, length) }
        var taken = valueEnd
        while true {
            let next = text.blanksEnd(from: taken, end: end, stop: stop)
            guard next > taken, next < limit else { break }
            let opener = text.byte(next)
            var closer: UInt8? =
                opener == UInt8(ascii: "<")
                ? UInt8(ascii: ">") : opener == UInt8(ascii: "\"") || opener == UInt8(ascii: "'") ? opener : nil
            // An escaped opening `"` (`\"` in a JSON string, at most 15 backslashes), which the closing
            // one repeats.
            var escapes = opener == UInt8(ascii: "\\") ? escapedQuoteRun(at: next, limit: limit) : 0
            if escapes > 0 { closer = UInt8(ascii: "\"") }
            // Blanks may pad a quoted token: `Bearer " x "`.
            let runStart = closer == nil ? next : text.blanksEnd(from: next + escapes + 1, end: end, stop: stop)
            var (runEnd, runLength) = unquotedEnd(from: runStart, end: end, stop: stop)
            if runLength == 0, escapes > 0 {
                // No token after the escaped quote: the backslashes before its last are a run.
                (escapes, closer) = (0, nil)
                (runEnd, runLength) = unquotedEnd(from: next, end: end, stop: stop)
            }
            guard runLength > 0 else { break }
            if let closer {
                taken = runEnd
                // The closing quote, unless it is the context of a URL right after it.
                let close = text.blanksEnd(from: runEnd, end: end, stop: stop) + escapes
                if close < limit, text.byte(close) == closer, closer == UInt8(ascii: ">") || close + 1 != stop,
                    escapes == 0 || escapedQuoteRun(at: close - escapes, limit: limit) == escapes
                {
                    // …and the run glued after it (`"a"b`): a second pass would take it with the
                    // placeholder.
                    taken = unquotedEnd(from: close + 1, end: end, stop: stop).0
                }
                break
            }
            taken = runEnd
            guard isSchemeName(from: next, to: runEnd) else { break }
        }
        return (taken, taken - start)
    }

    /// The number of backslashes (1–15) before the `"` they escape at `p` (below `limit`), or 0.
    @inline(__always) func escapedQuoteRun(at p: Int, limit: Int) -> Int {
        let run = backslashRun(from: p, limit: limit)
        return run <= Self.maximumEscapes && p + run < limit && text.byte(p + run) == UInt8(ascii: "\"") ? run : 0
    }

    /// Whether `[start, end)` is `bearer` or `basic`, any ASCII case.
    @inline(__always) func isSchemeName(from start: Int, to end: Int) -> Bool {
        (end - start == 6 && text.matches("bearer", at: start, end: end))
            || (end - start == 5 && text.matches("basic", at: start, end: end))
    }

    /// An unquoted value: to white space, a control character, one of `&,;"'<>)]}` and backtick,
    /// a backslash before a quote, or, after `valueStart` (the value's first byte when nil), an
    /// escaped line break that ends a header's value (`escapedLineBreakEnds`) or a JSON escape of a
    /// byte that ends an unquoted value (`escapedStop`: `\u0026`).
    func unquotedEnd(from start: Int, end: Int, stop: Int, valueStart: Int? = nil) -> (Int, Int) {
        let limit = min(end, stop)
        let first = valueStart ?? start
        var p = start
        while p < limit {
            let byte = text.byte(p)
            if text.table[Int(byte)] & Classes.valueStop != 0 { break }
            if byte == UInt8(ascii: "\\") {
                // A backslash before a quote ends the value too (`\"` closes a JSON string in a
                // string), and so does an escaped line break (a header block dumped in a string).
                if p + 1 < limit, text.has(p + 1, Classes.quote) { break }
                if p > first, escapedLineBreakEnds(at: p, limit: limit) || escapedStop(at: p, limit: limit) { break }
            }
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
    // `passwd`, `pwd`, `passphrase`, `pass` (not inside a word: `passStarts(at:)`), `secret`,
    // `token`, `api_key`, `api-key`, `apikey`, `secret_key`, `secret-key`, `secretkey`,
    // `private_key`, `private-key`, `privatekey`, `access_key`, `access-key`, `accesskey`,
    // `sessionid`, `session_id`, `sessid` (PHP's `PHPSESSID`), `credentials` (values). None is a suffix of
    // another, so the key before a separator is unique; `credential(separator:gapStart:stop:)`
    // compares them by their last letter.

    static let wordRuleCount = 5
}

/// The bytes of a member between a pair's `name` and `value`
/// (``CredentialRule/plainMemberStart(endingAt:quote:escapes:gapStart:)``): allocated once and never
/// freed or written after initialisation, so sharing them is safe.
enum PairMemberBytes {
    /// A quoted string's: ASCII letters, digits, space, `_`, `.`, `+`, `/`, `@`, `:`, `-`.
    nonisolated(unsafe) static let content = URLPlainBytes.bytes(" _.+/@:-")
    /// A scalar's (a number, `true`, an unquoted word): the same without the space.
    nonisolated(unsafe) static let scalar = URLPlainBytes.bytes("_.+/@-")
    /// A key's: ASCII letters, digits, `_`, `.`, `-`.
    nonisolated(unsafe) static let key = URLPlainBytes.bytes("_.-")
}
