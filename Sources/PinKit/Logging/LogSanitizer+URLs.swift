extension LogSanitizer {
    /// A replaced span of the input: `[start, keepEnd)` and `host` go out as they are, then the
    /// placeholder (if any). Plain integers: the driver copies one per URL or credential.
    struct Span {
        var start: Int
        var end: Int
        var keepEnd: Int
        var hostStart = 0
        var hostEnd = 0
        var placeholder: SpanPlaceholder
    }

    enum SpanPlaceholder: UInt8 {
        case none
        case url
        case secret
    }
}

/// The URL rule's search state when it looks ahead for the next URL (a credential's value stops
/// at that URL's start): where its separators' first bytes are.
struct URLSearch {
    var separators = WindowFinder<URLSeparatorTriggers>()
}

/// Rule 1: URLs of any scheme (`scheme://`, JSON-escaped `scheme:\/\/`, percent-encoded
/// `scheme%3A%2F%2F`) keep the scheme, the separator and the host.
struct URLRule<Counter: LogSanitizerCounting> {
    let text: SanitizerInput<Counter>
    typealias Classes = LogSanitizer.Classes

    /// The first URL whose separator lies at or after `lowerBound` (its scheme does not reach
    /// below it), and that separator, or nil. Calls come with increasing bounds.
    func next(from lowerBound: Int, search: inout URLSearch) -> (span: LogSanitizer.Span, separator: Int)? {
        let end = text.count
        var from = lowerBound
        while from < end {
            guard let candidate = search.separators.next(from: from, to: end, in: text), candidate + 2 < end else {
                return nil
            }
            from = candidate + 1
            let length = separatorLength(at: candidate, colon: text.byte(candidate) == UInt8(ascii: ":"), end: end)
            if length > 0 {
                return (url(separator: candidate, length: length, lowerBound: lowerBound, end: end), candidate)
            }
        }
        return nil
    }

    /// The length of the URL separator at `candidate` (a `:` when `colon`, else a `%`; at least two
    /// bytes before `end`), or 0: `://`, `:\/\/`, `%3A%2F%2F` or `%253A%252F%252F` (a URL encoded
    /// twice; letters in any case). A `:` is decided by the byte after it, mostly. A `%` is decided
    /// by eight bytes read as one word (little-endian: the first byte lowest), with the letters'
    /// case bit set by a mask (a byte ORed with 0x20 is `a` or `f` only when it is that letter in
    /// either case): a `%22` or `%3A%22` costs one or two compares and no loop over the pattern
    /// (issue 15 §2: `%22token%22%3A%22` repeated).
    @inline(__always)
    func separatorLength(at candidate: Int, colon: Bool, end: Int) -> Int {
        if colon {
            let next = text.byte(candidate + 1)
            if next == UInt8(ascii: "/") { return text.byte(candidate + 2) == UInt8(ascii: "/") ? 3 : 0 }
            guard next == UInt8(ascii: "\\"), candidate + 4 < end, text.byte(candidate + 2) == UInt8(ascii: "/"),
                text.byte(candidate + 3) == UInt8(ascii: "\\"), text.byte(candidate + 4) == UInt8(ascii: "/")
            else { return 0 }
            return 5
        }
        guard candidate &+ 9 <= end, let base = text.input.baseAddress else { return 0 }
        text.counter.tick(8)
        let word = URLRule.word(base, candidate)
        if word | URLRule.encodedMask == URLRule.encodedStart {
            text.counter.tick(1)
            return base[candidate &+ 8] | 0x20 == UInt8(ascii: "f") ? 9 : 0
        }
        guard word | URLRule.twiceEncodedMask == URLRule.twiceEncodedStart, candidate &+ 15 <= end else { return 0 }
        text.counter.tick(8)
        return URLRule.word(base, candidate &+ 7) | URLRule.twiceEncodedTailMask == URLRule.twiceEncodedTail ? 15 : 0
    }

    /// Eight bytes from `index` as one word, the first byte lowest.
    @inline(__always) static func word(_ base: UnsafePointer<UInt8>, _ index: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
    }

    // The patterns as words (the first byte lowest) and the masks that set their letters' case bit.
    /// `%3a%2f%2`, letters at bytes 2 and 5.
    @inline(__always) static var encodedStart: UInt64 { 0x3225_6632_2561_3325 }
    @inline(__always) static var encodedMask: UInt64 { 0x2000_0020_0000 }
    /// `%253a%25`, a letter at byte 4.
    @inline(__always) static var twiceEncodedStart: UInt64 { 0x3532_2561_3335_3225 }
    @inline(__always) static var twiceEncodedMask: UInt64 { 0x20_0000_0000 }
    /// `52f%252f`, the last eight of `%253a%252f%252f`'s fifteen bytes; letters at bytes 2 and 7.
    @inline(__always) static var twiceEncodedTail: UInt64 { 0x6632_3532_2566_3235 }
    @inline(__always) static var twiceEncodedTailMask: UInt64 { 0x2000_0000_0020_0000 }

    /// Where a URL's body ends, and its authority: the host follows `hostStart`, and the
    /// authority ends at `authorityEnd` (`Int.max`: not before the body's end).
    struct Body {
        var end: Int
        var hostStart: Int
        var authorityEnd = Int.max
    }

