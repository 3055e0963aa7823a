/// The adversarial input families of issue 15 §1 and ../shared/ATTACKS.md for the log sanitizer:
/// each a name and one unit repeated into a long single line. The linearity test (operation
/// counts at n and 4n) and the benchmark's worst-case section use this one list, so the test
/// bounds exactly what the benchmark measures.
public enum AdversarialLogFamilies {
    /// An empty unit stands for random upper-case hex (base32/hex blobs have no repeating unit).
    public static let all: [(String, String)] = {
        var families: [(String, String)] = []
        // Runs of each trigger letter in both cases (bearer, http, sha256, keys, JWT, hex).
        for letter in "bBhHsSaAcCpPtTeEyYjJfF" { families.append(("run of \(letter)", String(letter))) }
        families += [
            ("@", "@"), (".", "."), ("-", "-"), ("/", "/"), (":", ":"), ("%", "%"), ("=", "="), ("quote", "\""),
            ("backslash", "\\"), ("http:// repeated", "http://"), ("Bearer repeated", "Bearer "),
            ("[redacted- repeated", "[redacted-"), ("UUID fragment", "550e8400-e29b-"), ("JWT fragment", "eyJhbGciOi."),
            ("eyJ repeated", "eyJ"), ("JSON-escaped scheme repeated", "https:\\/\\/"),
            ("percent-encoded scheme repeated", "https%3A%2F%2F"), ("quoted URL start repeated", "\"https://a"),
            ("opening brackets", "(["), ("password= repeated", "password="), ("Cookie: repeated", "Cookie:"),
            ("sha256/ repeated", "sha256/"), ("a@ repeated", "a@"), ("email-like", "a@b."),
            ("zero-width space", "\u{200B}"), ("NBSP", "\u{00A0}"), ("token with zero-width space", "ab\u{200B}"),
            ("bearer with NBSP", "bearer\u{00A0}"), ("base64 slashes", "aB1/"), ("upper-case hex", "0123456789ABCDEF"),
            ("hex and invisible", "a\u{200B}"), ("escaped quote", "\\\"a"),
            ("pin list", "expected one of AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=, "),
            ("URL query with bearer and spaces", "https://h/?a=Bearer \t"),
            // The seventh session's credential forms: openers, =>, form keys, inner strings of a
            // header value, Unicode blanks around a separator, escaped line breaks.
            ("Optional( repeated", "password=Optional("), ("=> repeated", "token=>"), ("openers", "password={<["),
            ("form key repeated", "x[password]="), ("[]= repeated", "password[]="),
            ("header inner quote", "Cookie: a=\""), ("header inner single quote", "Cookie: ['x"),
            ("NBSP around a separator", "password\u{00A0}=\u{00A0}"), ("escaped line break", "Cookie: a\\n"),
            ("colour codes around a separator", "password\u{1B}[0m=\u{1B}[1;32m"), ("colour code start", "\u{1B}[1;"),
            // The eighth session's structure values and replaced URLs.
            ("structure opener repeated", "token={"), ("nested openers", "{["), ("structure strings", "token=[\"a\",'"),
            ("escaped structure string", "password={\\\"a"),
            ("structure with URLs", "token={https://a "),
            ("structure with [redacted-url]", "token=[[redacted-url]"),
            ("escaped pin label repeated", "sha256\\/"), ("escaped pin body", "sha256\\/\\/A\\/"),
            ("escaped pin labels and =", "sha256\\/sha256\\/sha256\\/sha256\\/sha256\\/="),
            // The eighth session's form suffixes: indices, nested arrays, encoded brackets.
            ("index suffixes repeated", "password[0][0]="), ("form closers before =", "]]]]]="),
            ("encoded brackets", "%5D%5B0"), ("encoded form key repeated", "x%5Bpassword%5D%5B0%5D="),
            ("percent separator repeated", "password%3D"), ("password%253D repeated", "password%253D"),
            ("twice-encoded quoted key", "%2522token%2522%253A%2522"), ("%2520 before %253D", "a%2520%2520%2B%253D"),
            ("twice-encoded value stops", "password%253Da%2526%250"), ("percent-quoted key", "%22token%22%3A%22"),
            ("%20 after a percent separator", "token%3D%20%20%20"), ("percent value stops", "password%3Da%26%0"),
            ("twice-encoded separator repeated", "https%253A%252F%252F"), ("%253A repeated", "%253A"),
            ("twice-encoded authority", "%253A%252F%252Fa%2540b%25"),
            // The ninth session's `\/` as a base64 character of rule 7.
            ("escaped slashes in a run", "aB1\\/"), ("backslashes before /", "\\\\\\/x\\"),
            // …and `%40` as rule 4's `@`.
            ("percent-encoded @ repeated", "a%40"), ("percent emails chained", "a%40b.c_"),
            ("twenty backslashes before /", String(repeating: "\\", count: 20) + "/a"),
            // The ninth session's runs of backslashes: strings opened and closed by runs (a depth-k
            // quote), a URL after a run and a quote, Python strings, a header's escaped line break.
            ("escaped structure strings by runs", "token={\\\\\\\"a\\\\\\\\\\\""),
            ("escaped value with runs", "password=\\\"a\\\\\\\\\\\\"),
            ("URL after a run and a quote", "\\\\\"https://a\\\\\\"),
            ("sixteen backslashes and a quote", String(repeating: "\\", count: 16) + "\""),
            ("Python string with an even run", "token=['a\\\\'"),
            ("header end before a placeholder", "Cookie: a\\[redacted-email]"),
            // The ninth session's value ends: empty quotes before a header value, a scheme's quoted
            // token as a value, apostrophes in a structure.
            ("empty quotes before a header value", "Cookie: \"\""), ("scheme and quoted token", "token=Bearer \"a\" "),
            ("apostrophes in a structure", "token={a'b "), ("header value around a URL", "Cookie: a=https://h/p "),
            // The tenth session's value starts: blanks inside a scheme's quoted token (read again when
            // no closing quote follows), escaped empty quotes, an apostrophe after a non-ASCII letter.
            ("padded quoted bearer token", "x Bearer \"  a  "),
            ("padded scheme token as a value", "token=Basic '  a  "),
            ("header scheme names before a quote", "Authorization: Bearer basic \"  a"),
            ("escaped quoted bearer token", "x Bearer \\\"  a\\\\ "),
            ("escaped empty quotes before a header value", "Cookie: \\\"\\\""),
            ("apostrophes after a non-ASCII letter", "token={\u{E9}'b "),
            // The tenth session's percent-encoded `/ + =` in a run, `%2540`, encoded non-ASCII
            // domains, and emails glued to runs (each match read back and forward once more).
            ("percent-encoded slashes in a run", "aB1%2F"), ("twice-encoded slashes in a run", "aB1%252f"),
            ("stray percents in a run", "a%2%25%3"), ("twice-encoded @ repeated", "a%2540"),
            ("encoded non-ASCII domains chained", "a%40b%C3%BC.c"), ("email glued to runs", "a@b.c-aB1/"),
            ("runs glued before emails", "aB1/x+b@c.d/"), ("email glued to a long label", "x@a.b_c_c_c_c_c_c_c"),
            // The tenth session's value starts and ends: constructors (one whose name runs past 32
            // bytes), `Just`, string prefixes, unquoted values before escaped line breaks.
            ("constructors repeated", "password=Some(Ok(Err("),
            ("long constructor names", "token=Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa("),
            ("constructor before a plain byte", "secret=Summer(2"), ("Just repeated", "password: Just "),
            ("string prefixes", "password=rb'"), ("unquoted values before escaped line breaks", "token=a\\r\\n"),
            // The tenth session's nginx `\x22` quotes.
            ("hex-quoted key repeated", "\\x22token\\x22:\\x22"), ("hex quotes in a value", "password=\\x22a\\x27"),
            ("\\xHH before bearer", "\\x22Bearer\\x22"), ("Basic repeated", "Basic "),
            ("Basic and a word with basic", "Basic a.basic "),
            ("Basic and a long lower-case word", "Basic aaaaaaaaaaaaaaaa "),
            // The eleventh session's URL ends at an escaped tab (after `bearer`: not), values resumed
            // after an escaped line break, `\uXXXX` in emails, git remotes (a quote run read again).
            ("URLs ended by escaped tabs", "https://h/p\\t"), ("escaped tabs after bearer", "https://h/?a=Bearer\\t"),
            ("quoted value over URLs and escaped line breaks", "token=\"x https://h/p\\r\\n"),
            ("escaped non-ASCII emails chained", "\\u00e9@b\\u00fc.c"),
            ("escaped characters before @", "\\u00e9\\u00e9@"),
            ("git remotes repeated", "git@h.io:"), ("quoted git remotes", "''git@h.io:'"),
            // The eleventh session's header contexts (a look-back over a name's prefix), nginx's
            // escaped line breaks, a header array member, name–value pairs (a look-back over a pair).
            ("quoted header names with prefixes", "'X-Forwarded-Cookie: a\" "),
            ("escaped line breaks before names", "\\x0D\\x0AAbCdEfGhIjKlMnOpQrStUvWxYz-Cookie:"),
            ("hex line breaks in a value", "Cookie: a\\x0D\\x0A\\x0A\\x0"),
            ("header array members", "{\"cookie\":[\"a\"],"),
            ("name-value pairs", "{\"name\":\"DB_PASSWORD\",\"value\":\"x\"},"),
            ("pair names without a value", "\"name\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaapassword\",\"value\":"),
            // The eleventh session's quotes in other spellings (each occurrence of a spelling's first
            // byte compared with it), doubled key quotes, `%20`s before a percent-encoded separator,
            // and a percent-encoded scheme value's names.
            ("\\u0022-quoted value with near spellings", "password:\\u0022a\\u002\\u0027&quot"),
            ("&quot;-quoted keys repeated", "&quot;token&quot;:&quot;"),
            ("doubled key quotes", "\"\"password\"\":\"\"a\"\"'"),
            ("\\' quotes repeated", "\\'token\\': \\'"), ("%20 before a percent separator", "a%20%20%20%3D"),
            ("percent scheme names", "token%3DBearer%20basic%20"),
            // The eleventh session's keys (`s` is a key's last letter now) and names of rule 7
            // (a run of both cases and no digit is read once more for its shape).
            ("credentials= repeated", "credentials="), ("s= repeated", "s="), ("pwd keys", "db_pwd:"),
            ("camel-case name run", "AbcDef"), ("logfmt code run", "code=CURLE_SSL_"),
            ("name run broken at its end", "AbcDefGhiJklMnoPqrStuVwxYzaBcDefGhiJklMnoPqrStuVwxYzab "),
            // …tuples and backtick strings in structures, pins escaped twice (read a byte at a time).
            ("tuple opener repeated", "token=("), ("backtick strings in a structure", "token={`a"),
            ("twice-escaped pin label repeated", #"sha256\\\/"#),
            ("twice-escaped pin body", #"sha256\\\/A\\\/"#),
            // The fourteenth session's triggers: start tags (a `>` read back to its `<`, at most 336
            // bytes), form parts, Go map members, Gson's `\u003d`, full-width separators.
            ("start tags repeated", #"<wsse:Password Type="t">"#),
            ("> after long attributes", String(repeating: "a", count: 330) + ">"),
            ("form parts repeated", #"name=\"password\"\r\n\r\n"#), ("Go map members repeated", "] Cookie:[a"),
            ("\\u003d separators repeated", #"token\u003d"#), ("full-width separators repeated", "password＝"),
            // The sixteenth session's new triggers: `--` (rules 1–2's pass; a long option's name
            // read forward once) and `au` (rule 3's finder; a SASL command's words and run).
            ("long options repeated", "--password "), ("-- repeated", "-- "), ("options and values", "--token a "),
            ("option names glued", "--a-b--c--"), ("AUTH PLAIN repeated", "AUTH PLAIN "), ("au repeated", "au"),
            ("AUTHENTICATE LOGIN repeated", "AUTHENTICATE\tLOGIN\t"), ("AUTH PLAIN runs", "AUTH PLAIN AGFsaWNl;"),
            // The eighteenth session: plain members between a pair's name and value (each `value`
            // reads back over at most four, and none past another `value` member).
            ("pair members between", #""a":"b","value":"#),
            (
                "pair members at the limits",
                "\"" + String(repeating: "k", count: 32) + "\":\"" + String(repeating: "v", count: 64) + "\",\"value\":"
            ),
            ("unquoted pair members", "{Name:DB_PASSWORD Type:String n:1 Value:"),
            // The nineteenth session: members on lines of their own (each `value` reads back over a
            // line break and at most 64 bytes of indentation a member), and `pass` where it may be
            // no word's tail (read back one or two bytes).
            ("pair members on lines", ",\n" + String(repeating: " ", count: 63) + "\"a\": 1,\r\n\t\"value\":"),
            ("YAML pair members", "\\n  - name: API_TOKEN\\n    a: b\\n    value:"),
            ("pass and bypass", "bypass=Pass:db2pass%3D]pass="),
            // A `:` after a user option's name reads back over the name, blanks and the option (with
            // no `curl` word, curl's options are none: the check alone).
            ("user options repeated", "-u a:b "), ("curl user options repeated", "curl -u a:b "),
            (
                "user option look-back",
                "--user" + String(repeating: " ", count: 64) + String(repeating: "u", count: 63) + ":"
            ),
            // The twentieth session: every `-` at a boundary is an option's shape (a letter read),
            // and after a command's word a password option (a span every 13 bytes); the input's
            // words are read once.
            ("short options repeated", "-p a -a b "), ("command options repeated", "sshpass -p a "),
            ("glued command options", "mysql -pa -P 1 "),
            // The twenty-second session: htpasswd's first option reads back over its blanks to the
            // word and on over at most four option words, the file and the user (each bounded).
            ("htpasswd repeated", "htpasswd -bc f u x "),
            (
                "htpasswd blanks",
                "htpasswd" + String(repeating: " ", count: 64) + "-bC" + String(repeating: "\t", count: 64) + "10 -n "
                    + String(repeating: "u", count: 255) + " -"
            ),
            // The twenty-third session: SQL passwords. Each candidate reads forward its words, a
            // plugin name (at most 64 bytes), an account (unbounded: a run no other candidate
            // reads, since another needs blanks after its `PASSWORD`) and the blanks between; a
            // value that starts with a placeholder is rejected before its content (which never
            // closes here) is read.
            ("SQL words repeated", "IDENTIFIED WITH x BY PASSWORD FOR a = PASSWORD( "),
            (
                "SQL bounds",
                "identified\twith " + String(repeating: "p", count: 64) + " as\npassword for "
                    + String(repeating: "a", count: 128) + " = \\\"x "
            ),
            ("SQL placeholder value", "password '[redacted-secret]a "),
            // Long accounts full of candidates that fail (`password` after `'` needs blanks and
            // `FOR`), each ended by a blank and followed by no `=`.
            ("SQL long account", "password for " + String(repeating: "a'password(", count: 100) + "\\n x "),
            // The second review: a pin quoted as the value (read up to 43 slashes after 15
            // backslashes each, then kept) and values opened by doubled quotes.
            (
                "SQL quoted pin",
                "password 'sha256/" + String(repeating: String(repeating: "\\", count: 15) + "/", count: 43) + "=' "
            ),
            ("SQL doubled quotes", "identified by ''x'''' password \"\"y\"\" "),
            ("random upper-case hex", ""),
        ]
        return families
    }()

    /// `unit` repeated to at least `bytes` bytes; for the empty unit, seeded random upper-case hex.
    public static func line(_ unit: String, bytes: Int) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(bytes + 16)
        if unit.isEmpty {
            var generator = SeededGenerator(seed: 15)
            let hex = Array("0123456789ABCDEF".utf8)
            while line.count < bytes { line.append(hex[Int(generator.next() & 15)]) }
            return line
        }
        let unitBytes = Array(unit.utf8)
        while line.count < bytes { line.append(contentsOf: unitBytes) }
        return line
    }
}
