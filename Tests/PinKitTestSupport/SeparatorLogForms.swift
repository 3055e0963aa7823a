/// Rule 2's separators in other spellings (the fourteenth session): JSON-escaped separators as Gson
/// writes them (`\u003d`) and the `\u00XX` escapes that end an unquoted value, with the forms next
/// to them that must stay as they were. The differential test `LogSanitizerSeparatorFormsTests`
/// draws its lines from here (its own stream, so the older generators' streams stay as they were).
extension LogCorpus {
    /// A line of separator forms among the hunt's credentials and the corpus's words.
    public mutating func separatorLine() -> String {
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            parts.append(chance(70) ? separatorCredential() : chance(50) ? huntCredential() : pick(Self.words))
        }
        return parts.joined(separator: pick([" ", "", "\\u0026", "&", "\\n", "\"", ", ", "\\u00a0"]))
    }

    /// A credential whose separator or value is spelled in another way.
    public mutating func separatorCredential() -> String {
        if chance(30) { return percentSeparatorCredential() }
        let key = pick([
            "password", "token", "api_key", "Cookie", "Authorization", "secret", "access_token", "user", "value",
        ])
        let value = pick([
            "hunter2", "ab\\u0026cd", "\\u0026x", "a\\u0020b", "a\\u003cb", "a\\u003Eb", "a\\u00a0b", "a\\u0041b",
            "a\\u002", "a\\u00", "[redacted-secret]", "[redacted-secret]\\u0026x", "[redacted-secret]x",
            "\\u0026" + string(Self.base64url, 30...34), "x\\u0026" + string(Self.base64url, 30...34),
            "\\u0027x\\u0027", "\\\"x\\\"", "{\\\"a\\\":1}", "Bearer\\u0020x", "Bearer abc\\u0026n", "",
            "https://h.example/p\\u0026x", "a\\u0022b", "\\\\u0026x", "a\\u007Fb", "a\\u005d", "a\\u002C b",
        ])
        let before = pick([
            "登录失败 ", "\u{3000}",
            "", "user\\u003dalice\\u0026", "{\"q\":\"", "\\\"", "{\\\"name\\\":\\\"DB_PASSWORD\\\",\\\"", "?",
        ])
        let keyQuote = pick(["", "", "\\\"", "\"", "\\u0027", "%22"])
        let blank = pick(["", "", " ", "\u{00A0}"])
        let separator = pick([
            "\\u003d", "\\u003d", "\\u003D", "\\u003a", "\\u003A", "\\u003", "\\u003e", "\\\\u003d", "=", ":",
            "\\u003d>", "\\u003a=", "\\u003dx", "＝", "：", "\u{FF1B}", "＝>", "：=", "\u{FEFF}",
        ])
        let after = pick(["", "\\u0026remember\\u003d1", "\"}", "\\\"}", " x", "\\u0027", "\\u003c/a\\u003e", "\\n"])
        return before + key + keyQuote + blank + separator + blank + value + after
    }

    /// A credential after a percent-encoded separator with form encoding's `+` for a space around
    /// it, or encoded twice (`%253D`; the fifteenth session: `%2520` and `%2B` around it, `%2522`,
    /// `%2527` quotes, `%25` + a stop's code, stops encoded once inside, `%25` without two hex
    /// digits, a scheme's `%2520`, an encoded line break for a header).
    public mutating func percentSeparatorCredential() -> String {
        let key = pick(["password", "db.password", "token", "Cookie", "Authorization", "api_key", "user"])
        let value = pick([
            "hunter2", "+", "a+b", "Bearer+x", "Bearer%20x", "[redacted-secret]", "", "%22x%22", "x%26y", "%2522x",
            "a%2520b", "a%2526b", "%25", "%252", "https%3A%2F%2Fh.example%2Fx", "a%252Bb", "a%2Bb", "Bearer%2520x",
            "basic%2520%2520Bearer%2520x", "a%2541b", "a%25zzb", "a%252", "x%2527y", "a%250Ab", "a%250db", "a%253Bb",
            "a%255db", "a%257Fb", "[redacted-secret]%2526x", "%2527[redacted-secret]", "a%2522b%2527c",
            "https%253A%252F%252Fh.example%252Fx",
        ])
        return pick(["", "config=", "q=", "data=", "%22", "%2522", "%2527"]) + key
            + pick(["", "%22", "%2522", "%2527", "%27"])
            + pick(["", "+", "++", "%20+", "+%20", " +", "%2520", "%2B", "%2b%2520", "%2520%20"])
            + pick(["%3D", "%3a", "%253D", "%253a", "%253A", "%253d", "%25253D", "=", "%3", "%253", "%25"])
            + pick(["", "+", "++", "%20+", "+%20", "%2520", "%2B", "%2520%2B", "%2b"])
            + pick(["", "%22", "%2522", "%27", "%2527"]) + value
            + pick([
                "", "%0Adb.host+%3D+db.example.com", "%26n%3D1", "%2526n%253D1", "%22", "%2522", " x", "&n=1",
                "%2527", "%250D%250AHost%253A%2520h", "%252C%2522n%2522%253A1", "%2520y", "%20y", "%2", "%25",
            ])
    }
}