    @inline(__always)
    func url(separator: Int, length: Int, lowerBound: Int, end: Int) -> LogSanitizer.Span {
        // The scheme: the run of scheme characters before the separator, kept when it is 1–32
        // characters and starts with a letter; otherwise the URL starts at the separator.
        // (33 bytes at most: one more than a scheme tells a long run from a scheme.)
        let limit = max(lowerBound, separator - 33)
        var runStart = separator
        while runStart > limit, text.has(runStart - 1, Classes.scheme) { runStart -= 1 }
        let schemeLength = separator - runStart
        var start = separator
        if schemeLength >= 1, schemeLength <= 32, text.has(runStart, Classes.letter) { start = runStart }
        let percentForm = length >= 9
        let bodyStart = separator + length
        var body: Body
        // The context: what is right before the URL decides where it ends.
        let previous = start > 0 ? text.byte(start - 1) : 0
        if previous == UInt8(ascii: "\"") || previous == UInt8(ascii: "'") || previous == UInt8(ascii: "`") {
            // After `\"`, the URL ends at the next `\"`; after a quote, at the same quote.
            let escaped = previous == UInt8(ascii: "\"") && start >= 2 && text.byte(start - 2) == UInt8(ascii: "\\")
            body = quotedBody(from: bodyStart, end: end, quote: previous, escaped: escaped)
        } else {
            body = runningBody(from: bodyStart, end: end)
            while body.end > bodyStart, text.has(body.end - 1, Classes.trailingPunctuation) { body.end -= 1 }
        }
        let host = self.host(from: body.hostStart, to: min(body.authorityEnd, body.end), percentForm: percentForm)
        // No host: the scheme and separator stay and the placeholder takes the host's place, so a
        // second pass finds a URL starting where this one does (with `[redacted-url]` as its
        // bracketed host), and every decision a URL's start makes (a quote before it closes, a
        // value stops) comes out the same.
        if host.isEmpty { return LogSanitizer.Span(start: start, end: body.end, keepEnd: bodyStart, placeholder: .url) }
        return LogSanitizer.Span(
            start: start, end: body.end, keepEnd: bodyStart, hostStart: host.lowerBound, hostEnd: host.upperBound,
            placeholder: .none)
    }

