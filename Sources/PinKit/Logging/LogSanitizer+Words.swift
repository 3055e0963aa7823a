/// A word rule's match.
struct WordMatch {
    var start: Int
    var end: Int
    var placeholder: WordPlaceholder
}

/// What replaces a word rule's match: one byte, so a match (and the driver's lane that holds
/// one) stays small to copy.
enum WordPlaceholder: UInt8 {
    /// The match is kept as it is (a labelled pin).
    case kept
    case bearer, email, uuid, token
    /// A SASL credential after `AUTH PLAIN` (rule 3): a credential's value, as rule 2's.
    case secret

    var bytes: StaticString {
        switch self {
        case .kept: ""
        case .bearer: LogSanitizer.bearerBytes
        case .email: LogSanitizer.emailBytes
        case .uuid: LogSanitizer.uuidBytes
        case .token: LogSanitizer.tokenBytes
        case .secret: LogSanitizer.secretBytes
        }
    }
}

/// Rules 3–7, applied to the gaps the URL and credential rules left: bearer tokens, email
/// addresses, UUIDs, labelled pins (kept), and tokens.
struct WordRules<Counter: LogSanitizerCounting> {
    let text: SanitizerInput<Counter>
    typealias Classes = LogSanitizer.Classes

    typealias Match = WordMatch

    /// Search state, so no byte is searched twice for the same trigger. Each field belongs to one
    /// rule, and a rule's regions come left to right, so one state serves every region of the
    /// input: the finders search to the end of the input, and a trigger found past a region's end
    /// is kept for the next region instead of being searched for again.
    struct State {
        /// How far the finders search.
        let searchEnd: Int
        /// The previous engine (``LogSanitizer/Engine/regionByRegion``): each rule's fields are
        /// reset at the start of each of its regions and its finders stop at the region's end.
        let regionByRegion: Bool
        /// The previous engine's bearer finders (`b`, `B`, and `a`, `A` for `AUTH PLAIN`); the current
        /// engine looks for `be`, `ba`, `au`, `pa` and `id` in any case.
        var lowerB = CachedFinder()
        var upperB = CachedFinder()
        var lowerA = CachedFinder()
        var upperA = CachedFinder()
        /// `i`, `I`, `p`, `P`: `IDENTIFIED BY x`, `PASSWORD 'x'`.
        var lowerI = CachedFinder()
        var upperI = CachedFinder()
        var lowerP = CachedFinder()
        var upperP = CachedFinder()
        var bearerStart = BearerStartFinder()
        /// `@`, `-`, `2`, `x`: the current engine searches with the patterns that pass over what
        /// the rule rejects at the byte before (``FinderPattern/emailAt`` and the others), the
        /// previous engine for the byte alone (so the tests compare the two).
        var at = CachedFinder()
        /// The `%` of `%40` after a local-part character (rule 4's percent-encoded `@`).
        var percent = CachedFinder()
        /// Rule 4: the `@` a match's domain scan stopped at, the next separator of a search from
        /// `[emailNextFrom, emailNext]` (the domain's bytes hold none); -1: none known.
        var emailNext = -1
        var emailNextFrom = -1
        var dash = CachedFinder()
        var two = CachedFinder()
        var x = CachedFinder()
        /// The `J` of `eyJ` (the current engine's token rule: where a JWT can be).
        var jay = CachedFinder()
        var pinList: Match?
        var pinListSearchedFrom = -1
        /// The start of the URL the current gap ends at (set by the driver; an earlier URL's start
        /// lies before the gap, so it is never met again): a bearer token's closing quote right
        /// before it is that URL's context, and stays outside the match.
        var urlStart = -1
        /// The current engine's token rule: `[runBytesFrom, runBytesTo)` are known run bytes.
        var runBytesFrom = -1
        var runBytesTo = -1
        /// JWT and base64 runs starting before this are known to fail.
        var runFailedBefore = -1
        /// The current engine: whether ``WordRules/markAbsentTriggers(from:_:)`` has run.
        var triggersChecked = false

        init(searchEnd: Int, regionByRegion: Bool = false) {
            self.searchEnd = searchEnd
            self.regionByRegion = regionByRegion
        }

        /// The previous engine's fresh start for `rule` in a new region.
        mutating func reset(rule: Int) {
            switch rule {
            case 0:
                lowerB = CachedFinder()
                upperB = CachedFinder()
                lowerA = CachedFinder()
                upperA = CachedFinder()
                lowerI = CachedFinder()
                upperI = CachedFinder()
                lowerP = CachedFinder()
                upperP = CachedFinder()
            case 1:
                at = CachedFinder()
                percent = CachedFinder()
                emailNext = -1
                emailNextFrom = -1
            case 2: dash = CachedFinder()
            case 3:
                two = CachedFinder()
                x = CachedFinder()
                pinList = nil
                pinListSearchedFrom = -1
            default:
                runFailedBefore = -1
            }
        }
    }

    /// The next match of `rule` starting at or after `from` in `[regionStart, end)`. Look-behind
    /// conditions see back to `regionStart`, as a regular expression with transparent bounds would.
    func next(rule: Int, from: Int, regionStart: Int, end: Int, state: inout State) -> Match? {
        switch rule {
        case 0: return nextBearer(from, regionStart, end, &state)
        case 1: return nextEmail(from, end, &state)
        case 2: return nextUUID(from, end, &state)
        case 3: return nextPin(from, end, &state)
        default: return nextToken(from, end, &state)
        }
    }

    // MARK: Rule 3: Bearer

    func nextBearer(_ from: Int, _ regionStart: Int, _ end: Int, _ state: inout State) -> Match? {
        var search = from
        while search < end {
            // The current engine's finder stops only at `be` (any case); what precedes it is checked
            // here, since the rule does not look behind its region's start.
            let s: Int
            if !state.regionByRegion {
                s = state.bearerStart.next(from: search, to: state.searchEnd, in: text) ?? end
            } else {
                let lower = state.lowerB.next(.byte(UInt8(ascii: "b")), from: search, to: end, in: text) ?? end
                let upper = state.upperB.next(.byte(UInt8(ascii: "B")), from: search, to: end, in: text) ?? end
                let lowerA = state.lowerA.next(.byte(UInt8(ascii: "a")), from: search, to: end, in: text) ?? end
                let upperA = state.upperA.next(.byte(UInt8(ascii: "A")), from: search, to: end, in: text) ?? end
                let lowerI = state.lowerI.next(.byte(UInt8(ascii: "i")), from: search, to: end, in: text) ?? end
                let upperI = state.upperI.next(.byte(UInt8(ascii: "I")), from: search, to: end, in: text) ?? end
                let lowerP = state.lowerP.next(.byte(UInt8(ascii: "p")), from: search, to: end, in: text) ?? end
                let upperP = state.upperP.next(.byte(UInt8(ascii: "P")), from: search, to: end, in: text) ?? end
                s = min(lower, upper, lowerA, upperA, lowerI, upperI, lowerP, upperP)
            }
            guard s + 6 < end else { return nil }
            search = s + 1
            // Not inside a word (a percent-encoded byte or an escaped `\n`, `\r`, `\t` before it
            // ends in a letter or digit, but is no word), and not right after a placeholder (a second
            // pass must not find "[redacted-uuid]bearer x" where the first found "…uuid…bearer x"
            // inside a word).
            if s > regionStart, text.has(s - 1, Classes.alphanumeric), !afterEncodedByte(s, regionStart) { continue }
            if s > regionStart, text.byte(s - 1) == UInt8(ascii: "]"), followsPlaceholder(s, regionStart) { continue }
            // Most candidates are a word that starts with `b` and goes on with something else.
            let second = text.byte(s + 1) | 0x20
            switch text.byte(s) | 0x20 {
            case UInt8(ascii: "a"):
                // `au` (any case): most are no `auth` and a blank, which one load rejects.
                if second == UInt8(ascii: "u"), let match = saslMatch(s, end) { return match }
                continue
            case UInt8(ascii: "i"):
                // `id` (any case): most are no `identified`, which its third byte rejects.
                if second == UInt8(ascii: "d"), text.byte(s + 2) | 0x20 == UInt8(ascii: "e"),
                    let match = identifiedMatch(s, end, state.urlStart)
                {
                    return match
                }
                continue
            case UInt8(ascii: "p"):
                // `pa` (any case; the finder also stops at `pe`): most are no `password` and a blank.
                if second == UInt8(ascii: "a"), text.byte(s + 2) | 0x20 == UInt8(ascii: "s"),
                    let match = sqlPasswordMatch(s, end, state.urlStart)
                {
                    return match
                }
                continue
            default: break
            }
            if second == UInt8(ascii: "a") {
                // Most `ba` words are no `basic` (`back`, `bad`, `batch`): one more byte rejects them.
                if text.byte(s + 2) | 0x20 == UInt8(ascii: "s"), let match = basicMatch(s, end) { return match }
                continue
            }
            guard second == UInt8(ascii: "e"), var p = bearerGroupEnd(s, end) else { continue }
            var lastGroup = s
            var groups = 1
            while let next = bearerGroupEnd(p, end) {
                lastGroup = p
                groups += 1
                p = next
            }
            var tokenStart = p
            var closer: UInt8?
            // The backslashes of an escaped opening `"` (`\"` in a JSON string, at most 15), which
            // the closing one repeats.
            var escapes = 0
            if p < end {
                switch text.byte(p) {
                case UInt8(ascii: "\""): closer = UInt8(ascii: "\"")
                case UInt8(ascii: "'"): closer = UInt8(ascii: "'")
                case UInt8(ascii: "<"): closer = UInt8(ascii: ">")
                case UInt8(ascii: "\\"):
                    let run = SanitizerScan.backslashRun(text, from: p, limit: min(end, p + 16))
                    if run <= 15, p + run < end, text.byte(p + run) == UInt8(ascii: "\"") {
                        closer = UInt8(ascii: "\"")
                        escapes = run
                    }
                default: break
                }
                // Blanks may pad a quoted token: `Bearer " x "`.
                if closer != nil {
                    tokenStart = text.blanksEnd(from: tokenStart + escapes + 1, end: end, stop: Int.max)
                }
            }
            var tokenEnd = bearerTokenEnd(from: tokenStart, end)
            if tokenEnd == tokenStart {
                // Nothing after the last group: as a regular expression backtracks, its "bearer" is
                // the token, with the token characters after it (a `+` separator is one).
                guard groups >= 2 else { continue }
                return Match(start: s, end: bearerTokenEnd(from: lastGroup, end), placeholder: .bearer)
            }
            if let closer, case let close = text.blanksEnd(from: tokenEnd, end: end, stop: Int.max) + escapes,
                close < end,
                text.byte(close) == closer, close + 1 != state.urlStart || closer == UInt8(ascii: ">"),
                escapes == 0 || backslashes(from: close - escapes, to: close)
            {
                tokenEnd = close + 1
            }
            return Match(start: s, end: tokenEnd, placeholder: .bearer)
        }
        return nil
    }

    /// Whether `[start, end)` is backslashes only.
    @inline(__always) func backslashes(from start: Int, to end: Int) -> Bool {
        for index in start..<end where text.byte(index) != UInt8(ascii: "\\") { return false }
        return true
    }

    /// Whether `%XX`, `\xHH` (two hex digits, nginx's escape), `\uHHHH` (JSON's) or `\n`, `\r`, `\t`
    /// ends right before `s`, inside the region.
    @inline(__always) func afterEncodedByte(_ s: Int, _ regionStart: Int) -> Bool {
        if s - 3 >= regionStart, text.has(s - 2, Classes.hex), text.has(s - 1, Classes.hex) {
            let lead = text.byte(s - 3)
            if lead == UInt8(ascii: "%") { return true }
            if lead | 0x20 == UInt8(ascii: "x"), s - 4 >= regionStart, text.byte(s - 4) == UInt8(ascii: "\\") {
                return true
            }
            // JSON's `\uHHHH` (`\u0022` as .NET and Gson write `"`).
            if s - 6 >= regionStart, text.has(s - 3, Classes.hex), text.has(s - 4, Classes.hex),
                text.byte(s - 5) == UInt8(ascii: "u"), text.byte(s - 6) == UInt8(ascii: "\\")
            {
                return true
            }
        }
        guard s - 2 >= regionStart, text.byte(s - 2) == UInt8(ascii: "\\") else { return false }
        let letter = text.byte(s - 1)
        return letter == UInt8(ascii: "n") || letter == UInt8(ascii: "r") || letter == UInt8(ascii: "t")
    }

    /// The end of the bearer token characters (`[A-Za-z0-9._~+/=-]`, `\/` as `JSONEncoder` writes
    /// `/`, `%2F`, `%2B` and `%3D` as a form encodes `/ + =`, and invisible separators, also as JSON
    /// escapes `\u200b`) from `start`.
    @inline(__always) func bearerTokenEnd(from start: Int, _ end: Int) -> Int {
        var tokenEnd = start
        while tokenEnd < end {
            if text.has(tokenEnd, Classes.bearerToken) {
                tokenEnd += 1
            } else if text.byte(tokenEnd) == UInt8(ascii: "\\"), case let length = escapedRunCharacter(tokenEnd, end),
                length > 0
            {
                tokenEnd += length
            } else if text.byte(tokenEnd) == UInt8(ascii: "%"), case let length = encodedBase64Length(tokenEnd, end),
                length > 0
            {
                tokenEnd += length
            } else if text.byte(tokenEnd) >= 0x80, case let length = text.invisibleLength(at: tokenEnd, end: end),
                length > 0
            {
                tokenEnd += length
            } else {
                break
            }
        }
        return tokenEnd
    }

    func followsPlaceholder(_ s: Int, _ from: Int) -> Bool {
        for placeholder in LogSanitizer.placeholders where s - placeholder.count >= from {
            var same = true
            for (offset, byte) in placeholder.enumerated() where text.byte(s - placeholder.count + offset) != byte {
                same = false
                break
            }
            if same { return true }
        }
        return false
    }

    /// An unlabelled HTTP Basic credential at `s` (where `ba` is, in any case): `basic` and its
    /// separators (as `bearer`'s), then a token (as a bearer token, not a scheme's name and its
    /// separators) that holds a digit, `+`, `/` or `=`, or a lower-case letter and an upper-case
    /// one after its first character, so "Basic auth", "using Basic with user" and "Basic
    /// Authentication" stay. The token is read once forwards (and once more for its letters); a
    /// failed candidate's token holds no `basic` that a later candidate could start at (a
    /// candidate needs a byte that is no letter or digit before it and a separator after it).
    @inline(never) func basicMatch(_ s: Int, _ end: Int) -> Match? {
        guard let tokenStart = basicGroupEnd(s, end), bearerGroupEnd(tokenStart, end) == nil,
            basicGroupEnd(tokenStart, end) == nil
        else { return nil }
        let tokenEnd = bearerTokenEnd(from: tokenStart, end)
        return hasTokenShape(tokenStart, tokenEnd) ? Match(start: s, end: tokenEnd, placeholder: .bearer) : nil
    }

