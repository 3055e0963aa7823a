import PinKitTestSupport
import Testing

@testable import PinKit

/// Rule 2's separators in other spellings (the fourteenth session): the scanner and the
/// regular-expression reference agree on them, a second pass changes nothing, and each form's
/// work stays linear.
@Suite("Log sanitizer: separators in other spellings")
struct LogSanitizerSeparatorFormsTests {
    @Test("the scanner agrees with the reference on 8,000 lines of separator forms, and is idempotent on them")
    func differentialSeparatorForms() async {
        let mismatches = await LogSanitizerTests.agreement(8_000, seed: 0x5EED_0014) { corpus, _ in
            corpus.separatorLine()
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// Separators encoded once and twice (`%3D`, `%253D`; the fifteenth session), their blanks,
    /// quotes and stops at both depths, mixed and glued by `&`, `%26` and `%2526`: its own stream.
    /// (150,000 such lines agreed when the form encoded twice was added.)
    @Test("the scanner agrees with the reference on 20,000 lines of percent-encoded separators, once and twice")
    func differentialPercentSeparators() async {
        let mismatches = await LogSanitizerTests.agreement(20_000, seed: 0x5EED_0015) { corpus, _ in
            var parts: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &corpus.generator) {
                parts.append(corpus.percentSeparatorCredential())
            }
            return parts.joined(separator: corpus.pick(["", "%26", "%2526", "&", " ", "%20"]))
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// The protection first: a plain `=` separates; then the escaped one does too, and the escape of
    /// `&` ends the value where the `&` would.
    @Test(
        "a JSON-escaped separator, and a JSON escape that ends a value",
        arguments: [
            (#"password\u003dhunter2\u0026n\u003d1"#, #"password\u003d[redacted-secret]\u0026n\u003d1"#),
            (#"token\u003Ahunter2 x"#, #"token\u003A[redacted-secret] x"#),
            (#"password=ab\u0026cd"#, #"password=[redacted-secret]\u0026cd"#),
            // Not at the value's first byte (as an escaped line break): a second pass must agree.
            (#"password=\u0026cd"#, #"password=[redacted-secret]"#),
            (#"password\u003d\u0027hunter2\u0027 x"#, #"password\u003d\u0027[redacted-secret]\u0027 x"#),
            // No separator: `\u003` alone, `\u003e`, an escaped backslash before `u003d`.
            (#"password\u003hunter2"#, #"password\u003hunter2"#),
            (#"password\u003ehunter2"#, #"password\u003ehunter2"#),
            (#"password\\u003dhunter2"#, #"password\\u003dhunter2"#),
            // `\u0041` (`A`) ends nothing.
            (#"password=ab\u0041cd x"#, #"password=[redacted-secret] x"#),
        ]
    )
    func escapedSeparator(_ input: String, _ expected: String) {
        #expect(!SanitizerReview.leaks("password=hunter2&n=1", "hunter2"))
        let once = LogSanitizer.redact(input)
        #expect(once == expected)
        #expect(LogSanitizer.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
    }

    @Test("JSON-escaped separators and backslashes cost linear work")
    func linear() {
        for unit in [#"password\u003d"#, #"\u003d"#, #"\\\\"#, #"a\u0026"#, #"password=a\u0026"#, #"\u003"#] {
            let small = LogSanitizer.operationCount(redacting: Array(String(repeating: unit, count: 2_000).utf8))
            let large = LogSanitizer.operationCount(redacting: Array(String(repeating: unit, count: 8_000).utf8))
            #expect(large <= 5 * small, "\(unit): \(small) → \(large)")
        }
    }
}