    /// A URL body in a string opened by `quote` (or by `\"` when `escaped`): it ends at the string's
    /// closing quote (for `"` and `'`, before the even run of backslashes that may precede it: an
    /// odd run escapes the quote) or at `\"`, or at a line break. The same scan finds the
    /// authority and its last `@` (or `%40`): none of the bytes that end the body is in `%2F`,
    /// `%3F`, `%23` or `%40`, so each of those lies whole inside the body or not at all.
    @inline(__always)
    func quotedBody(from start: Int, end: Int, quote: UInt8, escaped: Bool) -> Body {
        var body = Body(end: end, hostStart: start)
        var p = start
        // The authority: each byte may also end it or move the host's start.
        while p < end, body.authorityEnd == Int.max {
            // (The bytes the `switch` below takes as plain go sixteen at a time.)
            p = quotedStopStart(from: p, end: end, quote: quote, authority: true)
            guard p < end else { break }
            let byte = text.byte(p)
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): body.authorityEnd = p
            case UInt8(ascii: "@"): body.hostStart = p + 1
            case UInt8(ascii: "%"): percentInAuthority(at: p, end: end, body: &body)
            case UInt8(ascii: "\\"):
                body.authorityEnd = p
                guard let next = quotedStep(at: p, end: end, quote: quote, escaped: escaped) else {
                    body.end = p
                    return body
                }
                p = next
                continue
            case 0x0A, 0x0D, quote:
                guard let next = quotedStep(at: p, end: end, quote: quote, escaped: escaped) else {
                    body.end = p
                    return body
                }
                p = next
                continue
            default: break
            }
            p += 1
        }
        // The rest: only a quote, a backslash or a line break decides anything (one or two
        // comparisons a byte for the others).
        while p < end {
            p = quotedStopStart(from: p, end: end, quote: quote, authority: false)
            guard p < end else { break }
            let byte = text.byte(p)
            if byte != quote, byte != UInt8(ascii: "\\"), byte > 0x0D {
                p += 1
                continue
            }
            guard let next = quotedStep(at: p, end: end, quote: quote, escaped: escaped) else { break }
            p = next
        }
        body.end = p
        return body
    }

    /// In a quoted body, the first position in `[start, end)` whose byte decides something, or
    /// `end`: `quote`, `\\` or a byte up to CR (0x0D), and in the `authority` also `/ ? # @ %`
    /// (those ``quotedBody(from:end:quote:escaped:)`` steps over one at a time;
    /// ``SanitizerInput/firstStop(from:limit:_:)``).
    @inline(__always) func quotedStopStart(from start: Int, end: Int, quote: UInt8, authority: Bool) -> Int {
        typealias V = ByteBlock.Bytes
        let quotes = V(repeating: quote)
        @inline(__always) func stops(_ bytes: V) -> ByteBlock.Lanes {
            var lanes =
                (bytes .== quotes) .| (bytes .== V(repeating: UInt8(ascii: "\\")))
                .| (bytes .< V(repeating: 0x0E))
            if authority {
                lanes .|= (bytes .== V(repeating: UInt8(ascii: "/"))) .| (bytes .== V(repeating: UInt8(ascii: "?")))
                    .| (bytes .== V(repeating: UInt8(ascii: "#"))) .| (bytes .== V(repeating: UInt8(ascii: "@")))
                    .| (bytes .== V(repeating: UInt8(ascii: "%")))
            }
            return lanes
        }
        return text.firstStop(from: start, limit: end, stops)
    }

    /// At a quote, backslash or line break at `p` in a quoted body: the position after it (after a
    /// run of backslashes and the byte it escapes), or nil where the body ends: a line break; `\"`
    /// when `escaped`; else the closing quote, and for `"` and `'` a run of backslashes before a line
    /// break, the end or an even one before the closing quote (so the escaped backslashes before
    /// the quote stay out of the URL: when they end a hostless URL's body, the placeholder leaves
    /// them, and a URL after them keeps its `\\"` context on a second pass).
    @inline(__always)
    func quotedStep(at p: Int, end: Int, quote: UInt8, escaped: Bool) -> Int? {
        let byte = text.byte(p)
        if byte == 0x0A || byte == 0x0D { return nil }
        if escaped {
            if byte == UInt8(ascii: "\\"), p + 1 < end, text.byte(p + 1) == UInt8(ascii: "\"") { return nil }
            return p + 1
        }
        if byte == quote { return nil }
        if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let run = SanitizerScan.backslashRun(text, from: p, limit: end)
            guard p + run < end else { return nil }
            let next = text.byte(p + run)
            if next == 0x0A || next == 0x0D || (next == quote && run & 1 == 0) { return nil }
            return p + run + 1
        }
        return p + 1
    }

    /// A `%` inside the authority: `%2F`, `%3F` or `%23` ends it, `%40` (an encoded `@`) moves the
    /// host after it; so do the same encoded twice (`%252F`, `%253F`, `%2523`; `%2540`).
    @inline(__always) func percentInAuthority(at p: Int, end: Int, body: inout Body) {
        if text.matches("%2f", at: p, end: end) || text.matches("%3f", at: p, end: end)
            || text.matches("%23", at: p, end: end)
        {
            body.authorityEnd = p
        } else if text.matches("%40", at: p, end: end) {
            body.hostStart = p + 3
        } else if text.matches("%25", at: p, end: end) {
            if text.matches("2f", at: p + 3, end: end) || text.matches("3f", at: p + 3, end: end)
                || text.matches("23", at: p + 3, end: end)
            {
                body.authorityEnd = p
            } else if text.matches("40", at: p + 3, end: end) {
                body.hostStart = p + 5
            }
        }
    }

    /// A URL body in running text: it ends at white space, a closing bracket without a partner
    /// inside the URL, or a closing quote. The same scan finds the authority (which ends at
    /// `/ ? # \` or `%2F %3F %23`) and its last `@` (or `%40`).
    @inline(__always)
    func runningBody(from start: Int, end: Int) -> Body {
        var body = Body(end: end, hostStart: start)
        var escapeRun = EscapeRun.none
        var p = start
        var parentheses = 0
        var squares = 0
        var braces = 0
        var angles = 0
        // Most of a URL is letters, digits and punctuation that decide nothing: one table look each.
        // After the authority, `/ ? # % @` decide nothing either, so a path is mostly one run.
        var plain = authorityPlain
        scan: while p < end {
            // (A loop of its own: its back edge carries `p` alone, where the scan's own carried
            // the whole state through register moves each byte.)
            while plain[Int(text.byte(p))] != 0 {
                p &+= 1  // (below `end`: no overflow)
                if p == end { break scan }
            }
            let byte = text.byte(p)
            if byte >= 0x80 {
                if text.unicodeSpaceLength(at: p, end: end) > 0 {
                    guard body.authorityEnd != Int.max, let next = bearerContinuation(start, p, end) else { break scan }
                    p = next
                    continue
                }
                p += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                // (Only in the authority: the path's table takes them as plain.)
                body.authorityEnd = p
                plain = pathPlain
            case UInt8(ascii: "%"):
                percentInAuthority(at: p, end: end, body: &body)
                if body.authorityEnd != Int.max { plain = pathPlain }
            case UInt8(ascii: "@"):
                body.hostStart = p + 1
            case UInt8(ascii: "("): parentheses += 1
            case UInt8(ascii: "["): squares += 1
            case UInt8(ascii: "{"): braces += 1
            case UInt8(ascii: "<"): angles += 1
            case UInt8(ascii: ")"):
                if parentheses == 0 { break scan }
                parentheses -= 1
            case UInt8(ascii: "]"):
                if squares == 0 { break scan }
                squares -= 1
            case UInt8(ascii: "}"):
                if braces == 0 { break scan }
                braces -= 1
            case UInt8(ascii: ">"):
                if angles == 0 { break scan }
                angles -= 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"):
                if SanitizerScan.closes(text, quoteAt: p, end: end, stop: Int.max) { break scan }
            case UInt8(ascii: "\\"):
                let inPath = body.authorityEnd != Int.max
                if !inPath {
                    body.authorityEnd = p
                    plain = pathPlain
                }
                if p + 1 < end, text.has(p + 1, Classes.quote),
                    SanitizerScan.closes(text, quoteAt: p + 1, end: end, stop: Int.max)
                {
                    break scan
                }
                // An escaped line break or tab (`\r`, `\n`, `\t`: a header dump or a tab-separated
                // record in a JSON string) ends the URL as a line break or a tab does, so the next
                // header's name and value are not its path; but not where the query goes on after it
                // (a raw Windows path: `?path=C:\temp\x&sig=…`, ``EscapeRun``). So does what rules 4
                // and 7 leave when their match starts at its letter (a second pass must end the URL
                // where the first did).
                if p + 1 < end, case let next = text.byte(p + 1),
                    next == UInt8(ascii: "r") || next == UInt8(ascii: "n")
                        || (next == UInt8(ascii: "[") && text.laterRulePlaceholder(at: p + 1, end: end))
                {
                    guard next != UInt8(ascii: "["), EscapeRun.goesOn(from: p + 2, end: end, in: text, last: &escapeRun)
                    else { break scan }
                    // (Past the escape's letter with the loop's own step: a `continue` of its own
                    // cost the plain-byte loop three register moves a byte.)
                    p += 1
                } else if p + 1 < end, text.byte(p + 1) == UInt8(ascii: "t") {
                    // An escaped tab likewise, but not right after `bearer` in the path either.
                    if inPath, let next = bearerContinuation(start, p, end) {
                        p = next
                        continue
                    }
                    guard EscapeRun.goesOn(from: p + 2, end: end, in: text, last: &escapeRun) else { break scan }
                    p += 1
                }
            case 0x20, 0x09, 0x0B, 0x0C:
                guard body.authorityEnd != Int.max, let next = bearerContinuation(start, p, end) else { break scan }
                p = next
                continue
            default:
                if text.table[Int(byte)] & Classes.control != 0 { break scan }
            }
            p += 1
        }
        body.end = p
        return body
    }

    /// 1 for the bytes that decide nothing in a URL's authority in running text (``Classes/urlPlain``)…
    var authorityPlain: UnsafePointer<UInt8> {
        UnsafeRawPointer(text.table + Classes.plainBytes).assumingMemoryBound(to: UInt8.self)
    }
    /// …and in its path, query and fragment: those and `/ ? # % @`.
    var pathPlain: UnsafePointer<UInt8> { authorityPlain + 256 }

    /// In running text, white space (escaped tabs, `\t`, too) right after `bearer` or `bearer:`
    /// (not inside a word) in a URL's path, query or fragment does not end the URL:
    /// `?auth=Bearer tok` goes with it. The position after the spaces, or nil. (A host never continues, so a second pass agrees.)
    func bearerContinuation(_ bodyStart: Int, _ space: Int, _ end: Int) -> Int? {
        var q = space
        if q > bodyStart, text.byte(q - 1) == UInt8(ascii: ":") { q -= 1 }
        guard q - 7 >= bodyStart, text.matches("bearer", at: q - 6, end: q), !text.has(q - 7, Classes.alphanumeric)
        else { return nil }
        var p = space
        while p < end {
            let byte = text.byte(p)
            if byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C {
                p += 1
            } else if byte >= 0x80, case let length = text.unicodeSpaceLength(at: p, end: end), length > 0 {
                p += length
            } else if byte == UInt8(ascii: "\\"), p + 1 < end, text.byte(p + 1) == UInt8(ascii: "t") {
                p += 2
            } else {
                break
            }
        }
        return p
    }

    /// The host in `[hostStart, authorityEnd)`: up to a port or anything a host does not hold;
    /// an IPv6 literal in brackets whole (none if its `]` is missing or another `[` comes first).
    @inline(__always)
    func host(from hostStart: Int, to authorityEnd: Int, percentForm: Bool) -> Range<Int> {
        guard hostStart < authorityEnd else { return hostStart..<hostStart }
        if text.byte(hostStart) == UInt8(ascii: "[") {
            // An IPv6 literal is kept only when closed: an unclosed "[" could take a later "]" on a
            // second pass (fuzzing found "://[/]]i"). Nor does it hold a "[": the kept host must
            // be balanced, since the URL's end in running text counts brackets, and a kept
            // "[::a[0]" is one "[" short on a second pass, which ends the URL at another bracket.
            var p = hostStart + 1
            while p < authorityEnd, text.byte(p) != UInt8(ascii: "]") {
                if text.byte(p) == UInt8(ascii: "[") { return hostStart..<hostStart }
                p += 1
            }
            return p < authorityEnd ? hostStart..<(p + 1) : hostStart..<hostStart
        }
        var p = hostStart
        // In the percent-encoded form a `%` ends the host (0xFF, never a host byte, stands for none).
        let percent: UInt8 = percentForm ? UInt8(ascii: "%") : 0xFF
        while p < authorityEnd {
            let byte = text.byte(p)
            if text.table[Int(byte)] & Classes.host != 0 {
                guard byte != percent else { break }
                p += 1
                continue
            }
            // A non-ASCII character that is not a Unicode space belongs to the host.
            guard byte >= 0x80, text.unicodeSpaceLength(at: p, end: authorityEnd) == 0 else { break }
            p += 1
        }
        // The host never ends in a dot ("a.com." → "a.com"), so the output, scanned again, trims nothing.
        while p > hostStart, text.byte(p - 1) == UInt8(ascii: ".") { p -= 1 }
        return hostStart..<p
    }
}

