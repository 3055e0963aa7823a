import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// Rule 2's user options (the nineteenth session): the password after an option that names a user
/// and a password, `curl -u alice:hunter2`. The scanner and the regular-expression reference agree,
/// a second pass changes nothing, the user name is left to rules 3–7, and a user and a group in
/// digits stay.
@Suite("Log sanitizer: passwords after user options")
struct LogSanitizerUserOptionTests {
    @Test("the scanner agrees with the reference on 20,000 lines of user options, and is idempotent")
    func differentialUserOptions() async {
        let mismatches = await LogSanitizerTests.agreement(20_000, seed: 0x5EED_0021, engines: true) { corpus, _ in
            corpus.userOptionLine()
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// The attack: each of these kept its password (a user option's value is `user:password`, no
    /// key before the `:`). The same lines with another option in its place (`-p`, no user option)
    /// still do: the protection is the option.
    @Test(
        "a password after a user option goes; the user is left to the other rules",
        arguments: [
            (
                "curl -sS -u alice:hunter2 https://api.example.com/v1",
                "curl -sS -u alice:[redacted-secret] https://api.example.com"
            ),
            (
                "$ curl \\\n\t-u admin:hunter2 \\\n\t\"https://a.io/x\"",
                "$ curl \\\n\t-u admin:[redacted-secret] \\\n\t\"https://a.io\""
            ),
            ("curl --user \"bob:hunter2\" -X POST", "curl --user \"bob:[redacted-secret]\" -X POST"),
            ("curl --user='bob:hunter2'", "curl --user='bob:[redacted-secret]'"),
            (
                "curl -U proxy:hunter2 -x http://p.example:8080",
                "curl -U proxy:[redacted-secret] -x http://p.example"
            ),
            ("http --auth me@example.com:hunter2 GET a.io", "http --auth [redacted-email]:[redacted-secret] GET a.io"),
            ("docker run --user www-data:hunter2 img", "docker run --user www-data:[redacted-secret] img"),
        ]
    )
    func passwordGoes(_ input: String, _ expected: String) {
        let once = LogSanitizer.redact(input)
        #expect(once == expected)
        #expect(LogSanitizer.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
        var other = input
        for option in ["--proxy-user", "--user", "--auth", "-u", "-U"] {
            other = other.replacingOccurrences(of: option + " ", with: "-p ").replacingOccurrences(
                of: option + "=", with: "-p=")
        }
        #expect(other != input)
        #expect(LogSanitizer.redact(other).contains("hunter2"), "\(other.debugDescription)")
    }

    @Test(
        "what is no user option keeps its text",
        arguments: [
            "docker run -u 1000:1000 img", "time -u 10:15", "curl -uu alice:kept", "x-u alice:kept", "--users a:kept",
            "curl -u ab.:kept", "curl -u :kept",
        ]
    )
    func kept(_ input: String) {
        #expect(LogSanitizer.redact(input) == input)
        #expect(RegexReferenceSanitizer.redact(input) == input)
    }

    @Test("a user named by a key is that key's credential; a Stripe key as the user goes as a token")
    func userNames() {
        #expect(LogSanitizer.redact("curl -u DB_PASS:hunter2") == "curl -u DB_PASS:[redacted-secret]")
        let stripe = "curl https://api.stripe.com/v1/charges -u sk_test_4eC39HqLyjWDarjtT1zdp7dc:"
        let once = LogSanitizer.redact(stripe)
        #expect(!once.contains("4eC39HqLyjWDarjtT1zdp7dc"), "\(once.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(stripe) == once)
    }
}
