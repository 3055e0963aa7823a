extension LogSanitizer {
    /// A replaced span of the input. `keep` ranges are copied to the output in order, then the
    /// placeholder (if any).
    struct Span {
        var start: Int
        var end: Int
        var keep: (Range<Int>, Range<Int>) = (0..<0, 0..<0)
        var placeholder: StaticString?
    }
}

/// Rule 1: URLs of any scheme (`scheme://`, JSON-escaped `scheme:\/\/`, percent-encoded
/// `scheme%3A%2F%2F`) keep the scheme, the separator and the host.
struct URLRule<Counter: LogSanitizerCounting> {
    let text: SanitizerInput<Counter>
    typealias Classes = LogSanitizer.Classes

    /// Every URL in the whole input, left to right.
    func spans() -> [LogSanitizer.Span] {
        var spans: [LogSanitizer.Span] = []
        // Room for a typical line's URLs: growing from empty costs more than the rule's own scan.
        spans.reserveCapacity(8)
        let end = text.count
        var colons = CachedFinder(UInt8(ascii: ":"))
        var percents = CachedFinder(UInt8(ascii: "%"))
        var search = 0
        var from = 0
        while from < end {
            let colon = colons.next(from: from, to: end, in: text) ?? end
            let percent = percents.next(from: from, to: end, in: text) ?? end
            let candidate = min(colon, percent)
            guard candidate + 2 < end else { break }
            from = candidate + 1
            // The byte after rejects most candidates (a separator starts `:/`, `:\` or `%3`).
            let next = text.byte(candidate + 1)
            let possible =
                candidate == colon
                ? next == UInt8(ascii: "/") || next == UInt8(ascii: "\\") : next == UInt8(ascii: "3")
            guard possible, let separatorLength = separatorLength(at: candidate, end: end) else { continue }
            let span = url(separator: candidate, length: separatorLength, lowerBound: search, end: end)
            spans.append(span)
            search = max(span.end, candidate + separatorLength)
            from = search
        }
        return spans
    }

    /// `://` (3), `:\/\/` (5) or `%3A%2F%2F` in any case (9) at `index`.
    func separatorLength(at index: Int, end: Int) -> Int? {
        if text.byte(index) == UInt8(ascii: ":") {
            guard index + 2 < end else { return nil }
            if text.byte(index + 1) == UInt8(ascii: "/") {
                return text.byte(index + 2) == UInt8(ascii: "/") ? 3 : nil
            }
            guard index + 4 < end, text.byte(index + 1) == UInt8(ascii: "\\"),
                text.byte(index + 2) == UInt8(ascii: "/"),
                text.byte(index + 3) == UInt8(ascii: "\\"), text.byte(index + 4) == UInt8(ascii: "/")
            else { return nil }
            return 5
        }
        return text.matches("%3a%2f%2f", at: index, end: end) ? 9 : nil
    }

    enum Context {
        case running
        case quoted(UInt8)
        case escapedQuote
    }

    func url(separator: Int, length: Int, lowerBound: Int, end: Int) -> LogSanitizer.Span {
        // The scheme: the run of scheme characters before the separator, kept when it is 1–32
        // characters and starts with a letter; otherwise the URL starts at the separator.
        var runStart = separator
        while runStart > lowerBound, separator - runStart <= 32, text.has(runStart - 1, Classes.scheme) {
            runStart -= 1
        }
        let schemeLength = separator - runStart
        var start = separator
        if schemeLength >= 1, schemeLength <= 32, text.has(runStart, Classes.letter) { start = runStart }
        let percentForm = length == 9
        let bodyStart = separator + length
        let context = self.context(before: start)
        var bodyEnd = self.bodyEnd(from: bodyStart, end: end, context: context)
        if case .running = context {
            while bodyEnd > bodyStart, text.has(bodyEnd - 1, Classes.trailingPunctuation) { bodyEnd -= 1 }
        }
        let host = self.host(from: bodyStart, to: bodyEnd, percentForm: percentForm)
        if host.isEmpty { return LogSanitizer.Span(start: start, end: bodyEnd, placeholder: LogSanitizer.urlBytes) }
        return LogSanitizer.Span(start: start, end: bodyEnd, keep: (start..<bodyStart, host))
    }

    func context(before start: Int) -> Context {
        guard start > 0 else { return .running }
        let previous = text.byte(start - 1)
        switch previous {
        case UInt8(ascii: "\""):
            return start >= 2 && text.byte(start - 2) == UInt8(ascii: "\\") ? .escapedQuote : .quoted(previous)
        case UInt8(ascii: "'"), UInt8(ascii: "`"): return .quoted(previous)
        default: return .running
        }
    }