/// Byte tables of rule 1's look-ahead and rule 2's (``URLRule/authorityPlain`` and
/// ``URLRule/pathPlain`` live after ``LogSanitizer/Classes/table``): allocated once and never freed
/// or written after initialisation, so sharing them is safe.
enum URLPlainBytes {
    /// 1 for what may lie between an escape and the `&` that lets a URL go on after it
    /// (``EscapeRun``): ASCII letters and digits, `.`, `_`, `~`, `/`, `\` and `-`.
    nonisolated(unsafe) static let escapeRun = bytes("._~/\\-")
    /// 1 for a query parameter's name after that `&`: ASCII letters and digits, `.`, `_`, `~`, `-`.
    nonisolated(unsafe) static let parameterName = bytes("._~-")

    /// A table holding 1 for ASCII letters, digits and `extra`.
    static func bytes(_ extra: String) -> UnsafePointer<UInt8> {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        table.initialize(repeating: 0, count: 256)
        for byte in ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" + extra).utf8 {
            table[Int(byte)] = 1
        }
        return UnsafePointer(table)
    }

}

/// Rule 1's look-ahead at an escaped line break or tab (`\r`, `\n`, `\t`) in a URL in running text:
/// the URL goes on after the escape when the run of path bytes after it
/// (``URLPlainBytes/escapeRun``: no blank, quote, bracket, `:`, `=`, `%`, `;` or `@`) ends at a
/// `&`, a parameter name (``URLPlainBytes/parameterName``) and `=`: the next parameter of a query
/// that a raw Windows path split (`?path=C:\temp\x&sig=…`), `&amp;` counting as `&`. Another HTML
/// entity (`&#39;`) is no parameter. Every escape inside one run gets the run's answer, so a URL
/// reads each byte of its runs once, and the name after a run once more. Runs of different URLs do
/// not overlap: a run holds no `:` or `%`, so the next URL's separator lies at or after its end
/// (its scheme may lie in the name, read a second time). A second pass agrees: where the run or the
/// name ended at another byte, that byte is still there, or a later rule's match that started
/// inside them put a `[` (its placeholder), a `:` or a `=` (the scheme or key it keeps) at or
/// before it.
enum EscapeRun {
    /// No run read yet.
    static var none: Int { -1 }

