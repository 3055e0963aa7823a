/// Passwords after an option that names a user and a password (the nineteenth session): curl's
/// `-u user:password`, `--user`, `-U`, `--proxy-user` (flags combined before, `-su`: the
/// twenty-first), HTTPie's `--auth`, as Alamofire's
/// `cURLDescription()` and CI logs write them; and their near misses (a user and a group in
/// digits, another option, a name at and past the rule's 64 bytes, blanks at and past 64). The
/// differential test `LogSanitizerUserOptionTests` draws its lines from here (its own stream, so
/// the corpus the benchmark measures, `line()`, stays as it was).
extension LogCorpus {
    /// A line of user options among credentials, URLs and words.
    public mutating func userOptionLine() -> String {
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            parts.append(
                chance(60) ? userOption() : chance(50) ? huntCredential() : chance(50) ? url() : pick(Self.words))
        }
        return parts.joined(separator: pick([" ", " \\\n\t", "\t", "", " \\\\\\n\\t", "\n", "\"", ", "]))
    }

    /// One option, its blanks or `=`, a quote, a user name, `:` and a password.
    public mutating func userOption() -> String {
        let option = pick([
            "-u", "-u", "--user", "-U", "--proxy-user", "--auth", "-a", "-uu", "--users", "x-u", "--User", "-p",
            // curl's flags combined before `-u` or `-U` (the twenty-first session), at and past 8, and
            // options that take an argument, which do not combine (`-xu`, `-ou`).
            "-su", "-sSu", "-fsSLU", "-ksu", "-vu", "-xu", "-ou", "-Hu", "-s9u", "-sssssssSu", "-ssssssssSu", "-su-",
            // curl's digit flags (the twenty-second session); `-5`, `-9` and `-#` are none.
            "-4su", "-#u", "-6U", "-5u", "-s0u", "-#", "-1#su", "-16u",
        ])
        let blanks = pick([
            " ", " ", "=", "\t", "  ", "", " =",
            String(repeating: " ", count: Int.random(in: 63...65, using: &generator)),
            // Argument lists (Python's `subprocess`, JSON arrays): the option in quotes, `,`, the quote.
            "', '", "\", \"", "','", "', \"", "',  '",
        ])
        let quote = pick(["", "", "\"", "'", "`", "\\\""])
        let user = pick([
            "alice", "admin", "me@example.com", "1000", "0", "www-data", "svc.bot+ci", "api", "token", "DB_PASS",
            "Authorization", "a", "x_", "ab.", "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "", "10", "user9",
            string("abcdefgh0123456789._@+~-", 62...66), "[redacted-email]", "us er", "dXNlcg==", "alice%40corp.com",
            "CORP\\jdoe", "$USER", "al!ce", "2024-01-01T10", "server", "dependency", "a\\", "#x",
        ])
        let password = pick([
            "hunter2", "", "p@ss w0rd", "1000", "s3cr3t\"", "{\"a\":1}", "https://a.io/x", "[redacted-secret]",
            string(Self.base64, 1...40), "x:y", "'q'", "$TOKEN", "correct horse; battery", "a\\\" b",
        ])
        let close = quote == "\\\"" ? "\\\"" : pick([quote, "", quote])
        // curl's options count only after a `curl` word: contexts with one, without one, and with
        // words that are no command (`curl.se`, `curl/8.5`); escaped white space before the option.
        let context = pick([
            "", "curl ", "curl -sS ", "\t", "http ", "docker run ", "ls ", "$ curl -v \\\n\t", "['curl', '",
            "[\"curl\", \"", "curl\\t", "curl/8.5 ", "https://curl.se ", "date ", "\\n", "curl \\t", "\"", "curl'",
            // The word after an escaped line break or tab (the twenty-first session).
            "set -e\\ncurl ", "x\\tcurl -s ", "\\nxcurl ",
        ])
        return context + option + blanks + quote + user
            + pick([":", ":", ":=", ": ", "::", "%3A"]) + password + close
            + pick(["", " https://api.example.com/v1", " \\", " -X POST"])
    }
}
