/// Name–value pairs with members between the name and the value (the eighteenth session): AWS
/// SSM's `{"Name":"/prod/db/password","Type":"SecureString","Value":"…"}`, JSON with sorted keys,
/// Go's `%+v`, Python's dicts, JSON in a JSON string, and members at and past the rule's limits
/// (four members between, keys of 32 bytes, strings and scalars of 64), in every quoting. The
/// differential test `LogSanitizerPairMemberTests` draws its lines from here (its own stream, so
/// the corpus the benchmark measures, `line()`, stays as it was).
extension LogCorpus {
    /// A line of pairs among the hunt's credentials and the corpus's words.
    public mutating func pairMemberLine() -> String {
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            parts.append(chance(70) ? pairObject() : chance(50) ? huntCredential() : pick(Self.words))
        }
        return parts.joined(separator: pick([" ", "", ",", "\t", "\r\n", "\\n", "[", "{\"Parameters\":["]))
    }

    /// One object: a `name` or `key` member, members between, a `value` member, members after, in
    /// one quoting (or, rarely, mixed).
    public mutating func pairObject() -> String {
        let style = Int.random(in: 0..<4, using: &generator)
        let q = ["\"", "\\\"", "'", ""][style]
        let unquoted = q.isEmpty
        func quoted(_ text: String) -> String { q + text + q }
        let colon = pick([":", ":", ": ", " : ", " :"])
        // Members on lines of their own (pretty-printed JSON, `pprint`, YAML), now and then: a line
        // break, real or escaped, and indentation up to the rule's 64 and past it.
        let indentation = pick([
            "\\t", "\\t\\t", "  \\t",
            "", " ", "  ", "    ", "\t", String(repeating: " ", count: Int.random(in: 62...66, using: &generator)),
        ])
        let lineBreak = pick(["\n", "\r\n", "\\n", "\\r\\n", "\r", "\\t"]) + indentation
        let comma =
            chance(30)
            ? pick([",", " ,", unquoted ? "" : ",", ", "]) + lineBreak
            : unquoted ? pick([",", " ", ", "]) : pick([",", ", ", " , ", ","])
        let name = pick([
            "DB_PASSWORD", "/prod/db/password", "access_token", "x-api-key", "Cookie", "Authorization", "DB_HOST",
            "tokens", "app/secret", "password", "a/b/c", "/", "passwd", "SESSIONID", "user.pwd",
            // Form fields (HAR's `postData` params), and placeholders whose `]` closes no form key.
            "user[password]", "password[]", "user%5Bpassword%5D", "user[password][0]", "user[pass]", "a[token]]",
            "[redacted-token]", "x[redacted-secret]", "user[password", "user%5bapi_key%5d%5B%5D", "[password]",
        ])
        var members: [String] = []
        // Unquoted members' strings may have quotes of their own (JavaScript's `util.inspect`, Ruby's
        // `inspect`, YAML): `{ name: 'DB_PASSWORD', value: 'x' }`; now and then a mismatched pair.
        let own = unquoted ? pick(["", "", "'", "\"", "'\""]) : ""
        let (ownOpen, ownClose) = own.count == 2 ? ("'", "\"") : (own, own)
        members.append(
            quoted(pick(["name", "Name", "key", "KEY", "names", "id"])) + colon + ownOpen + name + ownClose)
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
            members.append(pairBetweenMember(q: q, colon: colon, own: ownOpen))
        }
        let value = pick([
            "hunter2", "s3cr3t value", "", "a:b", "https://a.io/x", string(Self.base64, 1...40), "[redacted-secret]",
        ])
        members.append(
            quoted(pick(["value", "Value", "VALUE", "values"])) + colon + ownOpen + quoted(value) + ownClose)
        if chance(40) { members.append(pairBetweenMember(q: q, colon: colon, own: ownOpen)) }
        let (open, close) =
            unquoted ? pick([("{", "}"), ("&EnvVar{", ",}"), ("", ""), ("- ", ""), ("\n  - ", "\n")]) : ("{", "}")
        return open + members.joined(separator: comma) + close
    }

    /// A member that may stand between a name and a value: plain ones of every length around the
    /// limits, and what the look-back does not pass (a structure, a `value` key, a URL, a quote).
    public mutating func pairBetweenMember(q: String, colon: String, own: String = "") -> String {
        let key = pick([
            "Type", "type", "n", "DataType", "Version", string("abcdefghijklmnopqrstuvwxyz_.-0123456789", 31...33),
            "value", "Value", "a b", "k:x", "",
        ])
        let unquoted = q.isEmpty
        let scalar = pick([
            "1", "true", "null", "-0.5e3", "SecureString", string("abcdefgh0123456789_.+/@-", 63...65), "/x/y", "a/b",
            "", "x y",
        ])
        let text = pick([
            "SecureString", "Database password", "", string("abcdefgh 0123456789_.+/@-", 63...65), "a:b", "a=b", "a\"b",
            "a'b", "https://a.io/x", "é", "a%3Ab", "a\\b",
        ])
        let member: String
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: member = q + key + q + colon + "{" + q + "a" + q + colon + "1}"
        case 1, 2, 3: member = q + key + q + colon + scalar
        default:
            let quote = unquoted && !own.isEmpty && chance(70) ? own : q
            member = q + key + q + colon + (unquoted && quote.isEmpty ? scalar : quote + text + quote)
        }
        return member
    }
}