    /// Whether the URL goes on after the escape whose run starts at `index`. `last` holds the last
    /// run's end times two, plus one when a parameter follows it (-1: none yet): the escapes of a
    /// URL come in order, so one at or before that end lies in that run and gets its answer. One
    /// `Int` in the URL's loop, the reading out of line: a URL's scan is hot, escapes in it rare.
    @inline(never)
    static func goesOn<Counter>(from index: Int, end limit: Int, in text: SanitizerInput<Counter>, last: inout Int)
        -> Bool
    {
        if last >= 0, index <= last >> 1 { return last & 1 != 0 }
        var p = index
        while p < limit, URLPlainBytes.escapeRun[Int(text.byte(p))] != 0 { p += 1 }
        last = p << 1
        guard p < limit, text.byte(p) == UInt8(ascii: "&") else { return false }
        // The next parameter's name, then its `=`: `&#39;` (an HTML-escaped quote) is no parameter,
        // so a URL in a spelled-quote value still ends at the escape; `&amp;` (an HTML-escaped
        // query) is the `&`.
        var q = p + 1
        if text.matches("amp;", at: q, end: limit) { q += 4 }
        let nameStart = q
        while q < limit, URLPlainBytes.parameterName[Int(text.byte(q))] != 0 { q += 1 }
        guard q > nameStart, q < limit, text.byte(q) == UInt8(ascii: "=") else { return false }
        last |= 1
        return true
    }
}

/// Scans shared by the URL and credential rules. `stop` is the start of the next URL span
/// (`Int.max`: none): a scan stops there, and a look-ahead sees it as a character that is none
/// of the ones it looks for.
enum SanitizerScan {
    /// A quote at `index` closes a string in running text: it is followed by white space, a
    /// control character, one of `,;}])>`, a URL span, or the end.
    @inline(__always)
    static func closes<Counter>(_ text: SanitizerInput<Counter>, quoteAt index: Int, end: Int, stop: Int) -> Bool {
        guard index + 1 < end else { return true }
        // A quote right before a URL closes: the URL's context must survive a second pass.
        if index + 1 == stop { return true }
        return text.has(index + 1, LogSanitizer.Classes.afterClosingQuote)
    }

