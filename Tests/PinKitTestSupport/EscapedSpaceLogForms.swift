/// JSON escapes of Unicode spaces and invisible separators (the sixteenth session): Python's
/// `json.dumps` with `ensure_ascii` (its default) writes NBSP as `\u00a0` and ZWSP as `\u200b`, and
/// rules 2, 3, 5 and 7 read such an escape as the character. The forms, with escapes that are no
/// space or separator next to them (`\u0041`, `\u00e9`, a truncated `\u200`, an escaped backslash
/// before `u200b`). The differential test `LogSanitizerEscapedSpaceTests` draws its lines from here
/// (its own stream, so the older generators' streams stay as they were).
extension LogCorpus {
    /// The escapes of the Unicode spaces and invisible separators, in both cases, and near misses.
    static let escapedSpaces = [
        "\\u00a0", "\\u00A0", "\\u0085", "\\u1680", "\\u2000", "\\u2009", "\\u200a", "\\u200A", "\\u2028", "\\u2029",
        "\\u202f", "\\u205F", "\\u3000",
    ]
    static let escapedInvisibles = [
        "\\u200b", "\\u200B", "\\u200c", "\\u200d", "\\u00ad", "\\u00AD", "\\u2060", "\\ufeff", "\\uFEFF",
    ]
    static let escapedNearMisses = [
        "\\u0041", "\\u00e9", "\\u200", "\\u20", "\\\\u200b", "\\\\u00a0", "\\U200b", "\\u200e", "\\u00a1", "\\u0020",
        "\\u2060\\u200b", "\\u00a0\\u200b", "\\",
    ]

    /// A line of the escaped forms among the corpus's words.
    public mutating func escapedSpaceLine() -> String {
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            parts.append(chance(75) ? escapedSpaceForm() : pick(Self.words))
        }
        return pick(["", "{\"msg\": \"", "{\"q\": \"", "\"", "log "])
            + parts.joined(
                separator: pick([" ", "", "\\u00a0", "\\u200b", ", ", "\\n", "\u{00A0}", "\u{200B}", "\"", "\\u0041"]))
            + pick(["", "\"}", "\"", " ok"])
    }

    mutating func escape() -> String {
        chance(45)
            ? pick(Self.escapedSpaces) : chance(70) ? pick(Self.escapedInvisibles) : pick(Self.escapedNearMisses)
    }

    /// One form: a bearer token, a credential's blanks, a token run, a UUID or an email with an
    /// escape where a space, a blank or an invisible separator may be.
    public mutating func escapedSpaceForm() -> String {
        let e = escape()
        switch Int.random(in: 0..<7, using: &generator) {
        case 0:
            // Rule 3: around `Bearer`, in its token, padding a quoted token; `Basic`.
            let token = string(Self.base64url + ".~+/", 1...40)
            let (head, tail) = token.splitRandomly(using: &generator)
            return pick(["", "sent", "sent ", "x", "Authorization: ", "\\\"", "q="]) + e
                + pick(["Bearer", "bearer", "Basic", "BEARER bearer"]) + escape()
                + pick(["", "\"", "'", "<", "\\\""]) + pick(["", e]) + head + pick(["", escape()]) + tail
                + pick(["", "\"", "'", ">", "\\\"", e + "\""]) + pick(["", " x", "=="])
        case 1:
            // Rule 2: the blanks around a key's separator and after it, before a quote or an opener.
            let key = pick(["password", "token", "api_key", "Cookie", "Authorization", "secret", "status", "value"])
            return pick(["", "{'", "{\\\"", "'", "\""]) + key + pick(["", "'", "\\\"", "\""]) + pick(["", e, " " + e])
                + pick([":", "=", "=>", "\\u003d", ": "]) + pick(["", e, e + e, e + " "])
                + pick([
                    "'hunter2'", "hunter2", "\\\"hunter2\\\"", "Optional(\"x\")", "{'a': 1}", "Bearer" + e + "tok",
                    "Basic" + e + "dXNlcjpwYXNz", "[redacted-secret]", "", "Just" + e + "\"x\"", "\"x\"",
                ])
                + pick(["", "'}", "}", "\\\"}", " ok", e])
        case 2:
            // Rule 7: a run cut by an escape, at its start, middle or end.
            let run = string(Self.base64url, 4...36)
            let (head, tail) = run.splitRandomly(using: &generator)
            return pick(["", "k=", "\"", "\\", "\\\\", "x"]) + pick(["", e]) + head + e + tail + pick(["", e])
                + pick(["", string(Self.base64, 1...20), ".eyJzdWIi.sig", "eyJhbGciOi.eyJzdWIi.sig"])
        case 3:
            // Rule 5: a UUID with an escape between its digits, before it, or before a dash.
            let uuid = uuid()
            let index = uuid.index(uuid.startIndex, offsetBy: Int.random(in: 0...36, using: &generator))
            return pick(["", "id ", "x", "ab", "1234"]) + String(uuid[..<index]) + e + String(uuid[index...])
                + pick(["", "0", " ok", e])
        case 4:
            // Rule 7's names and JWTs with an escape: a name stays whole, a JWT segment goes on.
            return pick([
                "NSURLError" + e + "ServerCertificateUntrusted" + pick(["", "Exception"]),
                "eyJhbGciOi" + e + "JIUzI1NiJ9.eyJzdWIi" + e + "OiIx.sig",
                "sk.eyJ" + string(Self.base64url, 10...20) + e + "." + string(Self.base64url, 14...20),
                "surveyJob" + e + ".completed", "code=CURLE_SSL" + e + "_PINNEDPUBKEYNOTMATCH",
            ])
        case 5:
            // Rule 4 and 6 next to escapes: an email, a labelled pin.
            return pick([
                "alice" + e + "@example.com", "bob@b" + e + "cher.de",
                "sha256/" + string(Self.base64, 43...43) + "=" + e,
                "pin sha256/AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=" + e + string(Self.base64url, 20...40),
                "bob@example.com" + e + string(Self.base64url, 20...40),
            ])
        default:
            // A URL before or after one (rule 1 does not end at an escaped space).
            return pick(["https://h.example/p" + e + "x", "see" + e + "https://h.example", "https://h.example" + e])
                + pick(["", " token=x", e + "Bearer" + e + "abc"])
        }
    }
}

extension String {
    /// The string cut in two at a random character.
    fileprivate func splitRandomly(using generator: inout SeededGenerator) -> (String, String) {
        let index = self.index(startIndex, offsetBy: Int.random(in: 0...count, using: &generator))
        return (String(self[..<index]), String(self[index...]))
    }
}
