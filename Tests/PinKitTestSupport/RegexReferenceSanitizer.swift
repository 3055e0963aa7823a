public import Foundation

/// The log-sanitizer rules written with `NSRegularExpression`: the reference the byte scanner
/// is checked against. Same stages: URLs over the whole text; credentials over the text with
/// each URL as one private-use character (U+E000, which the corpus never produces) that a value
/// may swallow; then the word rules in a cascade over the fragments left, leftmost-first, where
/// replaced text is final. Only loops the expressions cannot say are Swift: bracket pairing in a
/// URL, and the bookkeeping of pieces.
public enum RegexReferenceSanitizer {
    private static func regex(_ pattern: String) -> NSRegularExpression {
        // Explicit ASCII classes instead of .caseInsensitive: ICU's case folding would also
        // match non-ASCII characters (the Kelvin sign for "k"), which the rules exclude.
        try! NSRegularExpression(pattern: pattern)
    }

    static let spaces = #"\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000"#
    static let invisible = #"\u00AD\u200B-\u200D\u2060\uFEFF"#
    /// A JSON escape (`\u` and four hex digits, either case) of a Unicode space, as Python's
    /// `json.dumps` writes one (the sixteenth session): rules 2 and 3 read it as that space.
    static let escapedSpace = #"\\u(?:0085|00[Aa]0|1680|200[0-9Aa]|202[89Ff]|205[Ff]|3000)"#
    /// A JSON escape of an invisible separator: rules 3, 5 and 7 read it as that separator.
    static let escapedInvisible = #"\\u(?:00[Aa][Dd]|200[BbCcDd]|2060|[Ff][Ee][Ff][Ff])"#
    /// An invisible separator, or its JSON escape.
    static let invisibleCharacter = "(?:[" + invisible + "]|" + escapedInvisible + ")"
    /// Not inside a JSON escape of an invisible separator (after its `\`): no match of rules 5 and 7
    /// starts there, as none starts inside a `%2F`.
    static let notInsideEscapedInvisible: String = {
        func character(_ c: Character) -> String {
            c.isLetter && c != "u" ? "[" + c.lowercased() + c.uppercased() + "]" : String(c)
        }
        var alternatives: [String] = []
        for code in ["00ad", "200b", "200c", "200d", "2060", "feff"] {
            let characters = Array("u" + code)
            for inside in 1...5 {
                let before = #"\\"# + characters[0..<(inside - 1)].map(character).joined()
                let after = characters[(inside - 1)...].map(character).joined()
                alternatives.append("(?<=" + before + ")" + after)
            }
        }
        return "(?!" + alternatives.joined(separator: "|") + ")"
    }()
    /// What may follow a quote that closes a string in running text.
    static let closing = #"(?:[\x00-\x20\x7F,;}\])>\uE000]|\z)"#
    /// A quote (or a backslash and a quote) right before a URL: a credential value stops there.
    static let stopBeforeURL = #"(?!\\{0,15}["'`]\uE000)"#