    /// A quote at `index` right before a URL span, or the run of backslashes (up to 15) before such
    /// a quote from `index`: a credential value stops there, so the URL keeps the context that
    /// decided where it ends (the quote right before it, or `\"`; a value that took a backslash of
    /// the run, as an escape of the one before it, would change that context for a second pass).
    /// Callers ask only within 16 bytes of `stop`.
    @inline(__always)
    static func quoteBeforeURL<Counter>(_ text: SanitizerInput<Counter>, at index: Int, end: Int, stop: Int) -> Bool {
        let backslashes = stop - 1 - index
        guard backslashes >= 0, backslashes <= 15, text.has(stop - 1, LogSanitizer.Classes.quote) else { return false }
        var p = index
        while p < stop - 1 {
            guard text.byte(p) == UInt8(ascii: "\\") else { return false }
            p += 1
        }
        return true
    }

    /// The length of the run of backslashes at `start` (below `limit`), whole.
    @inline(__always)
    static func backslashRun<Counter>(_ text: SanitizerInput<Counter>, from start: Int, limit: Int) -> Int {
        var p = start
        while p < limit, text.byte(p) == UInt8(ascii: "\\") { p += 1 }
        return p - start
    }

    /// Whether `run` backslashes and `"` close a string opened by `escapes` (at least one)
    /// backslashes and `"`: when `run` is `escapes` plus a multiple of `2 × escapes + 2`. JSON
    /// escaping applied k times writes a quote as 2^k − 1 backslashes and `"` and a backslash as
    /// 2^k backslashes, so in a string opened at depth k (`escapes` = 2^k − 1) a run before `"` is m
    /// escaped backslashes and a quote of depth k (closing when m is even: `\\\\\"`, an escaped
    /// backslash and the close, in a `\"` string), or of a deeper one (`\\\"`, a quote inside).
    /// Other runs (not of a quote of depth k) close nothing.
    @inline(__always) static func closesEscaped(run: Int, escapes: Int) -> Bool {
        run >= escapes && (run - escapes) % (2 * escapes + 2) == 0
    }

    /// The end of a string opened by `quote`: its closing quote (for `"` and `'`, a backslash
    /// escapes the next character), a line break, `stop`, or `end`. `length` counts bytes.
    static func quotedEnd<Counter>(
        _ text: SanitizerInput<Counter>, from start: Int, end: Int, quote: UInt8, stop: Int
    ) -> (end: Int, length: Int) {
        let limit = min(end, stop)
        var p = start
        while p < limit {
            if p + 16 >= stop, quoteBeforeURL(text, at: p, end: end, stop: stop) { break }
            let byte = text.byte(p)
            if byte == quote || byte == 0x0A || byte == 0x0D { break }
            if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                guard p + 1 < limit else { break }
                let next = text.byte(p + 1)
                if next == 0x0A || next == 0x0D { break }
                p += 2
                continue
            }
            p += 1
        }
        return (p, p - start)
    }

    /// The end of a string opened by `\"`: the next `\"`, a line break, `stop`, or `end`.
    static func escapedQuoteEnd<Counter>(
        _ text: SanitizerInput<Counter>, from start: Int, end: Int, stop: Int
    ) -> (end: Int, length: Int) {
        let limit = min(end, stop)
        var p = start
        while p < limit {
            if p + 16 >= stop, quoteBeforeURL(text, at: p, end: end, stop: stop) { break }
            let byte = text.byte(p)
            if byte == 0x0A || byte == 0x0D { break }
            if byte == UInt8(ascii: "\\"), p + 1 < end, p + 1 != stop, text.byte(p + 1) == UInt8(ascii: "\"") { break }
            p += 1
        }
        return (p, p - start)
    }
}

/// The bytes a ``WindowFinder`` looks for (at most six; a repeated byte right after its first).
protocol WindowTriggers {
    /// The bytes (a byte may repeat: a repeated one is compared and searched for once).
    static var values: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) { get }
    /// Whether the first `-` of each `--` is a trigger too (a long command-line option's start), and
    /// a `-` before an ASCII byte above `@` (a letter: a command's short option, `sshpass -p x`).
    /// A window's last byte is one when it is a `-` (the byte after it lies in the next window), and
    /// with `memchr` every `-` is: the caller reads the byte after a `-` candidate.
    static var dashPairs: Bool { get }
    /// The lanes of `bytes` that hold one of ``values``.
    static func lanes(_ bytes: ByteBlock.Bytes) -> ByteBlock.Lanes
}

extension WindowTriggers {
    static var dashPairs: Bool { false }

    @inline(__always) static func isTrigger(_ byte: UInt8) -> Bool {
        byte == values.0 || byte == values.1 || byte == values.2 || byte == values.3 || byte == values.4
            || byte == values.5
    }

    @inline(__always) static func lanes(_ bytes: ByteBlock.Bytes) -> ByteBlock.Lanes {
        var lanes =
            (bytes .== ByteBlock.Bytes(repeating: values.0)) .| (bytes .== ByteBlock.Bytes(repeating: values.1))
            .| (bytes .== ByteBlock.Bytes(repeating: values.2))
        if values.3 != values.2 { lanes .|= bytes .== ByteBlock.Bytes(repeating: values.3) }
        if values.4 != values.3 { lanes .|= bytes .== ByteBlock.Bytes(repeating: values.4) }
        if values.5 != values.4 { lanes .|= bytes .== ByteBlock.Bytes(repeating: values.5) }
        return lanes
    }
}

