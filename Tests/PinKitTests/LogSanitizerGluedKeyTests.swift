import PinKitTestSupport
import Testing

@testable import PinKit

/// Rule 2's keys glued to the run before them (the seventeenth session): a key word inside a
/// random base64 secret takes the secret's head with it, and a key that ends a name keeps the name.
/// The scanner and the regular-expression reference agree on them, and a second pass changes nothing.
@Suite("Log sanitizer: keys glued into a token")
struct LogSanitizerGluedKeyTests {
    @Test("the scanner agrees with the reference on 20,000 lines of glued keys, and is idempotent on them")
    func differentialGluedKeys() async {
        // The previous engine (the oracle of the word rules' single pass) agrees too.
        let mismatches = await LogSanitizerTests.agreement(20_000, seed: 0x5EED_0017, engines: true) { corpus, _ in
            corpus.gluedKeyLine()
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// The attack: a random base64 secret of 32 characters and more, split by `/`, `+` or `=` and
    /// holding a key word right before one of its `=` (or before a `:`). Rule 2 alone left the
    /// head (`…VGiinCYPwd=[redacted-secret]`, the known issue of review 7 and the leak family
    /// `keyInsideToken`, which the old rules leak); now nothing of the secret survives.
    @Test("no part of a base64 secret with a key word inside survives, whatever the key and separator")
    func headOfSecretGoes() {
        var corpus = LogCorpus(seed: 0x61_0E_D0)
        let alphabet = LogCorpus.base64url.filter { $0 != "-" && $0 != "_" }
        var failures: [String] = []
        for _ in 0..<5_000 {
            // A head of 20–40 characters with a `/` in it, so that it is no name, and a digit, so that
            // rule 7 takes the run (of both cases and no digit it may read as words: `isName`).
            let head =
                corpus.string(alphabet, 10...20) + corpus.pick(["/", "+", "="]) + corpus.string("0123456789", 1...1)
                + corpus.string(alphabet, 9...19)
            let key = corpus.pick(["Pwd", "token", "secret", "Password", "apikey", "passwd", "credentials"])
            let separator = corpus.pick(["=", ":"])
            let value = corpus.string(alphabet, 8...30)
            let context = corpus.pick([("", ""), ("(", ")"), ("\"", "\""), ("{\"k\":\"", "\"}"), ("x ", " y")])
            let line = context.0 + head + key + separator + value + context.1
            let once = LogSanitizer.redact(line)
            // Rule 7 would take the whole run: the head must go.
            if head.count + key.count + (separator == "=" ? 1 + value.count : 0) >= 32 {
                if once.contains(String(head.suffix(8))) || once.contains(String(value.prefix(8))),
                    failures.count < 5
                {
                    failures.append("\(line.debugDescription) → \(once.debugDescription)")
                }
            }
            if failures.count < 5, RegexReferenceSanitizer.redact(line) != once {
                failures.append("reference differs: \(line.debugDescription) → \(once.debugDescription)")
            }
            #expect(LogSanitizer.redact(once) == once)
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test(
        "a key that ends a name keeps the name, and one glued into a token takes the token",
        arguments: [
            // Names: after `_` or `-`, camel case (with digits after a word), env keys with digits.
            ("SPRING_DATASOURCE_PASSWORD=hunter2hunter2hunter2", "SPRING_DATASOURCE_PASSWORD=[redacted-secret]"),
            ("OAUTH2_CLIENT_SECRET=wJalrXUtnFEMI/K7MDENG/bPxRfiCY", "OAUTH2_CLIENT_SECRET=[redacted-secret]"),
            ("oauth2ClientSecret=abcdefghijklmnopqrstuvwxyz", "oauth2ClientSecret=[redacted-secret]"),
            ("dbPassword=wJalrXUtnFEMI/K7MDENG/bPxRfiCY", "dbPassword=[redacted-secret]"),
            ("googleIdToken=abcdefghijklmnopqrstuvwxyz012345", "googleIdToken=[redacted-secret]"),
            ("x509Password=changeitchangeitchangeit", "x509Password=[redacted-secret]"),
            ("a/bPwd=x", "a/bPwd=[redacted-secret]"),
            // Tokens: the head holds `/`, `+`, `=`, two stretches of digits or four digits in a row.
            ("(Q35616341Z/pQkfaUL/VGiinCYPwd=G9D0HN9i=1Yfjxj+abc", "([redacted-secret]"),
            ("wJalrXUtnFEMI/K7MDENG/bPxRfiCYtoken=EXAMPLEKEY0123", "[redacted-secret]"),
            ("x Q35616341Z/pQkfaUL/VGiinCYsecret:hunter2 y", "x [redacted-secret] y"),
            // (`k=` is in the run: rule 7 takes it with the rest, as it takes `k=a1b2…` without a key.)
            ("k=a1b2c3d4e5f6g7h8i9Password=abcdefghij next", "[redacted-secret] next"),
            // An escape before the head stays whole, so a value it ends ends there on a second pass.
            ("secret=abc\\nQ35616341Z/pQkfaUL/VGiinCYabcPwd=x y", "secret=[redacted-secret]\\n[redacted-secret] y"),
            ("secret=abc\\u0026Q35616341Z/pQkfaUL/VGiinCYabcPwd=x", "secret=[redacted-secret]\\u0026[redacted-secret]"),
            ("abcdefgh12345678ijklPassword=abcdefghij", "[redacted-secret]"),
            ("{\"k\":\"abc\\/defghijklmnopqrstuvwxyz012Token=abc\"}", "{\"k\":\"[redacted-secret]\"}"),
            // A short head (the run is no token) stays with its key.
            ("Q1234Z/abcPwd=x", "Q1234Z/abcPwd=[redacted-secret]"),
        ]
    )
    func gluedKeys(_ input: String, _ expected: String) {
        let once = LogSanitizer.redact(input)
        #expect(once == expected)
        #expect(RegexReferenceSanitizer.redact(input) == once)
        #expect(LogSanitizer.redact(once) == once)
    }
}
