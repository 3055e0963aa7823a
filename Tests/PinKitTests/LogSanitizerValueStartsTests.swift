import PinKit
import PinKitTestSupport
import Testing

/// Issue 15 §3, the tenth session: rule 2's value starts (constructors, `Just`, Python string
/// prefixes) and the end of an unquoted value at an escaped line break. Exact outputs, the
/// boundaries of each form, and idempotence.
@Suite("Log sanitizer: constructors, string prefixes and escaped line breaks in rule 2's values")
struct LogSanitizerValueStartsTests {
    /// Input and the exact output of one pass; each output is also a fixed point.
    static let cases: [(String, String)] = [
        // Constructors before what a value opens with are openers, kept; nested ones too.
        (#"password: Some("hunter2")"#, #"password: Some("[redacted-secret]")"#),
        (#"token = Some(Secret("hunter2"))"#, #"token = Some(Secret("[redacted-secret]"))"#),
        (#"api_key: Ok(["hunter2"])"#, #"api_key: Ok([[redacted-secret]])"#),
        (#"password: Just "hunter2""#, #"password: Just "[redacted-secret]""#),
        // A capitalised word and `(` before anything else is the value's own text: it goes whole.
        ("password=Summer(2024) host=a.example", "password=[redacted-secret]) host=a.example"),
        ("password: Failed(reason) ok", "password: [redacted-secret]) ok"),
        ("password: Justin ok", "password: [redacted-secret] ok"),
        // A name of 32 bytes is a constructor; a longer one is not.
        (
            "password=A" + String(repeating: "a", count: 31) + "(Abc) y",
            "password=A" + String(repeating: "a", count: 31) + "([redacted-secret]) y"
        ),
        ("password=A" + String(repeating: "a", count: 32) + "(Abc) y", "password=[redacted-secret]) y"),
        // Python string prefixes stay with the quote; three letters are no prefix.
        (#"{u'password': u'hunter2'}"#, #"{u'password': u'[redacted-secret]'}"#),
        (#"password=rb"hunter2" x"#, #"password=rb"[redacted-secret]" x"#),
        (#"{'token': B''}"#, #"{'token': B''}"#),
        // An unquoted value ends at an escaped line break, not at one it starts with.
        (
            #"password: hunter2\napi_key: k3y\nhost: h"#,
            #"password: [redacted-secret]\napi_key: [redacted-secret]\nhost: h"#
        ),
        (#"password=\nhunter2 x"#, "password=[redacted-secret] x"),
        // A folded line goes on (a space after the break); a `\` before the break does not matter
        // (as in a header's value).
        (#"password=a\n b"#, #"password=[redacted-secret] b"#),
        (#"password=a\\nb c"#, #"password=[redacted-secret]\nb c"#),
        // What rule 4 leaves of a break whose `n` starts an email ends the value on a second pass.
        (#"password=x\nalice@example.com"#, #"password=[redacted-secret]\[redacted-email]"#),
        (#"token=Bearer abc\r\nHost: h"#, #"token=[redacted-secret]\r\nHost: h"#),
    ]

    @Test("exact outputs, and each is a fixed point", arguments: cases)
    func exactOutputs(_ input: String, _ expected: String) {
        let once = LogSanitizer.redact(input)
        #expect(once == expected)
        #expect(LogSanitizer.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
    }

    /// The leaks these rules close, shown on the forms a sanitizer without them would see: with
    /// the constructor written as a bare word (no `(`), the prefix glued to a letter (no prefix),
    /// and the line break escaped twice (no line break), the secret after them stays.
    @Test("without the new forms the same secrets stay")
    func unprotectedVariants() {
        #expect(LogSanitizer.redact(#"password: Some "hunter2""#).contains("hunter2"))
        #expect(LogSanitizer.redact(#"password: xu'hunter2'"#).contains("hunter2"))
        #expect(LogSanitizer.redact(#"{"h":"X-Api-Key: k%0ACookie: sid=hunter2"}"#).contains("hunter2"))
        #expect(!LogSanitizer.redact(#"password: Some("hunter2")"#).contains("hunter2"))
        #expect(!LogSanitizer.redact(#"password: u'hunter2'"#).contains("hunter2"))
        #expect(!LogSanitizer.redact(#"{"h":"X-Api-Key: k\nCookie: sid=hunter2"}"#).contains("hunter2"))
    }
}