/// What rules 1–2 meet in their one pass: `:`, `=` and `%` (a URL separator's start or a credential
/// key's end), `\` (a JSON-escaped separator, `\u003d` or `\u003a`), 0xEF (the first byte of a
/// full-width `＝` or `：`), `>` (the end of an XML element's start tag that names a credential) and
/// the first `-` of a `--` (a long option named by a key, `--password x`).
enum SpanTriggers: WindowTriggers {
    static var values: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) {
        (UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "%"), UInt8(ascii: "\\"), 0xEF, UInt8(ascii: ">"))
    }
    static var dashPairs: Bool { true }

    /// `:` (0x3A) and `>` (0x3E) differ in one bit (0x04): both are the bytes that are 0x3E with it
    /// set, one compare for the two.
    @inline(__always) static func lanes(_ bytes: ByteBlock.Bytes) -> ByteBlock.Lanes {
        typealias V = ByteBlock.Bytes
        return ((bytes | V(repeating: 0x04)) .== V(repeating: UInt8(ascii: ">")))
            .| (bytes .== V(repeating: UInt8(ascii: "="))) .| (bytes .== V(repeating: UInt8(ascii: "%")))
            .| (bytes .== V(repeating: UInt8(ascii: "\\"))) .| (bytes .== V(repeating: 0xEF))
    }
}

/// What the URL look-ahead for a credential's value meets: `:` and `%` (a URL separator's start).
enum URLSeparatorTriggers: WindowTriggers {
    static var values: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) {
        (
            UInt8(ascii: ":"), UInt8(ascii: "%"), UInt8(ascii: "%"), UInt8(ascii: "%"), UInt8(ascii: "%"),
            UInt8(ascii: "%")
        )
    }
}

/// The one pass of rules 1–2 over their candidates in order.
typealias SpanTriggerFinder = WindowFinder<SpanTriggers>

/// The next trigger byte (`Triggers`), for a search that only moves forward: each search starts
/// after the position the one before it found (both callers, the span pass and the URL
/// look-ahead, move on from a candidate once they have decided it). A window of 64 bytes
/// is tested at once (four blocks of sixteen) into a bit mask that is kept, so the next candidates
/// inside it cost a shift and a bit count, with no branch per byte; a window starts where the
/// search does, or ends at the input's end (the last window of an input may overlap the one
/// before; a shorter input is one window). After four windows without one, each byte is searched
/// for with `memchr` and its next position remembered (a byte is searched at most once per value,
/// however many candidates come after).
struct WindowFinder<Triggers: WindowTriggers> {
    /// Bit `i` of `mask` is set when `windowStart + i` is a trigger at or after where the window's
    /// search started (the bits for bytes at or after the input's end are clear).
    var windowStart = -128
    var mask: UInt64 = 0
    /// The next of each value at or after where it was last searched for with `memchr` (-1: not
    /// searched yet; `Int.max`: none up to the end).
    var first = -1
    var second = -1
    var third = -1
    var fourth = -1
    var fifth = -1
    var sixth = -1
    /// The next `-` (``WindowTriggers/dashPairs``).
    var seventh = -1
    /// A search from here found nothing up to the end.
    var exhaustedFrom = Int.max

    @inline(__always) static func isTrigger(_ byte: UInt8) -> Bool { Triggers.isTrigger(byte) }

    /// Whether the window tested last has a trigger at `index` (false when `index` lies outside it,
    /// or before where its search started): no byte is read.
    @inline(__always) func knownTrigger(at index: Int) -> Bool {
        let offset = index &- windowStart
        return UInt(bitPattern: offset) < 64 && (mask &>> UInt64(truncatingIfNeeded: offset)) & 1 != 0
    }

    @inline(__always)
    mutating func next<Counter>(from: Int, to end: Int, in input: SanitizerInput<Counter>) -> Int? {
        var start = from
        let offset = from &- windowStart
        if UInt(bitPattern: offset) < 64 {
            let rest = mask & (~0 &<< UInt64(truncatingIfNeeded: offset))
            if rest != 0 { return windowStart &+ rest.trailingZeroBitCount }
            start = windowStart &+ 64
        }
        if from >= exhaustedFrom { return nil }
        guard start < end, let base = input.input.baseAddress else { return nil }
        var windows = 0
        while true {
            fill(from: start, to: end, base: base, in: input)
            if mask != 0 { return windowStart &+ mask.trailingZeroBitCount }
            start = windowStart &+ 64
            windows &+= 1
            if start >= end || windows == 4 {
                let found = start >= end ? nil : far(from: start, to: end, in: input)
                if found == nil { exhaustedFrom = from }
                return found
            }
        }
    }