    /// Whether the run `[start, end)` has a token's shape as an unlabelled Basic credential's must
    /// (``basicMatch(_:_:)``): a digit, `+`, `/` or `=`, or a lower-case letter and an upper-case one
    /// after its first character. An escaped invisible separator (`\u200b`) is one character, its
    /// digits and letters none.
    @inline(__always) func hasTokenShape(_ start: Int, _ end: Int) -> Bool {
        var lower = false
        var upper = false
        var p = start
        while p < end {
            let byte = text.byte(p)
            if byte == UInt8(ascii: "\\"), case let length = text.escapedInvisibleLength(at: p, end: end), length > 0 {
                p += length
                continue
            }
            if byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") {
                lower = true
            } else if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") {
                if p > start { upper = true }
            } else if text.has(p, Classes.digit) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
                || byte == UInt8(ascii: "=")
            {
                return true
            }
            p += 1
        }
        return lower && upper
    }

    /// A SASL credential at `s` (where `au` is, in any case, after no letter or digit): `AUTH` or
    /// `AUTHENTICATE` (SMTP, IMAP), one or more spaces or tabs, `PLAIN` or `LOGIN`, one or more
    /// spaces or tabs, then a run of four or more standard base64 characters `[A-Za-z0-9+/=]` with a
    /// Basic token's shape (``hasTokenShape(_:_:)``: `auth plain text` in prose stays), followed by
    /// the end of the text, a space, a tab, a line break, a quote (`"`, `'`, backtick) or an escaped
    /// `\r` or `\n`, or at the end of its region (also where a URL starts: a run glued to a URL's
    /// scheme goes, as the reference reads it): the run → `[redacted-secret]`, the words before it
    /// kept. Each run is read
    /// for one candidate only (another needs its own words and blanks, which no run holds), forward
    /// and once more for its shape.
    @inline(never) func saslMatch(_ s: Int, _ end: Int) -> Match? {
        guard text.matches("auth", at: s, end: end) else { return nil }
        var p = s + 4
        if text.matches("enticate", at: p, end: end) { p += 8 }
        @inline(__always) func blanks(from start: Int) -> Int {
            var q = start
            while q < end, text.byte(q) == 0x20 || text.byte(q) == 0x09 { q += 1 }
            return q
        }
        var q = blanks(from: p)
        guard q > p, text.matches("plain", at: q, end: end) || text.matches("login", at: q, end: end) else {
            return nil
        }
        p = q + 5
        q = blanks(from: p)
        guard q > p else { return nil }
        var runEnd = q
        while runEnd < end,
            text.has(runEnd, Classes.alphanumeric) || text.byte(runEnd) == UInt8(ascii: "+")
                || text.byte(runEnd) == UInt8(ascii: "/") || text.byte(runEnd) == UInt8(ascii: "=")
        {
            runEnd += 1
        }
        guard runEnd - q >= 4 else { return nil }
        if runEnd < end {
            let after = text.byte(runEnd)
            let ends =
                after == 0x20 || after == 0x09 || after == 0x0A || after == 0x0D || text.has(runEnd, Classes.quote)
                || (after == UInt8(ascii: "\\") && runEnd + 1 < end
                    && (text.byte(runEnd + 1) == UInt8(ascii: "r") || text.byte(runEnd + 1) == UInt8(ascii: "n")))
            guard ends else { return nil }
        }
        guard hasTokenShape(q, runEnd) else { return nil }
        return Match(start: q, end: runEnd, placeholder: .secret)
    }

    /// The blanks of a SQL statement from `p`: spaces, tabs and line breaks (statements are logged
    /// over several lines), also escaped (``sqlEscapedBlankLength(_:_:)``: a multi-line statement in
    /// a JSON log).
    @inline(__always) func sqlBlanksEnd(from p: Int, _ end: Int) -> Int {
        var q = p
        while q < end {
            let byte = text.byte(q)
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                q += 1
            } else if case let length = sqlEscapedBlankLength(q, end), length > 0 {
                q += length
            } else {
                break
            }
        }
        return q
    }

    /// The length of an escaped blank at `q`, below `end`: 1–15 backslashes and `n`, `r` or `t`
    /// (`\n` in a JSON string, `\\n` in one escaped twice), or 0.
    @inline(__always) func sqlEscapedBlankLength(_ q: Int, _ end: Int) -> Int {
        guard q < end, text.byte(q) == UInt8(ascii: "\\") else { return 0 }
        let run = SanitizerScan.backslashRun(text, from: q, limit: min(end, q + 16))
        guard run <= 15, q + run < end else { return 0 }
        let letter = text.byte(q + run)
        return letter == UInt8(ascii: "n") || letter == UInt8(ascii: "r") || letter == UInt8(ascii: "t") ? run + 1 : 0
    }

    /// The end of a plugin name's quote at `q` (up to 15 backslashes and `'`, `"` or a backtick: a
    /// statement in a JSON or Python string, MySQL's quoted identifier; or one of the three bare
    /// and doubled: a statement in a SQL string or a CSV field), or `q`.
    @inline(__always) func sqlNameQuoteEnd(_ q: Int, _ end: Int) -> Int {
        guard let (quote, escapes) = sqlEscapedQuote(q, end) else { return q }
        if escapes == 0, q + 1 < end, text.byte(q + 1) == quote { return q + 2 }
        return q + escapes + 1
    }

    /// Up to 15 backslashes and a quote (`'`, `"` or a backtick) at `p`, below `end`: the quote and
    /// the backslashes' count, or nil.
    @inline(__always) func sqlEscapedQuote(_ p: Int, _ end: Int) -> (quote: UInt8, escapes: Int)? {
        let run =
            p < end && text.byte(p) == UInt8(ascii: "\\")
            ? SanitizerScan.backslashRun(text, from: p, limit: min(end, p + 16)) : 0
        guard run <= 15, p + run < end, case let quote = text.byte(p + run),
            quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "`")
        else { return nil }
        return (quote, run)
    }

    /// A password in a SQL statement at `s` (where `id` is, in any case, after no letter or digit):
    /// `IDENTIFIED` and blanks (``sqlBlanksEnd(from:_:)``), then `BY`, or `WITH`, blanks, a plugin's
    /// name (1–64 `[A-Za-z0-9_]`, ``sqlNameQuoteEnd(_:_:)`` optional on either side) blanks and `BY`
    /// or `AS` (MySQL's hash, which logs in as well as the password does); blanks, and `PASSWORD` or
    /// `VALUES` and blanks before no letter (MySQL's `IDENTIFIED BY PASSWORD '*…'`, Oracle's
    /// `IDENTIFIED BY VALUES 'S:…'`); then a quoted value (``sqlQuotedMatch(_:_:_:doubledOnly:)``)
    /// or, as Oracle writes one, an identifier (a letter and a run of `[A-Za-z0-9_$#]`:
    /// `identified by 1234` stays) followed by the end of its
    /// region, a blank, one of `; , ) ] } < > |`, a quote, or `\` and one of `r n t " ' \`: the value
    /// → `[redacted-secret]`, the words before it kept (a run that a URL's separator ends goes, as
    /// a SASL run does). Each candidate reads forward at most its
    /// words, a 64-byte name and the blank runs between them, which no other candidate reads but
    /// the one whose plugin name a `WITH` candidate took: linear.
    @inline(never) func identifiedMatch(_ s: Int, _ end: Int, _ urlStart: Int) -> Match? {
        guard text.matches("identified", at: s, end: end) else { return nil }
        var p = sqlBlanksEnd(from: s + 10, end)
        guard p > s + 10 else { return nil }
        if text.matches("with", at: p, end: end) {
            var q = sqlBlanksEnd(from: p + 4, end)
            guard q > p + 4 else { return nil }
            q = sqlNameQuoteEnd(q, end)
            let nameStart = q
            while q < end, q - nameStart <= 64, text.has(q, Classes.alphanumeric) || text.byte(q) == UInt8(ascii: "_") {
                q += 1
            }
            guard q > nameStart, q - nameStart <= 64 else { return nil }
            q = sqlNameQuoteEnd(q, end)
            p = sqlBlanksEnd(from: q, end)
            guard p > q, text.matches("by", at: p, end: end) || text.matches("as", at: p, end: end) else { return nil }
        } else {
            guard text.matches("by", at: p, end: end) else { return nil }
        }
        let byEnd = p + 2
        p = sqlBlanksEnd(from: byEnd, end)
        guard p > byEnd else { return nil }
        // `PASSWORD` (MySQL's hash) or `VALUES` (Oracle's) and blanks before no letter (a quoted
        // value, or what a later rule left of one: an escaped tab's `t` an email took is no letter
        // that could make the word a password in a second pass).
        let word = text.matches("password", at: p, end: end) ? 8 : text.matches("values", at: p, end: end) ? 6 : 0
        if word > 0, case let q = sqlBlanksEnd(from: p + word, end), q > p + word,
            q == end || !text.has(q, Classes.letter)
        {
            p = q
        }
        if let match = sqlQuotedMatch(p, end, urlStart) { return match }
        if sqlOpener(p, end) != nil { return nil }
        // Oracle's unquoted password: an identifier.
        guard p < end, text.has(p, Classes.letter) else { return nil }
        var q = p + 1
        while q < end,
            text.has(q, Classes.alphanumeric) || text.byte(q) == UInt8(ascii: "_")
                || text.byte(q) == UInt8(ascii: "$") || text.byte(q) == UInt8(ascii: "#")
        {
            q += 1
        }
        if q < end {
            switch text.byte(q) {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: ")"), UInt8(ascii: "]"),
                UInt8(ascii: "}"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "|"), UInt8(ascii: "\""),
                UInt8(ascii: "'"), UInt8(ascii: "`"):
                break
            case UInt8(ascii: "\\"):
                // An escape a logger wrote: a line break or tab, or the quote or backslash of a string
                // the statement sits in (`\"`, `\'`, `\\`).
                guard q + 1 < end else { return nil }
                switch text.byte(q + 1) {
                case UInt8(ascii: "r"), UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "\""), UInt8(ascii: "'"),
                    UInt8(ascii: "\\"):
                    break
                default: return nil
                }
            default: return nil
            }
        }
        return Match(start: p, end: q, placeholder: .secret)
    }

    /// A password after `PASSWORD` at `s` (where `pa` is, in any case, after no letter or digit):
    /// PostgreSQL's `PASSWORD 'x'` (blanks between), MySQL's function `PASSWORD('x')` and
    /// `SET PASSWORD FOR account = 'x'`, and a message quoting one (`wrong password "x"`): a quoted
    /// value (``sqlQuotedMatch(_:_:_:doubledOnly:)``) → `[redacted-secret]`, the words and the quotes
    /// kept; after `=` (T-SQL's `PASSWORD = ''x''`), a value in doubled quotes only. The
    /// account is a run of bytes other than blanks (``sqlBlanksEnd(from:_:)``), `=` and `[`: with no
    /// bound and no `[`, what later rules make of a run that failed (a placeholder, which starts with
    /// `[`) fails again, so a second pass finds no value the first did not. It holds no `bearer` or
    /// `basic` and a separator either: the rule's search goes on after the value, past the account,
    /// so a bearer token in it would be found by a second pass only. Reads forward its words,
    /// the blank runs between them and its account, a run no other candidate reads (another needs
    /// blanks after its `PASSWORD`, which no account holds): linear.
    @inline(never) func sqlPasswordMatch(_ s: Int, _ end: Int, _ urlStart: Int) -> Match? {
        guard text.matches("password", at: s, end: end) else { return nil }
        let wordEnd = s + 8
        let p = sqlBlanksEnd(from: wordEnd, end)
        if p < end, text.byte(p) == UInt8(ascii: "(") {
            return sqlQuotedMatch(sqlBlanksEnd(from: p + 1, end), end, urlStart)
        }
        if p < end, text.byte(p) == UInt8(ascii: "=") {
            // T-SQL's `PASSWORD = ''x''` in a SQL string (`EXEC('CREATE LOGIN a WITH PASSWORD =
            // ''x''')`) or a CSV field: a value in doubled quotes only (rule 2 takes `PASSWORD =
            // 'x'`, and leaves a doubled quote, which it reads as an empty value).
            return sqlQuotedMatch(sqlBlanksEnd(from: p + 1, end), end, urlStart, doubledOnly: true)
        }
        guard p > wordEnd else { return nil }
        if text.matches("for", at: p, end: end), case let q = sqlBlanksEnd(from: p + 3, end), q > p + 3 {
            var r = q
            while r < end, case let byte = text.byte(r), byte != 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D,
                byte != UInt8(ascii: "="), byte != UInt8(ascii: "["), sqlEscapedBlankLength(r, end) == 0,
                byte | 0x20 != UInt8(ascii: "b") || (bearerGroupEnd(r, end) == nil && basicGroupEnd(r, end) == nil)
            {
                r += 1
            }
            if r > q, case let e = sqlBlanksEnd(from: r, end), e < end, text.byte(e) == UInt8(ascii: "=") {
                return sqlQuotedMatch(sqlBlanksEnd(from: e + 1, end), end, urlStart)
            }
        }
        return sqlQuotedMatch(p, end, urlStart)
    }

    /// A SQL value's opening quote at `p`: `'` or `"`, after up to 15 backslashes (a statement in a
    /// JSON or Python string): the quote, its backslashes and the position after it, or nil.
    @inline(__always) func sqlOpener(_ p: Int, _ end: Int) -> (quote: UInt8, escapes: Int, contentStart: Int)? {
        guard let (quote, escapes) = sqlEscapedQuote(p, end), quote != UInt8(ascii: "`") else { return nil }
        return (quote, escapes, p + escapes + 1)
    }

    /// The quoted value at `p` (``sqlOpener(_:_:)``) as a match of its content, up to a line break or
    /// its closing quote. After a bare quote: bytes other than that quote and `\\`, a `\\` and the byte
    /// after it (MySQL's escape) and the quote doubled (SQL's; not when the second is right before a
    /// URL, or before ` at line `: MySQL's syntax error quotes the statement, `near 'IDENTIFIED BY
    /// 'x'' at line 1`). The opener written twice (a bare quote, or its backslashes and quote: a CSV
    /// row in a JSON string) before a byte that can start a value: bytes up to the next opener
    /// written twice (escaped, at a backslash run's start): CSV's `""x""`, a SQL string's `''x''`;
    /// four times is a quote in the value. After e backslashes and the quote: any byte up to a run
    /// of backslashes and the same quote that closes a string so opened
    /// (``SanitizerScan/closesEscaped(run:escapes:)``, as rule 2's escaped strings: of a run of
    /// e + j(2e + 2), the j(2e + 2) escaped backslashes are the value's); other runs and quotes are
    /// the value's. Either stops, as rule 2's values do, before a quote right before a URL (the
    /// region's end, `urlStart`) and up to 15 backslashes before it: that quote is the URL's context,
    /// which a second pass must find where the first did. Nil when the content is empty or starts
    /// with a placeholder (a second pass leaves what the first made; no byte a value ends at is a
    /// placeholder's, so the placeholder is tested before the content is read) or is a quoted pin
    /// (``quotedPinEnd(_:_:)``, a bounded read: rule 6's pin body after the label, then its
    /// closing quote and the one after). Each byte is read at most twice.
    @inline(__always) func sqlQuotedMatch(_ p: Int, _ end: Int, _ urlStart: Int, doubledOnly: Bool = false) -> Match? {
        guard let (quote, escapes, opened) = sqlOpener(p, end) else { return nil }
        @inline(__always) func beforeURLQuote(_ q: Int) -> Bool {
            end == urlStart && q + 16 >= end && SanitizerScan.quoteBeforeURL(text, at: q, end: end, stop: end)
        }
        // The opener's unit (its backslashes and quote) written twice before what can start a value
        // opens one that the unit written twice again closes: CSV writes a field's `"` so (`"ALTER
        // USER a IDENTIFIED BY ""x"""`), SQL a string's `'` inside a string (`EXECUTE IMMEDIATE
        // 'CREATE USER a IDENTIFIED BY ''x'''`), and escaped, a CSV row in a JSON string
        // (`\"\"x\"\"`). Before what ``sqlEndsEmpty(_:_:)`` lists it is an empty value.
        let unit = escapes + 1
        let doubled =
            sqlRepeats(quote, escapes, at: opened, end) && opened + escapes + 1 < end
            && !sqlEndsEmpty(opened + escapes + 1, end)
        guard doubled || !doubledOnly else { return nil }
        let start = doubled ? opened + unit : opened
        // The placeholder first: a failed candidate must not have read its content (which may run
        // to the line's end, past every later candidate). A pin stays (§4), quoted as a value:
        // closed by its opener (the unit, twice where doubled), which does not follow again (a
        // doubled quote would make the pin a password's start).
        guard !startsWithPlaceholder(start, end) else { return nil }
        if let pinEnd = quotedPinEnd(start, end), sqlRepeats(quote, escapes, at: pinEnd, end) {
            let after = pinEnd + unit
            if doubled {
                if sqlRepeats(quote, escapes, at: after, end), !sqlRepeats(quote, escapes, at: after + unit, end) {
                    return nil
                }
            } else if !sqlRepeats(quote, escapes, at: after, end) {
                return nil
            }
        }
        var q = start
        if doubled {
            // Up to the unit twice (where escaped, at a run's start: a backslash before it escapes
            // it); four times is a quote inside the value (`''it''''s''`), unless the last is a
            // URL's context.
            while q < end, !beforeURLQuote(q), case let byte = text.byte(q), byte != 0x0A, byte != 0x0D {
                if escapes == 0 || text.byte(q - 1) != UInt8(ascii: "\\"), sqlRepeats(quote, escapes, at: q, end),
                    sqlRepeats(quote, escapes, at: q + unit, end)
                {
                    guard sqlRepeats(quote, escapes, at: q + 2 * unit, end),
                        sqlRepeats(quote, escapes, at: q + 3 * unit, end), q + 4 * unit != urlStart
                    else {
                        break
                    }
                    q += 4 * unit
                } else {
                    q += 1
                }
            }
            guard q > start else { return nil }
            return Match(start: start, end: q, placeholder: .secret)
        }
        while q < end, !beforeURLQuote(q) {
            let byte = text.byte(q)
            if byte == 0x0A || byte == 0x0D { break }
            if escapes > 0 {
                // A run's start (the byte before is no backslash: the opening quote, or a byte the
                // loop passed one at a time) may close the string.
                if byte == UInt8(ascii: "\\"), text.byte(q - 1) != UInt8(ascii: "\\"),
                    case let run = SanitizerScan.backslashRun(text, from: q, limit: end), q + run < end,
                    text.byte(q + run) == quote, SanitizerScan.closesEscaped(run: run, escapes: escapes)
                {
                    q += run - escapes
                    break
                }
                q += 1
            } else if byte == quote {
                // Doubled, unless the second is a URL's context or closes MySQL's error message
                // around the statement (`near 'IDENTIFIED BY 'x'' at line 1`).
                guard q + 1 < end, text.byte(q + 1) == quote, q + 2 != urlStart,
                    !text.matches(" at line ", at: q + 2, end: end)
                else { break }
                q += 2
            } else if byte == UInt8(ascii: "\\") {
                guard q + 1 < end, text.byte(q + 1) != 0x0A, text.byte(q + 1) != 0x0D else { break }
                q += 2
            } else {
                q += 1
            }
        }
        guard q > start else { return nil }
        return Match(start: start, end: q, placeholder: .secret)
    }

    /// Whether the byte at `q` after a doubled quote makes it an empty value: a blank (also a
    /// Unicode space), a quote, a backtick, `\`, or punctuation that follows a string in code and
    /// SQL (`; , ) ] } . : | < > & - /`: `''::text`, `''/* */`, `` `…''` ``).
    @inline(__always) func sqlEndsEmpty(_ q: Int, _ end: Int) -> Bool {
        switch text.byte(q) {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "\\"),
            UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"),
            UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "|"), UInt8(ascii: "<"), UInt8(ascii: ">"),
            UInt8(ascii: "&"), UInt8(ascii: "-"), UInt8(ascii: "/"):
            return true
        case 0xC2...0xE3: return text.unicodeSpaceLength(at: q, end: end) > 0
        default: return false
        }
    }

    /// Whether `escapes` backslashes and `quote` are at `q`, below `end`.
    @inline(__always) func sqlRepeats(_ quote: UInt8, _ escapes: Int, at q: Int, _ end: Int) -> Bool {
        guard q + escapes < end, text.byte(q + escapes) == quote else { return false }
        var r = q
        while r < q + escapes, text.byte(r) == UInt8(ascii: "\\") { r += 1 }
        return r == q + escapes
    }

    /// The end of a pin at `p`, below `end`: `sha256/` (any case), 43 characters of
    /// `[A-Za-z0-9+/]` and `=`; each `/` may follow 1–15 backslashes (JSON's `\/`). Or nil.
    @inline(__always) func quotedPinEnd(_ p: Int, _ end: Int) -> Int? {
        guard text.matches("sha256", at: p, end: end), p + 6 < end else { return nil }
        // The label's `/`, also escaped; then rule 6's body (``pinEnd(_:_:)``: what it requires
        // after the `=`, no base64 character, holds wherever the value's quote follows).
        let slash =
            text.byte(p + 6) == UInt8(ascii: "/")
            ? 1 : text.byte(p + 6) == UInt8(ascii: "\\") ? escapedSlash(p + 6, end) : 0
        return slash > 0 ? pinEnd(p + 6 + slash, end) : nil
    }

    /// Whether `[redacted-` and a run of `[a-z]` and `]` starts at `p`, below `end`.
    @inline(__always) func startsWithPlaceholder(_ p: Int, _ end: Int) -> Bool {
        guard text.matches("[redacted-", at: p, end: end) else { return false }
        var q = p + 10
        while q < end, text.byte(q) >= UInt8(ascii: "a"), text.byte(q) <= UInt8(ascii: "z") { q += 1 }
        return q > p + 10 && q < end && text.byte(q) == UInt8(ascii: "]")
    }

    /// The end of "basic" (any case) and its separators (as `bearer`'s) at `p`, or nil.
    func basicGroupEnd(_ p: Int, _ end: Int) -> Int? {
        guard text.matches("basic", at: p, end: end) else { return nil }
        let q = separatorsEnd(from: p + 5, end)
        return q > p + 5 ? q : nil
    }

    /// The end of "bearer" (any case) and its separators (ASCII spaces and tabs, `:`, `%20`, `+` (a
    /// form-encoded space), Unicode spaces, also as JSON escapes `\u00a0`, ANSI colour codes; at
    /// least one) at `p`, or nil.
    func bearerGroupEnd(_ p: Int, _ end: Int) -> Int? {
        guard text.matches("bearer", at: p, end: end) else { return nil }
        let q = separatorsEnd(from: p + 6, end)
        return q > p + 6 ? q : nil
    }

    /// The end of rule 3's separators from `start`.
    @inline(__always) func separatorsEnd(from start: Int, _ end: Int) -> Int {
        var q = start
        while q < end {
            let byte = text.byte(q)
            if byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C || byte == UInt8(ascii: ":")
                || byte == UInt8(ascii: "+")
            {
                q += 1
            } else if byte == UInt8(ascii: "%"), text.matches("%20", at: q, end: end) {
                q += 3
            } else if byte >= 0x80, case let length = text.unicodeSpaceLength(at: q, end: end), length > 0 {
                q += length
            } else if byte == 0x1B, case let length = text.colourCodeLength(at: q, end: end), length > 0 {
                q += length
            } else if byte == UInt8(ascii: "\\"), case let length = text.escapedSpaceLength(at: q, end: end), length > 0
            {
                q += length
            } else {
                break
            }
        }
        return q
    }

    // MARK: Rule 4: email addresses

    /// Is the byte at `index` part of an email's local part or domain label (`ascii` class, any
    /// non-ASCII byte that is not part of a Unicode space, or the `\` of an escaped non-ASCII
    /// character, whose `u` and digits are `ascii` characters: the five bytes after it, read already,
    /// are read once more)? Scanning backwards.
    @inline(__always) func emailCharacter(before index: Int, _ from: Int, _ ascii: UInt32) -> Int {
        let byte = text.byte(index)
        if byte < 0x80 {
            if text.has(index, ascii) { return 1 }
            return byte == UInt8(ascii: "\\") && escapedNonASCII(index, text.count) > 0 ? 1 : 0
        }
        return text.unicodeSpaceLength(endingAt: index, start: from) > 0 ? 0 : 1
    }

    /// The length of a domain label's character at `index`: `[A-Za-z0-9-]`, a non-ASCII byte not
    /// starting a Unicode space, or a percent-encoded byte 0x80–0xFF (`%C3`, or `%25C3` encoded
    /// twice, any case: the UTF-8 of a non-ASCII letter); 0 if none.
    @inline(__always) func labelLength(at index: Int, _ end: Int) -> Int {
        let byte = text.byte(index)
        if byte < 0x80 {
            if text.has(index, Classes.label) { return 1 }
            if byte == UInt8(ascii: "%") { return encodedHighByte(index, end) }
            return byte == UInt8(ascii: "\\") ? escapedNonASCII(index, end) : 0
        }
        return text.unicodeSpaceLength(at: index, end: end) > 0 ? 0 : 1
    }

    /// The length of `%XX` or `%25XX` with `XX` 80–FF (any case) at `p`, which holds a `%`, or 0.
    /// Out of line: rare in a domain.
    @inline(never) func encodedHighByte(_ p: Int, _ end: Int) -> Int {
        var q = p &+ 1
        if q &+ 3 < end, text.byte(q) == UInt8(ascii: "2"), text.byte(q &+ 1) == UInt8(ascii: "5") { q &+= 2 }
        // A hex digit from `8` on (`8`, `9` and the letters), then a hex digit.
        guard q &+ 1 < end, text.has(q, Classes.hex), text.byte(q) >= UInt8(ascii: "8"), text.has(q &+ 1, Classes.hex)
        else { return 0 }
        return q &+ 2 &- p
    }

    /// The length of a JSON `\uXXXX` escape at `p` (which holds a `\`, below `end`) of a non-ASCII
    /// character other than a Unicode space (Python's `json.dumps` writes every non-ASCII character
    /// so): 6, else 0. Rule 4 reads it as the character it stands for. Out of line: rare.
    @inline(never) func escapedNonASCII(_ p: Int, _ end: Int) -> Int {
        guard p &+ 5 < end, text.byte(p &+ 1) == UInt8(ascii: "u") else { return 0 }
        var value: UInt32 = 0
        for index in (p &+ 2)...(p &+ 5) {
            let byte = text.byte(index)
            guard text.has(index, Classes.hex) else { return 0 }
            value = value &<< 4 | UInt32(byte <= UInt8(ascii: "9") ? byte &- 0x30 : (byte | 0x20) &- 0x57)
        }
        switch value {
        case 0..<0x80, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return 0
        default: return 6
        }
    }

    /// The length of an email local-part character at `p` reading forwards (`ascii` class, a
    /// non-ASCII byte not starting a Unicode space: one byte a step, or an escaped one), or 0.
    @inline(__always) func localLength(at p: Int, _ end: Int) -> Int {
        let byte = text.byte(p)
        if byte < 0x80 {
            if text.has(p, Classes.emailLocal) { return 1 }
            return byte == UInt8(ascii: "\\") ? escapedNonASCII(p, end) : 0
        }
        return text.unicodeSpaceLength(at: p, end: end) > 0 ? 0 : 1
    }

    /// The length of the percent-encoded `@` that starts at `p`, which holds a `%`: 3 for `%40`,
    /// 5 for `%2540` (encoded twice), else 0.
    @inline(__always) func percentAt(_ p: Int, _ end: Int) -> Int {
        guard p &+ 2 < end else { return 0 }
        if text.byte(p &+ 1) == UInt8(ascii: "4") { return text.byte(p &+ 2) == UInt8(ascii: "0") ? 3 : 0 }
        return text.byte(p &+ 1) == UInt8(ascii: "2") ? twiceEncodedAt(p, end) : 0
    }

    /// 5 when `%2540` starts at `p` (which holds `%2`), else 0. Out of line: rare.
    @inline(never) func twiceEncodedAt(_ p: Int, _ end: Int) -> Int {
        p &+ 4 < end && text.byte(p &+ 2) == UInt8(ascii: "5") && text.byte(p &+ 3) == UInt8(ascii: "4")
            && text.byte(p &+ 4) == UInt8(ascii: "0") ? 5 : 0
    }

    /// The next `@` that passes the finder's filter or `%40` after a local-part character in
    /// `[search, end)`, or nil. (The finders search past `end`; what they find there is the next
    /// region's, and stays cached for it.)
    @inline(__always) func nextSeparator(_ search: Int, _ end: Int, _ state: inout State) -> Int? {
        let at = min(
            state.at.next(.emailAt, from: search, end: end, state.searchEnd, state.regionByRegion, in: text) ?? end, end
        )
        var percent = search
        while percent < at,
            let found = state.percent.next(
                .emailPercent, from: percent, end: end, state.searchEnd, state.regionByRegion, in: text),
            found < at
        {
            if percentAt(found, end) > 0 { return found }
            percent = found &+ 1
        }
        return at < end ? at : nil
    }

    /// Rule 4, as a regular expression's `L1 L* (@|%40) domain` finds it leftmost-first: the first
    /// separator (`@` or `%40`) gives the run of local-part characters it sits in (read back to its
    /// start); that start is the leftmost a match can have, and its greedy `L*` takes the rightmost
    /// separator of the run with a valid domain: the `@` that ends the run, else the last `%40`
    /// inside it (its domain is local-part characters too). When none is valid, no later start in
    /// the run does better (it sees fewer separators), so the search goes on after the run.
    /// Linear: the finders never search a byte twice; a run is read back once (down to `from` or
    /// the byte that ended the previous run) and forwards at most twice (again from a match's end,
    /// when the match is a `%40` before the run's end), and each domain inside it once a reading.
    /// An `@` (which ends its run) has its domain read first and its run back only for a valid one;
    /// an `@` its domain's scan stopped at is the next separator without a search.
    func nextEmail(_ from: Int, _ end: Int, _ state: inout State) -> Match? {
        var search = from
        // The `@` where the previous candidate's domain scan stopped, when that is the next
        // separator (-1: ask the finders).
        var known = -1
        if state.emailNextFrom <= search, search <= state.emailNext, state.emailNext < end { known = state.emailNext }
        while true {
            let separator: Int
            if known >= 0 {
                separator = known
                known = -1
            } else {
                guard let found = nextSeparator(search, end, &state) else { return nil }
                separator = found
            }
            if text.byte(separator) == UInt8(ascii: "@") {
                // An `@` ends its run (no local-part character), so its domain alone decides, and
                // most candidates fail there: the local part is read back only for a valid domain.
                var valid = false
                let stop = domainEnd(separator + 1, end, valid: &valid)
                if valid, !gitRemote(at: separator, domainEnd: stop, from, end) {
                    let localStart = localPartStart(separator, from, end)
                    if separator > localStart {
                        // The next search starts at the match's end (or past it, when widened).
                        if stop < text.count, text.byte(stop) == UInt8(ascii: "@") {
                            state.emailNextFrom = separator + 1
                            state.emailNext = stop
                        }
                        return finished(Match(start: localStart, end: stop, placeholder: .email), from, end)
                    }
                }
                // A domain holds no `@` and no `%40`, and ends after a label character (one the `@`
                // finder's filter admits): an `@` where its scan stopped is the next separator.
                if stop > separator + 1, stop < end, text.byte(stop) == UInt8(ascii: "@") { known = stop }
                search = separator + 1
                continue
            }
            let localStart = localPartStart(separator, from, end)
            var matchEnd = -1
            var q = separator
            while q < end {
                if text.byte(q) == UInt8(ascii: "%"), case let separatorLength = percentAt(q, end), separatorLength > 0
                {
                    var valid = false
                    let stop = domainEnd(q + separatorLength, end, valid: &valid)
                    if valid, q > localStart { matchEnd = stop }
                    // The domain's bytes are local-part characters with no `%` among them.
                    q = stop
                    continue
                }
                let length = localLength(at: q, end)
                guard length > 0, !encodedFieldSeparator(q, end) else { break }
                q += length
            }
            if q < end, text.byte(q) == UInt8(ascii: "@"), q > localStart {
                var valid = false
                let stop = domainEnd(q + 1, end, valid: &valid)
                if valid, !gitRemote(at: q, domainEnd: stop, from, end) { matchEnd = stop }
            }
            if matchEnd >= 0 {
                return finished(Match(start: localStart, end: matchEnd, placeholder: .email), from, end)
            }
            search = q + 1
        }
    }

    /// Where the local part before the separator at `separator` starts: its run of local-part
    /// characters read back (not past `from`, the region's start or the last match, nor over an
    /// encoded `=` or `&`: a form encoded twice keeps its fields), then not at a quote
    /// ("'alice@x.com'" keeps its quotes) nor inside a percent-encoded byte (after `%` or `%` and
    /// a hex digit). `separator` when there is none.
    @inline(__always) func localPartStart(_ separator: Int, _ from: Int, _ end: Int) -> Int {
        let table = text.table
        var localStart = separator
        while localStart > from {
            // A local-part character other than `%` a table lookup; the rest out of line.
            let flags = table[Int(text.byte(localStart &- 1))]
            if flags & Classes.emailLocal != 0, flags & Classes.percentFirst == 0 {
                localStart &-= 1
                continue
            }
            guard flags & (Classes.high | Classes.percentFirst | Classes.backslash) != 0,
                otherLocalCharacter(before: localStart &- 1, from, end)
            else { break }
            localStart &-= 1
        }
        while localStart < separator, text.byte(localStart) == UInt8(ascii: "'") || insideEncoding(localStart, from) {
            localStart += 1
        }
        return localStart
    }

    /// Whether the byte at `index` (a `%`, a `\` or a non-ASCII byte) is a local-part character
    /// read backwards: ``emailCharacter(before:_:_:)``, and a `%` that starts no encoded `=` or `&`.
    /// Out of line.
    @inline(never) func otherLocalCharacter(before index: Int, _ from: Int, _ end: Int) -> Bool {
        emailCharacter(before: index, from, Classes.emailLocal) == 1 && !encodedFieldSeparator(index, end)
    }

    /// The email's match, widened when a base64 character touches it. Most matches have none glued
    /// to either side (nor a `.` after the domain, before a JWT's next segment).
    @inline(__always) func finished(_ match: Match, _ from: Int, _ end: Int) -> Match {
        let before = match.start > from && isRunByte(match.start - 1)
        let after = match.end < end && (isRunByte(match.end) || text.byte(match.end) == UInt8(ascii: "."))
        return before || after ? widened(match, from, end) : match
    }

    /// Whether the run of local-part characters (read back no further than `from`) that ends at the
    /// `@` at `at` is `git` (after quotes: `'git@…'`) and the domain (ending at `domainEnd`, before
    /// `end`) is followed by `:`: an scp-style git remote (`git@github.com:org/repo.git`), whose
    /// local part is a service's account, no one's address. The host stays, and the search goes on
    /// after the `@` (no later start in the run is an email). Reads the run once more.
    @inline(__always) func gitRemote(at: Int, domainEnd: Int, _ from: Int, _ end: Int) -> Bool {
        guard domainEnd < end, text.byte(domainEnd) == UInt8(ascii: ":") else { return false }
        return gitRun(at: at, from)
    }

    /// The run before the `@` at `at` is `git` after quotes (see ``gitRemote(at:domainEnd:_:_:)``).
    /// Out of line: rare.
    @inline(never) func gitRun(at: Int, _ from: Int) -> Bool {
        guard at &- 3 >= from, exactly("git", at: at &- 3, end: at) else { return false }
        var p = at &- 3
        while p > from, text.byte(p &- 1) == UInt8(ascii: "'") { p &-= 1 }
        // (A `\` before a quote or `g` starts no escaped character.)
        return p == from || emailCharacter(before: p &- 1, from, Classes.emailLocal) == 0
    }

    /// An email's match widened over a token glued to it: when the base64 run that ends at its start
    /// (read back to `from`) is, with the local part's first stretch after it, what rule 7 takes
    /// from the run's start, the match starts there; when the run that holds the domain's last
    /// label goes on after the match, and rule 7 takes from that run's start to past the match, the
    /// match ends where rule 7's would. Otherwise the email's own stretch would take a token's head
    /// or tail and leave the rest under 32 characters (`bob@example.com-wJalrXUtnFEMI/K7MDENG/…`).
    /// Each side is read back once and measured forward once, from a match: linear.
    @inline(never) func widened(_ match: Match, _ from: Int, _ end: Int) -> Match {
        // Most glued runs are short. The 32 bytes from the match's start hold its first byte that no
        // run goes over (the `@` at the latest, when the match is shorter) and the first after it:
        // when the run before the match (from `from` on) to that first byte is shorter than 32 and
        // holds no `eyJ`, no token from the run before reaches into the match, and when the match
        // and the run after it to the second are, none from inside the match's last run reaches out
        // of it (``mayHoldToken(_:_:)`` fails from every start there).
        // (One window from `from` when the match ends within it.)
        if let base = text.input.baseAddress, from &+ 32 <= text.count, match.end &- from < 32 {
            let window = runWindow(from, base)
            let start = match.start &- from
            if let inside = runStop(window, from, from: start, base), inside < match.end &- from,
                let outside = runStop(window, from, from: match.end &- from, base),
                window.jay & ((1 &<< UInt64(outside)) &- 1) == 0
            {
                return match
            }
        } else if let base = text.input.baseAddress, match.start &+ 32 <= text.count, from &+ 32 <= text.count,
            match.end &- match.start < 32
        {
            let window = runWindow(match.start, base)
            if let inside = runStop(window, match.start, from: 0, base), inside < match.end &- match.start,
                let outside = runStop(window, match.start, from: match.end &- match.start, base),
                window.jay & ((1 &<< UInt64(outside)) &- 1) == 0
            {
                let head = match.start &+ inside &- from
                if head < 32, runWindow(from, base).jay & ((1 &<< UInt64(head)) &- 1) == 0 { return match }
            }
        }
        return widenedByRuns(match, from, end)
    }

    /// ``widened(_:_:_:)`` reading the runs.
    @inline(never) func widenedByRuns(_ match: Match, _ from: Int, _ end: Int) -> Match {
        var result = match
        let before = runStart(before: match.start, from)
        // Rule 7's match from `before` lies in the run, which ends before the email's `@` (or `%`):
        // under 32 bytes and no `eyJ` there, it is none (a JWT's `eyJ` and 32 characters both fail).
        if before < match.start, mayHoldToken(before, min(end, before &+ 32)),
            let tokenEnd = tokenEnd(at: before, end), tokenEnd > match.start
        {
            result.start = before
        }
        if match.end < end, case let after = runStart(before: match.end, match.start), after < match.end,
            mayHoldToken(after, min(end, after &+ 32)), let tokenEnd = tokenEnd(at: after, end), tokenEnd > match.end,
            !holdsLabelledPin(match.end, tokenEnd, end)
        {
            result.end = tokenEnd
        }
        return result
    }

    /// Where the token that a credential's key is glued into starts, or nil: rule 2's key is found
    /// as the end of a word, and a random base64 secret that happens to hold a key word right
    /// before a `=` or `:` (`…L/VGiinCYPwd=G9D0…`) would lose only what follows the separator, its
    /// head staying. The key at `keyStart` is inside a token when
    /// - the base64 run that ends at it (read back no further than `bound`), its head, is not empty
    ///   and does not end in `_` or `-` (after those a key starts a word of its own:
    ///   `SPRING_DATASOURCE_PASSWORD`, `x-auth-token`);
    /// - the head is no name: it holds a character that no identifier holds (`+`, `/` or `=` in any
    ///   spelling, an invisible separator), or digits in two places, or four digits in a row
    ///   (`oauth2Client`, `x509` and `dbPassword` are names, and stay with their key);
    /// - rule 7's match at the head's start, in the text up to the value's end `valueEnd`, reaches
    ///   past the key's start (a short head, or one that is no token, stays: `a/bPwd=x`).
    /// Then the credential's span starts at the head and nothing of it is kept.
    ///
    /// Linear: the head lies after the previous span and before the key, and the match is measured
    /// within the credential's own span, so each byte is read a bounded number of times.
    @inline(never) func gluedTokenStart(keyStart: Int, bound: Int, valueEnd: Int) -> Int? {
        var start = runStart(before: keyStart, bound)
        if start > bound, text.byte(start - 1) == UInt8(ascii: "\\") {
            start = escapeEnd(at: start, bound: bound, limit: keyStart)
        }
        guard start < keyStart, case let last = text.byte(keyStart &- 1), last != UInt8(ascii: "_"),
            last != UInt8(ascii: "-")
        else { return nil }
        var stretches = 0
        var digits = 0
        var longest = 0
        var sign = false
        for q in start..<keyStart {
            let flags = text.table[Int(text.byte(q))]
            if flags & Classes.digit != 0 {
                digits &+= 1
                if digits == 1 { stretches &+= 1 }
                longest = max(longest, digits)
            } else {
                digits = 0
                if flags & Classes.token == 0 {
                    sign = true
                    break
                }
            }
        }
        guard sign || stretches >= 2 || longest >= 4, let tokenEnd = tokenEnd(at: start, valueEnd),
            tokenEnd > keyStart
        else { return nil }
        return start
    }

    /// Where the head of a glued key that starts at `start`, right after a `\`, really starts: after
    /// the escape's letters when the backslash escapes them (an odd run of backslashes, read back no
    /// further than `bound`): `\uXXXX` and `\xXX` take their hex digits, any other escape (`\n`,
    /// `\t`) its one ASCII character. An escaped line break or `\u0026` ends a value where it stands, and a
    /// second pass must find it there: the head's placeholder after `\` would otherwise join the
    /// value before it (`secret=abc\n…Pwd=x`). Reads back over backslashes that lie between the
    /// previous span and the key, once per key.
    @inline(never) func escapeEnd(at start: Int, bound: Int, limit: Int) -> Int {
        var p = start - 1
        while p > bound, text.byte(p - 1) == UInt8(ascii: "\\") { p -= 1 }
        // (An invisible separator after a backslash escapes nothing: it stays in the head.)
        let letter = text.byte(start)
        guard (start - p) & 1 == 1, letter < 0x80 else { return start }
        let digits = letter == UInt8(ascii: "u") ? 4 : letter | 0x20 == UInt8(ascii: "x") ? 2 : 0
        if digits > 0, start + digits < limit,
            (start + 1...start + digits).allSatisfy({ text.has($0, Classes.hex) })
        {
            return start + 1 + digits
        }
        return start + 1
    }

    /// Whether rule 7 can match at `start` with what lies in `[start, limit)` (at most 32 bytes): 32
    /// bytes of run there, or an `eyJ`. False only when no match can start at `start`.
    /// The 32 bytes from `start` are tested at once (two blocks of sixteen) when they lie in the
    /// input: the first byte that is neither `[A-Za-z0-9+/=_.-]` nor `\` decides, unless it is a `%`
    /// or a non-ASCII byte (which may be a run's), when the bytes are read one by one.
    @inline(__always) func mayHoldToken(_ start: Int, _ limit: Int) -> Bool {
        guard limit > start, start &+ 32 <= text.count, let base = text.input.baseAddress else {
            return mayHoldTokenByBytes(start, limit)
        }
        let window = runWindow(start, base)
        let count = limit &- start
        let inRange: UInt64 = (1 &<< UInt64(count)) &- 1
        let other = window.other & inRange
        // Bits below the first other byte (all of them in range when there is none).
        let before = other == 0 ? inRange : (other & (0 &- other)) &- 1
        if window.jay & before != 0 { return true }
        if other == 0 { return count == 32 }
        let stop = base[start &+ other.trailingZeroBitCount]
        return stop == UInt8(ascii: "%") || stop >= 0x80 ? mayHoldTokenByBytes(start, limit) : false
    }

    /// The 32 bytes from `start` (which lie in the input) tested at once, two blocks of sixteen, bit
    /// `i` for the byte at `start + i`: `other`, the bytes that are neither `[A-Za-z0-9+/=_.-]` nor
    /// `\` (a `%` or a non-ASCII byte among them may still be a run's), and `jay`, the `J`s of the
    /// `eyJ`s that lie in the window.
    @inline(__always) func runWindow(_ start: Int, _ base: UnsafePointer<UInt8>) -> (other: UInt64, jay: UInt64) {
        text.counter.tick(32)
        typealias V = ByteBlock.Bytes
        @inline(__always) func plain(_ bytes: V) -> UInt64 {
            let lanes =
                ByteBlock.letters(bytes) .| ByteBlock.digits(bytes) .| ByteBlock.inRange(bytes, 0x2D, count: 3)
                .| (bytes .== V(repeating: 0x2B)) .| (bytes .== V(repeating: 0x3D)) .| (bytes .== V(repeating: 0x5F))
                .| (bytes .== V(repeating: 0x5C))
            return ByteBlock.bits(lanes)
        }
        let first = ByteBlock.load(base, start)
        let second = ByteBlock.load(base, start &+ 16)
        @inline(__always) func equal(_ value: UInt8) -> UInt64 {
            ByteBlock.bits(first .== V(repeating: value)) | ByteBlock.bits(second .== V(repeating: value)) &<< 16
        }
        let other = ~(plain(first) | plain(second) &<< 16) & 0xFFFF_FFFF
        // (A `J` is rare: then `y` and `e` are not compared.)
        let jays = equal(UInt8(ascii: "J"))
        let jay = jays == 0 ? 0 : jays & (equal(UInt8(ascii: "y")) &<< 1) & (equal(UInt8(ascii: "e")) &<< 2)
        return (other, jay)
    }

    /// The first byte of `window` (from `start`) at or after bit `from` that is other (see
    /// ``runWindow(_:_:)``) and ASCII but no `%`: no base64 run goes over it. Its bit, or nil
    /// (none in the window, or a `%` or a non-ASCII byte first).
    @inline(__always) func runStop(
        _ window: (other: UInt64, jay: UInt64), _ start: Int, from: Int, _ base: UnsafePointer<UInt8>
    ) -> Int? {
        let other = window.other & ~((1 &<< UInt64(from)) &- 1)
        guard other != 0 else { return nil }
        let bit = other.trailingZeroBitCount
        let byte = base[start &+ bit]
        return byte == UInt8(ascii: "%") || byte >= 0x80 ? nil : bit
    }

    /// ``mayHoldToken(_:_:)`` a byte at a time.
    @inline(never) func mayHoldTokenByBytes(_ start: Int, _ limit: Int) -> Bool {
        var q = start
        while q < limit {
            let byte = text.byte(q)
            if byte == UInt8(ascii: "J"), q >= start &+ 2, text.byte(q &- 1) == UInt8(ascii: "y"),
                text.byte(q &- 2) == UInt8(ascii: "e")
            {
                return true
            }
            guard isRunByte(q) || byte == UInt8(ascii: ".") else { return false }
            q &+= 1
        }
        return limit &- start == 32
    }

    /// Whether a labelled pin that rule 6 keeps starts in `[start, stop)` (a region ending at
    /// `end`): an email glued to `/sha256/…` leaves the pin to rule 6. Reads the range once.
    func holdsLabelledPin(_ start: Int, _ stop: Int, _ end: Int) -> Bool {
        var q = start
        while q < stop, q + 6 < end {
            if text.byte(q) | 0x20 == UInt8(ascii: "s"), isSHA256(at: q), labelledPinEnd(label: q + 6, end) != nil {
                return true
            }
            q += 1
        }
        return false
    }

    /// Where the base64 run (rule 7's characters: `\/` and `%2F` as one) that ends at `q` starts,
    /// reading back no further than `bound`: the leftmost position from which the run's characters
    /// reach `q` (a `/` takes the up to 15 backslashes before it, a `%2F` its `%`).
    func runStart(before q: Int, _ bound: Int) -> Int {
        var p = q
        while p > bound {
            let byte = text.byte(p - 1)
            if byte >= 0x80 {
                let length = text.invisibleLength(endingAt: p - 1, start: bound)
                guard length > 0 else { break }
                p -= length
            } else if p - 6 >= bound, text.byte(p - 6) == UInt8(ascii: "\\"),
                text.escapedInvisibleLength(at: p - 6, end: p) > 0
            {
                p -= 6
            } else if p - 5 >= bound, text.byte(p - 5) == UInt8(ascii: "%"), encodedBase64(p - 5, p) == 5 {
                p -= 5
            } else if p - 3 >= bound, text.byte(p - 3) == UInt8(ascii: "%"), encodedBase64(p - 3, p) == 3 {
                p -= 3
            } else if text.has(p - 1, Classes.base64) {
                p -= 1
                if byte == UInt8(ascii: "/") {
                    var backslashes = 0
                    while backslashes < 15, p > bound, text.byte(p - 1) == UInt8(ascii: "\\") {
                        p -= 1
                        backslashes += 1
                    }
                }
            } else {
                break
            }
        }
        return p
    }

    /// Whether `%3D` or `%26` (an encoded `=` or `&`, any case), or `%253D` or `%2526` (encoded
    /// twice), starts at `p`, before `end`: no local-part character, though its bytes are.
    @inline(__always) func encodedFieldSeparator(_ p: Int, _ end: Int) -> Bool {
        guard text.byte(p) == UInt8(ascii: "%"), p &+ 2 < end else { return false }
        var first = text.byte(p &+ 1)
        var second = text.byte(p &+ 2)
        if first == UInt8(ascii: "2"), second == UInt8(ascii: "5"), p &+ 4 < end {
            first = text.byte(p &+ 3)
            second = text.byte(p &+ 4)
        }
        return (first == UInt8(ascii: "3") && second | 0x20 == UInt8(ascii: "d"))
            || (first == UInt8(ascii: "2") && second == UInt8(ascii: "6"))
    }

    /// Whether `s` is inside a percent-encoded byte: right after a `%` or `%25`, or after one of them
    /// and a hex digit (looking back no further than `from`).
    @inline(__always) func insideEncoding(_ s: Int, _ from: Int) -> Bool {
        if s - 1 >= from, text.byte(s - 1) == UInt8(ascii: "%") { return true }
        if s - 2 >= from, text.byte(s - 2) == UInt8(ascii: "%"), text.has(s - 1, Classes.hex) { return true }
        @inline(__always) func twice(_ p: Int) -> Bool {
            p >= from && text.byte(p) == UInt8(ascii: "%") && text.byte(p + 1) == UInt8(ascii: "2")
                && text.byte(p + 2) == UInt8(ascii: "5")
        }
        return twice(s - 3) || (twice(s - 4) && text.has(s - 1, Classes.hex))
    }

    /// `label(.label)+`, labels of `[A-Za-z0-9-]` and non-ASCII letters: where the scan stopped
    /// (the domain's end when `valid`). No `@` lies before it.
    @inline(__always) func domainEnd(_ start: Int, _ end: Int, valid: inout Bool) -> Int {
        var p = labelEnd(start, end)
        guard p > start else { return p }
        while p + 1 < end, text.byte(p) == UInt8(ascii: ".") {
            let next = labelEnd(p + 1, end)
            guard next > p + 1 else { break }
            p = next
            valid = true
        }
        return p
    }

    /// The end of the domain label's characters from `p` (``labelLength(at:_:)``): `[A-Za-z0-9-]`
    /// a table lookup each, anything else that may be one (a `%`, a `\`, a non-ASCII byte) out of
    /// line.
    @inline(__always) func labelEnd(_ p: Int, _ end: Int) -> Int {
        let table = text.table
        var q = p
        while q < end {
            let flags = table[Int(text.byte(q))]
            if flags & Classes.label != 0 {
                q &+= 1
                continue
            }
            guard flags & (Classes.high | Classes.percentFirst | Classes.backslash) != 0 else { break }
            let length = otherLabelLength(at: q, end)
            guard length > 0 else { break }
            q &+= length
        }
        return q
    }

    /// ``labelLength(at:_:)`` out of line, for a byte other than `[A-Za-z0-9-]`.
    @inline(never) func otherLabelLength(at p: Int, _ end: Int) -> Int { labelLength(at: p, end) }

    // MARK: Rule 5: UUIDs

    /// Skips invisible separators (also as JSON escapes, `\u200b`) forwards from `p`.
    @inline(__always) func skipInvisible(_ p: Int, _ end: Int) -> Int {
        var q = p
        while q < end {
            let byte = text.byte(q)
            let length =
                byte >= 0x80
                ? text.invisibleLength(at: q, end: end)
                : byte == UInt8(ascii: "\\") ? text.escapedInvisibleLength(at: q, end: end) : 0
            guard length > 0 else { break }
            q += length
        }
        return q
    }

    /// `count` hex digits with invisible separators between them, from `p`: the end, or nil.
    @inline(__always) func hexGroup(_ p: Int, _ count: Int, _ end: Int) -> Int? {
        var q = p
        for index in 0..<count {
            if index > 0 { q = skipInvisible(q, end) }
            guard q < end, text.has(q, Classes.hex) else { return nil }
            q += 1
        }
        return q
    }

    /// Whether a UUID has its first dash at `dash`, decided at once when the 36 bytes it would
    /// take (`dash - 8 ..< dash + 28`) lie in `[from, end)` and are all ASCII: no invisible
    /// separator can then sit between its digits, so it is the fixed shape 8-4-4-4-12, and the
    /// three blocks of 16 that cover it are compared with that shape. Nil otherwise: the
    /// byte-by-byte reading decides. (Byte by byte, each digit test was a branch whose outcome
    /// changed from one candidate to the next, mispredicted.)
    @inline(__always) func uuidShape(firstDash dash: Int, _ from: Int, _ end: Int) -> Bool? {
        guard dash - 8 >= from, dash + 28 <= end, let base = text.input.baseAddress else { return nil }
        typealias V = ByteBlock.Bytes
        let start = dash - 8
        // Blocks at 0, 16 and 20 of the 36 bytes; the dashes are at 8, 13, 18 and 23.
        let blocks = (ByteBlock.load(base, start), ByteBlock.load(base, start + 16), ByteBlock.load(base, start + 20))
        let anyHigh = unsafeBitCast(blocks.0 | blocks.1 | blocks.2, to: SIMD2<UInt64>.self)
        guard (anyHigh[0] | anyHigh[1]) & 0x8080_8080_8080_8080 == 0 else { return nil }
        text.counter.tick(36)
        let dashes = (
            V(0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0, 0, 0, 0xFF, 0, 0),
            V(0, 0, 0xFF, 0, 0, 0, 0, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0),
            V(0, 0, 0, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        )
        @inline(__always) func fits(_ bytes: V, _ dashLanes: V) -> Bool {
            let isDash = bytes .== V(repeating: 0x2D)
            let expected = unsafeBitCast(dashLanes, to: SIMD2<UInt64>.self)
            let found = unsafeBitCast(isDash, to: SIMD2<UInt64>.self)
            let hex = ByteBlock.digits(bytes) .| ByteBlock.letters(bytes, first: 6)
            return (found[0] ^ expected[0]) | (found[1] ^ expected[1]) == 0 && ByteBlock.all(hex .| isDash)
        }
        // A JSON escape of an invisible separator (`\u200b`) may sit between the digits: then the
        // byte-by-byte reading decides. Its `\` may lie before the 36 bytes, its `u` then in the
        // first block (an escape that ends there with its `u` before it leaves hex digits, as the
        // shape has them). A block that fails with neither fails byte by byte too (an escape
        // further on changes nothing before it), so the first block's failure, the common one,
        // tests it alone.
        let slash = V(repeating: 0x5C)
        guard fits(blocks.0, dashes.0) else {
            return ByteBlock.any((blocks.0 .== slash) .| (blocks.0 .== V(repeating: 0x75))) ? nil : false
        }
        guard fits(blocks.1, dashes.1) && fits(blocks.2, dashes.2) else {
            return ByteBlock.any((blocks.1 .== slash) .| (blocks.2 .== slash)) ? nil : false
        }
        // The shape, but its first digit inside an escaped separator (`\u200b1234-…`: a `u` among
        // the four bytes before it): byte by byte. Four bytes at once, a `u` in any of them.
        guard start - 4 >= from else { return text.insideEscapedInvisible(start, start: from) ? nil : true }
        text.counter.tick(4)
        let word = UnsafeRawPointer(base + start - 4).loadUnaligned(as: UInt32.self) ^ 0x7575_7575
        let hasU = (word &- 0x0101_0101) & ~word & 0x8080_8080 != 0
        return hasU && text.insideEscapedInvisible(start, start: from) ? nil : true
    }

    /// Where the eight hex digits that end at the first dash `dash` start (invisible separators
    /// between them and before the dash; with `escapes`, also their JSON escapes, `\u200b`, each
    /// whole), reading back no further than `from`, and whether there are eight (else where the
    /// reading stopped).
    @inline(__always) func uuidDigitsStart(before dash: Int, _ from: Int, escapes: Bool) -> (Int, Bool) {
        var p = dash
        var digits = 0
        while digits < 8 {
            while p > from {
                let length =
                    text.byte(p - 1) >= 0x80
                    ? text.invisibleLength(endingAt: p - 1, start: from)
                    : escapes && p - 6 >= from && text.byte(p - 6) == UInt8(ascii: "\\")
                        ? text.escapedInvisibleLength(endingAt: p - 1, start: from) : 0
                guard length > 0 else { break }
                p -= length
            }
            guard p > from, text.has(p - 1, Classes.hex) else { break }
            p -= 1
            digits += 1
        }
        return (p, digits == 8)
    }

    func nextUUID(_ from: Int, _ end: Int, _ state: inout State) -> Match? {
        var search = from
        while let dash = state.dash.next(
            .uuidDash, from: search, end: end, state.searchEnd, state.regionByRegion, in: text),
            dash < end
        {
            search = dash + 1
            if !state.regionByRegion, let shaped = uuidShape(firstDash: dash, from, end) {
                if shaped { return Match(start: dash - 8, end: dash + 28, placeholder: .uuid) }
                continue
            }
            // Eight hex digits before the first dash (invisible separators between them and before
            // it). Read without escapes first: an escaped separator (`\u200b`) on the way stops that
            // reading at its `u`, or its last digits are taken and the start lies inside it (after
            // a `u` or a hex digit); only then are the digits read again, each escape whole (a
            // match starts inside none): eight digits and one escape's bytes read twice at most.
            var (p, found) = uuidDigitsStart(before: dash, from, escapes: false)
            if found
                ? p > from && (text.byte(p - 1) == UInt8(ascii: "u") || text.has(p - 1, Classes.hex))
                    && text.insideEscapedInvisible(p, start: from)
                : p > from && text.byte(p - 1) == UInt8(ascii: "u")
            {
                (p, found) = uuidDigitsStart(before: dash, from, escapes: true)
            }
            guard found else { continue }
            let start = p
            var q = dash + 1
            var valid = true
            // The last dash after a group of four: its own eight digits cannot be there (four, then
            // a dash), so a failed candidate's search goes on after it.
            var lastDash = dash
            for group in 0..<4 {
                q = skipInvisible(q, end)
                guard let groupEnd = hexGroup(q, group == 3 ? 12 : 4, end) else {
                    valid = false
                    break
                }
                q = groupEnd
                if group < 3 {
                    q = skipInvisible(q, end)
                    guard q < end, text.byte(q) == UInt8(ascii: "-") else {
                        valid = false
                        break
                    }
                    lastDash = q
                    q += 1
                }
            }
            if valid { return Match(start: start, end: q, placeholder: .uuid) }
            if !state.regionByRegion { search = lastDash + 1 }
        }
        return nil
    }

    // MARK: Rule 6: labelled pins stay

    func nextPin(_ from: Int, _ end: Int, _ state: inout State) -> Match? {
        // The transport's own pin list ("… expected one of P, P"), remembered while it lies ahead
        // so a long list is measured once however many labelled pins come before it.
        if state.pinList.map({ $0.start < from }) ?? true, from >= state.pinListSearchedFrom {
            state.pinList = state.x.knownNone(from: from) ? nil : nextPinList(from, end, &state)
            state.pinListSearchedFrom = state.pinList?.start ?? end
        }
        let labelled = state.two.knownNone(from: from) ? nil : nextLabelledPin(from, end, &state)
        guard let list = state.pinList, list.start >= from else { return labelled }
        guard let labelled, labelled.start < list.start else { return list }
        return labelled
    }

    /// `expected one of ` (as the transport writes it) and a list of pins joined by `, `.
    func nextPinList(_ from: Int, _ end: Int, _ state: inout State) -> Match? {
        var search = from
        while let x = state.x.next(.listX, from: search, end: end, state.searchEnd, state.regionByRegion, in: text),
            x < end
        {
            search = x + 1
            let start = x - 1
            let label: StaticString = "expected one of "
            guard start >= from, exactly(label, at: start, end: end) else { continue }
            guard var listEnd = pinEnd(start + label.utf8CodeUnitCount, end) else { continue }
            while exactly(", ", at: listEnd, end: end), let next = pinEnd(listEnd + 2, end) { listEnd = next }
            return Match(start: start, end: listEnd, placeholder: .kept)
        }
        return nil
    }

    /// True when `text` is at `index`, byte for byte.
    func exactly(_ literal: StaticString, at index: Int, end: Int) -> Bool {
        text.exactly(literal, at: index, end: end)
    }

    func nextLabelledPin(_ from: Int, _ end: Int, _ state: inout State) -> Match? {
        var search = from
        while let two = state.two.next(
            .pinTwo, from: search, end: end, state.searchEnd, state.regionByRegion, in: text), two < end
        {
            search = two + 1
            guard two - 3 >= from, two + 3 < end, isSHA256(at: two - 3) else { continue }
            if let pin = labelledPinEnd(label: two + 3, end) {
                return Match(start: two - 3, end: pin, placeholder: .kept)
            }
        }
        return nil
    }

    /// The end of a pin after one of the labels at `label` (right after "sha256"), or nil. Out of
    /// line: each label's test is inlined here as a branch of its own, which made the finder's
    /// search around it too large to inline.
    @inline(never) func labelledPinEnd(label: Int, _ end: Int) -> Int? {
        // The labels that start with the byte after "sha256", shortest first: the first that
        // fits gives the leftmost value.
        switch text.byte(label) {
        case UInt8(ascii: "/"): return pinEnd(after: "/", at: label, end) ?? pinEnd(after: "//", at: label, end)
        case UInt8(ascii: "="):
            return
                pinEnd(after: "=", at: label, end) ?? pinEnd(after: "=\"", at: label, end)
                ?? pinEnd(after: "=\\\"", at: label, end) ?? pinEnd(after: "='", at: label, end)
        case UInt8(ascii: ":"): return pinEnd(after: ":", at: label, end) ?? pinEnd(after: ": ", at: label, end)
        case UInt8(ascii: "\""):
            return
                pinEnd(after: "\":\"", at: label, end) ?? pinEnd(after: "\": \"", at: label, end)
                ?? pinEnd(after: "\" : \"", at: label, end)
        case UInt8(ascii: "\\"):
            // The byte after the `\` parts the four labels in two (the order within each is kept):
            // a JSON-escaped label tries two instead of four (`sha256\/` repeated).
            guard label + 1 < end else { return nil }
            if text.byte(label + 1) == UInt8(ascii: "\"") {
                return pinEnd(after: "\\\":\\\"", at: label, end) ?? pinEnd(after: "\\\": \\\"", at: label, end)
            }
            // `\/` or `\/\/`, each `/` after 1–15 backslashes (JSON escaped once or more, as rule 7
            // reads a `/`).
            let first = escapedSlash(label, end)
            guard first > 0 else { return nil }
            if let pin = pinBodyEnd(label + first, end) { return pin }
            guard label + first < end, text.byte(label + first) == UInt8(ascii: "\\"),
                case let second = escapedSlash(label + first, end), second > 0
            else { return nil }
            return pinBodyEnd(label + first + second, end)
        case UInt8(ascii: "'"): return pinEnd(after: "':'", at: label, end) ?? pinEnd(after: "': '", at: label, end)
        default: return nil
        }
    }

    /// "sha256" in any ASCII case at `index` (six bytes known to be in the text), compared as one
    /// word: `| 0x20` lowers only the three letters' bytes, whose only other preimage is their upper case.
    @inline(__always) func isSHA256(at index: Int) -> Bool {
        text.counter.tick(6)
        let base = UnsafeRawPointer(text.input.baseAddress! + index)
        let letters = base.loadUnaligned(as: UInt32.self).littleEndian | 0x0020_2020
        let digits = base.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian
        // "sha2" and "56", little-endian.
        return letters == 0x3261_6873 && digits == 0x3635
    }

    /// The end of a pin right after `label` at `index`, or nil. A label written as a literal is
    /// built into its word where the call is (a constant), and the test is inlined there, so each
    /// label's test is a branch of its own (one shared test alternated between the two labels
    /// tried after `sha256\/` and was mispredicted half the time); the body's check is out of line.
    @inline(__always) func pinEnd(after label: PinLabel, at index: Int, _ end: Int) -> Int? {
        labelMatches(label, at: index, end) ? pinBodyEnd(index + label.length, end) : nil
    }

    /// ``pinEnd(_:_:)`` out of line, for the labels' call sites.
    @inline(never) func pinBodyEnd(_ value: Int, _ end: Int) -> Int? { pinEnd(value, end) }

    /// Whether `label` is at `index`, ending by `end`: one compare of eight bytes read as a word,
    /// masked to the label's length (a byte loop stopped at a different byte for each label tried,
    /// and its exit was mispredicted: `sha256\/` repeated tries `\/` and `\/\/` at every label),
    /// or a byte at a time within eight bytes of the input's end.
    @inline(__always) func labelMatches(_ label: PinLabel, at index: Int, _ end: Int) -> Bool {
        guard index + label.length <= end, let base = text.input.baseAddress else { return false }
        text.counter.tick(label.length)
        guard index + 8 <= text.count else { return labelMatchesByBytes(label, at: index) }
        let read = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian
        return read & label.mask == label.word
    }

    /// ``labelMatches(_:at:_:)`` within eight bytes of the input's end, out of line (it is inlined
    /// where each label is tried).
    @inline(never) func labelMatchesByBytes(_ label: PinLabel, at index: Int) -> Bool {
        for offset in 0..<label.length
        where text.input[index + offset] != UInt8(truncatingIfNeeded: label.word &>> (8 * offset)) {
            return false
        }
        return true
    }

    /// The end of a pin at `value`, or nil: 43 standard base64 characters, where each `/` may be
    /// written `\/` (as JSON escapes it), and "=", not followed by another base64 character (nor
    /// by `\/`).
    @inline(__always) func pinEnd(_ value: Int, _ end: Int) -> Int? {
        guard value + 44 <= end, let base = text.input.baseAddress else { return nil }
        // The 43 characters `[A-Za-z0-9+/]` as three blocks of 16 (the last two overlap): a byte
        // at a time, the test's outcome changed from byte to byte and was mispredicted.
        text.counter.tick(43)
        let first = ByteBlock.load(base, value)
        let second = ByteBlock.load(base, value + 16)
        let third = ByteBlock.load(base, value + 27)
        if text.byte(value + 43) == UInt8(ascii: "="), Self.pinCharacters(first), Self.pinCharacters(second),
            Self.pinCharacters(third)
        {
            return pinEnds(at: value + 44, end) ? value + 44 : nil
        }
        // Without a `\` among them, the escaped form reads the same 43 characters: no pin either
        // (curl's `sha256//…` read after the label `/` comes here).
        let backslash = ByteBlock.Bytes(repeating: UInt8(ascii: "\\"))
        guard ByteBlock.any((first .== backslash) .| (second .== backslash) .| (third .== backslash)) else {
            return nil
        }
        return escapedPinEnd(value, end)
    }

    /// A pin's body with `\/` for some of its `/` (87 bytes at most with its `=`): its end, or nil.
    /// Six blocks of sixteen give three masks (pin characters, `\`, `/`): the body runs to the first
    /// byte that is neither a pin character nor a `\`, which must be the `=`; every `\` before it
    /// must have a `/` after it, and the bytes before it less those backslashes must be 43
    /// characters. (A byte at a time, `sha256\/` repeated cost 150 instructions a byte.) Out of
    /// line: a JSON-escaped pin is rare, and most calls fail at the first mask.
    @inline(never) func escapedPinEnd(_ value: Int, _ end: Int) -> Int? {
        guard value + 97 <= text.count, let base = text.input.baseAddress else {
            return escapedPinEndByBytes(value, end)
        }
        typealias V = ByteBlock.Bytes
        // A `/` escaped more than once (`\\\/`, JSON in a JSON string) puts two backslashes side
        // by side, within the first 96 bytes if the body has one at all (a body whose `/`s are
        // escaped once spans 87 bytes at most): a byte at a time then.
        text.counter.tick(96)
        var doubled = false
        for block in 0..<6 {
            let bytes = ByteBlock.load(base, value + 16 * block)
            let next = ByteBlock.load(base, value + 16 * block + 1)
            let pairs = (bytes .== V(repeating: 0x5C)) .& (next .== V(repeating: 0x5C))
            doubled = doubled || ByteBlock.any(pairs)
        }
        if doubled { return escapedPinEndByBytes(value, end) }
        // The `=` lies 43 to 86 bytes after the start: none there (three blocks), no pin.
        text.counter.tick(44)
        let equals = V(repeating: 0x3D)
        guard
            ByteBlock.any(
                (ByteBlock.load(base, value + 43) .== equals) .| (ByteBlock.load(base, value + 59) .== equals)
                    .| (ByteBlock.load(base, value + 71) .== equals))
        else { return nil }
        // The first 43 bytes are pin characters and backslashes (three blocks, the last two overlap).
        @inline(__always) func body(_ bytes: V) -> ByteBlock.Lanes {
            ByteBlock.letters(bytes) .| ByteBlock.digits(bytes) .| (bytes .== V(repeating: 0x2F))
                .| (bytes .== V(repeating: 0x2B)) .| (bytes .== V(repeating: 0x5C))
        }
        guard
            ByteBlock.all(
                body(ByteBlock.load(base, value)) .& body(ByteBlock.load(base, value + 16))
                    .& body(ByteBlock.load(base, value + 27)))
        else { return nil }
        text.counter.tick(96)
        var pins: (UInt64, UInt64) = (0, 0)
        var backslashes: (UInt64, UInt64) = (0, 0)
        var slashes: (UInt64, UInt64) = (0, 0)
        for block in 0..<6 {
            let bytes = ByteBlock.load(base, value + 16 * block)
            let slash = bytes .== V(repeating: 0x2F)
            let pin = ByteBlock.bits(
                ByteBlock.letters(bytes) .| ByteBlock.digits(bytes) .| slash .| (bytes .== V(repeating: 0x2B)))
            let backslash = ByteBlock.bits(bytes .== V(repeating: 0x5C))
            let shift = UInt64(16 * (block & 3))
            if block < 4 {
                pins.0 |= pin &<< shift
                backslashes.0 |= backslash &<< shift
                slashes.0 |= ByteBlock.bits(slash) &<< shift
            } else {
                pins.1 |= pin &<< shift
                backslashes.1 |= backslash &<< shift
                slashes.1 |= ByteBlock.bits(slash) &<< shift
            }
        }
        // Past the region's end nothing belongs to the body.
        let limit = end - value
        let past: (UInt64, UInt64) =
            limit >= 96 ? (0, 0) : limit >= 64 ? (0, ~0 &<< UInt64(limit - 64)) : (~0 &<< UInt64(limit), ~0)
        let other = (~(pins.0 | backslashes.0) | past.0, ~(pins.1 | backslashes.1) | past.1 | ~0xFFFF_FFFF)
        let x = other.0 != 0 ? other.0.trailingZeroBitCount : 64 + other.1.trailingZeroBitCount
        guard x >= 43, x <= 86, x < limit, text.byte(value + x) == UInt8(ascii: "=") else { return nil }
        // The backslashes before `x`, and the bytes right after each: all `/`.
        let below: (UInt64, UInt64) = x >= 64 ? (~0, ~(~0 &<< UInt64(x - 64))) : (~(~0 &<< UInt64(x)), 0)
        let escapes = (backslashes.0 & below.0, backslashes.1 & below.1)
        let afterEscapes = (escapes.0 &<< 1, escapes.1 &<< 1 | escapes.0 &>> 63)
        guard afterEscapes.0 & ~slashes.0 == 0, afterEscapes.1 & ~slashes.1 == 0,
            x - escapes.0.nonzeroBitCount - escapes.1.nonzeroBitCount == 43
        else { return nil }
        return pinEnds(at: value + x + 1, end) ? value + x + 1 : nil
    }

    /// ``escapedPinEnd(_:_:)`` a character at a time, within 96 bytes of the input's end (where the
    /// blocks would read past it).
    func escapedPinEndByBytes(_ value: Int, _ end: Int) -> Int? {
        guard mayEndEscapedPin(value, end) else { return nil }
        var p = value
        for _ in 0..<43 {
            guard p < end else { return nil }
            text.counter.tick(1)
            let byte = text.byte(p)
            if byte == UInt8(ascii: "\\") {
                let length = escapedSlash(p, end)
                guard length > 0 else { return nil }
                p += length
            } else if byte < 0x80, text.has(p, Classes.base64), byte != UInt8(ascii: "="), byte != UInt8(ascii: "_"),
                byte != UInt8(ascii: "-")
            {
                p += 1
            } else {
                return nil
            }
        }
        guard p < end, text.byte(p) == UInt8(ascii: "=") else { return nil }
        return pinEnds(at: p + 1, end) ? p + 1 : nil
    }

    /// A test that ``escapedPinEndByBytes(_:_:)`` needs (false: no pin at `value`), sixteen bytes at
    /// a time. The body it reads is pin characters and backslashes up to the first other byte, `x`,
    /// which must be the `=`, before `end`; each of its 43 characters is one byte that is no `\`
    /// (the `/` of an escape or a pin character), so `[value, x)` holds exactly 43 of those. The
    /// blocks are read until `x` or a 44th such byte: at most 44 characters of 16 bytes, so bounded,
    /// and a text of labels escaped twice (`sha256\\\/` repeated, where the body never ends) is read
    /// about 62 bytes a label in four blocks instead of a character at a time. Within sixteen bytes
    /// of the input's end, the character loop alone.
    @inline(__always) func mayEndEscapedPin(_ value: Int, _ end: Int) -> Bool {
        guard let base = text.input.baseAddress else { return true }
        typealias V = ByteBlock.Bytes
        var q = value
        var characters = 0
        while q &+ 16 <= text.count {
            text.counter.tick(16)
            let bytes = ByteBlock.load(base, q)
            let backslash = bytes .== V(repeating: 0x5C)
            let pin =
                ByteBlock.letters(bytes) .| ByteBlock.digits(bytes) .| (bytes .== V(repeating: 0x2F))
                .| (bytes .== V(repeating: 0x2B))
            let other = ~ByteBlock.bits(pin .| backslash) & 0xFFFF
            // The bytes before the first other one (all sixteen when there is none).
            let before: UInt64 = other == 0 ? 0xFFFF : (1 &<< UInt64(other.trailingZeroBitCount)) &- 1
            characters &+= (ByteBlock.bits(pin) & before).nonzeroBitCount
            if characters > 43 { return false }
            if other != 0 {
                let x = q &+ other.trailingZeroBitCount
                return characters == 43 && x < end && text.byte(x) == UInt8(ascii: "=")
            }
            q &+= 16
        }
        return true
    }

    /// Whether a pin may end before `after`: the end, or no base64 character (nor `\/`, nor `%2F`
    /// and the other percent-encoded ones) there.
    @inline(__always) func pinEnds(at after: Int, _ end: Int) -> Bool {
        guard after < end else { return true }
        if text.has(after, Classes.base64) { return false }
        let byte = text.byte(after)
        if byte == UInt8(ascii: "\\") { return escapedSlash(after, end) == 0 }
        if byte == UInt8(ascii: "%") { return encodedBase64Length(after, end) == 0 }
        return byte < 0x80 || text.invisibleLength(at: after, end: end) == 0
    }

    // MARK: Rule 7: tokens

    /// The length of a token character (`[A-Za-z0-9_-]` or an invisible separator, also as a JSON
    /// escape `\u200b`) at `p`, or 0; with `base64`, `+`, `/` (also written `\/`, `%2F` or `%252F`)
    /// and `=` count too.
    @inline(__always) func runCharacter(_ p: Int, _ end: Int, base64: Bool) -> Int {
        let byte = text.byte(p)
        if byte < 0x80 {
            if byte == UInt8(ascii: "\\") {
                return base64 ? escapedRunCharacter(p, end) : text.escapedInvisibleLength(at: p, end: end)
            }
            if base64, byte == UInt8(ascii: "%") { return encodedBase64Length(p, end) }
            return text.has(p, base64 ? Classes.base64 : Classes.token) ? 1 : 0
        }
        return text.invisibleLength(at: p, end: end)
    }

    /// The length of the escaped `/` that starts at `p`, which holds a `\`, or 0: 1 to 15
    /// backslashes and `/` (`JSONEncoder` writes `/` as `\/`, and JSON in a JSON string as `\\\/`:
    /// escaped k times, 2^k − 1 backslashes), one base64 character of rules 3 and 7, so an escaped
    /// secret is the same run as the secret. Reads 17 bytes at most; inside a longer run of
    /// backslashes only the last 15 start one.
    @inline(__always) func escapedSlash(_ p: Int, _ end: Int) -> Int {
        var q = p &+ 1
        let limit = min(end, p &+ 16)
        while q < limit, text.byte(q) == UInt8(ascii: "\\") { q &+= 1 }
        return q < limit && text.byte(q) == UInt8(ascii: "/") ? q &+ 1 &- p : 0
    }

    /// The length of the escaped character that starts at `p`, which holds a `\`, or 0: an escaped
    /// `/` (``escapedSlash(_:_:)``) or a JSON escape of an invisible separator (`\u200b`, six bytes,
    /// one character of the run as the separator is: Python's `json.dumps` writes it so).
    @inline(__always) func escapedRunCharacter(_ p: Int, _ end: Int) -> Int {
        let slash = escapedSlash(p, end)
        return slash > 0 ? slash : text.escapedInvisibleLength(at: p, end: end)
    }

    /// After a `\` at `p` that starts no escaped character (``escapedRunCharacter(_:_:)``), the first
    /// position that may start one: the end of the run of backslashes `p` is in when no `/` follows
    /// it, else the 15th backslash before the `/`, and the run's last backslash when a `u` follows it
    /// (`\\u200b`: the second `\` starts the escape). Each `\` of the run would fail as `p` did (its
    /// 15 bytes after are backslashes, or reach the same byte that is no `/`), so the run is read
    /// once instead of 15 bytes for each of its backslashes.
    @inline(never) func escapedSlashStart(after p: Int, _ end: Int) -> Int {
        var q = p &+ 1
        while q < end, text.byte(q) == UInt8(ascii: "\\") { q &+= 1 }
        guard q < end else { return q }
        let next = text.byte(q)
        if next == UInt8(ascii: "/") { return q &- 15 }
        return next == UInt8(ascii: "u") && q &- 1 > p && text.escapedInvisibleLength(at: q &- 1, end: end) > 0
            ? q &- 1 : q
    }

    /// The length of the percent-encoded `/`, `+` or `=` that starts at `p`, which holds a `%`, or 0:
    /// `%2F`, `%2B`, `%3D`, or encoded twice `%252F`, `%252B`, `%253D`, any case (a form or a query
    /// encodes a base64 secret so). One base64 character of rules 3 and 7, which counts as that
    /// character, not as a digit or a letter: `docs%2Fguide` holds no digit. A match never starts
    /// inside one (it starts at the `%`), so a run measured from a position inside a run is never
    /// longer than from its start. Reads 5 bytes at most.
    @inline(__always) func encodedBase64(_ p: Int, _ end: Int) -> Int {
        var q = p &+ 1
        if q &+ 3 < end, text.byte(q) == UInt8(ascii: "2"), text.byte(q &+ 1) == UInt8(ascii: "5") { q &+= 2 }
        guard q &+ 1 < end else { return 0 }
        let first = text.byte(q)
        let second = text.byte(q &+ 1) | 0x20
        if (first == UInt8(ascii: "2") && (second == UInt8(ascii: "f") || second == UInt8(ascii: "b")))
            || (first == UInt8(ascii: "3") && second == UInt8(ascii: "d"))
        {
            return q &+ 2 &- p
        }
        return 0
    }

    /// ``encodedBase64(_:_:)`` out of line, for the hot loops (a `%` in a run is rare, and the
    /// loops stay small enough to be inlined where they are used).
    @inline(never) func encodedBase64Length(_ p: Int, _ end: Int) -> Int { encodedBase64(p, end) }

    /// One scan of the base64 run that starts at a position (for the JWT and base64 alternatives).
    struct Runs {
        var end = 0
        var count = 0
        var seen: UInt32 = 0
        /// Where the run's last `[A-Za-z0-9_-]` stretch starts (after its last `+ / =`).
        var lastStretch = 0
    }

    /// Measures the base64 run from `p`. `measured` and `seen`: the ASCII token characters
    /// `[p, measured)` are already known, with their classes in `seen`.
    @inline(__always) func runs(from p: Int, _ end: Int, measured: Int, seen: UInt32) -> Runs {
        var runs = Runs()
        runs.lastStretch = p
        runs.seen = seen
        var q = measured
        // Bytes of invisible separators beyond their first, and the `\` of each `\/`: the count is
        // characters, not bytes.
        var extra = 0
        let table = text.table
        while q < end {
            let flags = table[Int(text.byte(q))]
            if flags & Classes.token != 0 {
                runs.seen |= flags
                q &+= 1
            } else if flags & Classes.base64 != 0 {
                // "+", "/" or "=": a JWT's first segment starts after it.
                q &+= 1
                runs.lastStretch = q
            } else if flags & Classes.backslash != 0 {
                // An escaped `/`: one character of several bytes.
                let length = escapedSlash(q, end)
                if length > 0 {
                    q &+= length
                    extra &+= length &- 1
                    runs.lastStretch = q
                    continue
                }
                // A JSON escape of an invisible separator: one character of the stretch, as the
                // separator is.
                let escaped = text.escapedInvisibleLength(at: q, end: end)
                guard escaped > 0 else { break }
                q &+= escaped
                extra &+= escaped &- 1
            } else if flags & Classes.percentFirst != 0 {
                // A percent-encoded `/ + =`: one character of several bytes.
                let length = encodedBase64Length(q, end)
                guard length > 0 else { break }
                q &+= length
                extra &+= length &- 1
                runs.lastStretch = q
            } else if flags & Classes.high != 0 {
                let length = text.invisibleLength(at: q, end: end)
                guard length > 0 else { break }
                q &+= length
                extra &+= length - 1
            } else {
                break
            }
        }
        runs.end = q
        runs.count = q - p - extra
        return runs
    }

    /// Whether the run's last stretch `[start, runEnd)` holds `eyJ` with a character after it
    /// (a JWT's first segment). Asked only when a `.` follows the run, so most runs skip it.
    @inline(__always) func jwtStart(_ start: Int, _ runEnd: Int) -> Int? {
        var q = start
        while q + 3 < runEnd {
            if text.byte(q) == UInt8(ascii: "e"), text.byte(q + 1) == UInt8(ascii: "y"),
                text.byte(q + 2) == UInt8(ascii: "J")
            {
                return q
            }
            q += 1
        }
        return nil
    }

    /// The number of characters (an invisible separator is one) of the token run `[start, runEnd)`.
    func characterCount(_ start: Int, _ runEnd: Int) -> Int {
        var q = start
        var count = 0
        while q < runEnd, case let step = runCharacter(q, runEnd, base64: false), step > 0 {
            q += step
            count += 1
        }
        return count
    }

    /// Marks the finders whose trigger occurs nowhere in `[start, count)` as searched to the end,
    /// so each answers "none" at once instead of scanning the rest of the line. The triggers of
    /// all seven (`be`, `ba` or `au` in any case, `@`, `4` before `0`, `-`, `2` before `5`, `x`
    /// before `p`, `J` after `y`, each at least what its finder stops at) are tested in one pass of sixteen
    /// positions a step: the blocks at `i - 1`, `i` and `i + 1`, compared with every trigger's
    /// bytes, the lanes gathered over the whole pass. Blocks cover positions 1 to `count - 2`
    /// (the last may overlap the one before; a position tested twice changes nothing); the first
    /// and last bytes are tested one by one. The current engine only, once, on fresh finders, at
    /// the first region the word rules see: regions come left to right, so no search starts
    /// before `start`.
    func markAbsentTriggers(from start: Int, _ state: inout State) {
        state.triggersChecked = true
        let count = text.count
        guard count >= 18, start < count, let base = text.input.baseAddress else { return }
        typealias V = ByteBlock.Bytes
        let fold = V(repeating: 0x20)
        var be = ByteBlock.lanes(from: 0, to: 0)
        var at = be
        var percent = be
        var dash = be
        var two = be
        var x = be
        var jay = be
        @inline(__always) func test(_ block: Int) {
            text.counter.tick(16)
            let before = ByteBlock.load(base, block &- 1)
            let bytes = ByteBlock.load(base, block)
            let after = ByteBlock.load(base, block &+ 1)
            // `be` or `ba` in any case: `| 0x24` maps exactly `a A e E` to `e`; and `au` (`AUTH PLAIN`;
            // `| 0x24` maps `u U q Q` to `u`, as the finder's test does).
            let lowered = bytes | fold
            let next = after | V(repeating: 0x24)
            // `pa` and `id` too (`PASSWORD 'x'`, `IDENTIFIED BY x`), as the finder stops at them.
            be
                .|= (((lowered .== V(repeating: 0x62)) .| (lowered .== V(repeating: 0x70)))
                    .& (next .== V(repeating: 0x65)))
                .| ((lowered .== V(repeating: 0x61)) .& (next .== V(repeating: 0x75)))
                .| ((lowered .== V(repeating: 0x69)) .& (next .== V(repeating: 0x64)))
            at .|= bytes .== V(repeating: 0x40)
            // The `40` of `%40` or `%2540`, the `25` of `a25` and the `xp` of `exp`: the pair only,
            // without the byte before it (more than the finders need, which costs a search on a
            // line with `40` in a number, and saves three operations a block on every line).
            percent .|= (bytes .== V(repeating: 0x34)) .& (after .== V(repeating: 0x30))
            dash .|= bytes .== V(repeating: 0x2D)
            two .|= (bytes .== V(repeating: 0x32)) .& (after .== V(repeating: 0x35))
            x .|= (bytes .== V(repeating: 0x78)) .& (after .== V(repeating: 0x70))
            jay .|= (bytes .== V(repeating: 0x4A)) .& (before .== V(repeating: 0x79))
        }
        // The last block ends one byte before the end (its bytes after reach the last byte).
        let last = count &- 17
        var index = max(start, 1)
        while index < last {
            test(index)
            index &+= 16
        }
        test(last)
        // The first byte (a finder takes a `2`, `x` or `J` there without the letter before it) and
        // the last (where only `@`, `-` and `J` can be).
        text.counter.tick(3)
        let first = start == 0 ? base[0] : 0
        let second = base[1]
        let final = base[count &- 1]
        // Each finder fresh, so its answer is either untouched or "nothing from `start` on";
        // chosen without a branch (whether a trigger is in a line changes from line to line).
        @inline(__always) func mark(_ present: Bool) -> Int { present ? Int.max : start }
        let bearerAtFirst = BearerStartFinder.isPair(first, second)
        state.bearerStart.exhaustedFrom = mark(ByteBlock.any(be) || bearerAtFirst)
        state.at.exhaustedFrom = mark(ByteBlock.any(at) || first == 0x40 || final == 0x40)
        // The `4` of a `%40` or `%2540` is at neither end.
        state.percent.exhaustedFrom = mark(ByteBlock.any(percent))
        state.dash.exhaustedFrom = mark(ByteBlock.any(dash) || first == 0x2D || final == 0x2D)
        state.two.exhaustedFrom = mark(ByteBlock.any(two) || first == 0x32)
        state.x.exhaustedFrom = mark(ByteBlock.any(x) || first == 0x78)
        state.jay.exhaustedFrom = mark(ByteBlock.any(jay) || first == 0x4A || final == 0x4A)
    }

    /// The first position at or after `p` where a token match can start, or `end`. Every match
    /// starts a run of at least 32 bytes (32 characters for the base64 and token alternatives) or
    /// a run holding `eyJ` (a JWT's first segment), where a run is made of "run bytes": base64
    /// characters, `\` (of `\/`), `%` (of `%2F`) and the bytes of invisible separators wherever they start (more
    /// than any alternative accepts from a given position), so a stretch passed over here holds no
    /// match.
    ///
    /// Long runs are found by looking at the 32nd byte first: when it is not a run byte, no run of
    /// 32 starts at any of the 32 positions, which go at one look. When it is, the bytes before it
    /// are read backwards down to the first that is not a run byte (the next start to try is after
    /// it) or down to the bytes already known to be run bytes (then 32 in a row start here). Each
    /// byte is read at most twice, and ordinary text (words shorter than 32 bytes) is mostly read
    /// one byte in every few. The next `eyJ` comes from a finder (a `J` after a `y`): the run it
    /// sits in is a candidate too, whichever comes first.
    func tokenCandidate(_ p: Int, _ end: Int, _ state: inout State) -> Int {
        // The `e` of the first `eyJ` at or after p.
        var jwt = end
        var search = p &+ 2
        while search < end, let j = state.jay.next(.jwtJay, from: search, to: state.searchEnd, in: text), j < end {
            if text.byte(j &- 2) == UInt8(ascii: "e") {
                jwt = j &- 2
                break
            }
            search = j &+ 1
        }
        var start = p
        // [start, known) are run bytes: none yet, or what the previous call found (a candidate
        // that failed goes on one position at a time, as in a run of multi-byte characters that
        // are not invisible separators, and must not read its 32 bytes again each time).
        var known = p
        if p >= state.runBytesFrom, p < state.runBytesTo { known = state.runBytesTo }
        while start &+ 32 <= end, start <= jwt {
            let probe = start &+ 31
            if probe >= known {
                // Where the backward read below starts: the byte before the probe, or before the
                // block that ends at it when the block test already knows those bytes.
                var back = probe &- 1
                // The sixteen bytes that end at the probe, at once: after the last of them that is
                // surely no run byte, no earlier start can reach the probe.
                if probe &- 15 >= known, let base = text.input.baseAddress {
                    text.counter.tick(16)
                    let block = ByteBlock.load(base, probe &- 15)
                    if let lane = Self.lastNonRunLane(block) {
                        start = probe &- 15 &+ lane &+ 1
                        known = start
                        continue
                    }
                    // Without a `%` or a byte of a multi-byte character (which the block test takes
                    // as run bytes whatever follows), all sixteen are run bytes as `isRunByte` reads
                    // them: the read goes on before them, and each byte is read once.
                    if Self.plainRunBlock(block) { back = probe &- 16 }
                }
                if back == probe &- 1, !isRunByte(probe) {
                    start = probe &+ 1
                    known = start
                    continue
                }
                while back >= known, isRunByte(back) { back &-= 1 }
                if back >= known {
                    start = back &+ 1
                    known = probe &+ 1
                    continue
                }
                known = probe &+ 1
            }
            state.runBytesFrom = start
            state.runBytesTo = known
            return start
        }
        guard jwt < end else { return end }
        // The start of the run that holds the `eyJ` (at most 31 bytes back, or a long run would
        // have been found first).
        var runStart = jwt
        while runStart > p, isRunByte(runStart &- 1) { runStart &-= 1 }
        return runStart
    }

    /// The last lane of a block that holds no run byte for sure (not `[A-Za-z0-9+/=_-]`, not a `\`
    /// before a `\` or `/`, not `%`, not 0x80–0xFF), or nil. (A `\` before anything else is in no
    /// `\/`, so in no run: `\"` and `\x22` in a JSON or nginx line part runs, as a quote does. The
    /// last lane's `\` counts, its next byte being the next block's.)
    @inline(__always) static func lastNonRunLane(_ bytes: ByteBlock.Bytes) -> Int? {
        // Every operand a vector: with a scalar operand the compiler tests lane by lane.
        typealias V = ByteBlock.Bytes
        let letter = ByteBlock.letters(bytes)
        // `+` to `9` (0x2B–0x39) holds `+ - /` and the digits, and `,` and `.`, which are not.
        let signsAndDigits =
            ByteBlock.inRange(bytes, 0x2B, count: 15) .& (bytes .!= V(repeating: 0x2C))
            .& (bytes .!= V(repeating: 0x2E))
        let other =
            (bytes .== V(repeating: 0x3D)) .| (bytes .== V(repeating: 0x5F)) .| (bytes .== V(repeating: 0x25))
            .| (bytes .>= V(repeating: 0x80))
        let backslash = bytes .== V(repeating: 0x5C)
        let escapes = ByteBlock.bits(backslash)
        var run = ByteBlock.bits(letter .| signsAndDigits .| other)
        if escapes != 0 {
            // `/` is among the signs: a `\` is kept when the lane after it is a `\`, a `/` or a `u`
            // (of an escaped invisible separator, `\u200b`: no start inside one).
            let escaped = ByteBlock.bits((bytes .== V(repeating: 0x2F)) .| (bytes .== V(repeating: 0x75)))
            run |= escapes & ((escapes | escaped) &>> 1 | 0x8000)
        }
        let none = ~run & 0xFFFF
        return none != 0 ? 63 &- none.leadingZeroBitCount : nil
    }

    /// Whether a block that ``lastNonRunLane(_:)`` found all run bytes holds no `%` and no byte of
    /// a multi-byte character: then each is a run byte as ``isRunByte(_:)`` reads it too.
    @inline(__always) static func plainRunBlock(_ bytes: ByteBlock.Bytes) -> Bool {
        typealias V = ByteBlock.Bytes
        return !ByteBlock.any((bytes .== V(repeating: 0x25)) .| (bytes .>= V(repeating: 0x80)))
    }

    /// Whether every byte of a block is `[A-Za-z0-9+/]`.
    @inline(__always) static func pinCharacters(_ bytes: ByteBlock.Bytes) -> Bool {
        typealias V = ByteBlock.Bytes
        let sign = (bytes .== V(repeating: 0x2B)) .| (bytes .== V(repeating: 0x2F))
        return ByteBlock.all(ByteBlock.letters(bytes) .| ByteBlock.digits(bytes) .| sign)
    }

    /// A base64 character, a `\` (of a `\/` or not: a run byte more only makes more candidates;
    /// the block test, ``lastNonRunLane(_:)``, takes only one before a `\` or `/`, and reading the
    /// next byte here too made a run of backslashes dearer to read back), the `%` of a `%2F` (or of
    /// the others; a `%` that starts none is in no run, and text full of them is passed over as
    /// other text is), or a byte of an invisible separator (which may start before it).
    @inline(__always) func isRunByte(_ index: Int) -> Bool {
        let flags = text.table[Int(text.byte(index))]
        if flags & (Classes.base64 | Classes.backslash) != 0 { return true }
        if flags & Classes.percentFirst != 0 { return encodedBase64Length(index, text.count) > 0 }
        guard flags & Classes.high != 0 else { return false }
        return inInvisibleSeparator(index)
    }

    @inline(never) func inInvisibleSeparator(_ index: Int) -> Bool {
        let count = text.count
        return text.invisibleLength(at: index, end: count) > 0
            || (index >= 1 && text.invisibleLength(at: index &- 1, end: count) >= 2)
            || (index >= 2 && text.invisibleLength(at: index &- 2, end: count) == 3)
    }

    func nextToken(_ from: Int, _ end: Int, _ state: inout State) -> Match? {
        let table = text.table
        var p = from
        while p < end {
            if !state.regionByRegion {
                p = tokenCandidate(p, end, &state)
                guard p < end else { return nil }
            }
            // A byte that starts no run (neither base64 nor part of a multi-byte character nor a
            // `\`) goes at one look.
            var flags = table[Int(text.byte(p))]
            while flags & (Classes.base64 | Classes.high | Classes.backslash | Classes.percentFirst) == 0 {
                p &+= 1
                guard p < end else { return nil }
                flags = table[Int(text.byte(p))]
            }
            let length: Int
            if flags & (Classes.high | Classes.backslash | Classes.percentFirst) == 0 {
                length = 1
            } else if flags & Classes.backslash != 0 {
                // A run may start with an escaped `/` or an escaped invisible separator; a `\` before
                // anything else starts none, nor does any `\` of its run of backslashes but the last
                // 15 before a `/` and the last before a `u`.
                length = escapedRunCharacter(p, end)
                guard length > 0 else {
                    p = escapedSlashStart(after: p, end)
                    continue
                }
            } else if flags & Classes.percentFirst != 0 {
                // Or with a percent-encoded `/ + =`; another `%` starts none.
                length = encodedBase64Length(p, end)
                guard length > 0 else {
                    p &+= 1
                    continue
                }
            } else {
                length = text.invisibleLength(at: p, end: end)
                guard length > 0 else {
                    p &+= 1
                    continue
                }
            }
            // A JWT or base64 run that fails from p fails from every later position inside the
            // same run (the run only shrinks): each run is measured once.
            if p >= state.runFailedBefore {
                var measured = p
                var seen: UInt32 = 0
                // Most runs are ASCII token characters ended by a byte that no run continues with
                // (not base64, not a multi-byte character, not the `\` of a `\/` nor the `%` of a `%2F`) and that cannot
                // start a JWT's second segment (not `.`): then both alternatives are decided by the
                // run's length and classes. One tight loop measures it.
                if length == 1, flags & Classes.token != 0 {
                    seen = flags
                    let q = tokenRunEnd(from: p &+ 1, end, seen: &seen)
                    if q == end
                        || (table[Int(text.byte(q))]
                            & (Classes.base64 | Classes.high | Classes.backslash | Classes.percentFirst) == 0
                            && text.byte(q) != UInt8(ascii: "."))
                    {
                        if q - p >= 32, isToken(seen, p, q) { return Match(start: p, end: q, placeholder: .token) }
                        state.runFailedBefore = q
                        p = q
                        continue
                    }
                    // The run goes on (or a `.` follows): measure the rest from where this loop stopped.
                    measured = q
                }
                let runs = self.runs(from: p, end, measured: measured, seen: seen)
                if let tokenEnd = tokenEnd(runs, from: p, end) {
                    return Match(start: p, end: tokenEnd, placeholder: .token)
                }
                state.runFailedBefore = runs.end
            }
            // Every position before the failure mark is known to fail: skip to the first that is not.
            p = max(p &+ length, state.runFailedBefore)
        }
        return nil
    }

    /// The end of the run of ASCII token characters (`[A-Za-z0-9_-]`) from `start` (`end` at most),
    /// the classes of its bytes that rule 7 reads (``Classes/digit``, ``Classes/upper``,
    /// ``Classes/lower``) added to `seen`. Sixteen bytes a step while a block fits in the input
    /// (its lanes from the first that is no token character, or from `end`, count for nothing),
    /// the last bytes of the input one at a time: each byte is examined once.
    @inline(__always) func tokenRunEnd(from start: Int, _ end: Int, seen: inout UInt32) -> Int {
        var q = start
        if let base = text.input.baseAddress {
            typealias V = ByteBlock.Bytes
            var digits = ByteBlock.lanes(from: 0, to: 0)
            var upper = digits
            var lower = digits
            var stopped = false
            while q < end, q &+ 16 <= text.count {
                text.counter.tick(16)
                let bytes = ByteBlock.load(base, q)
                let digit = ByteBlock.digits(bytes)
                let up = ByteBlock.inRange(bytes, 0x41, count: 26)
                let low = ByteBlock.inRange(bytes, 0x61, count: 26)
                let token = digit .| up .| low .| (bytes .== V(repeating: 0x5F)) .| (bytes .== V(repeating: 0x2D))
                let others = ~ByteBlock.bits(token) & 0xFFFF
                let lanes = min(others == 0 ? 16 : others.trailingZeroBitCount, end &- q)
                let kept = ByteBlock.lanes(from: 0, to: lanes)
                digits .|= digit .& kept
                upper .|= up .& kept
                lower .|= low .& kept
                q &+= lanes
                if lanes < 16 {
                    stopped = true
                    break
                }
            }
            if ByteBlock.any(digits) { seen |= Classes.digit }
            if ByteBlock.any(upper) { seen |= Classes.upper }
            if ByteBlock.any(lower) { seen |= Classes.lower }
            if stopped { return q }
        }
        let table = text.table
        while q < end {
            let next = table[Int(text.byte(q))]
            guard next & Classes.token != 0 else { break }
            seen |= next
            q &+= 1
        }
        return q
    }

    /// The end of rule 7's match at the start of `runs` (measured from `start`), or nil.
    @inline(__always) func tokenEnd(_ runs: Runs, from start: Int, _ end: Int) -> Int? {
        // 1. A JWT, with whatever base64 characters are glued before it in the same run.
        if runs.end < end, text.byte(runs.end) == UInt8(ascii: "."), let first = jwtStart(runs.lastStretch, runs.end),
            let jwtEnd = jwtTail(first, runs.end, end)
        {
            return jwtEnd
        }
        // 2. 32 or more base64 characters with a digit or both letter cases.
        return runs.count >= 32 && isToken(runs.seen, start, runs.end) ? runs.end : nil
    }

    /// The end of rule 7's match at `p` (not inside a `\/` or `%2F`), or nil.
    @inline(never) func tokenEnd(at p: Int, _ end: Int) -> Int? {
        tokenEnd(runs(from: p, end, measured: p, seen: 0), from: p, end)
    }

    /// Whether the run `[start, runEnd)`, of 32 characters or more with the classes `seen`, is a
    /// token: it holds a digit, or both letter cases and is no name (``isName(_:_:)``). A long run
    /// of one case and no digit is a name too: an event, an error code, a constant.
    @inline(__always) func isToken(_ seen: UInt32, _ start: Int, _ runEnd: Int) -> Bool {
        if seen & Classes.digit != 0 { return true }
        return seen & Classes.upper != 0 && seen & Classes.lower != 0 && !isName(start, runEnd)
    }

    /// Whether the run `[start, runEnd)`, with both letter cases and no digit, reads as words: only
    /// ASCII letters, `_`, `-` and `=`, and every stretch of lower-case letters two or more long,
    /// except one the run starts with (`NSURLErrorServerCertificateUntrusted`,
    /// `HttpRequestMethodNotSupportedException`, logfmt's `code=CURLE_SSL_PINNEDPUBKEYNOTMATCH`).
    /// Every later start inside a name is a name or of one case, so a run that fails here fails
    /// from every later position too. Out of line: rare (a run of both cases and no digit), and
    /// read once more only then.
    @inline(never) func isName(_ start: Int, _ runEnd: Int) -> Bool {
        let table = text.table
        var q = start
        while q < runEnd, table[Int(text.byte(q))] & Classes.lower != 0 { q &+= 1 }
        // The stretch the run starts with may be of any length.
        var stretch = 2
        while q < runEnd {
            let byte = text.byte(q)
            if table[Int(byte)] & Classes.lower != 0 {
                stretch &+= 1
            } else {
                guard stretch != 1,
                    table[Int(byte)] & Classes.upper != 0 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                        || byte == UInt8(ascii: "=")
                else { return false }
                stretch = 0
            }
            q &+= 1
        }
        return stretch != 1
    }

    /// Where the run of ``runCharacter(_:_:base64:)`` characters from `p` ends (`end` at most): ASCII
    /// run characters at one table test each, the others (`\/`, `%2F`, invisible separators) by
    /// `runCharacter` (a JWT's segments are long, and a call a byte cost a corpus byte 0.9
    /// instructions).
    @inline(__always) func segmentEnd(from p: Int, _ end: Int, base64: Bool) -> Int {
        let table = text.table
        let flag = base64 ? Classes.base64 : Classes.token
        var q = p
        while q < end {
            if table[Int(text.byte(q))] & flag != 0 {
                q &+= 1
                continue
            }
            let step = runCharacter(q, end, base64: base64)
            guard step > 0 else { break }
            q &+= step
        }
        return q
    }

    /// After a JWT's first segment (its `eyJ` at `first`, ending at `runEnd`), `.segment.segment?`,
    /// or a long `.segment` after a long first one: the JWT's end, or nil.
    func jwtTail(_ first: Int, _ runEnd: Int, _ end: Int) -> Int? {
        guard runEnd < end, text.byte(runEnd) == UInt8(ascii: ".") else { return nil }
        let secondStart = runEnd + 1
        let second = segmentEnd(from: secondStart, end, base64: false)
        if second > secondStart, second < end, text.byte(second) == UInt8(ascii: ".") {
            // Three segments; the last may hold `+ / =` (a standard-base64 signature).
            return segmentEnd(from: second + 1, end, base64: true)
        }
        // Two segments (a Mapbox-style `sk.eyJ….sig`) only when both are long, so that a name with
        // `eyJ` inside and a dot after (`surveyJob.completed`) stays: 16 characters from `eyJ`, and
        // 16 base64 characters after the dot.
        guard characterCount(first, runEnd) >= 16 else { return nil }
        var tail = secondStart
        var count = 0
        while tail < end, case let step = runCharacter(tail, end, base64: true), step > 0 {
            tail += step
            count += 1
        }
        return count >= 16 ? tail : nil
    }
}

/// A labelled pin's label (rule 6: at most eight bytes) as one little-endian word, so trying a
/// label is one compare (``WordRules/labelMatches(_:at:_:)``). A literal builds it where it is
/// written, where it is a constant and the loop below folds away (inside a search that is not
/// inlined it ran for every label tried).
struct PinLabel: ExpressibleByStringLiteral {
    let word: UInt64
    let length: Int

    @inline(__always) init(stringLiteral label: StaticString) {
        assert(label.utf8CodeUnitCount <= 8, "a pin label is compared as one 8-byte word")
        var word: UInt64 = 0
        for offset in 0..<label.utf8CodeUnitCount {
            word |= UInt64(label.utf8Start[offset]) &<< UInt64(8 * offset)
        }
        self.word = word
        length = label.utf8CodeUnitCount
    }

    /// The label's bytes in a word read from the text.
    var mask: UInt64 { length >= 8 ? UInt64.max : (1 &<< UInt64(8 * length)) &- 1 }
}