    // MARK: Rule 1: URLs
    static let urlStart = regex(
        #"(?:(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{0,31})?(?::\/\/|:\\\/\\\/|%3[Aa]%2[Ff]%2[Ff]|%253[Aa]%252[Ff]%252[Ff])"#
    )
    /// A `"` or `'` string: a run of backslashes escapes the byte after it when it is odd or that
    /// byte is no quote; the body ends before an even run and the quote, and before a run that
    /// ends the line.
    static let doubleQuoted = regex(#"(?:[^"\r\n\\]|\\++[^"\\\r\n]|(?:\\\\)*+\\")*+"#)
    static let escapedQuoted = regex(#"(?:(?!\\")[^\r\n])*"#)
    static let singleQuoted = regex(#"(?:[^'\r\n\\]|\\++[^'\\\r\n]|(?:\\\\)*+\\')*+"#)
    static let backtickQuoted = regex(#"[^`\r\n]*"#)
    static let running = regex(
        #"(?:[^\x00-\x20\x7F"'`\\"# + spaces + #"]|["'`](?!"# + closing + #")|\\(?!["'`]"# + closing
            + #"|[rnt](?![A-Za-z0-9._~/\\-]*+&(?:[Aa][Mm][Pp];)?[A-Za-z0-9._~-]++=)|\[redacted-(?:email|token)\]))*"#)
    static let trailingPunctuation = regex(#"[.,;:!?]*\z"#)
    static let authorityEnd = regex(#"[/?#\\]|%2[Ff]|%3[Ff]|%23|%25(?:2[Ff]|3[Ff]|23)"#)
    static let bearerBeforeSpace = regex(#"[^A-Za-z0-9][Bb][Ee][Aa][Rr][Ee][Rr]:?\z"#)
    static let bearerSpaces = regex(#"(?:[ \t\x0B\f"# + spaces + #"]|\\t)+"#)
    static let authority = regex(#"^(?:[^/?#\\%]|%(?!2[Ff]|3[Ff]|23|25(?:2[Ff]|3[Ff]|23)))*"#)
    static let userInfo = regex(#"(?s)^.*(?:@|%40|%2540)"#)
    static let bracketHost = regex(#"^\[[^\[\]]*\]"#)
    static let plainHost = regex(#"^(?:[A-Za-z0-9._~%-]|[^\x00-\x7F"# + spaces + #"])*"#)
    static let percentHost = regex(#"^(?:[A-Za-z0-9._~-]|[^\x00-\x7F"# + spaces + #"])*"#)
    static let trailingDots = regex(#"\.*\z"#)

    // MARK: Rule 2: credentials
    /// A key's closing quote, the separator (`=>` too), and the openers a value may sit in.
    /// ANSI colour codes (SGR), which count as blanks around a separator and after `bearer`.
    static let colour = #"\x1B\[[0-9;]{0,16}m"#
    /// One blank: a space, a tab, a Unicode space (or its JSON escape), an ANSI colour code.
    static let blank = #"(?:[ \t"# + spaces + "]|" + colour + "|" + escapedSpace + ")"
    static let blanks = blank + "*+"
    /// A form key's suffixes after the key word: up to four of `]`, `[]` and `[` + up to six digits
    /// + `]`, with `%5B` and `%5D` (any case) for the brackets; a placeholder's own `]` is none.
    static let formClose = #"(?:\]|%5[Dd])"#
    static let formSuffix = formClose + #"|(?:\[|%5[Bb])[0-9]{0,6}"# + formClose
    static let formSuffixes =
        #"(?:(?:(?<!\[redacted-token|\[redacted-secret)\]|%5[Dd]|(?:\[|%5[Bb])[0-9]{0,6}"# + formClose + ")(?:"
        + formSuffix + "){0,3}+)?+"
    /// A key's closing quote, also doubled (`""`, `''`: CSV, SQL), after backslashes (`\"`, `\'`),
    /// percent-encoded (`%22`, `%27`) or written in another escaping (`spelledQuote`).
    static let keyQuote = closingKeyQuote + "?+"
    /// The same quote, not optional.
    static let closingKeyQuote = #"(?:""|''|\\{0,15}"|\\{0,15}'|`|%2[27]|"# + spelledQuote + ")"
    /// A quote written in another escaping: nginx's `\x22`, `\x27`, JSON's `\u0022`, `\u0027`, HTML's
    /// `&quot;`, `&apos;`, `&#34;`, `&#39;`, `&#x22;`, `&#x27;`.
    static let spelledQuote = #"\\[xX]2[27]|\\u002[27]|&quot;|&apos;|&#3[49];|&#x2[27];"#
    /// The separator: `=`, `=>` (Ruby, PHP, Perl), `:` or `:=` (Go, make).
    static let separator = #"(?:=>?+|:=?+|\\u003[DdAa]|\uFF1D|\uFF1A)"#
    /// What a constructor's value opens with: a quote, `\`, `[`, `{`, `<`, an upper-case letter
    /// (another constructor), or a Python string prefix and its quote.
    static let valueOpens = #"(?:["'`\\\[{<A-Z]|[uUbBrRfF]{1,2}["'])"#
    /// The openers a value may sit in, blanks after each: `Optional(`, a constructor (`Some(`,
    /// `Ok(`: an upper-case letter, up to 31 `[A-Za-z0-9_]` and `(`) before what a value opens
    /// with, Haskell's `Just` and blanks before one, `<`.
    static let openers =
        #"(?:(?:Optional\(|[A-Z][A-Za-z0-9_]{0,31}\((?="# + valueOpens + #")|Just(?="# + blank + "++" + valueOpens
        + ")|<)" + blanks + ")*+"
    /// A Python string prefix, kept with the opening quote after it.
    static let stringPrefix = #"(?:[uUbBrRfF]{1,2}(?=["']))?+"#
    /// A key's form suffixes and closing quote, the separator (`=>` too), and the openers a value
    /// may sit in.
    static let keyTail =
        formSuffixes + keyQuote + blanks + separator + blanks + openers
    /// A JSON object or array as the value (groups 1–3): what is inside the brackets when they
    /// close on the line before any URL, at most four levels deep (strings skipped; a `\"` string
    /// ends at a `\"` that does not end a longer run of backslashes); else the rest of the line,
    /// URLs included. A header's structure always takes the rest of the line (group 3).
    static func structure(header: Bool) -> String {
        // A run of backslashes is passed whole; before `"` it opens a string of that many, which
        // a run of that many plus a multiple of twice that many plus two closes.
        // A `'` after a letter or digit (ASCII, or a non-ASCII character other than a Unicode space
        // or an invisible separator) is an apostrophe, not a string's opening quote…
        // …unless that word is a Python string prefix (`u`, `b`, `r`, `f`, or two of them).
        let letter = #"[A-Za-z0-9]|[^\x00-\x7F"# + spaces + invisible + "]"
        let prefix = "(?<!" + letter + ")[uUbBrRfF]{1,2}"
        let atom = #"[^{}\[\]"'`\\\r\n\uE000]|\\++(?!")|(?<="# + letter + ")(?<!" + prefix + ")'"
        let escaped = (1...15).map { escapes in
            let close = #"(?:\\{\#(2 * escapes + 2)})*+\\{\#(escapes)}""#
            return #"\\{\#(escapes)}"(?:(?!(?<!\\)"# + close + #")[^\r\n\uE000])*+"# + close
        }
        let string =
            #""(?:[^"\\\r\n\uE000]|\\[^\r\n\uE000])*+"|(?:(?<!"# + letter + ")|(?<=" + prefix
            + #"))'(?:[^'\\\r\n\uE000]|\\++(?=[^'\\\r\n\uE000])|(?:\\\\)*+\\')*+'|`[^`\r\n\uE000]*+`|"#
            + escaped.joined(separator: "|")
        var inner = "(?:" + atom + "|" + string + ")"
        for _ in 1..<4 { inner = "(?:" + atom + "|" + string + #"|[{\[]"# + inner + #"*+[}\]])"# }
        // A tuple's: `(` and `)` are brackets too (any of `} ] )` closes any of `{ [ (`).
        let tupleAtom = atom.replacingOccurrences(of: #"[^{}\[\]"#, with: #"[^{}\[\]()"#)
        var tuple = "(?:" + tupleAtom + "|" + string + ")"
        for _ in 1..<4 { tuple = "(?:" + tupleAtom + "|" + string + #"|[{\[(]"# + tuple + #"*+[}\])])"# }
        if header {
            return #"(?:\{|\[(?!redacted-)|\()(?:((?!))|((?!))|([^\r\n]++))"#
        }
        let open = #"(?:(?:\{|\[(?!redacted-))(?![}\]])|\((?![}\])]))"#
        return open + #"(?:((?!))|((?<=[{\[])"# + inner + #"*+(?=[}\]])|(?<=\()"# + tuple
            + #"*+(?=[}\])]))|([^\r\n]++))"#
    }
    /// A value that is a placeholder and nothing more is left alone (see `credentials(_:)`).
    static let placeholderValue = regex(#"^\[redacted-[a-z]+\]\z"#)
    static let notPlaceholder = #"(?!\[redacted-[a-z]+\])"#
    /// Not a structure: quoted values (groups 4–11) or, for `unquoted`, group 12; a value opened by
    /// nginx's `\x22` (group 13) or `\x27` (group 14) runs to the same escape.
    static func values(unquoted: String) -> String {
        #"(?!\{|\[(?!redacted-)|\()(?:(\\{1,15})""# + escapedQuotedValue(escapes: #"\4"#) + "|" + stringPrefix
            + "(\")" + quotedValue("\"") + "|" + stringPrefix + "(')" + quotedValue("'") + #"|(`)((?:"# + stopBeforeURL
            + #"[^`\r\n\uE000])+)|(?!\\{1,15}"|["'`]|[uUbBrRfF]{1,2}["']|"# + spelledQuote + #"|\\'(?!\uE000))("#
            + unquoted + ")"
            + #"|\\[xX]22((?:(?!\\[xX]22)"# + eatenNginxSpelling + stopBeforeURL
            + #"[^\r\n\uE000])+)|\\[xX]27((?:(?!\\[xX]27)"# + eatenNginxSpelling
            + stopBeforeURL + #"[^\r\n\uE000])+)|"# + otherSpelledValue + ")"
    }
    /// What rules 4, 5 and 7 leave of an escaped closing quote whose letter or digit starts their
    /// match (the scanner's `eatenSpelling(at:opener:length:limit:)`): a value in a spelled quote
    /// ends there too, nginx's at `\`, `\x`, `\x2` (any case), another at `\`, `\u`, `\u0`,
    /// `\u00`, `\u002`, each before `[redacted-email]`, `[redacted-token]` or `[redacted-uuid]`.
    static let eatenPlaceholder = #"\[redacted-(?:email|token|uuid)\]"#
    static let eatenNginxSpelling = #"(?!\\(?:[xX]2?)?"# + eatenPlaceholder + ")"
    static let eatenOtherSpelling = #"(?!\\(?:u(?:0(?:02?)?)?)?"# + eatenPlaceholder + ")"
    /// A value (one group) after its opening `quote` (`"` or `'`): up to the same quote, not escaped.
    static func quotedValue(_ quote: String) -> String {
        "((?:" + stopBeforeURL + "(?:[^" + quote + #"\r\n\\\uE000]|\\[^\r\n\uE000]))+)"#
    }
    /// A value (one group) after an escaped opening `"` (after `escapes`, an expression matching
    /// its backslashes): up to the same quote at the same depth.
    static func escapedQuotedValue(escapes e: String) -> String {
        #"((?!"# + e + #""|\\{0,15}["'`]\uE000|[\r\n\uE000]|\z)(?:(?!(?<!\\)(?:"# + e + e + #"\\\\)*+"# + e
            + #"")"# + stopBeforeURL + #"[^\r\n\uE000])*+(?:"# + stopBeforeURL + #"(?=(?:"# + e + e + #"\\\\)*+"# + e
            + #"")(?:"# + e + e + #"\\\\)*+)?+)"#
    }
    /// A value opened by a quote written in another escaping than nginx's (`sq`: `\u0022`, `&quot;`,
    /// …, or Python's `\'` not right before a URL) runs to the same spelling (its group follows `sq`).
    static let otherSpelledValue =
        #"(?<sq>\\u002[27]|&quot;|&apos;|&#3[49];|&#x2[27];|\\'(?!\uE000))((?:(?!\k<sq>)"# + eatenOtherSpelling
        + stopBeforeURL + #"[^\r\n\uE000])+)"#
    /// After a key whose closing quote is doubled (`""password"":`, as CSV writes a `"` in a field;
    /// `''password'':` in SQL), a value opened by the same doubled quote runs to the next one
    /// (group 2).
    static func doubledCredential(key: String) -> NSRegularExpression {
        regex(
            key + formSuffixes + #"(?<dq>""|'')"# + blanks + separator + blanks + openers + #"\k<dq>((?:(?!\k<dq>)"#
                + stopBeforeURL + #"[^\r\n\uE000])+)"#)
    }
    static let doubledHeaderCredential = doubledCredential(key: headerKey)
    static let doubledValueCredential = doubledCredential(key: valueKey)
    /// Where a header sits (the scanner's `HeaderPlace`): in running text, where no quote closes its
    /// value, or in a string opened by `quote` after `escapes` backslashes (0–15), which the same
    /// quote at the same depth closes; `quote` nil: a string an escaped line break with `escapes`
    /// backslashes before it shows, where the first quote of any kind at that depth closes the value
    /// or, when it does not close, leaves the header in running text.
    enum HeaderPlace: Hashable {
        case running
        case string(quote: Character?, escapes: Int)

        static let all: [HeaderPlace] =
            [.running]
            + (0...15).flatMap { escapes in [nil, "\"", "'", "`"].map { .string(quote: $0, escapes: escapes) } }
    }
    /// An inner string of a header value: a `"` or `'` string after `=`, `[`, `(` or `{`, or a `\"`
    /// string after `=`, not closed by a quote right before a URL.
    static let headerInner =
        #"(?<=[=\[({])"[^"\r\n\\\uE000]*"(?!\uE000)|(?<=[=\[({])'[^'\r\n\\\uE000]*'(?!\uE000)|(?<==)\\"(?:(?!\\")[^\r\n\uE000])*\\"(?!\uE000)"#
    /// What follows a `\` that ends a header's value: an escaped line break (not folded), or what
    /// rules 4, 5 and 7 leave of one.
    static let headerLineBreak =
        #"(?:r(?:\\n)?+|n|[xX]0[Dd](?:\\[xX]0[Aa])?+|[xX]0[Aa])(?![ \t]|\\t)|[xX]0?\[redacted-uuid\]|\[redacted-(?:email|token)\]"#
    /// From the start of a run of backslashes (or at a bare quote): the quote `quote` (any kind when
    /// nil) at depth `escapes`, a run of `escapes` + j(2 `escapes` + 2) backslashes before it.
    static func atDepth(quote: Character?, escapes: Int) -> String {
        "(?:" + String(repeating: #"\\"#, count: 2 * escapes + 2) + ")*+" + String(repeating: #"\\"#, count: escapes)
            + (quote.map { String($0) } ?? #"["'`]"#)
    }
    /// One step of an unquoted header value: an inner string, or a byte that does not end it. A
    /// quote (or `\` and a quote) right before a URL ends every value. In running text no other
    /// quote does; in a string (`place`) a run of backslashes and a quote goes whole, unless it is
    /// the string's quote at its depth followed by what may follow a closing quote (its escaped
    /// backslashes, before the string's own escapes, are the value's). Of a string an escaped
    /// line break shows, no quote at its depth is a step (`headerTransition`).
    static func headerUnit(place: HeaderPlace) -> String {
        let steps = #"[^\r\n"'`\\\uE000]|"#
        guard case .string(let quote, let escapes) = place else {
            return "(?:" + headerInner + "|" + steps + #"["'`](?!\uE000)|\\(?!"# + headerLineBreak
                + #"|["'`]\uE000))"#
        }
        let depth = atDepth(quote: quote, escapes: escapes)
        let passed = quote == nil ? depth : depth + closing
        let escaped = String(repeating: #"\\"#, count: 2 * escapes + 2)
        let own = String(repeating: #"\\"#, count: escapes) + (quote.map { String($0) } ?? #"["'`]"#)
        return "(?:" + headerInner + "|(?!" + passed + #")\\*+["'`](?!\uE000)|(?:"# + escaped + ")++(?=" + own
            + #"(?!\uE000)"# + closing + ")|" + steps + #"\\(?!\\*+["'`](?!\uE000)|"# + headerLineBreak
            + #"|["'`]\uE000))"#
    }
    /// In a string an escaped line break with `escapes` backslashes before it shows: a quote of any
    /// kind at that depth (and its backslashes) that does not close, after which the header sits in
    /// running text.
    static func headerTransition(escapes: Int) -> String {
        let depth = atDepth(quote: nil, escapes: escapes)
        return "(?!" + depth + closing + ")(?=" + depth + #"(?!\uE000))\\*+["'`]"#
    }
    /// What may open an unquoted header value before its steps: a `"` (also escaped) or `'` after
    /// scheme names (`Bearer`, `Basic`), each followed by blanks, and before blanks and a byte that
    /// does not end an unquoted value, which opens the scheme's token (`Authorization: Basic " x"`)
    /// and closes nothing; or (not in a value resumed after a URL) an escaped line break.
    static func headerValueOpening(resumed: Bool) -> String {
        let name = "(?:[Bb][Ee][Aa][Rr][Ee][Rr]|[Bb][Aa][Ss][Ii][Cc])"
        return "(?:" + blank + "*+(?:" + name + blank + #"++)++(?:["']|\\{1,15}")(?="# + blank + "*+"
            + plainValueCharacter + ")"
            + (resumed ? "" : #"|\\(?=[rn]|[xX]0[AaDd]|[xX]0?\[redacted-uuid\]|\[redacted-(?:email|token)\])"#) + ")?"
    }
    /// An unquoted header value: its opening, then steps; in a string an escaped line break shows,
    /// the steps up to a quote at its depth that does not close, and running text's steps after it.
    static func headerValue(place: HeaderPlace, resumed: Bool = false) -> String {
        let unit = headerUnit(place: place)
        guard case .string(nil, let escapes) = place else { return headerValueOpening(resumed: resumed) + unit + "+" }
        let after = headerTransition(escapes: escapes) + headerUnit(place: .running) + "*"
        return headerValueOpening(resumed: resumed) + "(?:" + unit + "+(?:" + after + ")?|" + after + ")"
    }
    /// The part of such a value before its transition to running text: shorter than the value when
    /// the header sits in running text after it.
    static let headerValueBeforeTransition: [Int: NSRegularExpression] = Dictionary(
        uniqueKeysWithValues: (0...15).map { escapes in
            (
                escapes,
                regex(
                    headerValueOpening(resumed: false) + headerUnit(place: .string(quote: nil, escapes: escapes)) + "*")
            )
        })
    /// Where a header whose key starts at `location` sits: in the string its context (a quote or an
    /// escaped line break, `headerContextStart`) opens, with the backslashes before it, none before
    /// `cursor` (more than 15: running text), or in running text.
    static func headerPlace(_ text: String, at location: Int, cursor: Int) -> HeaderPlace {
        guard let context = headerContextStart(text, at: location), context >= cursor else { return .running }
        let ns = text as NSString
        var p = context
        while p > max(cursor, context - 16), ns.character(at: p - 1) == 0x5C { p -= 1 }
        guard context - p <= 15 else { return .running }
        let byte = ns.character(at: context)
        let quote: Character? = byte == 0x22 ? "\"" : byte == 0x27 ? "'" : byte == 0x60 ? "`" : nil
        return .string(quote: quote, escapes: context - p)
    }
    /// What stands right before a header's name (its key and up to 24 letters and `-`) when the
    /// header sits in a string: a quote, or an escaped line break (`\n`, `\r`, nginx's `\x0A`, `\x0D`).
    static let headerContext = #"(?:["'`]|\\[nr]|\\[xX]0[AaDd])[A-Za-z-]{0,24}"#
    static let headerContextAtEnd = regex(headerContext + #"\z"#)
    /// Where the string a header whose key starts at `location` sits in starts (its quote or escaped
    /// line break), or nil.
    static func headerContextStart(_ text: String, at location: Int) -> Int? {
        let from = max(0, location - 28)
        return headerContextAtEnd.firstMatch(in: text, range: NSRange(location: from, length: location - from))?
            .range.location
    }
    /// A header in `place`, after a key with a closing quote or without: a structure after a quoted
    /// key (a JSON member) ends at its closing bracket, after another key it takes the rest of the
    /// line (groups 1–3); other values as a value's (4–14). Matched from the key (the place is
    /// read before it, `headerPlace`).
    static func headerCredential(place: HeaderPlace, quotedKey: Bool) -> NSRegularExpression {
        regex(
            headerKey + formSuffixes
                + (quotedKey ? closingKeyQuote : "") + blanks + separator + blanks + openers
                + "(?:" + structure(header: !quotedKey) + "|" + values(unquoted: headerValue(place: place)) + ")")
    }
    /// A member of Go's header map (`map[Cookie:[sid=x] Host:[a.io]]`): the key right after `map[`,
    /// `] ` or a placeholder and `[` (what a first pass leaves when a token took the `map`) and up to
    /// 24 `[A-Za-z0-9-]` (`goMapContextAtEnd`, read from the cursor), then `:[` and no `]` or `}`;
    /// read as after a quoted key, so its structure ends at its closing bracket.
    static let goMapHeaderCredential = regex(
        headerKey + #"(?=:\[[^\]}])"# + blanks + separator + blanks + openers + "(?:" + structure(header: false)
            + "|" + values(unquoted: headerValue(place: .running)) + ")")
    static let goMapContextAtEnd = regex(
        #"(?:map\[|\] |\[redacted-(?:bearer|url|email|uuid|token|secret)\]\[)[A-Za-z0-9-]{0,24}\z"#)
    /// A header after a key with no closing quote, whose value starts with an empty quoted string
    /// (``Cookie: ``sid=x``), also one escaped as JSON writes it (`Cookie: \"\"sid=x`, the same
    /// backslashes before each quote): the unquoted value after it (group 2).
    static func emptyQuoteHeaderCredential(place: HeaderPlace) -> NSRegularExpression {
        regex(
            headerKey + formSuffixes + blanks + separator
                + blanks + openers + #"(?:""|''|``|(\\{1,15})"\1")("# + headerValue(place: place) + ")")
    }
    /// The groups a header credential's value may be in.
    static let headerGroups = [1, 2, 3, 5, 7, 9, 11, 12, 13, 14, 16]
    /// The expressions of a header in each place, in the order they decide at one key: after an
    /// empty quoted string, after a quoted key, after another; each with the groups its value may be in.
    static let headerExpressions: [HeaderPlace: [(expression: NSRegularExpression, groups: [Int])]] =
        Dictionary(
            uniqueKeysWithValues: HeaderPlace.all.map { place in
                (
                    place,
                    [
                        (emptyQuoteHeaderCredential(place: place), [2]),
                        (headerCredential(place: place, quotedKey: true), headerGroups),
                        (headerCredential(place: place, quotedKey: false), headerGroups),
                    ]
                )
            })
    /// The rest of a header's value resumed after a URL, in each place.
    static let headerRests: [HeaderPlace: NSRegularExpression] = Dictionary(
        uniqueKeysWithValues: HeaderPlace.all.map { ($0, regex(headerValue(place: $0, resumed: true))) })
    static let headerKeyStart = regex(headerKey)
    /// The first header credential at a key at or after `range`'s start: the place of each key in
    /// turn is read, and its expressions are tried from the key.
    static func headerCredential(
        in text: String, range: NSRange, cursor: Int
    ) -> (match: NSTextCheckingResult, groups: [Int], place: HeaderPlace, empty: Bool)? {
        var found: (NSTextCheckingResult, [Int], HeaderPlace, Bool)?
        headerKeyStart.enumerateMatches(in: text, options: [], range: range) { key, _, stop in
            guard let key else { return }
            let location = key.range.location
            let place = headerPlace(text, at: location, cursor: cursor)
            let from = NSRange(location: location, length: range.location + range.length - location)
            // A member of Go's header map is read as after a quoted key. (Its context, the longest a
            // placeholder and `[` of 18 bytes, and a name of up to 24 before the key.)
            let before = max(cursor, location - 42)
            if place == .running,
                goMapContextAtEnd.firstMatch(in: text, range: NSRange(location: before, length: location - before))
                    != nil,
                let match = goMapHeaderCredential.firstMatch(in: text, options: [.anchored], range: from)
            {
                found = (match, headerGroups, place, false)
                stop.pointee = true
                return
            }
            for (index, (expression, groups)) in headerExpressions[place]!.enumerated() {
                if let match = expression.firstMatch(in: text, options: [.anchored], range: from) {
                    found = (match, groups, place, index == 0)
                    stop.pointee = true
                    return
                }
            }
        }
        return found
    }
    static let headerKey = #"(?:[Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz][Aa][Tt][Ii][Oo][Nn]|[Cc][Oo][Oo][Kk][Ii][Ee])"#
    static let valueKey =
        #"(?:[Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd]|[Pp][Aa][Ss][Ss][Ww][Dd]|[Pp][Ww][Dd]|[Pp][Aa][Ss][Ss][Pp][Hh][Rr][Aa][Ss][Ee]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Tt][Oo][Kk][Ee][Nn]|[Aa][Pp][Ii][_-]?[Kk][Ee][Yy]|[Ss][Ee][Cc][Rr][Ee][Tt][_-]?[Kk][Ee][Yy]|[Pp][Rr][Ii][Vv][Aa][Tt][Ee][_-]?[Kk][Ee][Yy]|[Aa][Cc][Cc][Ee][Ss][Ss][_-]?[Kk][Ee][Yy]|[Ss][Ee][Ss][Ss][Ii][Oo][Nn][Ii][Dd]|[Ss][Ee][Ss][Ss][Ii][Oo][Nn]_[Ii][Dd]|[Ss][Ee][Ss][Ss][Ii][Dd]|[Cc][Rr][Ee][Dd][Ee][Nn][Tt][Ii][Aa][Ll][Ss]|(?:(?<![a-z\]])[Pp]|(?<=\\[nrt]|%[0-9A-Fa-f][a-f]|\\x[0-9A-Fa-f][a-f]|\\u[0-9A-Fa-f]{3}[a-f])[Pp]|P)[Aa][Ss][Ss])"#
    /// An empty value that resumes after the URL right after it: a header's unquoted value (also
    /// after empty quotes), or a quoted one that stops before the quote right before the URL, or
    /// one in a spelled quote (group 5) that stops before the URL or the quote right before it.
    /// (A `'` or backtick after backslashes opens no value: the header's unquoted value is empty
    /// before such a quote right before a URL, as before the URL itself.)
    static let emptyHeaderBeforeURL = regex(headerKey + keyTail + #"(?=\uE000|\\{1,15}['`]\uE000)"#)
    static let emptyQuotesHeaderBeforeURL = regex(
        headerKey + formSuffixes + blanks + separator + blanks + openers
            + #"(?:""|''|``|(\\{1,15})"\1")(?=(?:\\{0,15}["'`])?\uE000)"#)
    static let emptyQuotedBeforeURL = regex(
        "(?:(?:" + headerKey + "|" + valueKey + "|" + pairKey + ")" + keyTail + "|" + optionKey + optionTail + ")"
            + emptyQuotedTail)
    /// ``emptyQuotedBeforeURL`` after its key: the empty quoted value and what must follow it.
    static let emptyQuotedTail =
        #"(?:(?:(\\{1,15}")|"# + stringPrefix
        + #"(")|"#
        + stringPrefix + #"(')|(`))(?=\\{0,15}["'`]\uE000)|("# + spelledQuote
        + #"|\\'(?!\uE000))(?=(?:\\{0,15}["'`])?+\uE000))"#
    /// …or after a key whose closing quote is doubled, the same doubled quote (group `dq`).
    static let emptyDoubledBeforeURL = regex(
        "(?:" + headerKey + "|" + valueKey + ")" + formSuffixes + #"(?<dq>""|'')"# + blanks + separator + blanks
            + openers + #"\k<dq>(?=\\{0,15}["'`]\uE000)"#)
    /// A value's end right before a URL (or the quote, and backslashes, right before one).
    static let beforeURL = regex(#"(?:\\{0,15}["'`])?\uE000"#)
    /// After a URL in running text: the trailing punctuation rule 1 left out and what ended it.
    /// …or a quote (after a backslash or not) that closed it, and the byte that made it close.
    static let afterRunningQuote = regex(#"[.,;:!?]*+(\\?)(["'`])[\x00-\x09\x0B\x0C\x0E-\x20\x7F,;}\])>]"#)
    static let afterRunningURL = regex(
        #"[.,;:!?]*+(?:[\x00-\x09\x0B\x0C\x0E-\x20\x7F)\]}>]|["# + spaces + #"]|\\t)"#)
    /// …or an escaped line break, which a quoted value runs over (`\r\n` as one).
    static let afterEscapedLineBreak = regex(#"[.,;:!?]*+\\(?:r(?:\\n)?+|n)"#)
    static let valueCredential = valueExpression(key: valueKey)
    /// A long command-line option named by a key (`--password x`, `--db-password 'x y'`): `--` not
    /// right after an `[A-Za-z0-9_-]`, a run of them ending in a key (a header's too, whose value is
    /// a value's here), spaces or tabs and no `-` after them (another option), then what follows a
    /// separator (blanks, openers, the value). The same groups as ``valueCredential``.
    static let optionCredential = valueExpression(key: optionKey, tail: optionTail)
    /// A password after a user option (the scanner's `userOptionPassword(colon:bound:curl:)`): an
    /// empty key at the `:` after curl's `-u`, `--user`, `-U`, `--proxy-user` (`-u` and `-U` also
    /// after curl's flags in the same word, ``curlShortUserOption``; where a `curl` word,
    /// ``curlWord``, starts before the `:`) or HTTPie's `--auth`; the option at the start or after
    /// white space, a quote or an escaped `\t`, `\n`, `\r`, then 1 to 64 spaces or tabs or an `=` and
    /// an optional `"`, `\"` or `'`, or (an argument list) the option in quotes, `,`, a space at most
    /// and the same quote, or (curl's `-u` and `-U`, `glued`) nothing; then a user name, empty or 1
    /// to 64 `[A-Za-z0-9._@+~!$%\-]` ending in a letter or digit, not digits alone. After a bare name
    /// the value is read as after any key; after a quote (before the name, or before a glued option)
    /// it is the rest of that quote's string (`quote`: `"`, `'`, or `\"` for JSON's escaped one),
    /// in group 1. (Where a key ends at the `:`, its credential starts earlier and wins.)
    static func userOptionCredential(_ options: String, glued: Bool, quote: String?) -> NSRegularExpression {
        let name = #"(?![0-9]{1,64}:)(?:[A-Za-z0-9._@+~!$%\\\-]{0,63}[A-Za-z0-9])"#
        let start = #"(?:^|[\t-\r "']|\\[tnr])"#
        let boundary = start + "(?:" + options + ")"
        let separator = #"(?:[ \t]{1,64}|=)"#
        guard let quote else {
            // (Empty only after a blank or a quote: the scanner's span pass passes over a `:` right
            // after `=`, another trigger.)
            let gluedBare = glued ? "|" + #"(?:^|[\t-\r ]|\\[tnr])"# + curlShortUserOption + name + "?" : ""
            let bare = "(?<=" + boundary + "[ \t]{1,64}" + name + "?|" + boundary + "=" + name + gluedBare + ")"
            return valueExpression(key: bare + "(?=:)", tail: ":=?+" + blanks + openers)
        }
        // The opening quote: after the separator, in an argument list (the option's quote, `,`, a
        // space at most), or before a glued option (a `"` not escaped).
        let opening: String
        let value: String
        // (Glued: also the quote right after `-u`, mid-word as a shell reads it, `-u"alice:x y"`.)
        let afterShort = glued ? "|" + start + curlShortUserOption : ""
        switch quote {
        case "'":
            opening =
                boundary + separator + "'|'(?:" + options + ")', ?'"
                + (glued ? "|'" + curlShortUserOption + afterShort + "'" : "")
            value = quotedValue("'")
        case "\"":
            opening =
                boundary + separator + #"""# + #"|"(?:"# + options + #")", ?""#
                + (glued ? #"|(?:^|[^\\])""# + curlShortUserOption + afterShort + #"""# : "")
            value = quotedValue("\"")
        default:
            opening =
                boundary + separator + #"\\""#
                + (glued ? #"|\\""# + curlShortUserOption + afterShort + #"\\""# : "")
            value = escapedQuotedValue(escapes: #"\\"#)
        }
        // The same quote right after the `:` closes the name's string: no password (`-u 'alice:'`).
        let closing = quote == "'" ? "(?!:')" : #"(?!:\\?")"#
        return regex("(?<=(?:" + opening + ")" + name + "?)" + closing + ":" + value)
    }
    /// curl's short user options, `-u` and `-U`, also after up to 8 of curl's flags in the same word
    /// (`-su`, `-fsSLu`; the scanner's `isCurlFlag(_:)`), and its long ones.
    static let curlShortUserOption = "-[aBfgGiIjJklLMnNOpqRsSvVZ0-46]{0,8}[uU]"
    static let curlUserOptions = curlShortUserOption + "|--user|--proxy-user"
    static let curlShortUserOptionExpression = regex(curlShortUserOption)
    static let curlUserOptionCredential = userOptionCredential(curlUserOptions, glued: true, quote: nil)
    static let authUserOptionCredential = userOptionCredential("--auth", glued: false, quote: nil)
    /// The same after a quote (`"`, `'`, JSON's `\"`): the password in group 1.
    static let quotedCurlUserOptionCredentials = ["\"", "'", #"\""#].map {
        userOptionCredential(curlUserOptions, glued: true, quote: $0)
    }
    static let quotedAuthUserOptionCredentials = ["\"", "'", #"\""#].map {
        userOptionCredential("--auth", glued: false, quote: $0)
    }
    static let userOptionCredentials =
        [curlUserOptionCredential, authUserOptionCredential] + quotedCurlUserOptionCredentials
        + quotedAuthUserOptionCredentials
    /// A password in a command's short option (the scanner's `commandOption(from:end:words:)`):
    /// `-` and the option's name at a ``commandBoundary(_:)``;
    /// then spaces or tabs and no `-`, or (`glued`) no space or tab; then what
    /// follows a separator (blanks, openers, the value), the same groups as ``valueCredential``. Each
    /// counts only after the first of its command words (``commandPasswordOptions``).
    static func commandPasswordCredential(_ option: String, glued: Bool) -> (key: String, tail: String) {
        let name = "-(?:" + option + ")"
        // (An option in quotes of its own is an argument of a list: ``commandPasswordListCredential``.)
        let boundary = commandBoundary(name)
        let tail = glued ? #"(?![ \t]|\\t)"# : #"(?:[ \t]|\\t)++"# + optionValueStop
        return (boundary + name, tail + blanks + openers)
    }
    /// Where a command's option `name` may start: at the start, after a byte up to a space, an
    /// escaped `\t`, `\n` or `\r` (a command in a JSON string), or a quote (`"`, `'`) not also
    /// right after the option (an argument list's, ``commandPasswordListCredential``; JSON's `\"`
    /// on both sides too).
    static func commandBoundary(_ name: String) -> String {
        let escapedLists = escapedListQuotes.map { "(?!(?<=" + #"(?<!\\)"# + $0 + ")" + name + $0 + ")" }.joined()
        return #"(?:^|(?<=[\x00-\x20])|(?<=\\[tnr])|(?<=")(?!"# + name + #"")"# + escapedLists + "|(?<=')(?!" + name
            + "'))"
    }
    /// A list's quote in a JSON string escaped once, twice or three times (exactly 1, 3 or 7
    /// backslashes and `"`; the scanner's `quotedOption(dash:nameEnd:end:)`).
    static let escapedListQuotes = [#"\\""#, #"\\{3}""#, #"\\{7}""#]
    /// The same option in quotes of its own (`quote`), an argument of a list (`["sshpass", "-p",
    /// "x"]`, `'-p' 'x'`): `,` and a space at most, or spaces and tabs, then the value in the same
    /// quotes, not starting with `-`.
    static func commandPasswordListCredential(_ option: String, quote: String, escaped: Bool = false)
        -> (key: String, tail: String)
    {
        (
            "(?<=" + (escaped ? #"(?<!\\)"# : "") + quote + ")-(?:" + option + ")" + quote,
            "(?:, ?|[ \t]++)(?=" + quote + optionValueStop + ")" + blanks + openers
        )
    }
    /// lftp's `-u user,password` (the scanner's `lftpPassword(dash:nameEnd:value:end:)`): the option
    /// apart, a user name of 1 to 64 `[A-Za-z0-9._@+~!$%\-]` and `,`, no blank, then what follows a
    /// separator (openers, the value), the same groups as ``valueCredential``.
    static let lftpUserName = #"[A-Za-z0-9._@+~!$%\-]{1,64}"#
    static let lftpCredential: NSRegularExpression = {
        let boundary = commandBoundary("-u")
        return valueExpression(
            key: boundary + "-u",
            tail: #"(?:[ \t]|\\t)++"# + optionValueStop + lftpUserName + ",(?!" + blank
                + #"|\\\[redacted-(?:token|email)\])"# + openers)
    }()
    /// …after a quote (`"`, `'`, JSON's `\"`) before the name, apart or in an argument list
    /// (`["lftp", "-u", "bob,x"]`): the rest of that quote's string, in group 1 (the same quote right
    /// after the `,` closes it: none).
    /// (Also JSON's `\"` escaped twice or three times, `\\\"` and seven backslashes, as the
    /// scanner's `quotedOption(dash:nameEnd:end:)` reads a list's quote.)
    static let quotedLFTPQuotes: [(quote: String, escapes: Int)] = [
        ("\"", 0), ("'", 0), (#"\""#, 1), (#"\\\""#, 3), (#"\\\\\\\""#, 7),
    ]
    static let quotedLFTPCredentials: [NSRegularExpression] = quotedLFTPQuotes.map { quote, escapes in
        let boundary = commandBoundary("-u")
        let q = NSRegularExpression.escapedPattern(for: quote)
        let apart = boundary + #"-u(?:[ \t]|\\t)++"# + q
        let list = "|(?<=" + (escapes > 0 ? #"(?<!\\)"# : "") + q + ")-u" + q + "(?:, ?|[ \t]++)" + q + optionValueStop
        let closing =
            quote == "'" ? "(?!')" : escapes <= 1 ? #"(?!\\?")"# : #"(?!\\{0,"# + String(escapes) + #"}")"#
        let value =
            quote == "'"
            ? quotedValue("'")
            : escapes == 0 ? quotedValue("\"") : escapedQuotedValue(escapes: #"\\{"# + String(escapes) + "}")
        return regex("(?:" + apart + list + ")" + lftpUserName + "," + closing + value)
    }
    static let quotedLFTPIdentities = identities(quotedLFTPCredentials)
    /// htpasswd's password in batch mode (the scanner's `htpasswdPassword(dash:end:bound:)`): right
    /// after the word `htpasswd` and a separator, 1 to 8 option words (1 to 8 flags, not `p` first,
    /// or up to 8 and `-C` or `-r` and 1 to 4 digits), one with `b`, an optional `--`; then the
    /// file (not with `n`) and the user (1 to 255 `[A-Za-z0-9._@+~!$/{}-]`, not from `-`, or up to
    /// 255 of them in `"` or `'`), then the password, not from `-`; the words apart by a
    /// separator, 1 to 64 spaces, tabs or escaped tabs. The credential starts after the user
    /// (``htpasswdPrefix``), the file and the user left to rules 3–7. (A URL is one mark here, so
    /// no `htpasswd` in a URL's path counts, as the scanner's `bound`.)
    static let htpasswdSeparator = #"(?:[ \t]|\\t){1,64}+(?![ \t]|\\t)"#
    static let htpasswdPrefix: NSRegularExpression = {
        let flags = "[bcnispdmBDv]"
        // (`-C` first: the atomic group below keeps the first alternative that matches.)
        let option = "-(?!p)(?:" + flags + "{0,8}[Cr](?:" + htpasswdSeparator + ")?[0-9]{1,4}|" + flags + "{1,8})"
        let options =
            "(?>" + option + "(?:" + htpasswdSeparator + option + "){0,7})(?:" + htpasswdSeparator + "--)?"
        func holding(_ letter: String) -> String {
            "(?:" + option + htpasswdSeparator + "){0,7}-" + flags + "{0,8}" + letter
        }
        let name = #"[A-Za-z0-9._@+~!$/{}\-]"#
        let word =
            "(?:(?!-)" + name + "{1,255}+(?!" + name + ")|\"" + name + "{0,255}+\"|'" + name + "{0,255}+'|"
            + #"\\""# + name + #"{0,255}+\\")"#
        return regex(
            "(?=" + holding("b") + ")(?:(?=" + holding("n") + ")" + options + htpasswdSeparator + word + "|(?!"
                + holding("n") + ")" + options + htpasswdSeparator + word + htpasswdSeparator + word + ")")
    }()
    static let htpasswdKey =
        #"(?<=(?:(?<![A-Za-z0-9\]@.-])|(?<=\\[ntr]))(?<!//)(?<!\\/)htpasswd(?:[ \t]|\\t){1,64})"#
        + htpasswdPrefix.pattern
    static let htpasswdTail = htpasswdSeparator + optionValueStop + blanks + openers
    /// Where an option's value may not start: a `-` (another option), or what rules 4 and 7 leave
    /// of a run that starts with one (`-888…é` → `[redacted-token]é`; the scanner's
    /// `optionValueMayStart(at:end:)`).
    static let optionValueStop = #"(?!-|\\?\[redacted-(?:token|email)\])"#
    static let htpasswdCredential = valueExpression(key: htpasswdKey, tail: htpasswdTail)
    /// …and its empty quoted value right before a URL (``commandPasswordOptions``' companions).
    static let htpasswdEmptyBeforeURL = regex(htpasswdKey + htpasswdTail + emptyQuotedTail)
    /// A command's word: not right after an `[A-Za-z0-9-]` (but after an escaped `\n`, `\t`, `\r`),
    /// `.` (an extension), `]` (a placeholder), `@`, `//` or `\/`
    /// (a host), before a space, a tab, `\`, a quote or the end.
    static func commandWord(_ words: String) -> NSRegularExpression {
        regex(#"(?:(?<![A-Za-z0-9\]@.-])|(?<=\\[ntr]))(?<!//)(?<!\\/)(?:"# + words + #")(?=[ \t\\"']|\z)"#)
    }
    /// `login` after a registry client's name and one space (`docker login`; not `user login failed`);
    /// the name also right after an escaped `\n`, `\t`, `\r` (`\ndocker login`).
    static let registryLogin =
        #"(?<=(?:(?<![A-Za-z0-9\]@.-])|(?<=\\[ntr]))(?<!//)(?<!\\/)(?:docker|podman|nerdctl|buildah|skopeo|oc|cf|az|registry) )login"#
    /// Each command password option with the words of the commands it is a password of; each
    /// option's expression is followed by its `emptyBeforeURL` one: an empty quoted value right
    /// before a URL (``emptyQuotedTail``), as after a key, whose value resumes after the URL.
    static let commandPasswordOptions:
        [(option: NSRegularExpression, words: NSRegularExpression, emptyBeforeURL: Bool)] = {
            /// An option's expressions: apart from its value (and in a list), glued, or both.
            func entries(_ option: String, _ words: String, apart: Bool = true, glued: Bool = false)
                -> [(option: NSRegularExpression, words: NSRegularExpression, emptyBeforeURL: Bool)]
            {
                let word = commandWord(words)
                var keys: [(key: String, tail: String)] = []
                if apart {
                    keys.append(commandPasswordCredential(option, glued: false))
                    for quote in ["\"", "'"] { keys.append(commandPasswordListCredential(option, quote: quote)) }
                    for quote in escapedListQuotes {
                        keys.append(commandPasswordListCredential(option, quote: quote, escaped: true))
                    }
                }
                if glued { keys.append(commandPasswordCredential(option, glued: true)) }
                return keys.flatMap { key, tail in
                    [
                        (valueExpression(key: key, tail: tail), word, false),
                        (regex(key + tail + emptyQuotedTail), word, true),
                    ]
                }
            }
            return entries("p", "sshpass|" + registryLogin + "|mongo[A-Za-z0-9-]*|useradd|usermod")
                + entries(
                    "p",
                    "sshpass|" + registryLogin
                        + "|mysql[A-Za-z0-9-]*|mariadb[A-Za-z0-9-]*|7z|7za|rar|unrar|useradd|usermod",
                    apart: false, glued: true)
                + entries("a", "redis-cli|https?|ldappasswd") + entries("a", "ldappasswd", apart: false, glued: true)
                + entries("U", "smbclient") + entries("N", "ssh-keygen", glued: true)
                + entries("hp", "rar|unrar", apart: false, glued: true)
                // ldap's `-w` and zip's `-P` also after flags of the same command in one word (`-xw`,
                // `-rP`; the scanner's `isLDAPFlag(_:)`, `isZipFlag(_:)`).
                + entries("[AcCILMnNQrtuvVWxZ]{0,8}w", "ldap[A-Za-z0-9-]*", glued: true)
                + entries(zipPassword, "zip|unzip|sqlcmd|bcp|ssh-keygen")
                // (ssh-keygen's `-P` also glued, after the same flags the scanner reads before it.)
                + entries(zipPassword, "ssh-keygen", apart: false, glued: true)
                + entries("k", "openssl")
                + [(lftpCredential, commandWord("lftp"), false)]
                + quotedLFTPCredentials.map { ($0, commandWord("lftp"), false) }
                + entries("storepass|keypass|srcstorepass|deststorepass|srckeypass|destkeypass", "keytool|jarsigner")
                // (After keytool's: at the same `-s`, keytool's option is read first.)
                + entries("s", "ldappasswd", glued: true)
        }()
    static let commandPasswordCredentials = commandPasswordOptions.map(\.option)
    /// zip's `-P`, also after zip's flags in the same word (the scanner's `isZipFlag(_:)`).
    static let zipPassword =
        "(?:[AacCDefFgjJkKlLmMNopqrRSTuUvVWXyYz][0-9AacCDefFgjJkKlLmMNopqrRSTuUvVWXyYz]{0,7})?P"
    /// Expressions by identity: the credential loop asks of each candidate which kind it is.
    static func identities(_ expressions: [NSRegularExpression]) -> Set<ObjectIdentifier> {
        Set(expressions.map(ObjectIdentifier.init))
    }
    static let commandPasswordIndex = Dictionary(
        uniqueKeysWithValues: commandPasswordCredentials.enumerated().map { (ObjectIdentifier($1), $0) })
    static let commandPasswordIdentities = identities(commandPasswordCredentials)
    /// The command options' empty-before-URL expressions (``commandPasswordOptions``).
    static let commandEmptyBeforeURL = commandPasswordOptions.filter(\.emptyBeforeURL).map(\.option)
    static let commandEmptyBeforeURLIdentities = identities(commandEmptyBeforeURL)
    static let userOptionIdentities = identities(userOptionCredentials)
    /// Whether `expression` (none: a header's match) is one of `identities`.
    static func among(_ expression: NSRegularExpression?, in identities: Set<ObjectIdentifier>) -> Bool {
        expression.map { identities.contains(ObjectIdentifier($0)) } ?? false
    }
    static let quotedCurlUserOptionIdentities = identities(quotedCurlUserOptionCredentials)
    static let quotedUserOptionIdentities = identities(
        quotedCurlUserOptionCredentials + quotedAuthUserOptionCredentials)
    /// The word `curl` as a command (``commandWord(_:)``).
    static let curlWord = commandWord("curl")
    static let optionKey = #"(?<![A-Za-z0-9_\-\]])--[A-Za-z0-9_\-]*?(?:"# + valueKey + "|" + headerKey + ")"
    static let optionTail =
        #"[ \t]++(?!"# + blanks
        + #"(?:-|\\?\[redacted-(?:token|email)\]|=|:|\\u003[DdAa]|\uFF1D|\uFF1A|%3[DdAa]|%253[DdAa]))"# + blanks
        + openers
    /// A name–value pair's `value` member (HAR, Kubernetes `env`, Python's dict, Go's `%+v`, AWS
    /// SSM): after a `name` or `key` member whose string ends in a credential key (after a run of
    /// `[A-Za-z0-9_./-]`) and up to four members between them (a key of 1 to 32 `[A-Za-z0-9_.-]`
    /// other than `value`, then a string of up to 64 `[A-Za-z0-9 _.+/@:-]` or a scalar of 1 to 64
    /// `[A-Za-z0-9_.+/@-]`, unquoted not starting with `/`), every quote `"`, every one `\"`, every
    /// one `'`, or none (then the `name` not right after a name's character, and the members apart
    /// by a `,` or one space), a space at most around each `:` and `,`, or each member on a line of
    /// its own (a `,`, unquoted none needed, a line break, real or escaped, and up to 64 spaces or
    /// tabs: pretty-printed JSON, YAML). (The scanner reads any name
    /// run; a look-behind must be bounded, so here the run is at most 255 long: no generated line
    /// is near it. The look-behind comes after `value`, so it is tried only where `value` is.)
    static let pairCredential = valueExpression(key: pairKey)
    static let pairKey: String = {
        let value = "[Vv][Aa][Ll][Uu][Ee]"
        // A member's strings are in the members' quote `q`; unquoted members' strings may also have
        // quotes of their own, `"` or `'` (JavaScript's and Ruby's `inspect`, YAML).
        func member(_ q: String, stringQuotes: [String], between: String, scalar: String) -> String {
            let name = #"[A-Za-z0-9_./\-\[%]{0,255}(?:"# + valueKey + "|" + headerKey + ")" + formSuffixes
            let names = "(?:" + stringQuotes.map { $0 + name + $0 }.joined(separator: "|") + ")"
            let texts = stringQuotes.filter { !$0.isEmpty }.map { $0 + #"[A-Za-z0-9 _.+/@:\-]{0,64}"# + $0 }
            let plain =
                q + "(?!" + value + q + " ?:)" + #"[A-Za-z0-9_.\-]{1,32}"# + q + " ?: ?"
                + "(?:" + (texts + [scalar]).joined(separator: "|") + ")"
            return #"(?:[Nn][Aa][Mm][Ee]|[Kk][Ee][Yy])"# + q + " ?: ?" + names + between + "(?:" + plain + between
                + "){0,4}" + q + value
        }
        let scalar = #"[A-Za-z0-9_.+/@\-]{1,64}"#
        // A member on a line of its own: a line break, real or escaped, and its indentation.
        let lineBreak = #"(?:\r?\n|(?:\\r)?\\n)(?:[ \t]|\\t){0,64}"#
        let quoted = [#"""#, #"\\""#, "'"].map { q in
            q + member(q, stringQuotes: [q], between: "(?: ?, ?| ?," + lineBreak + ")", scalar: scalar)
        }
        let unquoted =
            #"(?:^|[^A-Za-z0-9_./\-\]]|\\[nt])"#
            + member(
                "", stringQuotes: [#"""#, "'", ""], between: "(?: ?, ?| | ?," + lineBreak + "|" + lineBreak + ")",
                scalar: "(?!/)" + scalar)
        return value + "(?<=" + (quoted + [unquoted]).joined(separator: "|") + ")"
    }()
    /// An XML element named by a credential key (the scanner's `element(close:bound:stop:end:)`):
    /// matched at its start tag's `>`, which a look-behind reads back over (a prefix and `:`, the
    /// local name, a blank and attributes); then a CDATA section's content (group 1) or the text up
    /// to a `<`, a line break or a URL, holding a byte other than a space or tab (group 2). The tag's
    /// last byte is a letter, a digit or a quote.
    static let markupElementCredential: NSRegularExpression = {
        let name = #"[A-Za-z0-9_.\-]{0,64}"#
        let tag =
            "<(?:" + name + ":)?" + name + "(?:" + valueKey + "|" + headerKey + #")(?:[\t-\r ][^<>\uE000]{0,192})?"#
        return regex(
            ">(?<=" + tag + #">)(?<=[A-Za-z0-9"'`]>)"#
                + #"(?:<!\[CDATA\[((?:(?!\]\]>)"# + notContextQuote + #"[^\r\n\uE000])+)|(?=[ \t]*"#
                + notContextQuote + #"[^ \t<\r\n\uE000])((?:"# + notContextQuote + #"[^<\r\n\uE000])+))"#)
    }()
    /// A multipart form-data part named by a credential key (the scanner's
    /// `formPart(separator:bound:stop:end:)`): `name="…key"` (or with `\"`), a blank line, real or
    /// escaped, and the part's first line (group 2).
    static let formPartCredential = regex(
        #"(?<![A-Za-z0-9_.\-])[Nn][Aa][Mm][Ee]=(\\?)"[A-Za-z0-9_.\-]*(?:"# + valueKey + "|" + headerKey
            + #")\1"(?:\r\n\r\n|\n\n|\\r\\n\\r\\n|\\n\\n)((?:"# + notContextQuote
            + #"(?:[^\r\n\\\uE000]|\\(?![rn])))+)"#)
    /// Not the quote (and up to 15 backslashes) right before a URL: that URL's context.
    static let notContextQuote = #"(?!\\{0,15}["'`]\uE000)"#
    /// A value credential after `key`: a structure (groups 1–3) or a value (4–15).
    static func valueExpression(key: String, tail: String = keyTail) -> NSRegularExpression {
        regex(
            key + tail + "(?:" + structure(header: false) + "|"
                + values(
                    unquoted:
                        // A scheme's name, blanks and its token, as rule 3 takes one (after more names,
                        // quoted, also by an escaped `"`, or in `<…>`, blanks inside the quotes), is one
                        // value.
                        // A run (R, or S: R or nothing) may start with an escaped line break, which
                        // ends it anywhere else (C), but not right after a placeholder.
                        #"\[redacted-[a-z]+\]C*+|N(?!C)(?:BN(?!C))*+(?:B(?:"(?:B)?+R(?:(?:B)?+"(?!\uE000)S)?+|(?<esc>\\{1,15})"(?:B)?+R(?:(?:B)?+\k<esc>"(?!\uE000)S)?+|'(?:B)?+R(?:(?:B)?+'(?!\uE000)S)?+|<(?:B)?+R(?:(?:B)?+>S)?+|R))?+|R"#
                        // (B first and N last: the expansions of N and C hold a `B`, of R and S a `C`,
                        // none an `N`, `R` or `S`.)
                        .replacingOccurrences(of: "B", with: blank + "++")
                        .replacingOccurrences(of: "S", with: "(?:R)?+")
                        .replacingOccurrences(
                            of: "R",
                            with:
                                #"(?:\\(?=[rn]|[xX]0[AaDd]|[xX]0?\[redacted-uuid\]|\[redacted-(?:email|token)\]|"#
                                + escapedValueStop + ")|C)C*+"
                        )
                        .replacingOccurrences(of: "C", with: unquotedValueCharacter)
                        .replacingOccurrences(of: "N", with: #"(?:[Bb][Ee][Aa][Rr][Ee][Rr]|[Bb][Aa][Ss][Ii][Cc])"#))
                + ")")
    }

    /// After a percent-encoded separator (`%3D`, `%3A`, any case): `%20`s, an optional `%22` or
    /// `%27`, then a placeholder, a value up to the same encoded quote, or an unquoted value up to
    /// an encoded byte that ends one in plain text (a header value: an encoded line break); all
    /// also end where an unquoted value ends in plain text.
    static let percentKeyTail = formSuffixes + keyQuote + blanks + #"(?:%20|\+)*+%3[DdAa](?:%20|\+)*+"#
    /// A separator encoded twice (`%253D`, `%253A`: a form in a parameter of another URL), and the
    /// blanks around it encoded once more (`%2520`, and `%2B` for form encoding's `+`); the key's
    /// quote may be encoded twice too (`%2522`, `%2527`).
    static let doubledPercentKeyTail =
        formSuffixes + "(?:" + closingKeyQuote + "|%252[27])?+" + blanks
        + #"(?:%2520|%2[Bb])*+%253[DdAa](?:%2520|%2[Bb])*+"#
    static let plainValueCharacter = #"(?:[^\x00-\x20\x7F&,;"'`<>)\]}\\\uE000"# + spaces + #"]|\\(?!["'`]))"#
    /// …and, outside percent-encoded values, a `\` that starts an escaped line break as a
    /// header's value sees one (or is right before a later rule's placeholder) ends it too.
    static let unquotedValueCharacter =
        #"(?:[^\x00-\x20\x7F&,;"'`<>)\]}\\\uE000"# + spaces
        + #"]|\\(?!["'`]|(?:r(?:\\n)?+|n|[xX]0[Dd](?:\\[xX]0[Aa])?+|[xX]0[Aa])(?![ \t]|\\t)|[xX]0?\[redacted-uuid\]|\[redacted-(?:email|token)\]|"#
        + escapedValueStop + "))"
    /// A JSON escape `\u00XX` of a byte that ends an unquoted value (the bytes of `percentValueStop`:
    /// Gson's `\u0026` for `&`), which ends one as the byte does (not at its first byte). (No `B`,
    /// `C`, `N`, `R` or `S`: `valueExpression(key:)` substitutes those letters.)
    static let escapedValueStop = #"u00(?:[01][0-9A-Fa-f]|2[02679c\x43]|3[b\x42c\x43eE]|5[dD]|60|7[dDfF])"#
    static let percentStopCode = #"(?:[01][0-9A-Fa-f]|2[02679Cc]|3[BbCcEe]|5[Dd]|60|7[DdFf])"#
    static let percentValueStop = "%" + percentStopCode
    /// A `%` without two hex digits ends every percent-encoded value.
    static let malformedPercent = "%(?![0-9A-Fa-f]{2})"
    /// Percent-encoded values (groups 1–7) after a separator encoded once, or twice (`doubled`: the
    /// quotes and stops encoded once more, `%2522`, `%25` + a stop's code; a stop encoded once,
    /// text of the outer level, and a `%25` without two hex digits end every value too).
    static func percentValues(header: Bool, doubled: Bool) -> String {
        let encoding = doubled ? "%25" : "%"
        let stop = header ? encoding + "0[AaDd]" : encoding + percentStopCode
        let ends = doubled ? percentValueStop + "|" + malformedPercent + "|%25(?![0-9A-Fa-f]{2})" : malformedPercent
        let space = encoding + "20"
        // An unquoted value's character; a scheme's name and `%20`s take the run after them.
        let character = "(?:(?!" + stop + "|" + ends + ")" + plainValueCharacter + ")"
        let scheme = #"(?:[Bb][Ee][Aa][Rr][Ee][Rr]|[Bb][Aa][Ss][Ii][Cc])"#
        let (double, single) = (encoding + "22", encoding + "27")
        return
            "(" + encoding + #"2[27])?+(\[redacted-[a-z]+\])|("# + double + ")" + notPlaceholder + "((?:(?!" + double
            + "|" + ends + ")" + plainValueCharacter + ")+)|(" + single + ")" + notPlaceholder + "((?:(?!" + single
            + "|" + ends + ")" + plainValueCharacter + ")+)|(?!" + encoding + "2[27])" + notPlaceholder + "((?:"
            + scheme + "(?:" + space + ")++(?=" + character + "))*+" + character + "+)"
    }
    static let percentHeaderCredential = regex(
        headerKey + percentKeyTail + "(?:" + percentValues(header: true, doubled: false) + ")")
    static let percentValueCredential = regex(
        valueKey + percentKeyTail + "(?:" + percentValues(header: false, doubled: false) + ")")
    /// The same after a separator encoded twice (the same groups; no key matches both at one place:
    /// after the key, `%3` and `%25` or `%20` and `%2520` differ).
    static let doubledPercentHeaderCredential = regex(
        headerKey + doubledPercentKeyTail + "(?:" + percentValues(header: true, doubled: true) + ")")
    static let doubledPercentValueCredential = regex(
        valueKey + doubledPercentKeyTail + "(?:" + percentValues(header: false, doubled: true) + ")")

    // MARK: Rules 3–7
    /// Rule 3's separators after `bearer` or `basic`, and a token's characters.
    static let bearerSeparator = #"(?:[ \t\x0B\f:+]|%20|["# + spaces + #"]|\x1B\[[0-9;]{0,16}m|"# + escapedSpace + ")"
    static let bearerToken = #"(?:[A-Za-z0-9._~+/=-]|\\{1,15}/|"# + encodedBase64 + "|" + invisibleCharacter + ")"
    /// `bearer` and its token, or an unlabelled `basic` and a token (not a scheme's name) that holds
    /// a digit, `+ / =`, or a lower-case letter and an upper-case one after its first character.
    static let bearer = regex(
        #"(?:(?<![A-Za-z0-9])|(?<=%[0-9A-Fa-f]{2}|\\[nrt]|\\[xX][0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}))(?<!\[redacted-(?:bearer|url|email|uuid|token|secret)\])(?:(?:[Bb][Ee][Aa][Rr][Ee][Rr]"#
            + bearerSeparator
            + #"++)+(?:"S?B+(?:S?"(?!\uE000))?|(?<esc>\\{1,15})"S?B+(?:S?\k<esc>"(?!\uE000))?|'S?B+(?:S?'(?!\uE000))?|<S?B+(?:S?>)?|B+)"#
            // Blanks may pad a quoted token (rule 2's blanks); an escaped `"` opens one that the same
            // backslashes and `"` close.
            .replacingOccurrences(of: "S?", with: blank + "*+")
            .replacingOccurrences(of: "B+", with: bearerToken + "+")
            + "|[Bb][Aa][Ss][Ii][Cc]" + bearerSeparator + "++(?!(?:[Bb][Ee][Aa][Rr][Ee][Rr]|[Bb][Aa][Ss][Ii][Cc])"
            + bearerSeparator + ")"
            // (An encoded `/ + =` qualifies too: the scanner meets its digit.)
            + #"(?=T*?(?:[0-9+=]|\\{0,15}/|%(?:25)?(?:2[FfBb]|3[Dd]))|T*?[a-z]T*?[A-Z]|TT*?[A-Z]T*?[a-z])T++"#
            .replacingOccurrences(
                of: "T", with: bearerToken)
            // A SASL credential: `AUTH` or `AUTHENTICATE`, blanks, `PLAIN` or `LOGIN`, blanks and a run
            // (group `sasl`, the part replaced) of four or more base64 characters with a Basic token's
            // shape, before the end, a blank, a line break, a quote or an escaped `\r` or `\n`.
            + #"|[Aa][Uu][Tt][Hh](?:[Ee][Nn][Tt][Ii][Cc][Aa][Tt][Ee])?[ \t]++(?:[Pp][Ll][Aa][Ii][Nn]|[Ll][Oo][Gg][Ii][Nn])[ \t]++(?<sasl>(?=R*?[0-9+/=]|R*?[a-z]R*?[A-Z]|RR*?[A-Z]R*?[a-z])R{4,}+(?=[ \t\r\n"'`]|\\[rn]|\z))"#
            .replacingOccurrences(of: "R", with: "[A-Za-z0-9+/=]") + sqlPassword + ")")
    /// A SQL statement's password (rule 3; group `sql`), its words kept: `IDENTIFIED BY` (or `WITH`
    /// a plugin and `BY` or `AS`; `PASSWORD` before a quoted value skipped), a quoted value or
    /// Oracle's identifier before what ends one; or `PASSWORD 'x'`, `PASSWORD('x')`, `PASSWORD FOR
    /// account = 'x'` (group `sqlq`). `Ω` stands for a blank; an opening quote's backslashes are
    /// group `sqe` or `sqf`.
    static let sqlPassword =
        #"|[Ii][Dd][Ee][Nn][Tt][Ii][Ff][Ii][Ee][Dd]Ω++(?:[Ww][Ii][Tt][Hh]Ω++(?:\\{0,15}+['"`]|''|""|``)?[A-Za-z0-9_]{1,64}+(?:\\{0,15}+['"`]|''|""|``)?Ω++(?:[Bb][Yy]|[Aa][Ss])|[Bb][Yy])Ω++(?:(?:[Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd]|[Vv][Aa][Ll][Uu][Ee][Ss])Ω++(?![A-Za-z]))?+"#
        .replacingOccurrences(of: "Ω", with: sqlBlank) + notQuotedPin("sqp") + "(?:" + sqlDoubled("sqd", "sqlc")
        + #"|(?:(?<sqe>\\{1,15}+)?['"]"# + notPlaceholder + #")?(?<sql>"# + sqlQuoted("sqe")
        + #"|(?<![\\'"])[A-Za-z][A-Za-z0-9_$#]*+(?=[ \t\r\n;,)\]}<>|"'`]|\\[rnt"'\\]|\z)))"#
        + #"|[Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd](?:Ω*+\(Ω*+|Ω++[Ff][Oo][Rr]Ω++(?:(?![Bb][Ee][Aa][Rr][Ee][Rr]Σ|[Bb][Aa][Ss][Ii][Cc]Σ)(?:[^ \t\r\n=\[\\]|\\(?!\\{0,14}+[nrt])))++Ω*+=Ω*+|Ω++)"#
        .replacingOccurrences(of: "Ω", with: sqlBlank).replacingOccurrences(of: "Σ", with: bearerSeparator)
        + notQuotedPin("sqpq") + "(?:" + sqlDoubled("sqdq", "sqlqc") + #"|(?<sqf>\\{1,15}+)?['"]"# + notPlaceholder
        + "(?<sqlq>"
        + sqlQuoted("sqf") + "))"
        // T-SQL's `PASSWORD = ''x''`: doubled quotes only (rule 2 takes the others).
        + #"|[Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd]Ω*+=Ω*+"#.replacingOccurrences(of: "Ω", with: sqlBlank)
        + notQuotedPin("sqpt") + sqlDoubled("sqt", "sqlec")
    /// A blank in a SQL statement: white space or an escaped line break or tab (after 1–15
    /// backslashes: a JSON string, or one escaped twice).
    static let sqlBlank = #"(?:[ \t\r\n]|\\{1,15}+[nrt])"#
    /// A pin quoted as a value (§4: it stays): closed by its opener (the same backslashes and
    /// quote, group `name`, or the quote doubled, group `name` + `d`) that does not follow again.
    static func notQuotedPin(_ name: String) -> String {
        let pin = #"[Ss][Hh][Aa]256\\{0,15}+/(?:[A-Za-z0-9+/]|\\{1,15}+/){43}+="#
        let d = #"\k<"# + name + #"d>"#
        let e = #"\k<"# + name + #"e>\k<"# + name + #"f>"#
        return #"(?!(?<"# + name + #">\\{0,15}+['"])"# + pin + #"\k<"# + name + #">(?!\k<"# + name + #">)|(?<"# + name
            + #"d>['"])"# + d + pin + d + d + "(?!" + d + ")|(?<" + name + #"e>\\{1,15}+)(?<"# + name + #"f>['"])"# + e
            + pin + e + e + "(?!" + e + "))"
    }
    /// A value a doubled quote opens (CSV's `""x""`, a SQL string's `''x''`; also escaped, its
    /// backslashes and quote written twice: a CSV row in a JSON string, `\"\"x\"\"`), not before
    /// what ends an empty value; its content (group `content`, or `content` + `e` where escaped)
    /// runs to the next doubled quote (where escaped, at a backslash run's start); four are a quote
    /// in it.
    static func sqlDoubled(_ quote: String, _ content: String) -> String {
        let empty = #"(?![ \t\r\n'"`\\;,)\]}.:|<>&/-]|["# + spaces + #"]|\z)"# + notPlaceholder
        let bare =
            #"(?<"# + quote + #">['"])\k<"# + quote + ">" + empty + "(?<" + content + ">(?:" + stopBeforeURL
            + #"(?:(?!QQ)[^\r\n]|QQQQ(?!\uE000)))++)"#.replacingOccurrences(of: "Q", with: #"\k<"# + quote + ">")
        let escaped =
            #"(?<"# + quote + #"e>\\{1,15}+)(?<"# + quote + #"f>['"])\k<"# + quote + #"e>\k<"# + quote + "f>" + empty
            + "(?<" + content + "e>(?:" + stopBeforeURL
            + #"(?:(?!(?<!\\)QQ)[^\r\n]|(?<!\\)QQQQ(?!\uE000)))++)"#.replacingOccurrences(
                of: "Q", with: #"\k<"# + quote + #"e>\k<"# + quote + "f>")
        return "(?:" + bare + "|" + escaped + ")"
    }
    /// A quoted SQL value's content after its opening quote, whose backslashes are group `group`.
    static func sqlQuoted(_ group: String) -> String {
        // Each unit, as rule 2's values, not where a quote right before a URL (its context) and up
        // to 15 backslashes before it start.
        let bare =
            #"(?<=[^\\]Q)(?:"# + stopBeforeURL
            + #"(?:[^Q\\\r\n]|\\[^\r\n]|QQ(?!\uE000| [Aa][Tt] [Ll][Ii][Nn][Ee] )))++"#
        let e = #"\k<"# + group + ">"
        let close = "(?:" + e + e + #"\\\\)*+"# + e + "Q"
        let escaped =
            #"(?<=\\Q)(?!"# + e + #"Q|[\r\n\uE000]|\z|\\{0,15}["'`]\uE000)(?:"# + stopBeforeURL + #"(?!(?<!\\)"# + close
            + #")[^\r\n])*+(?:"# + stopBeforeURL + "(?=" + close + ")(?:" + e + e + #"\\\\)*+)?+"#
        return ["'", "\""].map { quote in
            [bare, escaped].map { $0.replacingOccurrences(of: "Q", with: quote) }.joined(separator: "|")
        }.joined(separator: "|")
    }
    /// `/`, `+` or `=` percent-encoded once or twice: one base64 character (rules 3 and 7).
    static let encodedBase64 = #"%(?:25)?(?:2[FfBb]|3[Dd])"#
    /// A local part starts outside a percent-encoded byte (once or twice), and holds no encoded `=`
    /// or `&` (once or twice). A domain label may hold percent-encoded bytes 80–FF (once or twice).
    /// Both may hold a JSON `\uXXXX` escape of a non-ASCII character other than a Unicode space.
    static let email = regex(
        #"(?<!%|%[0-9A-Fa-f]|%25|%25[0-9A-Fa-f])(?:[A-Za-z0-9._+!#$*^~-]|%(?!3[Dd]|26|253[Dd]|2526)|[^\x00-\x7F"#
            + spaces
            + "]|" + escapedNonASCII + #")(?:[A-Za-z0-9._+!#$'*^~-]|%(?!3[Dd]|26|253[Dd]|2526)|[^\x00-\x7F"# + spaces
            + "]|" + escapedNonASCII + #")*(?:@|%40|%2540)"#
            + "L+(?:\\.L+)+".replacingOccurrences(
                of: "L",
                with: #"(?:[A-Za-z0-9-]|%(?:25)?[89A-Fa-f][0-9A-Fa-f]|[^\x00-\x7F"# + spaces + "]|" + escapedNonASCII
                    + ")"))
    /// `\u` and four hex digits of a code point from U+0080 on that is not a Unicode space.
    static let escapedNonASCII =
        #"\\u(?!0085|00[Aa]0|1680|200[0-9Aa]|202[89Ff]|205[Ff]|3000)(?:00[89A-Fa-f][0-9A-Fa-f]|0[1-9A-Fa-f][0-9A-Fa-f]{2}|[1-9A-Fa-f][0-9A-Fa-f]{3})"#
    static let uuid = regex(
        notInsideEscapedInvisible
            + "H(?:I*H){7}I*-I*H(?:I*H){3}I*-I*H(?:I*H){3}I*-I*H(?:I*H){3}I*-I*H(?:I*H){11}"
            .replacingOccurrences(of: "H", with: "[0-9A-Fa-f]").replacingOccurrences(
                of: "I", with: invisibleCharacter))
    /// Each `/` of the 43 characters may be written `\/` (JSON); `\/` after the `=` is a `/` too.
    /// (The eleventh session: after 1–15 backslashes, as rule 7 reads a `/`: JSON escaped twice.)
    static let pinValue =
        #"(?:[A-Za-z0-9+/]|\\{1,15}/){43}=(?![A-Za-z0-9+/=_\-"# + invisible + #"]|\\{1,15}/|"# + encodedBase64 + ")"
    static let labelledPin =
        #"[Ss][Hh][Aa]256(?:/|=|:|//|="|: |=\\"|":"|": "|\\":\\"|\\": \\"|='|" : "|\\{1,15}/|':'|': '|\\{1,15}/\\{1,15}/)"#
        + pinValue
    static let pin = regex(labelledPin + "|expected one of " + pinValue + "(?:, " + pinValue + ")*")
    static let labelledPinOnly = regex(labelledPin)
    static let token: NSRegularExpression = {
        let t = #"(?:[A-Za-z0-9_\-]|"# + invisibleCharacter + ")"
        // `\/` (`JSONEncoder`'s `/`; `\\\/` escaped twice, up to 15 backslashes) is one base64 character.
        // So is `%2F` (`%2B`, `%3D`, encoded twice `%252F`), where no match starts inside one.
        let b = #"(?:[A-Za-z0-9+/=_\-]|\\{1,15}/|"# + encodedBase64 + "|" + invisibleCharacter + ")"
        let insideEncoded =
            #"(?!(?<=%)(?:25)?(?:2[FfBb]|3[Dd])|(?<=%2)(?:5(?:2[FfBb]|3[Dd])|[FfBb])|(?<=%3)[Dd]"#
            + #"|(?<=%25)(?:2[FfBb]|3[Dd])|(?<=%252)[FfBb]|(?<=%253)[Dd])"#
        return regex(
            // A JWT: three segments (the last standard base64 too), or two long ones.
            insideEncoded + notInsideEscapedInvisible + "(?:" + b + "*?eyJ" + t + #"+\."# + t + #"+\."# + b + "*|" + b
                + "*?eyJ(?=" + t
                + #"{13,}\.)"# + t + #"+\.(?="#
                + b + "{16})" + b + "+|(?=" + b + "*?[0-9]|(?!" + name + ")(?:" + b + "*?[a-z]" + b
                + "*?[A-Z]|" + b + "*?[A-Z]" + b + "*?[a-z]))" + b + "{32,})")
    }()
    /// A name, not a token, when the run has both letter cases and no digit: the whole run (to a
    /// byte that is none of rule 7's characters) is ASCII letters, `_`, `-` and `=`, and every
    /// stretch of lower-case letters but the first is two or more long.
    static let name =
        #"[a-z]*+(?:[A-Z_=\-]++[a-z]{2,}+)*+[A-Z_=\-]*+(?!"# + #"(?:[A-Za-z0-9+/=_\-]|\\{1,15}/|"#
        + encodedBase64 + "|" + invisibleCharacter + "))"
    /// Rule 7's characters (`b` above) up to the end: where a run that ends somewhere starts.
    static let runToEnd = regex(
        #"(?:[A-Za-z0-9+/=_\-]|\\{1,15}/|"# + encodedBase64 + "|" + invisibleCharacter + #")+\z"#)

    /// Rule 4's match `range` in `seen` (searched from `cursor`), widened over a token glued to it:
    /// when rule 7's match at the start of the run that ends at the local part (after `cursor`)
    /// reaches past the match's start, the match starts there; when rule 7's match at the start of
    /// the run that holds the domain's end reaches past the match's end, it ends there.
    static func widenedEmail(_ range: NSRange, in seen: String, cursor: Int) -> NSRange {
        let ns = seen as NSString
        var start = range.location
        var end = range.location + range.length
        func runStart(_ from: Int, _ to: Int) -> Int? { Self.runStart(ns, from, to) }
        func tokenEnd(_ at: Int) -> Int? {
            token.firstMatch(
                in: seen, options: [.anchored, .withTransparentBounds],
                range: NSRange(location: at, length: ns.length - at)
            ).map { $0.range.location + $0.range.length }
        }
        if let before = runStart(cursor, start), let tokenEnd = tokenEnd(before), tokenEnd > start { start = before }
        if let after = runStart(range.location, end), let tokenEnd = tokenEnd(after), tokenEnd > end {
            // Not over a labelled pin (rule 6 keeps it).
            let pinStart =
                labelledPinOnly.firstMatch(
                    in: seen, options: [.withTransparentBounds], range: NSRange(location: end, length: ns.length - end)
                )?.range.location ?? Int.max
            if pinStart >= tokenEnd { end = tokenEnd }
        }
        return NSRange(location: start, length: end - start)
    }

    /// Where the run of rule 7's characters that ends at `to` starts in `ns` (read back no further
    /// than `from`), or nil when none ends there.
    static func runStart(_ ns: NSString, _ from: Int, _ to: Int) -> Int? {
        // The characters a run may hold, and any `%` or `\\`: what lies before the run's start.
        func mayBeInRun(_ unit: unichar) -> Bool {
            switch unit {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2B, 0x2F, 0x3D, 0x5F, 0x2D, 0x5C, 0x25: return true
            case 0xAD, 0x200B...0x200D, 0x2060, 0xFEFF: return true
            default: return false
            }
        }
        var low = to
        while low > from, mayBeInRun(ns.character(at: low - 1)) { low -= 1 }
        guard to > low else { return nil }
        let piece = ns.substring(with: NSRange(location: low, length: to - low))
        return runToEnd.firstMatch(in: piece, range: NSRange(location: 0, length: (piece as NSString).length))
            .map { low + $0.range.location }
    }

    /// A credential key glued into a token (the scanner's `gluedTokenStart(keyStart:bound:valueEnd:)`):
    /// the run of rule 7's characters that ends at the key's start `keyStart` (after `cursor`), its
    /// head, does not end in `_` or `-`, holds a character other than `[A-Za-z0-9_-]` or digits in
    /// two places or four in a row, and rule 7's match at its start, in the text up to the
    /// credential's end `valueEnd`, reaches past the key's start. The head's start, or nil.
    /// What a backslash escapes before a glued key's head: `uXXXX`, `xXX` or one ASCII character.
    static let escapeBody = try! NSRegularExpression(pattern: #"u[0-9A-Fa-f]{4}|[xX][0-9A-Fa-f]{2}|[\x00-\x7F]"#)

    static func gluedTokenStart(_ ns: NSString, keyStart: Int, cursor: Int, valueEnd: Int) -> Int? {
        guard var start = runStart(ns, cursor, keyStart) else { return nil }
        // After an odd run of backslashes the escape's characters are not the head's (`\n`, `\u0026`).
        if ns.substring(with: NSRange(location: cursor, length: start - cursor)).range(
            of: #"(?<!\\)(\\\\)*\\$"#, options: .regularExpression) != nil,
            let escape = escapeBody.firstMatch(
                in: ns as String, options: [.anchored], range: NSRange(location: start, length: keyStart - start))
        {
            start += escape.range.length
        }
        guard start < keyStart, ns.character(at: keyStart - 1) != 0x5F, ns.character(at: keyStart - 1) != 0x2D
        else { return nil }
        let head = ns.substring(with: NSRange(location: start, length: keyStart - start))
        let named = head.range(of: #"^[A-Za-z0-9_\-]*$"#, options: .regularExpression) != nil
        let digits =
            head.range(of: "[0-9][^0-9]+[0-9]", options: .regularExpression) != nil
            || head.range(of: "[0-9]{4}", options: .regularExpression) != nil
        guard !named || digits,
            let match = token.firstMatch(
                in: ns as String, options: [.anchored], range: NSRange(location: start, length: valueEnd - start)),
            match.range.location + match.range.length > keyStart
        else { return nil }
        return start
    }

    /// Whether rule 4's match `range` in `seen` is an scp-style git remote (`git@github.com:org/x`):
    /// the local part `git`, after quotes or not, not after another local-part character (looking
    /// back no further than `cursor`), and the domain followed by `:`.
    static func isGitRemote(_ range: NSRange, in seen: String, cursor: Int) -> Bool {
        let ns = seen as NSString
        let end = range.location + range.length
        guard range.length > 4, ns.substring(with: NSRange(location: range.location, length: 4)) == "git@",
            end < ns.length, ns.character(at: end) == 0x3A
        else { return false }
        var start = range.location
        while start > cursor, ns.character(at: start - 1) == 0x27 { start -= 1 }
        guard start > cursor else { return true }
        let before = ns.character(at: start - 1)
        if before >= 0x80 { return spaceUnits.contains(before) }
        return !"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._%+!#$'*^~-".utf16.contains(before)
    }

    /// The Unicode spaces (`spaces`), as UTF-16 code units: none is a local-part character.
    static let spaceUnits: Set<unichar> = Set(
        [0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000] + (0x2000...0x200A).map { unichar($0) })

    private enum Piece {
        case open(String)
        case done(String)
        /// A URL's span (rule 1): the word rules see what it ends as a character none of them takes.
        /// (With the text it replaced: rule 2's user options look for a `curl` word in the input.)
        case url(String, original: String)
    }

    public static func redact(_ text: String) -> String {
        var pieces = urls(text)
        pieces = credentials(pieces)
        let rules: [(NSRegularExpression, String?)] = [
            (bearer, "[redacted-bearer]"), (email, "[redacted-email]"), (uuid, "[redacted-uuid]"), (pin, nil),
            (token, "[redacted-token]"),
        ]
        for (expression, replacement) in rules {
            var next: [Piece] = []
            for (index, piece) in pieces.enumerated() {
                guard case .open(let fragment) = piece else {
                    next.append(piece)
                    continue
                }
                let ns = fragment as NSString
                guard Self.mayMatch(expression, in: fragment) else {
                    next.append(piece)
                    continue
                }
                // A fragment that ends where a URL starts: its look-aheads see U+E000 there.
                var seen = fragment
                if index + 1 < pieces.count, case .url = pieces[index + 1] { seen += "\u{E000}" }
                var cursor = 0
                var search = 0
                while search < ns.length,
                    let match = expression.firstMatch(
                        in: seen, options: [.withTransparentBounds],
                        range: NSRange(location: search, length: ns.length - search))
                {
                    if expression === email, isGitRemote(match.range, in: seen, cursor: cursor) {
                        // No later start before its `@` is an email either: the search goes on after it.
                        search = match.range.location + 4
                        continue
                    }
                    // A SASL credential: its words stay with the text before it, for the later rules.
                    // A SQL statement's password likewise.
                    let sasl =
                        expression !== bearer
                        ? NSRange(location: NSNotFound, length: 0)
                        : ["sasl", "sql", "sqlq", "sqlc", "sqlqc", "sqlec", "sqlce", "sqlqce", "sqlece"].lazy.map {
                            match.range(withName: $0)
                        }.first {
                            $0.location != NSNotFound
                        } ?? NSRange(location: NSNotFound, length: 0)
                    let range =
                        expression === email
                        ? widenedEmail(match.range, in: seen, cursor: cursor)
                        : sasl.location != NSNotFound ? sasl : match.range
                    if range.location > cursor {
                        next.append(
                            .open(ns.substring(with: NSRange(location: cursor, length: range.location - cursor))))
                    }
                    next.append(
                        .done(
                            sasl.location != NSNotFound ? "[redacted-secret]" : replacement ?? ns.substring(with: range)
                        ))
                    cursor = range.location + range.length
                    search = cursor
                }
                if cursor < ns.length { next.append(.open(ns.substring(from: cursor))) }
            }
            pieces = next
        }
        return pieces.map {
            switch $0 {
            case .open(let text), .done(let text), .url(let text, _): return text
            }
        }.joined()
    }

    /// False where `expression` (rule 4 or 7) cannot match anywhere in `fragment`, by a literal every
    /// match holds; the reference skips the search there (the prefilter only saves time: these two
    /// expressions' searches were most of the differential tests' time).
    /// - Rule 4: every email holds `@`, `%40` or `%2540`.
    /// - Rule 7: every token holds `eyJ` (a JWT) or is a run of 32 or more of its characters, each one
    ///   UTF-16 unit or more of `[A-Za-z0-9+/=_\-\\%]` and the invisible separators.
    static func mayMatch(_ expression: NSRegularExpression, in fragment: String) -> Bool {
        // (Searched in UTF-16 units, as the expressions match: a `Character` may join `@` to a mark.)
        let ns = fragment as NSString
        func holds(_ literal: String) -> Bool { ns.range(of: literal, options: .literal).location != NSNotFound }
        if expression === email { return holds("@") || holds("%40") || holds("%2540") }
        guard expression === token else { return true }
        if holds("eyJ") { return true }
        var run = 0
        for unit in fragment.utf16 {
            let inRun: Bool
            switch unit {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2B, 0x2F, 0x3D, 0x5F, 0x2D, 0x5C, 0x25: inRun = true
            case 0x00AD, 0x200B...0x200D, 0x2060, 0xFEFF: inRun = true
            default: inRun = false
            }
            run = inRun ? run + 1 : 0
            if run >= 32 { return true }
        }
        return false
    }

    private static func anchoredLength(_ expression: NSRegularExpression, _ text: String, from start: Int) -> Int {
        let length = (text as NSString).length
        return expression.firstMatch(
            in: text, options: [.anchored, .withTransparentBounds],
            range: NSRange(location: start, length: length - start)
        )?.range.length ?? 0
    }

    private static func urls(_ text: String) -> [Piece] {
        let ns = text as NSString
        var pieces: [Piece] = []
        var cursor = 0
        while cursor < ns.length,
            let match = urlStart.firstMatch(
                in: text, options: [.withTransparentBounds],
                range: NSRange(location: cursor, length: ns.length - cursor))
        {
            let start = match.range.location
            let bodyStart = start + match.range.length
            let previous: unichar? = start > 0 ? ns.character(at: start - 1) : nil
            var bodyEnd: Int
            switch previous {
            case 0x22:
                let escaped = start >= 2 && ns.character(at: start - 2) == 0x5C
                bodyEnd = bodyStart + anchoredLength(escaped ? escapedQuoted : doubleQuoted, text, from: bodyStart)
            case 0x27: bodyEnd = bodyStart + anchoredLength(singleQuoted, text, from: bodyStart)
            case 0x60: bodyEnd = bodyStart + anchoredLength(backtickQuoted, text, from: bodyStart)
            default:
                bodyEnd = bodyStart + anchoredLength(running, text, from: bodyStart)
                // White space after "bearer" in a path, query or fragment does not end the URL.
                while bodyEnd < ns.length {
                    let body = ns.substring(with: NSRange(location: bodyStart, length: bodyEnd - bodyStart))
                    let bodyRange = NSRange(location: 0, length: (body as NSString).length)
                    guard authorityEnd.firstMatch(in: body, range: bodyRange) != nil,
                        bearerBeforeSpace.firstMatch(in: body, range: bodyRange) != nil
                    else { break }
                    let spacesLength = anchoredLength(bearerSpaces, text, from: bodyEnd)
                    guard spacesLength > 0 else { break }
                    bodyEnd += spacesLength
                    bodyEnd += anchoredLength(running, text, from: bodyEnd)
                }
                bodyEnd = firstUnpairedCloser(ns, bodyStart, bodyEnd)
                let body = ns.substring(with: NSRange(location: bodyStart, length: bodyEnd - bodyStart))
                let trailing = trailingPunctuation.firstMatch(
                    in: body, range: NSRange(location: 0, length: (body as NSString).length))!
                bodyEnd -= trailing.range.length
            }
            let body = ns.substring(with: NSRange(location: bodyStart, length: bodyEnd - bodyStart))
            let host = self.host(body, percentForm: match.range.length >= 9 && ns.character(at: bodyStart - 1) != 0x2F)
            if start > cursor {
                pieces.append(.open(ns.substring(with: NSRange(location: cursor, length: start - cursor))))
            }
            pieces.append(
                .url(
                    ns.substring(with: match.range) + (host.isEmpty ? "[redacted-url]" : host),
                    original: ns.substring(with: NSRange(location: start, length: bodyEnd - start))))
            cursor = bodyEnd
        }
        if cursor < ns.length { pieces.append(.open(ns.substring(from: cursor))) }
        return pieces
    }

    /// The first closing bracket in `[start, end)` with no opening partner after `start`.
    private static func firstUnpairedCloser(_ ns: NSString, _ start: Int, _ end: Int) -> Int {
        let pairs: [unichar: unichar] = [0x29: 0x28, 0x5D: 0x5B, 0x7D: 0x7B, 0x3E: 0x3C]
        var depth: [unichar: Int] = [:]
        for index in start..<end {
            let character = ns.character(at: index)
            if pairs.values.contains(character) { depth[character, default: 0] += 1 }
            if let opener = pairs[character] {
                if depth[opener, default: 0] == 0 { return index }
                depth[opener]! -= 1
            }
        }
        return end
    }

    private static func host(_ body: String, percentForm: Bool) -> String {
        let ns = body as NSString
        let authorityLength = authority.firstMatch(in: body, range: NSRange(location: 0, length: ns.length))!.range
            .length
        let authorityText = ns.substring(to: authorityLength)
        let authorityNS = authorityText as NSString
        let infoLength =
            userInfo.firstMatch(in: authorityText, range: NSRange(location: 0, length: authorityNS.length))?.range
            .length ?? 0
        let rest = authorityNS.substring(from: infoLength)
        let restNS = rest as NSString
        if rest.hasPrefix("[") {
            let length =
                bracketHost.firstMatch(in: rest, range: NSRange(location: 0, length: restNS.length))?.range.length ?? 0
            return restNS.substring(to: length)
        }
        let expression = percentForm ? percentHost : plainHost
        let host = restNS.substring(
            to: expression.firstMatch(in: rest, range: NSRange(location: 0, length: restNS.length))!.range.length)
        let hostNS = host as NSString
        let dots = trailingDots.firstMatch(in: host, range: NSRange(location: 0, length: hostNS.length))!.range.length
        return hostNS.substring(to: hostNS.length - dots)
    }

    /// How a header's unquoted value or a quoted value that stopped at a URL goes on after it.
    private enum Resume {
        /// A header's unquoted value, and where the header sits (`headerPlace`).
        case header(HeaderPlace)
        case quoted(String)
        case escaped(Int)
        /// A value opened by a quote in another spelling (`\x22`, `&quot;`, `\'`, a doubled `""`, …),
        /// which the same spelling closes (the `x` of nginx's in either case).
        case spelled(String)

        /// The rest of such a value, from where it resumes.
        var rest: NSRegularExpression {
            switch self {
            case .spelled(let quote):
                let nginx = quote.count == 4 && (quote.hasPrefix("\\x") || quote.hasPrefix("\\X"))
                let same =
                    nginx
                    ? #"\\[xX]"# + NSRegularExpression.escapedPattern(for: String(quote.dropFirst(2)))
                    : NSRegularExpression.escapedPattern(for: quote)
                // (A doubled quote's value has no escaped closing quote a later rule could take.)
                let eaten =
                    quote == "\"\"" || quote == "''" ? "" : nginx ? eatenNginxSpelling : eatenOtherSpelling
                return regex("(?:(?!" + same + ")" + eaten + stopBeforeURL + #"[^\r\n\uE000])+"#)
            case .header(let place): return headerRests[place]!
            case .quoted("'"):
                return regex("(?:" + stopBeforeURL + #"(?:[^'\r\n\\\uE000]|\\[^\r\n\uE000]))+"#)
            case .quoted("`"): return regex("(?:" + stopBeforeURL + #"[^`\r\n\uE000])+"#)
            case .quoted: return regex("(?:" + stopBeforeURL + #"(?:[^"\r\n\\\uE000]|\\[^\r\n\uE000]))+"#)
            case .escaped(let count):
                // As a value opened by `count` backslashes and `"` ends (`values(unquoted:)`): at a
                // run of `count` plus a multiple of twice that plus two, its escaped backslashes
                // the value's.
                let run = String(repeating: #"\\"#, count: count)
                let close = "(?:" + run + run + #"\\\\)*+"# + run + "\""
                return regex(
                    #"(?:(?!(?<!\\)"# + close + ")" + stopBeforeURL + #"[^\r\n\uE000])*+(?:"# + stopBeforeURL + "(?="
                        + close + ")(?:" + run + run + #"\\\\)*+)?+"#)
            }
        }
    }

    /// Where a header in `place` sits after its value `value` (of a header's expression): in running
    /// text when the string an escaped line break showed held a quote at its depth that does not close.
    private static func place(_ place: HeaderPlace, after value: NSRange, in text: String) -> HeaderPlace {
        guard case .string(nil, let escapes) = place, value.location != NSNotFound else { return place }
        let before = anchoredLength(headerValueBeforeTransition[escapes]!, text, from: value.location)
        return before < value.length ? .running : place
    }

    /// The kind of value `match` of `expression` holds, when it is one that resumes after a URL.
    /// `header`: the place of the header credential `match` is (`emptyQuote`: after an empty quoted string).
    private static func resumeKind(
        _ match: NSTextCheckingResult, _ expression: NSRegularExpression?, _ text: String, cursor: Int,
        header: (place: HeaderPlace, emptyQuote: Bool)?
    ) -> Resume? {
        func has(_ group: Int) -> Bool { match.range(at: group).location != NSNotFound }
        if let header {
            if header.emptyQuote { return .header(place(header.place, after: match.range(at: 2), in: text)) }
            // Group 4 holds the opening backslashes, without the quote.
            if has(5) { return .escaped(match.range(at: 4).length) }
            if has(7) { return .quoted("\"") }
            if has(9) { return .quoted("'") }
            if has(11) { return .quoted("`") }
            if has(12) { return .header(place(header.place, after: match.range(at: 12), in: text)) }
            // A value in a spelled quote: nginx's `\x22` (13) and `\x27` (14), another (`sq`, 16).
            if has(13) || has(14) { return .spelled(spelling(match, has(13) ? 13 : 14, in: text)) }
            return has(16) ? .spelled(spelling(match, named: "sq", in: text)) : nil
        }
        if expression === emptyHeaderBeforeURL || expression === emptyQuotesHeaderBeforeURL {
            return .header(headerPlace(text, at: match.range.location, cursor: cursor))
        }
        if expression === emptyQuotedBeforeURL || among(expression, in: commandEmptyBeforeURLIdentities)
            || expression === htpasswdEmptyBeforeURL
        {
            if has(1) { return .escaped(match.range(at: 1).length - 1) }
            if has(5) { return .spelled((text as NSString).substring(with: match.range(at: 5))) }
            return .quoted(has(2) ? "\"" : has(3) ? "'" : "`")
        }
        if expression === doubledHeaderCredential || expression === doubledValueCredential
            || expression === emptyDoubledBeforeURL
        {
            return .spelled(spelling(match, named: "dq", in: text))
        }
        // A user option's quoted password (group 1): the quote its expression was made for.
        // (lftp's `-u "user,password"` the same.)
        for (index, quoted) in (quotedCurlUserOptionCredentials + quotedAuthUserOptionCredentials).enumerated()
        where quoted === expression {
            return [Resume.quoted("\""), .quoted("'"), .escaped(1)][index % 3]
        }
        for (index, quoted) in quotedLFTPCredentials.enumerated() where quoted === expression {
            let (quote, escapes) = quotedLFTPQuotes[index]
            return escapes > 0 ? .escaped(escapes) : .quoted(quote)
        }
        guard
            expression === valueCredential || expression === pairCredential || expression === optionCredential
                || expression === curlUserOptionCredential || expression === authUserOptionCredential
                || among(expression, in: commandPasswordIdentities)
        else { return nil }
        // Group 4 holds the opening backslashes, without the quote.
        if has(5) { return .escaped(match.range(at: 4).length) }
        if has(7) { return .quoted("\"") }
        if has(9) { return .quoted("'") }
        if has(11) { return .quoted("`") }
        if has(14) || has(15) { return .spelled(spelling(match, has(14) ? 14 : 15, in: text)) }
        return has(17) ? .spelled(spelling(match, named: "sq", in: text)) : nil
    }

    /// The spelled opening quote of a value in group `group` (nginx's `\x22` or `\x27`): the four
    /// bytes before it.
    private static func spelling(_ match: NSTextCheckingResult, _ group: Int, in text: String) -> String {
        (text as NSString).substring(with: NSRange(location: match.range(at: group).location - 4, length: 4))
    }

    private static func spelling(_ match: NSTextCheckingResult, named name: String, in text: String) -> String {
        (text as NSString).substring(with: match.range(withName: name))
    }

    /// Where a value of `kind` that stopped at the URL whose U+E000 is at `url` resumes (after the
    /// URL, the trailing punctuation and what ended it, a quote that does not close a quoted value
    /// with the byte after it; after a quote, that quote closing it), or nil.
    private static func resumption(_ ns: NSString, url: Int, kind: Resume) -> Int? {
        let after = url + 1
        let before: unichar = url > 0 ? ns.character(at: url - 1) : 0
        if before == 0x22 || before == 0x27 || before == 0x60 {
            if before == 0x22, url >= 2, ns.character(at: url - 2) == 0x5C {
                guard after + 1 < ns.length, ns.character(at: after) == 0x5C, ns.character(at: after + 1) == 0x22 else {
                    return nil
                }
                return after + 2
            }
            return after < ns.length && ns.character(at: after) == before ? after + 1 : nil
        }
        let length = anchoredLength(afterRunningURL, ns as String, from: after)
        if length > 0 { return after + length }
        // (A header's value ends at an escaped line break; a quoted value runs over one.)
        let lineBreak = anchoredLength(afterEscapedLineBreak, ns as String, from: after)
        if lineBreak > 0 {
            if case .header = kind { return nil }
            return after + lineBreak
        }
        guard
            let quote = afterRunningQuote.firstMatch(
                in: ns as String, options: [.anchored, .withTransparentBounds],
                range: NSRange(location: after, length: ns.length - after))
        else { return nil }
        let escaped = quote.range(at: 1).length > 0
        let closing = ns.substring(with: quote.range(at: 2))
        switch kind {
        // No quote closes the value of a header in running text; in a string, its quote at its depth
        // does (of one an escaped line break shows, any quote at that depth), the backslash after
        // the URL counted (the URL's own are gone after a first pass).
        case .header(.string(let quote, let escapes)):
            if quote.map({ String($0) == closing }) ?? true, (escaped ? 1 : 0) % (2 * escapes + 2) == escapes {
                return nil
            }
        case .header(.running): break
        case .quoted(let valueQuote): if closing == valueQuote, !escaped || valueQuote == "`" { return nil }
        // `\"` closes a value opened by one backslash and `"`; one backslash is too few for more.
        case .escaped(let count): if closing == "\"", escaped, count == 1 { return nil }
        // A quote in another spelling is part of the value, but `\'` closes a `\'` value and a bare
        // quote a doubled one's (the URL may have taken the first of the two).
        case .spelled(let quote):
            if quote == "\\'"
                ? escaped && closing == "'"
                : !escaped && (quote == "\"\"" || quote == "''")
                    && closing == String(quote.prefix(1))
            {
                return nil
            }
        }
        return after + quote.range.length
    }

    private static func credentials(_ pieces: [Piece]) -> [Piece] {
        var joined = ""
        var done: [String] = []
        for piece in pieces {
            switch piece {
            case .open(let text): joined += text
            case .done(let text), .url(let text, _):
                joined += "\u{E000}"
                done.append(text)
            }
        }
        let ns = joined as NSString
        var result: [Piece] = []
        var doneIndex = 0
        func copy(_ start: Int, _ end: Int) {
            var fragmentStart = start
            for index in start..<end where ns.character(at: index) == 0xE000 {
                if index > fragmentStart {
                    result.append(
                        .open(ns.substring(with: NSRange(location: fragmentStart, length: index - fragmentStart))))
                }
                // (Only URLs are done at this stage.)
                result.append(.url(done[doneIndex], original: ""))
                doneIndex += 1
                fragmentStart = index + 1
            }
            if end > fragmentStart {
                result.append(.open(ns.substring(with: NSRange(location: fragmentStart, length: end - fragmentStart))))
            }
        }
        // curl's options name a user and a password only after a `curl` word: the first in the input
        // (a URL's text included, as the scanner reads it), at its place in `joined` (a URL's: its mark).
        var original = ""
        var starts: [(original: Int, joined: Int, isURL: Bool)] = []
        var joinedLength = 0
        for piece in pieces {
            starts.append(
                ((original as NSString).length, joinedLength, { if case .url = piece { true } else { false } }()))
            switch piece {
            case .open(let text):
                original += text
                joinedLength += (text as NSString).length
            case .done(let text):
                original += text
                joinedLength += 1
            case .url(_, let text):
                original += text
                joinedLength += 1
            }
        }
        /// Where `word` first matches in the input, in the joined text.
        func firstWord(_ word: NSRegularExpression) -> Int? {
            word.firstMatch(in: original, range: NSRange(location: 0, length: (original as NSString).length))
                .map { match -> Int in
                    let piece = starts.last { $0.original <= match.range.location }!
                    return piece.isURL ? piece.joined : piece.joined + match.range.location - piece.original
                }
        }
        let curl = firstWord(curlWord)
        // Expressions that cannot match in `joined`, by a literal every match holds (a prefilter that
        // only saves time): a user option's `-u`, `-U` (flags before them included) or `--auth`, the
        // URL mark before which a value is empty.
        func holds(_ literal: String) -> Bool { ns.range(of: literal, options: .literal).location != NSNotFound }
        let hopeless = identities(
            (curlShortUserOptionExpression.firstMatch(in: joined, range: NSRange(location: 0, length: ns.length)) != nil
                ? [] : [curlUserOptionCredential] + quotedCurlUserOptionCredentials)
                + (holds("--auth") ? [] : [authUserOptionCredential] + quotedAuthUserOptionCredentials)
                + (holds("\u{E000}")
                    ? []
                    : [emptyHeaderBeforeURL, emptyQuotesHeaderBeforeURL, emptyQuotedBeforeURL, emptyDoubledBeforeURL]
                        + commandEmptyBeforeURL + [htpasswdEmptyBeforeURL]))
        let commandWords = Self.commandPasswordOptions.map { firstWord($0.words) }
        // Each expression with the groups its value may be in (group 2: a placeholder).
        // (An empty value, `[]`, resumes after the URL right after it, or is none.)
        // (A doubled key quote's expressions come first: at the same key they decide; then a
        // header's, `headerCredential(in:range:cursor:)`.)
        let first = [(doubledHeaderCredential, [2]), (doubledValueCredential, [2])]
        let then =
            [
                // (valueCredential's unquoted value holds the scheme token's `esc` group, 13: its
                // `\x22` and `\x27` values are groups 14 and 15, and its other spelled quote's
                // value 17.)
                (valueCredential, [1, 2, 3, 5, 7, 9, 11, 12, 14, 15, 17]),
                (optionCredential, [1, 2, 3, 5, 7, 9, 11, 12, 14, 15, 17]),
                (pairCredential, [1, 2, 3, 5, 7, 9, 11, 12, 14, 15, 17]),
            ] + (quotedCurlUserOptionCredentials + quotedAuthUserOptionCredentials).map { ($0, [1]) } + [
                // (After the quoted ones: at the same `:`, a quote before the name decides.)
                (curlUserOptionCredential, [1, 2, 3, 5, 7, 9, 11, 12, 14, 15, 17]),
                (authUserOptionCredential, [1, 2, 3, 5, 7, 9, 11, 12, 14, 15, 17]),
            ]
            + commandPasswordCredentials.map {
                (
                    $0,
                    among($0, in: quotedLFTPIdentities)
                        ? [1]
                        : among($0, in: commandEmptyBeforeURLIdentities) ? [] : [1, 2, 3, 5, 7, 9, 11, 12, 14, 15, 17]
                )
            } + [(htpasswdCredential, [1, 2, 3, 5, 7, 9, 11, 12, 14, 15, 17]), (htpasswdEmptyBeforeURL, [])] + [
                (markupElementCredential, [1, 2]), (formPartCredential, [2]),
                (percentHeaderCredential, [4, 6, 7]), (percentValueCredential, [4, 6, 7]),
                (doubledPercentHeaderCredential, [4, 6, 7]), (doubledPercentValueCredential, [4, 6, 7]),
                (emptyHeaderBeforeURL, []),
                (emptyQuotesHeaderBeforeURL, []), (emptyQuotedBeforeURL, []), (emptyDoubledBeforeURL, []),
            ]
        let bounded = identities(
            [pairCredential, markupElementCredential, formPartCredential] + userOptionCredentials)
        var cursor = 0
        while cursor < ns.length {
            let range = NSRange(location: cursor, length: ns.length - cursor)
            typealias Candidate = (
                match: NSTextCheckingResult, groups: [Int], expression: NSRegularExpression?,
                header: (place: HeaderPlace, emptyQuote: Bool)?
            )

            func found(_ expressions: [(NSRegularExpression, [Int])]) -> [Candidate] {
                expressions.compactMap { expression, groups in
                    let identity = ObjectIdentifier(expression)
                    if hopeless.contains(identity) { return nil }
                    // A pair's name, a tag (and a header's context) is read back no further than the
                    // previous match's end, as the scanner reads them no further than the previous span's.
                    let options: NSRegularExpression.MatchingOptions =
                        bounded.contains(identity) ? [] : [.withTransparentBounds]
                    // curl's options count only after the first `curl` word: the first match after it
                    // (all matched in the same range, so each sees the same bounds).
                    // A command's password option only after the first of its words, the same way.
                    // (Searched from after the word: a match before it, whose value may run past the
                    // word, does not hide one after it.)
                    if let index = commandPasswordIndex[identity] {
                        guard let word = commandWords[index] else { return nil }
                        let from = max(range.location, word + 1)
                        guard from < NSMaxRange(range) else { return nil }
                        return expression.firstMatch(
                            in: joined, options: options,
                            range: NSRange(location: from, length: NSMaxRange(range) - from)
                        ).map { ($0, groups, expression, nil) }
                    }
                    if expression === curlUserOptionCredential
                        || quotedCurlUserOptionIdentities.contains(identity)
                    {
                        guard let curl else { return nil }
                        return expression.matches(in: joined, options: options, range: range).first {
                            $0.range.location > curl
                        }.map { ($0, groups, expression, nil) }
                    }
                    return expression.firstMatch(in: joined, options: options, range: range).map {
                        ($0, groups, expression, nil)
                    }
                }
            }
            let header = headerCredential(in: joined, range: range, cursor: cursor).map {
                [Candidate($0.match, $0.groups, nil, ($0.place, $0.empty))]
            }
            let candidates = found(first) + (header ?? []) + found(then)
            guard
                let earliest = candidates.min(by: {
                    $0.match.range.location < $1.match.range.location
                })
            else { break }
            // A user option's quoted password at a key's own separator wins over the key's value
            // (`curl -u "token:x y"`: curl reads the user `token` and the password `x y`).
            // (Where the key's value starts; a match with no value, an empty one before a URL, ends there.)
            let keyValueStart =
                earliest.groups.map { earliest.match.range(at: $0).location }.filter { $0 != NSNotFound }.min()
                ?? NSMaxRange(earliest.match.range)
            let (match, groups, expression, headerMatch) =
                candidates.first { candidate in
                    among(candidate.expression, in: quotedUserOptionIdentities)
                        && candidate.match.range.location > earliest.match.range.location
                        && candidate.match.range.location < keyValueStart
                } ?? earliest
            var resume = resumeKind(match, expression, joined, cursor: cursor, header: headerMatch)
            var valueEnd = match.range.location + match.range.length
            // A header in a string: its quote or escaped line break goes with the key, kept (no later
            // rule takes it), also when its value is empty before a URL.
            // lftp's password: the credential starts at the user's comma (the last before the
            // value; no opener holds one), the user left to rules 3–7, as curl's is.
            let lftp = expression === lftpCredential || among(expression, in: quotedLFTPIdentities)
            // htpasswd's password: the credential starts after the user, the file and user left to rules 3–7.
            let htpasswd = expression === htpasswdCredential
            let headerExpression =
                headerMatch != nil || expression === emptyHeaderBeforeURL || expression === emptyQuotesHeaderBeforeURL
                || ((expression === emptyQuotedBeforeURL || expression === emptyDoubledBeforeURL)
                    && (ns.substring(with: match.range).lowercased().hasPrefix("authorization")
                        || ns.substring(with: match.range).lowercased().hasPrefix("cookie")))
            let start =
                headerExpression
                ? max(cursor, headerContextStart(joined, at: match.range.location) ?? Int.max)
                : htpasswd
                    ? match.range.location + anchoredLength(htpasswdPrefix, joined, from: match.range.location)
                    : lftp
                        ? ns.range(
                            of: ",", options: .backwards,
                            range: NSRange(
                                location: match.range.location,
                                length: groups.map { match.range(at: $0) }.first { $0.location != NSNotFound }!.location
                                    - match.range.location)
                        ).location
                        : match.range.location
            let matchStart = lftp || htpasswd ? start : min(start, match.range.location)
            /// The value resumes after each URL it stops at, up to its own end.
            func resumeAfterURLs() {
                while let kind = resume,
                    case let stop = anchoredLength(beforeURL, joined, from: valueEnd), stop > 0
                {
                    let url = valueEnd + stop - 1
                    guard let restart = resumption(ns, url: url, kind: kind) else {
                        copy(cursor, url + 1)
                        cursor = url + 1
                        return
                    }
                    copy(cursor, restart)
                    cursor = restart
                    let length = anchoredLength(kind.rest, joined, from: restart)
                    valueEnd = restart + length
                    guard length > 0 else { continue }
                    if case .header(let place) = kind {
                        resume = .header(
                            Self.place(place, after: NSRange(location: restart, length: length), in: joined))
                    }
                    let rest = ns.substring(with: NSRange(location: restart, length: length))
                    let kept =
                        placeholderValue.firstMatch(in: rest, range: NSRange(location: 0, length: length)) != nil
                    result.append(.done(kept ? rest : "[redacted-secret]"))
                    cursor = valueEnd
                }
            }
            if groups.isEmpty {
                if matchStart < match.range.location, resume != nil {
                    copy(cursor, matchStart)
                    result.append(
                        .done(ns.substring(with: NSRange(location: matchStart, length: valueEnd - matchStart))))
                    cursor = valueEnd
                }
                resumeAfterURLs()
                continue
            }
            // A key glued into a token: the token's head, the key and the value go as one secret.
            if expression !== markupElementCredential, expression !== formPartCredential,
                !among(expression, in: userOptionIdentities), !among(expression, in: commandPasswordIdentities),
                expression !== htpasswdCredential,
                let head = gluedTokenStart(ns, keyStart: match.range.location, cursor: cursor, valueEnd: valueEnd)
            {
                let start = min(head, matchStart)
                copy(cursor, start)
                result.append(.done("[redacted-secret]"))
                for index in start..<valueEnd where ns.character(at: index) == 0xE000 { doneIndex += 1 }
                cursor = valueEnd
                resumeAfterURLs()
                continue
            }
            copy(cursor, matchStart)
            // After a percent-encoded separator, a value that starts with a placeholder (group 2);
            // after another, one that is a placeholder and nothing more: kept with its key.
            let placeholder: Bool
            let value: NSRange
            let percent = groups.count == 3
            if percent, match.range(at: 2).location != NSNotFound {
                placeholder = true
                value = match.range(at: 2)
            } else {
                value = groups.map { match.range(at: $0) }.first { $0.location != NSNotFound }!
                placeholder =
                    !percent
                    && placeholderValue.firstMatch(
                        in: ns.substring(with: value), range: NSRange(location: 0, length: value.length)) != nil
            }
            if placeholder {
                result.append(
                    .done(ns.substring(with: NSRange(location: matchStart, length: valueEnd - matchStart))))
                cursor = match.range.location + match.range.length
                resumeAfterURLs()
                continue
            }
            let prefix = ns.substring(with: NSRange(location: matchStart, length: value.location - matchStart))
            result.append(.done(prefix + "[redacted-secret]"))
            for index in value.location..<(value.location + value.length) where ns.character(at: index) == 0xE000 {
                doneIndex += 1
            }
            cursor = match.range.location + match.range.length
            resumeAfterURLs()
        }
        copy(cursor, ns.length)
        return result
    }
}

/// A deterministic generator (SplitMix64), so a failing corpus line can be reproduced.
public struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Realistic log lines, every rule and every leak family of issue 15, rule interactions and
/// adversarial input.
public struct LogCorpus {
    public var generator: SeededGenerator

    public init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    public mutating func pick<T>(_ options: [T]) -> T { options.randomElement(using: &generator)! }
    public mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }
    public mutating func string(_ alphabet: String, _ lengths: ClosedRange<Int>) -> String {
        let characters = Array(alphabet)
        return String((0..<Int.random(in: lengths, using: &generator)).map { _ in pick(characters) })
    }

    public static let base64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    public static let base64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    static let hex = "0123456789abcdefABCDEF"
    /// Unicode white space and the invisible separators the rules know.
    public static let unicodeSpaces = [
        "\u{00A0}", "\u{2002}", "\u{2009}", "\u{202F}", "\u{3000}", "\u{1680}", "\u{0085}",
    ]
    public static let invisibles = ["\u{00AD}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FEFF}"]
    static let words = [
        "request", "GET", "POST", "failed", "ok", "user", "sync", "HealthKit", "retry", "status=200", "latency=12ms",
        "Bearer", "bearer", "BEARER", "token", "email", "id", "api.example.com", "https", "http", "eyJ", "@", "-", ".",
        "(", ")", "[", "]", "\"", "'", "é", "🚑", "\t", "a", "x", "0123", "deadbeef", "pin.failure", "E_PIN_MISMATCH",
        "code=403", "sha256", "://", "%3A%2F%2F", ":\\/\\/", "{", "}", "<", ">", "`", "\\\"", ",", ":", "=", "\r\n",
        "\u{00A0}", "\u{200B}", "password", "Cookie:", "secret", "[redacted-token]", "1.2.3", "2026-11-30T05:16:22Z",
    ]

    public mutating func host() -> String {
        pick([
            "api.example.com", "EXAMPLE.org", "a.b.c.d.example.net", "127.0.0.1", "[::1]", "[2001:db8::7]", "localhost",
            "xn--bcher-kva.example", "host_with_underscore.example", "bücher.example", "db.example.com", "10.0.0.5",
            string("abcdefghijklmnop0123456789-", 1...40) + ".com",
        ])
    }

    public mutating func scheme() -> String {
        pick([
            "https", "http", "HTTPS", "Http", "hTtPs", "ws", "wss", "redis", "mongodb", "amqp", "ftp", "file",
            "svn+ssh",
            "postgres", "x1", "1bad", String(repeating: "s", count: 33),
        ])
    }

    public mutating func url() -> String {
        let form = Int.random(in: 0..<10, using: &generator)
        let separator = form == 0 ? ":\\/\\/" : form == 1 ? pick(["%3A%2F%2F", "%3a%2f%2f"]) : "://"
        let slash = form == 0 ? "\\/" : form == 1 ? "%2F" : "/"
        var text = scheme() + separator
        if chance(30) {
            text += pick([
                "user:pw@", "alice:s3cr3t!@", "me@", "a@b:c@", ":@", "admin:pa'ss@", ":p4ss@", "guest:guest@",
                "u%40x%3Apw%40", "a\"b@",
            ])
        }
        text += host()
        if chance(30) { text += ":" + String(Int.random(in: 1...65535, using: &generator)) }
        if chance(70) {
            text +=
                slash
                + pick([
                    "v1/users/8812/records", "x", "", "path/with.dots/", "a@b.com/profile", "items?filter[owner]=alice",
                    "550e8400-e29b-41d4-a716-446655440000", "a(b)c", "x]y", "p{q}", "<tag>", "0", "vhost",
                ]).replacingOccurrences(of: "/", with: slash)
        }
        if chance(40) {
            text +=
                (form == 1 ? "%3F" : "?")
                + pick([
                    "token=abc", "email=a@b.com", "q=1&r=2", "sig=" + string(Self.base64url, 40...50),
                    "q=O'Brien&ssn=123-45-6789&api_key=k3y", "q=\"x\"&s=1", "a=<b>", "q=a`b", "session=abc",
                    "x=O Brien&t=2", "code%3DSplxlOB", "access_token=s3cr3t", "auth=Bearer tok", "a=bearer:\u{00A0}t",
                    "q=xbearer y",
                ])
        }
        if chance(20) { text += "#" + pick(["frag", "top", "", "a b"]) }
        if chance(20) { text += pick([".", ",", ")", ").", "!?", "]", "}", ";:", ">", "\"", "'", "\\\""]) }
        return text
    }

    public mutating func email() -> String {
        pick([
            string("abcdefghijklmnopqrstuvwxyz0123456789._%+-", 1...20), "jöhn.smith", "o'brien", "wow!", "'quoted",
            "ünïcode", "a\u{200B}b",
        ]) + "@"
            + pick([
                "example.com", "mail.example.co.uk", "x.io", "b.c", "sub-domain.example.org", "a.com2", "q.c0m",
                "1.2.3.4", "bücher.de", "10.0.0.1", "localhost", "x.",
            ])
    }

    public mutating func uuid() -> String {
        let plain = [8, 4, 4, 4, 12].map { string(Self.hex, $0...$0) }.joined(separator: "-")
        guard chance(20) else { return plain }
        var characters = Array(plain).map(String.init)
        characters.insert(pick(Self.invisibles), at: Int.random(in: 0...characters.count, using: &generator))
        return characters.joined()
    }

    public mutating func jwt() -> String {
        "eyJ" + string(Self.base64url, 1...40) + "." + string(Self.base64url, 1...60) + "."
            + string(Self.base64url, 0...50)
    }

    public mutating func pin() -> String {
        let value = string(Self.base64, 42...42) + pick(["A", "E", "Q", "g", "w", "4"]) + "="
        if chance(25) {
            // The transport's pin-failure message.
            let list = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                string(Self.base64, 43...43) + pick(["=", "=", "A"])
            }
            return "verified chain [1] CN=x " + value + "; expected one of "
                + list.joined(separator: pick([", ", ","]))
        }
        return pick(["sha256/", "sha256//", "pin-sha256=\"", "SHA256:", "\"sha256\": \"", "pin-sha256=\\\"", ""])
            + value + pick(["", "\"", ";", " ", "A", "\\\""])
    }

    public mutating func credential() -> String {
        let value = pick([
            string(Self.base64url, 1...30), "hunter2", "pa ss", "s3cr3t&x=1", "\"quoted\"", "[redacted-secret]",
            "https://u:p@h.example/x", "", "a\"b", "x;y",
        ])
        let key = pick([
            "password", "passwd", "secret", "token", "api_key", "apikey", "API-KEY", "access_token", "refresh_token",
            "client_secret", "Authorization", "authorization", "Cookie", "Set-Cookie", "x-auth-token", "Password",
        ])
        switch Int.random(in: 0..<7, using: &generator) {
        case 0: return key + "=" + value
        case 1: return key + ": " + value
        case 2: return "\"" + key + "\":\"" + value + "\""
        case 3: return "\\\"" + key + "\\\": \\\"" + value + "\\\""
        case 4: return key + " = '" + value + "'"
        case 5: return key + pick([": Basic ", ": Token ", ": Bearer ", "=\t"]) + string(Self.base64, 4...40)
        default: return key + pick(["=", ":", "\":"]) + pick(["", " ", "\""]) + value
        }
    }

    /// A credential in the forms the seventh session's leak hunt added (`=>`, openers, form keys,
    /// quoted header parameters, escaped line breaks, Unicode spaces, backticks, `\'`), with values
    /// that probe their edges (quotes, placeholders, URLs, brackets).
    public mutating func huntCredential() -> String {
        let key = pick([
            "password", "token", "api_key", "Cookie", "Set-Cookie", "Authorization", "secret", "x-auth-token",
        ])
        let value = pick([
            "hunter2", string(Self.base64url, 1...20), "[redacted-secret]", "[redacted-token]x", "a\"b", "it\\'s",
            "https://u:p@h.example/x", "", "\u{00A0}x", "<v>", "`v`", "x]y", "\\\"q\\\"", "Bearer abc", "basic \tx y",
            "bearer", "Bearerx y", "\\'",
        ])
        let blank = pick([
            "", " ", "\t", "\u{00A0}", "\u{3000}", "  ", "\u{1B}[1m", "\u{1B}[0;32m ", "\u{1B}[m", "\u{1B}[1;",
        ])
        switch Int.random(in: 0..<46, using: &generator) {
        case 45:
            // Go's `%v` of an `http.Header` (fourteenth session): members before and after, values
            // with spaces, brackets, URLs and placeholders; near misses (a blank, a quote, no `map[`).
            let member = pick(["Cookie", "Set-Cookie", "Authorization", "X-Cookie", "cookie", "Host"])
            return pick(["map[", "headers=map[", "map[Accept:[*/*] ", "x ", "[", "map[A:[b]]"]) + member
                + pick([":[", ":[", ": [", ":", "\":["])
                + pick([value, "sid=" + value + "; Path=/", "", "[redacted-secret]", "a b"])
                + pick(["]", "] Host:[h.example]]", "]] ok", "", "] User-Agent:[curl/8.5] Cookie:[x]]"])
        case 43:
            // An XML element named by a key or another word (fourteenth session): prefixes,
            // attributes (a URL in one), self-closing tags, CDATA, values with `<`, `>`, line breaks,
            // URLs and placeholders, and what follows the element.
            let name = pick([
                key, "Password", "wsse:Password", "db_password", "AccessToken", "x:" + key, "passwordHint", "host",
                key + "s", "a:b:" + key, String(repeating: "n", count: 70) + "_token",
            ])
            let attributes = pick([
                "", " Type=\"#PasswordText\"", " a='1'", "\t", " href=\"https://h.example/x\"", " token=\"t\"", " /",
                "/", " " + String(repeating: "x", count: 200),
            ])
            let body = pick([
                value, "<![CDATA[" + value + "]]>", "<![CDATA[]]>", " ", "", "a\nb", "a\\nb", "x>y", "-> z",
                "[redacted-secret]", "abc https://h.example/p q",
            ])
            return pick(["", "<soap:Body>", "{\"xml\":\"", "a -> ", "<", ">"]) + "<" + name + attributes + ">" + body
                + pick(["</" + name + ">", "", "<next>x</next>", "\r\n", "\"}"])
        case 44:
            // A multipart part named by a key or another word (fourteenth session): quotes plain or
            // escaped, blank lines real or escaped, CRLF or LF, a URL or placeholder as its value.
            let q = pick(["\"", "\\\"", "'"])
            let lineBreak = pick(["\r\n", "\n", "\\r\\n", "\\n", "\r\n\\n"])
            return pick(["", "--X", "{\"body\":\"--X"]) + lineBreak + "Content-Disposition: form-data; "
                + pick(["name", "Name", "filename", "xname"]) + "=" + q
                + pick([key, "client_secret", "username", "pass word", key + "x"]) + q
                + pick(["", "; x=1"]) + lineBreak + lineBreak
                + pick([value, "", "https://h.example/p", "[redacted-secret]", "a\\b"]) + lineBreak + "--X--"
        case 42:
            // A name–value pair (eleventh session): HAR, Kubernetes `env`; quotes plain, escaped once
            // or unevenly, spaces, names that are keys and that are not, members between, a URL value.
            // (Fourteenth session: Python's `'` quotes, Go's unquoted `Name:x Value:y`, long names.)
            let q = pick(["\"", "\"", "\\\"", "\\\\\\\"", "'", ""])
            let q2 = chance(85) ? q : pick(["\"", "\\\"", "'", ""])
            let name = pick([
                "DB_PASSWORD", "Cookie", "access_token", "password", "Host", "tokens", "x password",
                "spring.datasource.password",
                "A" + string(Self.base64url, 30...34) + "_token", "api-key", "PassWord", "secretx", "",
                "SPRING_SECURITY_OAUTH2_CLIENT_REGISTRATION_GOOGLE_CLIENT_SECRET",
                string(Self.base64url, 33...90) + "_PASSWORD",
            ])
            return pick(["{", "[{", "", "{\"a\":1,", "x ", "&EnvVar{", "user", "{a:1 "]) + q
                + pick(["name", "Name", "key", "KEY", "names", "xname"]) + q
                + pick([":", ": ", " : ", "="]) + q2 + name + q + pick([",", ", ", " , ", ",\"t\":1,", "", " "]) + q2
                + pick(["value", "Value", "VALUE", "values"]) + q + pick([":", ": ", "%3A"]) + q
                + pick([value, "sid=" + value + "; theme=dark", "https://h.example/p", "", "{\"a\":1}"]) + q2
                + pick(["}", "},{\"name\":\"Host\",\"value\":\"h.example\"}]", " ok", ""])
        case 40:
            // A header in a string or in running text (eleventh session): a quote, an escaped line
            // break (nginx's `\x0D\x0A` too) or nothing right before its name, a name prefix up to
            // the bound and past it, quotes and JSON inside its value, line breaks nginx writes after
            // it, a bearer's closing quote glued before its name.
            let name = pick([
                "Cookie", "Set-Cookie", "Authorization", "cookie", "X-Forwarded-Cookie",
                "AbCdEfGhIjKlMnOpQrStUvWx-Cookie",
                "AbCdEfGhIjKlMnOpQrStUvWxY-Cookie",
            ])
            let before = pick([
                "", "\"", "'", "`", "\\\"", "\\n", "\\r\\n", "\\x0D\\x0A", "\\X0a", "\\x0A", "x=", " ", "{\"h\":\"",
                "\\\\n", "Bearer \"abc\"", "Bearer 'abc'", "\\x0D", "\\x0", "%22",
                // (Fourteenth session: the string's quote and depth decide which quote closes it.)
                "\\\\\\\"", "\\\\\"", "\\'", "\\\\r\\\\n", "b'", "msg=\"", "\\\\\\\\n",
                String(repeating: "\\", count: 16) + "\"",
            ])
            let inner = pick([
                value, "prefs={\"t\":\"d\"}; sid=" + value, "a=x'; sid=" + value,
                "ret=https://h.example/x'; sid=" + value,
                "a=\"x\"; s=" + value, "Bearer " + value + " secret={\"a\":\"x\"}", "\"\"" + value,
                "ret='https://h.example/x' " + value,
                "x\\\"; " + value, "", "p={\\\"t\\\":1}; sid=" + value, "x\\\\\\\"; " + value, "a\\\\\"; " + value,
                "p=\\\"https://h.example/x\\\"; " + value,
                "prefs={'t':'d'}; sid=" + value, "c={\"a\":1,\"b\":\"x\"}, sid=" + value,
                "ret=https://h.example/x;t=\\\"x\\\";sid=" + value, "ret=https://h.example/x;t='x';sid=" + value,
                "ret=https://h.example/x`; sid=" + value, "ret=https://h.example/x'}\\nHost: h.example",
                "ret=https://h.example/x\"}\\r\\nHost: h.example", "p=\\\\\\\"t\\\\\\\"; sid=" + value,
                "a=1 \"x\"; sid=" + value, "a=`x`; sid=" + value,
            ])
            let after = pick([
                "", "\"", "'", "\\x0D\\x0A", "\\x0D\\x0AHost: h.example", "\\x0A 1",
                "\\x0A123456-1234-1234-1234-123456789abc",
                "\\x0D\\x0Aalice@example.com", "\\x0ADeadbee-1234-1234-1234-123456789abc", "\\x0d\\x0a\\tx",
                "\\xA0", "\\x0A" + string(Self.base64url, 30...34), "`", "\\\"", "\\\\\\\"",
                // (Not a lone `\'`: the scanner and the reference differ there, review 7's
                // `referenceDisagrees`.)
            ])
            return before + name + pick([": ", "=", ":", " => "]) + inner + after
                + pick(["", "\"}", " ok", "\"", ",\"n\":\"h.example\"}"])
        case 41:
            // A header as a JSON (or Python) member whose value is an array or object (eleventh
            // session): after a quoted key it closes at its bracket, after a bare key it takes the line.
            return pick(["{", "{\"a\":1,", "[{", "{\\\"", "", "x "])
                + pick([
                    "\"Authorization\"", "\"cookie\"", "'Set-Cookie'", "Cookie", "\"X-Cookie\"", "cookie%22",
                    "\\\"Cookie\\\"",
                    "cookie\\x22",
                ])
                + pick([":", ": ", "=>", " = "]) + pick(["[", "{", "[\"", "[ ", "{ "])
                + pick([
                    "\"Bearer " + value + "\"", value, "\"a\",\"b\"", "\"x]\"", "{\"t\":1}", "'a', 'b'",
                    "https://h.example/p",
                ])
                + pick(["]", "}", "", "]]", "\"]"]) + pick([",\"X-Host\":[\"h.example\"]}", " ok", "}", "", "; sid=x"])
        case 27:
            // The eleventh session (urls3): a URL in running text ended by an escaped tab or line
            // break, and a value that resumes after it; emails with `\uXXXX` escapes; git remotes.
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                let url = pick(["https://h.example/p", "https://h.example", "https://h.example/p.", "s3://@/x"])
                let end = pick(["\\t", "\\n", "\\r\\n", "\\r", "\\\\n", "\\t\\t", "\\n\\t", "\\x"])
                let rest = pick([
                    value, "sid=" + value, "Cookie: sid=" + value, "X-Api-Key: " + value, "", "\"", "\\\"",
                ])
                let open = pick([
                    "{\"" + key + "\":\"x ", key + ": ", "{'" + key + "': 'x ", key + "=\\\"x ", "{\"m\":\"u=",
                ])
                return open + pick(["", "a=", "?auth=Bearer"]) + url + pick(["", "?auth=Bearer", "?q=bearer:"]) + end
                    + rest
                    + pick(["\"}", "'}", "\\\"", "", " ok"])
            case 1:
                let escape = pick([
                    "\\u00fc", "\\u00E9", "\\u00a0", "\\u0041", "\\u200b", "\\ud83d\\ude91", "\\u00f", "\\\\u00e9",
                    "\\U00e9", "\\u3000", "\\u0085",
                ])
                let local = pick([
                    "alice", "j" + escape + "rg", escape + "x", "x" + escape, "'" + escape, "a%40" + escape, "", escape,
                ])
                let domain = pick([
                    "b" + escape + "cher.de", "example.com", "x." + escape, escape + ".io", "m" + escape + "ller.de",
                    "a.b" + escape,
                ])
                return pick(["{\"email\": \"", "", "user ", "\\n", "%40", "[redacted-email]"]) + local
                    + pick(["@", "%40", escape + "@"]) + domain
                    + pick(["\", \"event\": \"signup\"}", "", ".", "-wJalrXUtnFEMI/K7MDENG/bPxRfiCY"])
            default:
                let local = pick([
                    "git", "'git", "''git", "xgit", "Git", "a.git", "git%40x", "\u{A0}git", "\u{200B}git", "gi",
                    "[redacted-email]git", "%3Dgit",
                ])
                return pick(["", "fatal: from ", "'", "x@y.io ", "\"", "ok\t", "a@b.c"]) + local + pick(["@", "%40"])
                    + pick(["github.com", "h.example", "10.0.0.1", "host", "b\u{FC}cher.de"])
                    + pick([":org/repo.git", ": Permission denied", ":", "", "/x", ":22"])
                    + pick(["", "'", " ok", "\""])
            }
        case 28:
            // The eleventh session: a quote written in another escaping (JSON's `\u0022`, HTML's
            // entities, CSV's and SQL's doubled quotes, Python's `\'`) around keys and values, also
            // unclosed, empty, mixed, before a URL and before `bearer`; `:=`; `%20` before `%3D`.
            let quote = pick([
                "\\u0022", "\\u0027", "&quot;", "&#34;", "&#39;", "&#x27;", "&apos;", "\"\"", "''", "\\'", "\\u002",
                "&quot", "\\x22", "\\U0022", "&QUOT;",
            ])
            let close = pick([quote, quote, "\\u0022", "&quot;", "\"", "'", "\"\"", "\\'", "", "\\\\'"])
            return pick(["{", "\"{", "", quote, "'{"]) + quote + key + pick([quote, close, ""]) + blank
                + pick([":", "=", ":=", " := ", "%3A", "%20%3D%20", "%20%20%3A", "=>", ":=>"]) + blank
                + pick([quote, "", "\"", close, quote + quote]) + pick(["", "", "Bearer%20", "basic%20%20Bearer%20"])
                + value
                + pick([
                    close, " ", "https://h.example/p" + close, "\"https://h.example\"", "\\n", quote + quote,
                    // A spelled value holding a URL and text after it (it resumes after the URL).
                    "https://h.example/p; sid=" + value + close, " https://h.example/\\n" + value + close,
                    " https://h.example/p" + quote + ", " + value + close, "=https://h.example) " + value,
                ])
                + pick([
                    "}", "," + quote + "auth" + quote + ":" + quote + "Bearer " + value + close + "}", " x", "", "\"}",
                ])
        case 32:
            // The eleventh session's pins escaped more than once (rule 6 reads a `/` after 1–15
            // backslashes, as rule 7 does), and escapes no JSON writes (16 backslashes).
            var slashes: [String] = []
            for _ in 0..<47 { slashes.append(String(repeating: "\\", count: pick([1, 3, 7, 15, 16, 2, 0])) + "/") }
            var body = ""
            for index in 0..<pick([43, 43, 42, 44]) { body += chance(12) ? slashes[index] : string(Self.base64, 1...1) }
            return pick(["{\"pin\":\"", "", "x "]) + pick(["sha256", "SHA256", "sha257"]) + slashes[44]
                + pick(["", slashes[45]]) + body + pick(["=", "=", ""]) + pick(["", slashes[46], "A", "\"}", " ok"])
        case 31:
            // The eleventh session's structures: a tuple (`(` opens one, `)` closes it, and inside
            // it any of `} ] )` closes any of `{ [ (`), backtick strings inside any structure.
            return key + pick(["=", ": ", "\":", " = ", "': "]) + pick(["(", "{", "[", "((", "({", "[("])
                + pick([
                    value, "'alice', '" + value + "'", "\\n  " + value + "\\n", "`it's \"q\" ]`, " + value,
                    "`a)b`", "`x", "`a\\`]`", "``", "`https://h.example/p]`", ":)", "f(x)", "(", "",
                ])
                + pick([")", "}", "]", "))", ")}", "", ");"]) + pick([" host=api.example.com", " ok", "\"}", ""])
        case 30:
            // The eleventh session's names (rule 7): camel-case words and logfmt codes of both cases
            // and no digit, around 32 characters, with what makes one a token (a digit, `/`, `\/`,
            // `%2F`, `+`, an invisible separator, a lone lower-case letter) or cuts it.
            var name = pick(["", "code=", "reason=", "a", "ab", "x_", "event.", "NS", "\"", "=", "-"])
            for _ in 0..<Int.random(in: 3...9, using: &generator) {
                name += pick([
                    "Error", "Server", "Certificate", "Not", "On", "Is", "URL", "X", "CURLE_SSL_", "PINNED", "_", "-",
                    "=", "Untrusted", "pinning", "a", "Ab", "x", "Ex", "ERR_CERT_", "eyJ", "Ok",
                ])
                if chance(8) {
                    name += pick([
                        "7", "/", "\\/", "%2F", "+", "\u{200B}", "b", "y", "@a.io ",
                        "-550e8400-e29b-41d4-a716-446655440000",
                    ])
                }
            }
            return name + pick(["", " ", "\"", ".", "=", "s", "==", "@example.com", "Bb"])
        case 29:
            // The eleventh session's keys (review 6): as the end of longer words, in every form,
            // and words that end in none of them (`keys`, `pwds`, `sessions`).
            let newKey = pick([
                "SECRET_KEY", "secretKey", "private_key", "PrivateKey", "passphrase", "Pwd", "OLDPWD", "sessionid",
                "session_id", "credentials", "aws_credentials", "db_pwd", "credential", "sessions", "pwds",
                "keys", "privatekeys",
            ])
            return pick(["", "{\"", "{'", "\\\"", "user[", "?"]) + newKey + pick(["", "\"", "'", "]", "\\\""]) + blank
                + pick(["=", ":", ": ", " => ", "%3D"]) + blank + pick(["", "\"", "'", "{"]) + value
                + pick(["", "\"", "'", "}", "&page=2", ";Host=db.example.com"])
        case 26:
            // An unlabelled Basic credential (tenth session), and words after Basic that stay.
            return pick(["", "\"", "x", "auth header ", "%20", "\\x22", "\\n", "[redacted-token]", "_"])
                + pick(["Basic", "basic", "BASIC", "Basic Basic", "Basic bearer", "bAsIc"])
                + pick([" ", "\t", "+", ":", "\u{A0}", "%20", "", "\u{1B}[1m"])
                + pick([
                    value, "YWxpY2U6aHVudGVyMg==", "auth", "Authentication", "aB", "Ab", "ab\u{200B}C", "a\\/b", "x.y",
                ])
                + pick(["", "\"", " ok", "https://h.example/p"])
        case 25:
            // nginx's `escape=default`: `"` written `\x22` (tenth session), around keys and values,
            // also unclosed, empty, before a URL, and `\xHH` before `bearer`.
            let quote = pick(["\\x22", "\\X22", "\\x27", "\\x2", "\\x22\\x22"])
            let close = pick([quote, "\\x22", "\\x27", "", "\"", "\\x22\\x22"])
            return pick(["{", "\"{", "", "\\x22"]) + quote + key + pick([quote, close, ""]) + blank
                + pick([":", "=", "%3A", "%3D"]) + blank + pick([quote, "", "\"", "\\x22 "]) + value
                + pick([close, " ", "https://h.example/p" + close, "\"https://h.example\"", "\\n"])
                + pick(["}", ",\\x22auth\\x22:\\x22Bearer " + value + close + "}", " x", ""])
        case 21:
            // The tenth session: constructors (Rust's `Some("…")`, Haskell's `Just`), Python string
            // prefixes before a value's quote, and unquoted values before escaped line breaks.
            let opener = pick([
                "", "Some(", "Ok(Secret(", "Just ", "Just", "Summer(", "Some( ", "X(b", "Err(<", "Optional(Some(",
                "\\String::from(", "Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(", "Some(Just ", "Just \u{1B}[1m",
            ])
            let prefix = pick(["", "", "u", "b", "rb", "F", "bbb", "ub", "r\\"])
            let quote = pick(["\"", "'", "", "\\\"", "`"])
            let tail = pick(["\\r\\n", "\\n", "\\r", "\\n ", "\\r\\n\\t", "\\\\n", "\\n\\n", "", "\\"])
            return pick(["{\"h\":\"", "{u'", "", "{'"]) + key + pick([": ", "=", "': ", "\": "]) + opener + prefix
                + quote + value + pick([quote, ""]) + pick(["", ")", "))"]) + tail
                + pick(["Host: a.example", "alice@example.com", "[redacted-token]", "Cookie: sid=x", "", value])
                + pick(["\"}", "}", ""])
        case 20:
            // A URL inside a header's or quoted value, and what follows it (the ninth session).
            let url = pick(["https://h.example/p", "https://h.example", "s3://@/x", "https%3A%2F%2Fh.example%2Fp"])
            let before = pick(["", "\"", "'", "\\\"", "(", "`", "a=", "a=\"", "\\'", "\\\\`"])
            let after =
                pick(["", "\"", "'", "\\\"", ")", ";", ".", "`", "\\n"]) + pick([" ", "", "\u{A0}", "\r\n", "; "])
            let rest = pick([value, "sid=" + value, "", "[redacted-secret]", "x https://g.example/q " + value])
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: return key + pick([": ", "=", ": \"\""]) + before + url + after + rest
            case 1: return "{\"" + key + "\":\"" + before + url + after + rest + "\",\"n\":\"h.example\"}"
            default:
                return key + pick(["='", "=\\\"", ": `"]) + before + url + after + rest + pick(["'", "\\\"", "`"])
                    + " ok"
            }
        case 17:
            // The ninth session: an empty quoted string before a header's value (after a bare key
            // and a quoted one).
            // The tenth: the same escaped as JSON writes it, in a JSON string.
            let (open, close) = pick([("", ""), ("", ""), ("{\"h\":\"", "\"}"), ("'", "' ok")])
            return open + pick(["Cookie", "Authorization", "Set-Cookie", "\"cookie\"", "'Cookie'", "cookie%22"])
                + pick([": ", "=", ":", " => "])
                + pick([
                    "\"\"", "''", "``", "\"\"\"", "'", "<\"\"", "\\\"\\\"", "\\\\\\\"\\\\\\\"", "\\\"\\\\\\\"",
                    "\\\"\\\"\\\"",
                ])
                + pick([value, " Basic " + value, "", " " + value, "\\n" + value, "{" + value + "}"]) + close
        case 18:
            // A scheme's name and its token as a value: quoted, in `<…>`, after Unicode spaces,
            // after more names, before a URL.
            // The tenth session: blanks inside the quotes, rule 3's form in running text.
            return pick([key + "=", key + ": ", key + "=<", "x ", "\"" + key + ": "])
                + pick(["Bearer", "basic", "Bearer Bearer", "bearer\u{A0}Basic", "BEARER"])
                + pick([" ", "\t", "\u{A0}", "\u{1B}[1m", "", "  "])
                + pick(["\"", "'", "<", "", "", "`", "\" ", "' ", "<\t", "\"\u{3000}", "\\\"", "\\\" ", "\\\\\\\" "])
                + value
                + pick(["\"", "'", ">", "", "\\\"", " \"", " '", "\u{A0}>", "  "])
                + pick(["", " ok", "https://h.example/p", "&n=1", ">", "\" x"])
        case 19:
            // Apostrophes and quotes inside a structure.
            return key + pick(["=", ": ", "\":"]) + pick(["{", "[", "Optional(["]) + value
                + pick([
                    "user's session", "don't log", "a 'b' c's", "it's', 'x", "x1'y", "\u{E9}'s", " 'x' ", "9'",
                    "u'x]y'",
                    "rb'a]', b'", "xu'a]'", "F'{x}'",
                    // The tenth session: after a non-ASCII letter, a Unicode space, an invisible separator.
                    "jos\u{E9}'s session", "\u{00A0}'x]'", "\u{200B}'x}'", "\u{1F600}'s", "\u{3000}'a]'", "\u{E9}u'x]'",
                    "\u{FC}'", "\u{E9}rb'a}'",
                ])
                + pick(["}", "]", "", "'}"]) + pick([" host=api.example.com", " https://h.example/v1 ok", ""])
        case 15: return escapedJSONCredential(depth: Int.random(in: 0...3, using: &generator)).line
        case 16:
            return chance(50)
                ? escapedPythonCredential(depth: Int.random(in: 0...2, using: &generator)).line : escapedURLLine()
        case 13:
            // JSON escaped 1–4 times (and once too often, and unevenly).
            let quote = String(repeating: "\\", count: pick([1, 3, 7, 15, 16, 2])) + "\""
            let close = pick([quote, "\\\"", "\\\\\\\"", "\"", ""])
            return "{" + quote + key + pick([quote, close]) + blank + ":" + blank + quote + value + close + "}"
        case 12:
            return pick(["{\"" + key + "\":", key + "=", key + ": ", "{'" + key + "': ", "\\\"" + key + "\\\":"])
                + structure(depth: Int.random(in: 0...5, using: &generator)) + pick(["", ",\"n\":1}", " ok", "\"}"])
        case 0: return "{\"" + key + "\"" + blank + "=>" + blank + "\"" + value + "\"}"
        case 1: return key + pick(["=", ": "]) + "Optional(" + pick(["\"", "'", ""]) + value + pick(["\")", ")", ""])
        case 2: return pick(["user[", "data[", "["]) + key + "]" + blank + "=" + value + pick(["&n=1", "", "]"])
        case 3:
            return pick(["", "user[", "user%5B", "a%5b"]) + key + formSuffixes() + pick(["=", ":", "\"="]) + value
                + pick(["&x=1", ""])
        case 4:
            return key + ": " + pick(["a=\"", "a=\\\"", "realm=\""]) + value + pick(["\"", "\\\"", ""])
                + pick(["; s=", ", r=", " "])
                + value
        case 5: return "{\"h\":\"" + key + ": " + value + pick(["\\r\\n", "\\n", "\\t"]) + "Host: h.example\"}"
        case 6: return key + blank + pick([":", "="]) + blank + value
        case 7:
            return key + "=" + pick(["{", "[", "<", "`", "{ ", "[ \"", "<<", "[redacted-"]) + value
                + pick(["}", "]", ">", "`", ""])
        case 8: return pick(["{'", "'"]) + key + "': '" + value + pick(["'", "\\''", ""]) + "}"
        case 9: return "u='https://h.example/r?q=" + value + "\\'s&" + key + "=" + value + "' next"
        case 10:
            return pick(["[redacted-token]", "[redacted-secret]", "[REDACTED-TOKEN]"])
                + pick(["]", "", "[]", "[0]", "%5D", "%5b1%5d", "[]%5D"])
                + pick([":", "="]) + value
        case 11:
            return pick(["Bearer", "bearer bearer", "q=Bearer"])
                + pick(["+", "\u{1B}[1m", " \u{1B}[0m", "++", "+\u{1B}[m"])
                + value + pick(["", "&x=1", "+", "\u{1B}[0m"])
        default: return credential()
        }
    }

    /// A JSON object or array (or pieces of one) that nests `depth` levels, with the strings,
    /// escapes, brackets and placeholders that decide where it ends.
    mutating func structure(depth: Int) -> String {
        guard depth > 0 else { return structurePiece() }
        let (open, close) = pick([("{", "}"), ("[", "]"), ("{", "]"), ("[", ""), ("{ ", " }")])
        var inner = ""
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            inner +=
                pick([", ", ":", ""])
                + (Bool.random(using: &generator) ? structure(depth: depth - 1) : structurePiece())
        }
        return open + inner + close
    }

    mutating func structurePiece() -> String {
        pick([
            "\"a\"", "'b'", "\\\"c\\\"", "\"x}\"", "'y]'", "\"q\\\"r\"", "it's", "1", "[redacted-secret]",
            "[redacted-url]", "https://h.example/p?q=1", "\"https://h.example\"", "\"a@b.example\"", "\\", "\"open",
            "hunter2", "\u{00A0}", "\"", "}", "]", ", ", ": ", "\r\n",
        ])
    }

    /// A line of the eighth session's credential forms (form suffixes, percent-encoded separators
    /// and quotes) among the hunt's credentials, the corpus's words and separators. (Its own
    /// generator, so `huntLine()`'s stream stays as it was.)
    public mutating func huntFormLine() -> String {
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...5, using: &generator) {
            parts.append(
                chance(50)
                    ? formCredential()
                    : chance(30)
                        ? (chance(20) ? bracketHostURL() : twiceEncodedURL())
                        : chance(50) ? huntCredential() : pick(Self.words))
        }
        return parts.joined(separator: pick([" ", ", ", "", "\t", "=", ":", "\"", "; ", "&", "%26", "%20"]))
    }

    /// A URL percent-encoded twice (`https%253A%252F%252F…`, a `redirect_uri` in a parameter that
    /// is encoded again), with userinfo, port, path, query and fragment encoded twice too.
    public mutating func twiceEncodedURL() -> String {
        pick(["next=", "\"", "u='", "", "redirect_uri=", "x"]) + scheme()
            + pick(["%253A%252F%252F", "%253a%252f%252f", "%253A%252F"])
            + pick(["", "", "u%2540x%253Apw%2540", "a%40b%2540"])
            + host() + pick(["", "%253A8080", "%25"]) + pick(["", "%252Fcb", "%252Fa%2540b", "%252F"])
            + pick(["", "%253Ftoken%253Dhunter2", "%2523frag", "%3Fx"]) + pick(["", " ok", "\"", ")", "&n=1", "'"])
    }

    /// A URL whose host starts with `[`: an IPv6 literal, one holding more brackets, one not
    /// closed, with brackets and form keys after it (a kept host must count the same brackets on a
    /// second pass).
    public mutating func bracketHostURL() -> String {
        pick(["", "(", "[", "\"", "x=", "("]) + scheme() + "://"
            + pick(["[::1]", "[::a[0]", "[a[b]c]", "[[::1]]", "[::1", "[]", "[redacted-url]", "[::a[0]=a&x%5Bp%5D]"])
            + pick(["", "]", "[]=b]", ":443", "]:443"]) + pick(["", "/a", "/a)", "/a]", "/p?x[0]=1"])
            + pick(["", ")", "]", " ok", ".ser%5Bpassword%5D=c", "\"", "&password[]=x"])
    }

    /// A credential with form suffixes or in percent-encoded text.
    public mutating func formCredential() -> String {
        let key = pick(["password", "token", "api_key", "Cookie", "Authorization", "secret", "x-auth-token"])
        guard chance(50) else { return percentCredential(key: key) }
        let value = pick(["hunter2", "[redacted-secret]", "a\"b", "x]y", "https://u:p@h.example/x", "", "%3Dv"])
        return pick(["", "user[", "user%5B", "a%5b", "[redacted-", "\""]) + key + formSuffixes()
            + pick(["=", ":", "\"=", " = ", "\":\""]) + value + pick(["&x=1", "", "\""])
    }

    /// A credential in percent-encoded text (the eighth session): `%3D`/`%3A` separators, `%22`/`%27`
    /// quotes, `%20` blanks, values with encoded bytes that end one and that do not, placeholders.
    public mutating func percentCredential(key: String) -> String {
        let value = pick([
            "hunter2", "a%2Bb", "[redacted-secret]", "x%3Dy", "a%0Ab", "https%3A%2F%2Fh.example%2Fx", "p%25q", "a b",
            "x%5Dy", "%", "%2", "x%7", "it%27s", "a%22b", "[redacted-token]x", string(Self.base64url, 1...12),
            "%29" + string(Self.base64url, 30...40), "%26ab12cd3-4444-4444-4444-444444444444",
            "%0A9" + string(Self.base64, 32...34),
            "%[redacted-token]", "%zz",
        ])
        return pick(["", "%22", "%27", "\"", "user%5B", "%7B%22", "%257B%2522"]) + key + formSuffixes()
            + pick(["", "%22", "%27", "%2522", "\""]) + pick(["", " "])
            + pick(["%3D", "%3d", "%3A", "%3a", "=", "%253D", "%253a"]) + pick(["", "", "%20", "%20%20", " ", "%2520"])
            + pick(["", "", "%22", "%27", "%2522"]) + value
            + pick(["", "%22", "%27", "%26x%3D1", "%0D%0AHost%3A%20h", "%20y", "&n=1", "\"", "%2", "%", "%22%7D"])
    }

    /// Form suffixes after a key (the eighth session): `]`, `[]`, `[<digits>]` and their
    /// percent-encoded forms, mixed, up to one more than rule 2 takes, and an index one digit too
    /// long.
    public mutating func formSuffixes() -> String {
        let suffixes = [
            "]", "[]", "[0]", "[42]", "%5D", "%5d", "%5B%5D", "%5b%5D", "%5B7%5D", "[123456]", "[1234567]", "%5B0]",
            "[x]", "[",
        ]
        return (0..<Int.random(in: 0...5, using: &generator)).map { _ in pick(suffixes) }.joined()
    }

    public mutating func bearer() -> String {
        let space = pick([" ", "  ", "\t", "\u{00A0}", "\u{2009}", ": ", "%20", ":", "\u{3000}"])
        let token = string(Self.base64url + ".~+/", 1...60)
        let keyword = pick([
            "Bearer", "bearer", "BEARER", "Bearer\t", "xBearer", "x_Bearer", "]Bearer", "\u{00A0}Bearer",
        ])
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: return keyword + space + "\"" + token + "\""
        case 1: return keyword + space + "<" + token + ">"
        case 2: return keyword + space + token + "=" + string(Self.base64url, 1...10)
        case 3: return keyword + space + "bearer " + token
        default: return keyword + space + token + pick(["", "=", "=="])
        }
    }

    public mutating func longSecret() -> String {
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: return "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
        case 1: return string(Self.base64, 28...70) + pick(["", "=", "=="])
        case 2:
            var characters = Array(string(Self.base64url, 20...50)).map(String.init)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                characters.insert(pick(Self.invisibles), at: Int.random(in: 0...characters.count, using: &generator))
            }
            return characters.joined()
        case 3: return string(Self.base64url, 32...40) + jwt()
        default: return string("abcdefghij/", 20...50)
        }
    }

    /// A pin as JSON writes it (most of its `/` as `\/`) after each label, and its edges: 42 or 44
    /// characters, `\/`, `\+` or `\` after it, a second pin of the transport's list. (Not in
    /// ``line()``: the benchmark's corpus stays as it is.)
    public mutating func escapedPin() -> String {
        func body() -> String {
            let value =
                string(Self.base64 + "///", Int.random(in: 0..<10, using: &generator) == 0 ? 41...43 : 42...42)
                + pick(["A", "w", "/"]) + "="
            var escaped = ""
            for character in value { escaped += character == "/" && chance(85) ? "\\/" : String(character) }
            return escaped
        }
        return pick([
            "sha256\\/", "sha256\\/\\/", "sha256/", "pin-sha256=\\\"", "{\\\"sha256\\\":\\\"", "SHA256:", "sha256='",
            "expected one of ", "",
        ]) + body() + pick(["", "\\\"", "\\/", "\\/x", "\\+", "\"", "A", "\\", ", " + body()])
    }

    /// A base64 secret or JWT as JSON writes it (most `/` as `\\/`), and its edges: `\\/` at a run's
    /// start or end, `\\\\/`, a `\\` before another byte, 28–40 characters around the 32 of rule 7.
    public mutating func escapedSecret() -> String {
        let value =
            chance(30)
            ? jwt() + string(Self.base64 + "///", 4...30)
            : pick(["", "/", "//"]) + string(Self.base64 + "////", 26...40) + pick(["", "/", "=", "\\"])
        var escaped = ""
        // A quarter percent-encoded, as a form or a query writes it (`%2F`, `%2B`, `%3D`, any
        // case, once or twice), with an odd `%` that encodes nothing of the run.
        let encoded = chance(25)
        for character in value {
            if encoded, "/+=".contains(character) {
                let hex = character == "/" ? "2F" : character == "+" ? "2B" : "3D"
                escaped += pick(["%", "%", "%25"]) + (chance(30) ? hex.lowercased() : hex)
            } else if encoded {
                escaped += chance(3) ? pick(["%", "%2", "%25", "%2C"]) + String(character) : String(character)
            } else if character == "/" {
                escaped += chance(85) ? "\\/" : chance(30) ? "\\\\/" : "/"
            } else {
                escaped += chance(2) ? "\\" + String(character) : String(character)
            }
        }
        return pick([
            "", "{\"k\":\"", "\\\"", "note: ", "sig\\/", "Bearer ", "x%20Bearer%20", "\\nbearer ", "x1Bearer ",
        ])
            + escaped + pick(["", "\"}", "\\\"", " ok", "\\/x"])
    }

    /// Emails whose `@` is percent-encoded (`%40`), chained, glued to an `@`, and sequences that
    /// are no `@` (`%41`, `%4`, a `%40` at the end).
    public mutating func percentEmail() -> String {
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            parts.append(
                pick([
                    "", "'", "a", "jöhn.smith", string("abcdefghijklmnopqrstuvwxyz0123456789._%+-", 1...12),
                    "e%3Dsync.done%26email%3D", "a%2Bb", "%3", "x%", "k%3d", "%26", "q%2",
                ]))
            parts.append(pick(["%40", "%40", "@", "%41", "%4", "%", "%40%40", "%2540", "%2540", "%25%40", "%254"]))
            parts.append(
                pick([
                    "example.com", "b.c", "x", "bücher.de", "x.", "10.0.0.1", "a_b.io", "c.org", "b%C3%BCcher.de",
                    "B%c3%bccher.de", "%E4%BE%8B.jp", "b%25C3%25BC.de", "x%C3.", "b%7Ac.de", "a%C3%2Fb.c", "a%C.de",
                    "ex.io%253Dx", "a.b%2526c",
                ]))
        }
        return parts.joined() + pick(["", "%20ok", "&x=1", "%", "%4", "%40"])
    }

    /// An email glued to a base64 run on either side (or both), through the characters a run and an
    /// email's edge share, some runs long enough for rule 7 and some not, some of one case.
    public mutating func gluedEmail() -> String {
        func run() -> String {
            pick([
                string(Self.base64, 20...44), string("abcdefghijklmnopqrstuvwxyz/", 20...44), escapedSecret(),
                string(Self.base64url, 1...8), jwt(), pin(), escapedPin(),
            ])
        }
        let address = chance(50) ? email() : percentEmail()
        let glue = ["", "+", "/", "-", ".", "=", "_", "\\/", "%2F", "%2b", "%3D", "%252F"]
        var text = address
        if chance(60) { text = run() + pick(glue) + text }
        if chance(60) { text += pick(glue) + run() }
        return text
    }

    /// A line of hunt credentials among the corpus's words and separators.
    public mutating func huntLine() -> String {
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...6, using: &generator) {
            if chance(60) {
                parts.append(huntCredential())
            } else if chance(10) {
                parts.append(escapedPin())
            } else if chance(10) {
                parts.append(escapedSecret())
            } else if chance(10) {
                parts.append(percentEmail())
            } else if chance(10) {
                parts.append(gluedEmail())
            } else {
                parts.append(chance(50) ? secretish() : pick(Self.words))
            }
        }
        return parts.joined(separator: pick([" ", ", ", "", "\t", "=", ":", "\"", "; ", "&"]))
    }

    public mutating func secretish() -> String {
        switch Int.random(in: 0..<14, using: &generator) {
        case 0: return bearer()
        case 1, 2: return url()
        case 3: return email()
        case 4: return uuid()
        case 5: return jwt()
        case 6: return longSecret()
        case 7: return url() + pick(["", " ", "/", "?"]) + email()
        case 8:
            return pick(["Authorization: Bearer ", "token=", "id=", "ref:", "\"", "'", "`", "(", "<", "\\\""])
                + pick([jwt(), uuid(), email(), url()])
        case 9, 10: return credential()
        case 11: return pin()
        case 12:
            return "{\"url\":\"" + url() + "\",\"host\":\"" + host() + "\",\"msg\":\"GET " + url() + "\"}"
        default: return string("=-_./@:?#[]()\"' \t\\%`<>{}", 1...20)
        }
    }

    public mutating func line() -> String {
        if chance(3) {
            // Adversarial: separators only, long runs, glued rules.
            return pick([
                string("-_.@:/?#", 1...300), string(Self.base64url, 100...3000), String(repeating: "@", count: 500),
                String(repeating: "https://", count: 50), uuid() + uuid() + email() + jwt(), string(".", 1...100),
                "bearer bearer bearer " + string(Self.base64url, 5...10), String(repeating: "[redacted-", count: 30),
                string("()[]{}<>\"'`\\ ", 1...100), "https://" + string("()[]{}<>\"'`\\ax", 1...100),
            ])
        }
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...12, using: &generator) {
            parts.append(chance(35) ? secretish() : pick(Self.words))
        }
        let separator = pick([" ", " ", ", ", "", "\t", " | ", "=", "\u{00A0}", "\"", ":", "\r\n", "\u{200B}"])
        return parts.joined(separator: separator)
    }
}