    /// The triggers of the 64 bytes from `index` (which lie before the end).
    @inline(__always) static func window<Counter>(
        at index: Int, base: UnsafePointer<UInt8>, in input: SanitizerInput<Counter>
    ) -> UInt64 {
        input.counter.tick(64)
        let blocks = (
            ByteBlock.load(base, index), ByteBlock.load(base, index &+ 16), ByteBlock.load(base, index &+ 32),
            ByteBlock.load(base, index &+ 48)
        )
        let first = ByteBlock.bits(Triggers.lanes(blocks.0))
        let second = ByteBlock.bits(Triggers.lanes(blocks.1))
        let third = ByteBlock.bits(Triggers.lanes(blocks.2))
        let fourth = ByteBlock.bits(Triggers.lanes(blocks.3))
        let triggers = first | second &<< 16 | third &<< 32 | fourth &<< 48
        guard Triggers.dashPairs else { return triggers }
        // The bytes already loaded, compared once more: a `-` whose next byte is one or above `@`
        // (a letter: a command's password option, `-p`; the last byte's next lies outside: it
        // counts when it is a `-`). Most windows hold no `-`: one test.
        let dash = ByteBlock.Bytes(repeating: UInt8(ascii: "-"))
        let dashes =
            ByteBlock.bits(blocks.0 .== dash) | ByteBlock.bits(blocks.1 .== dash) &<< 16
            | ByteBlock.bits(blocks.2 .== dash) &<< 32 | ByteBlock.bits(blocks.3 .== dash) &<< 48
        guard dashes != 0 else { return triggers }
        let letters =
            ByteBlock.letterBits(blocks.0) | ByteBlock.letterBits(blocks.1) &<< 16
            | ByteBlock.letterBits(blocks.2) &<< 32 | ByteBlock.letterBits(blocks.3) &<< 48
        return triggers | dashes & ((dashes | letters) &>> 1 | 1 &<< 63)
    }

    /// Tests the window that holds `start` (below `end`): the 64 bytes from `start`, or the last 64
    /// of the input when fewer are left (one `min`, no branch), or the whole of an input shorter
    /// than that.
    @inline(__always)
    mutating func fill<Counter>(
        from start: Int, to end: Int, base: UnsafePointer<UInt8>, in input: SanitizerInput<Counter>
    ) {
        if end >= 64 {
            windowStart = min(start, end &- 64)
            mask =
                WindowFinder.window(at: windowStart, base: base, in: input)
                & (~0 &<< UInt64(truncatingIfNeeded: start &- windowStart))
            return
        }
        windowStart = 0
        mask = WindowFinder.short(to: end, base: base, in: input) & (~0 &<< UInt64(truncatingIfNeeded: start))
    }

    /// The triggers of an input of fewer than 64 bytes (`end`), out of line: blocks of sixteen
    /// from the start, the last one ending at the end (bytes one at a time below sixteen).
    @inline(never)
    static func short<Counter>(to end: Int, base: UnsafePointer<UInt8>, in input: SanitizerInput<Counter>) -> UInt64 {
        var bits: UInt64 = 0
        guard end >= 16 else {
            for index in 0..<end where isTrigger(input.byte(index)) { bits |= 1 &<< UInt64(index) }
            if Triggers.dashPairs {
                for index in 0..<end &- 1
                where input.byte(index) == UInt8(ascii: "-")
                    && (input.byte(index &+ 1) == UInt8(ascii: "-")
                        || (0x41...0x7F).contains(input.byte(index &+ 1)))
                {
                    bits |= 1 &<< UInt64(index)
                }
            }
            return bits
        }
        var dashes: UInt64 = 0
        var letters: UInt64 = 0
        let dash = ByteBlock.Bytes(repeating: UInt8(ascii: "-"))
        var index = 0
        while true {
            let block = min(index, end &- 16)
            input.counter.tick(16)
            let bytes = ByteBlock.load(base, block)
            bits |= ByteBlock.bits(Triggers.lanes(bytes)) &<< UInt64(block)
            if Triggers.dashPairs {
                dashes |= ByteBlock.bits(bytes .== dash) &<< UInt64(block)
                letters |= ByteBlock.letterBits(bytes) &<< UInt64(block)
            }
            if block == end &- 16 {
                return Triggers.dashPairs ? bits | dashes & (dashes | letters) &>> 1 : bits
            }
            index &+= 16
        }
    }

    /// The nearest value at or after `start`, each found with `memchr` from where it was last found
    /// (out of line: most candidates are near).
    @inline(never)
    mutating func far<Counter>(from start: Int, to end: Int, in input: SanitizerInput<Counter>) -> Int? {
        @inline(__always) func search(_ value: UInt8, _ known: inout Int) {
            if known >= start { return }
            known = input.find(value, from: start, to: end) ?? Int.max
        }
        let values = Triggers.values
        search(values.0, &first)
        var nearest = first
        if Triggers.dashPairs {
            search(UInt8(ascii: "-"), &seventh)
            nearest = min(nearest, seventh)
        }
        if values.1 != values.0 {
            search(values.1, &second)
            nearest = min(nearest, second)
        }
        if values.2 != values.1 {
            search(values.2, &third)
            nearest = min(nearest, third)
        }
        if values.3 != values.2 {
            search(values.3, &fourth)
            nearest = min(nearest, fourth)
        }
        if values.4 != values.3 {
            search(values.4, &fifth)
            nearest = min(nearest, fifth)
        }
        if values.5 != values.4 {
            search(values.5, &sixth)
            nearest = min(nearest, sixth)
        }
        return nearest == Int.max ? nil : nearest
    }
}