    /// Where the URL's body ends: at the closing quote of the string it opens, or in running text
    /// at white space, a closing bracket without a partner inside the URL, or a closing quote.
    func bodyEnd(from start: Int, end: Int, context: Context) -> Int {
        var p = start
        switch context {
        case .quoted(let quote):
            return SanitizerScan.quotedEnd(text, from: start, end: end, quote: quote, spans: nil).end
        case .escapedQuote:
            return SanitizerScan.escapedQuoteEnd(text, from: start, end: end, spans: nil).end
        case .running:
            var parentheses = 0
            var squares = 0
            var braces = 0
            var angles = 0
            var authorityEnded = false
            while p < end {
                // Most of a URL is letters, digits and punctuation that decide nothing: one table look each.
                if text.has(p, Classes.urlPlain) {
                    p += 1
                    continue
                }
                let byte = text.byte(p)
                if byte >= 0x80 {
                    if text.unicodeSpaceLength(at: p, end: end) > 0 {
                        guard authorityEnded, let next = bearerContinuation(start, p, end) else { return p }
                        p = next
                        continue
                    }
                    p += 1
                    continue
                }
                switch byte {
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): authorityEnded = true
                case UInt8(ascii: "%"):
                    if text.matches("%2f", at: p, end: end) || text.matches("%3f", at: p, end: end)
                        || text.matches("%23", at: p, end: end)
                    {
                        authorityEnded = true
                    }
                case UInt8(ascii: "("): parentheses += 1
                case UInt8(ascii: "["): squares += 1
                case UInt8(ascii: "{"): braces += 1
                case UInt8(ascii: "<"): angles += 1
                case UInt8(ascii: ")"):
                    if parentheses == 0 { return p }
                    parentheses -= 1
                case UInt8(ascii: "]"):
                    if squares == 0 { return p }
                    squares -= 1
                case UInt8(ascii: "}"):
                    if braces == 0 { return p }
                    braces -= 1
                case UInt8(ascii: ">"):
                    if angles == 0 { return p }
                    angles -= 1
                case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"):
                    if SanitizerScan.closes(text, quoteAt: p, end: end, spans: nil) { return p }
                case UInt8(ascii: "\\"):
                    authorityEnded = true
                    if p + 1 < end, text.has(p + 1, Classes.quote),
                        SanitizerScan.closes(text, quoteAt: p + 1, end: end, spans: nil)
                    {
                        return p
                    }
                case 0x20, 0x09, 0x0B, 0x0C:
                    guard authorityEnded, let next = bearerContinuation(start, p, end) else { return p }
                    p = next
                    continue
                default:
                    if text.has(p, Classes.control) { return p }
                }
                p += 1
            }
            return end
        }
    }

    /// In running text, white space right after `bearer` or `bearer:` (not inside a word) in a
    /// URL's path, query or fragment does not end the URL: `?auth=Bearer tok` goes with it. The
    /// position after the spaces, or nil. (A host never continues, so a second pass agrees.)
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
            } else {
                break
            }
        }
        return p
    }

    /// The host within a URL body: after the last `@` (or `%40`) of the authority, up to a port,
    /// path, query or fragment; an IPv6 literal in brackets whole (none if its `]` is missing).
    func host(from start: Int, to end: Int, percentForm: Bool) -> Range<Int> {
        var authorityEnd = start
        var hostStart = start
        while authorityEnd < end {
            let byte = text.byte(authorityEnd)
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
                || byte == UInt8(ascii: "\\")
            {
                break
            }
            if byte == UInt8(ascii: "@") {
                hostStart = authorityEnd + 1
            } else if byte == UInt8(ascii: "%") {
                if text.matches("%2f", at: authorityEnd, end: end) || text.matches("%3f", at: authorityEnd, end: end)
                    || text.matches("%23", at: authorityEnd, end: end)
                {
                    break
                }
                if text.matches("%40", at: authorityEnd, end: end) { hostStart = authorityEnd + 3 }
            }
            authorityEnd += 1
        }
        guard hostStart < authorityEnd else { return hostStart..<hostStart }
        if text.byte(hostStart) == UInt8(ascii: "[") {
            // An IPv6 literal is kept only when closed: an unclosed "[" could take a later "]" on a
            // second pass (fuzzing found "://[/]]i").
            var p = hostStart + 1
            while p < authorityEnd, text.byte(p) != UInt8(ascii: "]") { p += 1 }
            return p < authorityEnd ? hostStart..<(p + 1) : hostStart..<hostStart
        }
        var p = hostStart
        while p < authorityEnd {
            let byte = text.byte(p)
            if byte >= 0x80 {
                let space = text.unicodeSpaceLength(at: p, end: authorityEnd)
                if space > 0 { break }
                p += 1
            } else if text.has(p, Classes.host) && !(percentForm && byte == UInt8(ascii: "%")) {
                p += 1
            } else {
                break
            }
        }
        // The host never ends in a dot ("a.com." → "a.com"), so the output, scanned again, trims nothing.
        while p > hostStart, text.byte(p - 1) == UInt8(ascii: ".") { p -= 1 }
        return hostStart..<p
    }
}

