/// Passwords in SQL statements (the twenty-third session): MySQL's and Oracle's `IDENTIFIED BY`
/// (also `WITH` a plugin and `BY` or `AS`, `BY PASSWORD`), PostgreSQL's `PASSWORD 'x'`, MySQL's
/// `PASSWORD('x')` and `SET PASSWORD FOR account = 'x'`, in bare, JSON-escaped (once and more) and
/// Python-escaped quotes, over several lines; and their near misses (`unidentified by`,
/// `passwords 'x'`, a value that is a placeholder, an empty one, a 65-byte plugin name, an
/// account holding a placeholder, a bearer token or an escaped line break, an identifier glued to
/// what does not end one, or that starts with a digit). The differential test
/// `LogSanitizerSQLPasswordTests` draws its lines from here (its own stream, so the corpus the
/// benchmark measures stays as it was).
extension LogCorpus {
    /// A line of SQL statements among credentials, URLs and words.
    public mutating func sqlPasswordLine() -> String {
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            parts.append(chance(60) ? sqlStatement() : chance(40) ? secretish() : chance(50) ? url() : pick(Self.words))
        }
        return parts.joined(separator: pick([" ", "\n", "\t", "", "; ", "\\n", ", ", "\""]))
    }

    /// One statement (or a near miss): words, blanks between them, and a value.
    public mutating func sqlStatement() -> String {
        let blank = { (corpus: inout LogCorpus) in
            corpus.pick([
                " ", " ", "  ", "\t", "\n    ", "\r\n", "", " \\n ", "\\t", "\\r\\n", "\\q", "\\\\n", "\\\\\\t",
            ])
        }
        var words: [String]
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            words = [
                pick(["CREATE USER 'app'@'%'", "ALTER USER scott", "GRANT ALL ON *.* TO u", "x", "", "unx", "1"]),
                pick([
                    "IDENTIFIED", "identified", "Identified", "IDENTIFIE", "IDENTIFIEDX", "[redacted-secret]identified",
                ]),
            ]
            if chance(30) {
                words += [
                    pick(["WITH", "with", "WITHOUT"]),
                    pick([
                        "mysql_native_password", "'caching_sha2_password'", "\"ed25519\"", "x", "'",
                        "\\\"ed25519\\\"", "`mysql_native_password`", "\\'sha256_password\\'", "\\\\\"x",
                        "''caching_sha2_password''", "\"\"ed25519\"\"", "``p``", "''p'",
                        String(repeating: "p", count: 64), String(repeating: "p", count: 65), "a-b",
                    ]),
                    pick(["BY", "AS", "by", "AT"]),
                ]
            } else {
                words.append(pick(["BY", "by", "By", "BYE", "EXTERNALLY"]))
            }
            if chance(20) { words.append(pick(["PASSWORD", "password", "passwords", "VALUES", "values", "VALUE"])) }
        case 1:
            words = [
                pick(["ALTER ROLE app WITH LOGIN", "CREATE ROLE a ENCRYPTED", "wrong", "x_", "5", "%20", "\\n", ""]),
                pick([
                    "PASSWORD", "password", "Password", "passwords", "PASSWORDS", "PASSWOR", "PASSWORD =", "password=",
                ]),
            ]
        case 2:
            words = [
                pick(["SET", "set", ""]), pick(["PASSWORD", "password"]), pick(["FOR", "for", "FORM", ""]),
                pick([
                    "'bob'@'localhost'", "bob", "CURRENT_USER()", "", String(repeating: "é", count: 65),
                    String(repeating: "a", count: 129), "a=b", "[redacted-email]", "a[b", "a\\nb", "a\\qb",
                    "'Bearer:" + String(repeating: "x", count: 40) + "'", "xbasic:abc", "''bob@ex.io",
                ]),
                pick(["=", "= ", "", "=="]),
            ]
        default:
            words = [
                pick(["SET PASSWORD =", "SELECT", "x ="]),
                pick(["PASSWORD(", "password (", "PASSWORD ( ", "PASSWORDS("]),
            ]
        }
        var line = ""
        for word in words where !word.isEmpty { line += (line.isEmpty ? "" : blank(&self)) + word }
        return line + blank(&self) + sqlValue()
    }

    /// A value: quoted in every escaping the rule reads (and some it does not), or bare.
    public mutating func sqlValue() -> String {
        let content = pick([
            "hunter2", "S3cret!", "it''s", "it\\'s", "a\"b", "", "[redacted-secret]", "[redacted-secret]x", "a b",
            "https://a.io/x", "token=abc", "alice@example.com", "x\\", "Bearer abcdef", "\\\\", "é",
            "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "550e8400-e29b-41d4-a716-446655440000", "a\\\"b", "a'b", "$x#1",
            "1234", "S:ABCDEF0123;T:99", "_x", "it''''s", "sha256/AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
            "sha256\\/AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
        ])
        let tail = pick([
            "", ";", " DEFAULT TABLESPACE users", ")", ",", "x", "\\n", "https://h/p", "'", "\"", " ", "\\", "]", "}",
            "|", "<", "\\\"", "\\\\", "\\q", "-", "' at line 1", "'", "''", "::text", "/* x */", "`", "\u{3000}x",
        ])
        switch Int.random(in: 0..<10, using: &generator) {
        case 0, 1: return "'" + content + "'" + tail
        case 2: return "\"" + content + "\"" + tail
        case 3: return "\\\"" + content + "\\\"" + tail
        case 4: return "\\'" + content + "\\'" + tail
        case 5:
            // Escaped twice or three times (a JSON log of an app that logs JSON), or a depth mismatch.
            let open = pick(["\\\\\\\"", "\\\\\\\\\\\\\\\"", "\\\\\""])
            let close = pick([open, "\\\"", "\\\\\\\"", "\""])
            return open + content + close + tail
        case 6: return "'" + content + pick(["", "\n", "\r\n"])
        case 7:
            // Doubled: CSV's `""x""`, a SQL string's `''x''` (and an empty one before what ends it),
            // also escaped (a CSV row in a JSON string).
            let quote = pick(["''", "\"\"", "\\\"\\\"", "\\'\\'", "\\\\\\\"\\\\\\\""])
            return quote + content + pick([quote, "'", quote + quote, ""]) + tail
        case 8: return "'" + content + "'' at line 1" + tail
        default: return content + tail
        }
    }
}
