/// Credentials labelled by a key and a blank (the sixteenth session): long command-line options
/// (`--password x`, `--db-password 'x y'`) and SASL commands (`AUTH PLAIN x`, `AUTHENTICATE PLAIN
/// x`, `AUTH LOGIN x`), with the near misses next to them that must stay. The differential test
/// `LogSanitizerOptionFormsTests` draws its lines from here (its own stream, so the corpus the
/// benchmark measures, `line()`, stays as it was).
extension LogCorpus {
    /// A line of option and SASL forms among the hunt's credentials and the corpus's words.
    public mutating func optionLine() -> String {
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...5, using: &generator) {
            parts.append(
                chance(40)
                    ? optionCredential()
                    : chance(50) ? saslCredential() : chance(40) ? huntCredential() : pick(Self.words))
        }
        return parts.joined(separator: pick([" ", "", "\t", ", ", "\\n", "\"", "'", "\r\n", "=", "\u{00A0}"]))
    }

    /// A long option, named by a key or not, and what follows it.
    public mutating func optionCredential() -> String {
        let dashes = pick(["--", "--", "--", "-", "---", "x--", "_--", "\\n--", "(--"])
        let name = pick([
            "password", "db-password", "access-token", "API_KEY", "Cookie", "authorization", "secret", "token",
            "pwd", "passwords", "password-file", "host", "value", "name", "user", "tokens", "", "client_secret",
        ])
        let blank = pick([" ", " ", "  ", "\t", " \t", "", "=", " =", "\u{00A0}", ": "])
        let value = pick([
            "hunter2", string(Self.base64url, 1...20), "'hunter 2'", "\"a b\"", "-x", "--host=db.example.com",
            "[redacted-secret]", "https://u:p@h.example/x", "{\"a\":1}", "Optional(\"x\")", "", "a,b", "`v`",
            "Bearer abc", "\\\"q\\\"", "-", "x\\ny", "\u{00A0}x", "password=x",
        ])
        return dashes + name + blank + value + pick(["", " ", " --host db.example.com", "\\r\\n", ")", ";"])
    }

    /// A SASL command (or a near one) and a run after it.
    public mutating func saslCredential() -> String {
        let verb = pick(["AUTH", "auth", "Auth", "AUTHENTICATE", "OAUTH", "xAUTH", "\\nAUTH", "%20AUTH", "AUTHx"])
        let mechanism = pick(["PLAIN", "plain", "LOGIN", "Login", "CRAM-MD5", "XOAUTH2", "PLAINx", ""])
        let run = pick([
            "AGFsaWNlAGh1bnRlcjI=", "YWxpY2U=", "text", "abc", "=", "", "AbCd", "abcd", "ABCD", "ab1/",
            string(Self.base64, 4...40), string(Self.base64url, 1...12), "[redacted-secret]", "Bearer x",
            "https://h.example/x",
        ])
        let blank = pick([" ", "  ", "\t", "", "\u{00A0}"])
        let after = pick(["", " ", "\r\n", "\\r\\n", "\\n", "'", "\"", "`", ";", ",", "\\t", "x", ".", "\\\""])
        return verb + pick([" ", "\t", "", " \t"]) + mechanism + blank + run + after
    }
}