/// Scans shared by the URL and credential rules. `spans` (when given) are URLs: a scan stops at
/// one, and a look-ahead sees one as a character that is none of the ones it looks for.
enum SanitizerScan {
    /// A cursor over URL spans sorted by start.
    struct Spans {
        let spans: [LogSanitizer.Span]
        var index: Int

        /// The span starting exactly at `position`, if any, advancing past spans that end before it.
        mutating func span(at position: Int) -> LogSanitizer.Span? {
            while index < spans.count, spans[index].start < position { index += 1 }
            guard index < spans.count, spans[index].start == position else { return nil }
            return spans[index]
        }

        /// The start of the first span at or after `position` (Int.max if none).
        func nextStart(from position: Int) -> Int {
            var probe = index
            while probe < spans.count, spans[probe].start < position { probe += 1 }
            return probe < spans.count ? spans[probe].start : Int.max
        }

        func starts(at position: Int) -> Bool {
            var probe = index
            while probe < spans.count, spans[probe].start < position { probe += 1 }
            return probe < spans.count && spans[probe].start == position
        }
    }

    /// A quote at `index` closes a string in running text: it is followed by white space, a
    /// control character, one of `,;}])>`, a URL span, or the end.
    static func closes<Counter>(
        _ text: SanitizerInput<Counter>, quoteAt index: Int, end: Int, spans: Spans?
    ) -> Bool {
        guard index + 1 < end else { return true }
        // A quote right before a URL closes: the URL's context must survive a second pass.
        if let spans, spans.starts(at: index + 1) { return true }
        return text.has(index + 1, LogSanitizer.Classes.afterClosingQuote)
    }

    /// A quote (or `\"`) at `index` right before a URL span: a credential value stops there, so
    /// the URL keeps the context that decided where it ends.
    static func quoteBeforeURL<Counter>(
        _ text: SanitizerInput<Counter>, at index: Int, end: Int, spans: Spans
    ) -> Bool {
        if text.has(index, LogSanitizer.Classes.quote) { return spans.starts(at: index + 1) }
        return text.byte(index) == UInt8(ascii: "\\") && index + 1 < end && text.byte(index + 1) == UInt8(ascii: "\"")
            && spans.starts(at: index + 2)
    }

    /// The end of a string opened by `quote`: its closing quote (for `"`, a backslash escapes the
    /// next character), a line break, a span, or `end`. `length` counts bytes.
    static func quotedEnd<Counter>(
        _ text: SanitizerInput<Counter>, from start: Int, end: Int, quote: UInt8, spans: Spans?
    ) -> (end: Int, length: Int) {
        var spans = spans
        var p = start
        var length = 0
        while p < end {
            if spans?.span(at: p) != nil { break }
            if let spans, quoteBeforeURL(text, at: p, end: end, spans: spans) { break }
            let byte = text.byte(p)
            if byte == quote || byte == 0x0A || byte == 0x0D { break }
            if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") {
                guard p + 1 < end else { break }
                if spans?.span(at: p + 1) != nil { break }
                let next = text.byte(p + 1)
                if next == 0x0A || next == 0x0D { break }
                p += 2
                length += 2
                continue
            }
            p += 1
            length += 1
        }
        return (p, length)
    }

    /// The end of a string opened by `\"`: the next `\"`, a line break, a span, or `end`.
    static func escapedQuoteEnd<Counter>(
        _ text: SanitizerInput<Counter>, from start: Int, end: Int, spans: Spans?
    ) -> (end: Int, length: Int) {
        var spans = spans
        var p = start
        var length = 0
        while p < end {
            if spans?.span(at: p) != nil { break }
            if let spans, quoteBeforeURL(text, at: p, end: end, spans: spans) { break }
            let byte = text.byte(p)
            if byte == 0x0A || byte == 0x0D { break }
            if byte == UInt8(ascii: "\\"), p + 1 < end, !(spans?.starts(at: p + 1) ?? false),
                text.byte(p + 1) == UInt8(ascii: "\"")
            {
                break
            }
            p += 1
            length += 1
        }
        return (p, length)
    }
}
