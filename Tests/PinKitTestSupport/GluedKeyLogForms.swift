/// Credential keys glued to the run before them (the seventeenth session): a random base64 secret
/// that holds a key word right before a separator (`…L/VGiinCYPwd=G9D0…`), which goes whole, and
/// the names a key ends that stay with it (`SPRING_DATASOURCE_PASSWORD`, `oauth2ClientSecret`,
/// `dbPassword`). The differential test `LogSanitizerGluedKeyTests` draws its lines from here (its
/// own stream, so the corpus the benchmark measures, `line()`, stays as it was).
extension LogCorpus {
    /// A line of glued keys among the hunt's credentials and the corpus's words.
    public mutating func gluedKeyLine() -> String {
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            parts.append(chance(60) ? gluedKey() : chance(50) ? huntCredential() : pick(Self.words))
        }
        return parts.joined(
            separator: pick([" ", "", "\t", ", ", "\\n", "\"", "'", "\r\n", "=", "/", "(", "\u{00A0}"]))
    }

    /// A key after a head it may be glued to, a separator and a value.
    public mutating func gluedKey() -> String {
        let head = gluedHead()
        let key = pick([
            "Pwd", "pwd", "token", "Token", "TOKEN", "secret", "Secret", "password", "Password", "passwd", "apikey",
            "api_key", "ApiKey", "secretkey", "credentials", "sessionid", "passphrase", "Cookie", "cookie",
            "Authorization", "value", "pw", "tokens", "Host",
        ])
        let separator = pick(["=", "=", "=", ":", ": ", "%3D", "%3d", "\\u003d", "=>", " = ", "\"=\"", "=\"", ":\""])
        let value = pick([
            string(Self.base64, 4...40), string(Self.base64url, 1...20), "hunter2", string(Self.base64, 20...60) + "==",
            "[redacted-secret]", "[redacted-token]", "", jwt(), "\"a b\"", "x y", "https://u:p@h.example/x", "=",
            "sha256/" + string(Self.base64, 43...43) + "=", "abc\"", "\u{200B}" + string(Self.base64, 10...30),
        ])
        let tail = pick(["", "", " next", "\"", "&n=1", ";", ", ok", "=", "/" + string(Self.base64, 1...20), ")"])
        return head + key + separator + value + tail
    }

    /// What a key may be glued to: random base64 (with `/`, `+` or `=`, or without, with digits in
    /// places or not, written as JSON or percent-encoding writes them), names of every style, pins.
    public mutating func gluedHead() -> String {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: return string(Self.base64, 1...40)
        case 1: return string(Self.base64url, 1...40)
        case 2:
            // Base64 split by `/`, `+` or `=` into short runs (the leak test's family).
            var head = ""
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                head += string(Self.base64url.filter { $0 != "-" && $0 != "_" }, 1...14) + pick(["/", "+", "="])
            }
            return head + pick(["", string(Self.base64, 1...6)])
        case 3:
            return pick([
                "SPRING_DATASOURCE_", "DB_", "OAUTH2_CLIENT_", "MYSQL8_ROOT_", "x-auth-", "X_API_", "AWS_S3_",
                "client_", "access_", "refresh_",
            ])
        case 4:
            return pick([
                "db", "oauth2Client", "x509", "mysql8Root", "springDatasourceHikari", "googleId", "userDb", "s3",
                "pkcs12", "k8s", "v2Api", "report2026", "sha256Hmac2", "HTTPSProxy",
            ])
        case 5: return "sha256/" + string(Self.base64, 43...43) + pick(["=", "", "=x"])
        case 6:
            // JSON's `\/`, percent-encoded signs, an invisible separator inside.
            return string(Self.base64, 4...20) + pick(["\\/", "%2F", "%2B", "%3D", "%252F", "\u{200B}", "\\u200b"])
                + string(Self.base64, 1...20)
        case 7: return string("0123456789", 1...6) + string("abcdefXYZ", 1...6) + string("0123456789", 0...6)
        case 8: return pick(["", " ", "\"", "[", "user[", "--", "a.", "\\n", "%20", "\\\""])
        default: return string(Self.base64, 20...34) + pick(["", "=", "/", "+"])
        }
    }
}
