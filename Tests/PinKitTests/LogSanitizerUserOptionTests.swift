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
            ("curl --user www-data:hunter2 a.io", "curl --user www-data:[redacted-secret] a.io"),
            // Found by the second hostile review: in a JSON string, an argument list, other user names.
            (
                #"{"msg":"$ curl -v \\\n\t-X GET \\\n\t-u user:hunter2 \\\n\t\"https://a.io/x\""}"#,
                #"{"msg":"$ curl -v \\\n\t-X GET \\\n\t-u user:[redacted-secret] \\\n\t\"https://a.io\""}"#
            ),
            (
                "Command '['curl', '-u', 'alice:hunter2', 'https://a.io/x']' returned non-zero exit status 22.",
                "Command '['curl', '-u', 'alice:[redacted-secret]', 'https://a.io']' returned non-zero exit status 22."
            ),
            (#"command: ["curl", "-u", "alice:hunter2"]"#, #"command: ["curl", "-u", "alice:[redacted-secret]"]"#),
            ("curl -u alice%40corp.com:hunter2", "curl -u [redacted-email]:[redacted-secret]"),
            ("curl --ntlm -u 'CORP\\jdoe:hunter2' a.io", "curl --ntlm -u 'CORP\\jdoe:[redacted-secret]' a.io"),
            ("curl -u :hunter2 https://dev.azure.com/org", "curl -u :[redacted-secret] https://dev.azure.com"),
            (#"{"cmd":"curl -u \"alice:hunter2\""}"#, #"{"cmd":"curl -u \"alice:[redacted-secret]\""}"#),
        ]
    )
    func passwordGoes(_ input: String, _ expected: String) {
        #expect(LogSanitizerTests.checkedRedaction(input) == expected)
        var other = input
        for option in ["--proxy-user", "--user", "--auth", "-u", "-U"] {
            other = other.replacingOccurrences(of: option + " ", with: "-p ").replacingOccurrences(
                of: option + "=", with: "-p="
            ).replacingOccurrences(of: "'\(option)'", with: "'-p'").replacingOccurrences(
                of: "\"\(option)\"", with: "\"-p\"")
        }
        #expect(other != input)
        #expect(LogSanitizer.redact(other).contains("hunter2"), "\(other.debugDescription)")
    }

    @Test(
        "what is no user option keeps its text",
        arguments: [
            "docker run -u 1000:1000 img", "time -u 10:15", "curl -uu alice:kept", "x-u alice:kept", "--users a:kept",
            "curl -u ab.:kept",
            // curl's options only after a `curl` word (the second hostile review's over-redactions).
            "date -u 2024-01-01T10:00:00", "rsync -u server:/var/www/ ./b", "mvn -B -U dependency:tree",
            "docker run -u root:root img", "nc -u statsd.local:8125", "see https://curl.se -u a:kept",
            "UA curl/8.5.0 then -u a:kept",
        ]
    )
    func kept(_ input: String) {
        #expect(LogSanitizer.redact(input) == input)
        #expect(RegexReferenceSanitizer.redact(input) == input)
    }

    /// Found by the second hostile review: after a quoted user name, the same quote right after
    /// the `:` closed the string, but was read as a value's opening quote that took what followed
    /// (`-u 'alice:' https://a.io` lost the blank; Stripe's `-u "sk_…:" -d amount=1` the next
    /// arguments).
    @Test(
        "a quoted user name with no password: the quote closes it, nothing after it goes",
        arguments: [
            ("curl -u 'alice:' https://a.io/x -d n=1", "curl -u 'alice:' https://a.io -d n=1"),
            (
                #"curl https://api.stripe.com/v1/charges -u "sk_test_4eC39HqLyjWDarjtT1zdp7dc:" -d amount=2000 -d "currency=usd""#,
                #"curl https://api.stripe.com -u "[redacted-token]:" -d amount=2000 -d "currency=usd""#
            ),
            (#"{"cmd":"curl -u \"bob:\" -X POST"}"#, #"{"cmd":"curl -u \"bob:\" -X POST"}"#),
        ]
    )
    func emptyQuotedPassword(_ input: String, _ expected: String) {
        #expect(LogSanitizerTests.checkedRedaction(input) == expected)
    }

    /// The attack (the nineteenth session's second hostile review): a password in quotes kept what
    /// followed its first blank or `;` (`--user "bob:correct horse"` → `horse` survived), and a
    /// short option glued to its name (`-ualice:hunter2`, also with the quote mid-word as a shell
    /// reads it, `-u"alice:hunter2"`) kept the whole password. Each case's last line is the same
    /// without what the rule reads (the quote before the name; the `curl` word that enables curl's
    /// options), which keeps the secret.
    @Test(
        "a quoted password goes to its closing quote; a glued short option's password goes",
        arguments: [
            (
                #"curl --user "bob:correct horse; battery" https://a.io/x"#,
                #"curl --user "bob:[redacted-secret]" https://a.io"#, "horse",
                #"curl --user bob:correct horse; battery" https://a.io/x"#
            ),
            (
                "curl -u 'bob:pa ss;word' -X POST", "curl -u 'bob:[redacted-secret]' -X POST", "ss;word",
                "curl -u bob:pa ss;word' -X POST"
            ),
            (
                #"{"cmd":"curl -u \"bob:correct horse\" -X POST"}"#,
                #"{"cmd":"curl -u \"bob:[redacted-secret]\" -X POST"}"#, "horse",
                #"{"cmd":"curl -u bob:correct horse\" -X POST"}"#
            ),
            (
                "Command '['curl', '-u', 'alice:correct horse', 'https://a.io/x']' returned 22.",
                "Command '['curl', '-u', 'alice:[redacted-secret]', 'https://a.io']' returned 22.", "horse",
                "Command '['curl', '-u', alice:correct horse', 'https://a.io/x']' returned 22."
            ),
            (
                "curl -sS -ualice:hunter2 https://a.io/x", "curl -sS -ualice:[redacted-secret] https://a.io", "hunter2",
                "tool -sS -ualice:hunter2 https://a.io/x"
            ),
            (
                "curl -Uproxy:hunter2 -x p.example", "curl -Uproxy:[redacted-secret] -x p.example", "hunter2",
                "tool -Uproxy:hunter2 -x p.example"
            ),
            // The user name a key (the review's finding: the key's unquoted value won, `horse` stayed).
            (
                #"curl -u "token:correct horse" https://a.io/x"#, #"curl -u "token:[redacted-secret]" https://a.io"#,
                "horse", #"tool -u "token:correct horse" https://a.io/x"#
            ),
            (
                #"curl -u"alice:correct horse" a.io"#, #"curl -u"alice:[redacted-secret]" a.io"#, "horse",
                #"tool -u"alice:correct horse" a.io"#
            ),
            (
                "curl -u'alice:hunter2' a.io", "curl -u'alice:[redacted-secret]' a.io", "hunter2",
                "tool -u'alice:hunter2' a.io"
            ),
            (
                #"["curl", "-ualice:correct horse"]"#, #"["curl", "-ualice:[redacted-secret]"]"#, "horse",
                #"["tool", "-ualice:correct horse"]"#
            ),
            (
                #"{"cmd":"curl\t-u\"bob:hunter2\""}"#, #"{"cmd":"curl\t-u\"bob:[redacted-secret]\""}"#, "hunter2",
                #"{"cmd":"tool\t-u\"bob:hunter2\""}"#
            ),
        ]
    )
    func quotedAndGlued(_ input: String, _ expected: String, _ secret: String, _ unprotected: String) {
        #expect(LogSanitizerTests.checkedRedaction(input) == expected)
        #expect(LogSanitizer.redact(unprotected).contains(secret), "\(unprotected.debugDescription)")
    }

    @Test(
        "what is no glued user option keeps its text",
        arguments: [
            "ls -ualice:kept", "curl -uu", "curl x-ualice:kept", "curl -u1000:1000", "curl -ualice", "curl -u'alice:'",
            #"curl -u"bob:" -d x"#, "curl -xualice:kept",
        ]
    )
    func gluedKept(_ input: String) {
        #expect(LogSanitizer.redact(input) == input)
        #expect(RegexReferenceSanitizer.redact(input) == input)
    }

    /// The attack (the twentieth session's hostile review, closed in the twenty-first): curl's
    /// flags combined with `-u` in one word (`curl -su alice:x`, `set -x` traces of scripts) kept
    /// the password. Each case's last line has an option that takes an argument in the flags'
    /// place (`-x`, `-o`: curl reads the rest of the word as its value, and no user option), which
    /// keeps the secret: the protection is the flags' reading.
    @Test(
        "a password after curl's flags combined with -u or -U goes",
        arguments: [
            (
                "+ curl -su alice:hunter2 https://a.io/x", "+ curl -su alice:[redacted-secret] https://a.io",
                "+ curl -xu alice:hunter2 https://a.io/x"
            ),
            (
                #"curl -fsSLu "bob:hunter2" a.io"#, #"curl -fsSLu "bob:[redacted-secret]" a.io"#,
                #"curl -fsSxu "bob:hunter2" a.io"#
            ),
            ("curl -ksualice:hunter2 a.io", "curl -ksualice:[redacted-secret] a.io", "curl -xualice:hunter2 a.io"),
            ("curl -sU proxy:hunter2 -x p", "curl -sU proxy:[redacted-secret] -x p", "curl -oU proxy:hunter2 -x p"),
            (
                "['curl', '-sSu', 'alice:hunter2']", "['curl', '-sSu', 'alice:[redacted-secret]']",
                "['curl', '-sou', 'alice:hunter2']"
            ),
            (#"curl -su"alice:hunter2" a"#, #"curl -su"alice:[redacted-secret]" a"#, #"curl -Hu"alice:hunter2" a"#),
            (
                "curl -ssssssssu a:hunter2", "curl -ssssssssu a:[redacted-secret]",
                "curl -sssssssssu a:hunter2"
            ),
            // (The twenty-second session: curl's digit flags, `-4` and `-6` for the IP version, `-0`
            // to `-3`; `-5` is none.)
            ("curl -4su alice:hunter2 a.io", "curl -4su alice:[redacted-secret] a.io", "curl -5su alice:hunter2 a.io"),
            ("curl -s6ualice:hunter2 a.io", "curl -s6ualice:[redacted-secret] a.io", "curl -s9ualice:hunter2 a.io"),
        ]
    )
    func combinedFlags(_ input: String, _ expected: String, _ unprotected: String) {
        #expect(LogSanitizerTests.checkedRedaction(input) == expected)
        #expect(LogSanitizer.redact(unprotected).contains("hunter2"), "\(unprotected.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(unprotected) == LogSanitizer.redact(unprotected))
    }

    @Test(
        "what no flags combine into a user option keeps its text",
        arguments: [
            "curl -xu alice:kept", "curl -ou out:kept", "curl -s9u a:kept", "curl --su alice:kept",
            "sudo -su postgres:kept", "curl -sux alice:kept", "curl -su 1000:1000", "curl -abcu a:kept",
        ]
    )
    func combinedKept(_ input: String) {
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
