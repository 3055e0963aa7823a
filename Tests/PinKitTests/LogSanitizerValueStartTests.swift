import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// Issue 15 §3, the tenth session: quotes at the start of a value. A scheme's quoted token padded
/// with blanks (rules 2 and 3), an empty string escaped as JSON writes it before a header's value
/// (rule 2), and an apostrophe after a non-ASCII letter inside a structure (rule 2's structure
/// scan). Each test shows the mechanism at work where the new exception does not apply, then the
/// exception; the scanner must agree with the regular-expression reference and be idempotent.
@Suite("Log sanitizer: quotes at a value's start")
struct LogSanitizerValueStartTests {
    static func check(_ input: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let once = LogSanitizer.redact(input)
        #expect(once == expected, "\(input.debugDescription)", sourceLocation: sourceLocation)
        #expect(
            LogSanitizer.redact(once) == once, "not idempotent: \(once.debugDescription)",
            sourceLocation: sourceLocation)
        #expect(RegexReferenceSanitizer.redact(input) == once, "reference differs", sourceLocation: sourceLocation)
    }

    /// Before: `Authorization: Basic " hunter2"` → `Authorization: [redacted-secret]" hunter2"`, and
    /// the same for `Bearer`, `x Bearer " hunter2"` (unchanged) and `token=Bearer ' hunter2 '`
    /// (`token=[redacted-secret] ' hunter2 '`): a header's unquoted value ended at the opening quote
    /// followed by a blank, and neither rule's token could start with a blank. An escaped opening
    /// quote left the token too: `{"msg":"x Bearer \"hunter2\""}` → unchanged.
    @Test(
        "a scheme's quoted token padded with blanks goes whole",
        arguments: [
            // (In a string: a header in running text runs to the line's end since the eleventh
            // session, quotes and all.)
            (#""Authorization: Basic " hunter2""#, #""Authorization: [redacted-secret]""#),
            (#""Authorization: Bearer " hunter2""#, #""Authorization: [redacted-secret]""#),
            (#"'Authorization: bearer ' hunter2 ' next"#, #"'Authorization: [redacted-secret]' next"#),
            (#""Authorization: "" Basic " hunter2""#, #""Authorization: ""[redacted-secret]""#),
            // (A quote of the string's own kind: since the fourteenth session another kind closes nothing.)
            (
                #"{'h':'Authorization: Bearer ' hunter2 '', 'n': 1}"#,
                #"{'h':'Authorization: [redacted-secret]', 'n': 1}"#
            ),
            (#"x Bearer " hunter2" ok"#, "x [redacted-bearer] ok"),
            ("x Bearer <\thunter2\u{A0}> ok", "x [redacted-bearer] ok"),
            ("x Bearer '\u{1B}[1m hunter2 ok", "x [redacted-bearer] ok"),
            (#"token=Bearer ' hunter2 ' ok"#, "token=[redacted-secret] ok"),
            (#"password=basic "  hunter2  "x ok"#, "password=[redacted-secret] ok"),
            ("api_key=Bearer Bearer <\u{3000}hunter2> ok", "api_key=[redacted-secret] ok"),
            // The opening quote escaped as JSON writes it; the same backslashes and `"` close.
            (#"{"msg":"x Bearer \" hunter2\" ok"}"#, #"{"msg":"x [redacted-bearer] ok"}"#),
            (#"{"msg":"x Bearer \"hunter2\""}"#, #"{"msg":"x [redacted-bearer]"}"#),
            (#"{"msg":"token=Bearer \"hunter2\" ok"}"#, #"{"msg":"token=[redacted-secret] ok"}"#),
            // (`{"msg":"Authorization: Bearer \" hunter2\""}`: in a JSON string since the eleventh
            // session a `\"` closes nothing, whatever word is before it; `LogSanitizerReview6Tests`.)
        ]
    )
    func paddedSchemeToken(_ input: String, _ expected: String) {
        // The mechanism without the exception: after a word that is no scheme's name, the quote
        // followed by a blank still ends a header's value, and the padded token is left.
        let unprotected = input.replacingOccurrences(of: "Bearer", with: "Digest", options: .caseInsensitive)
            .replacingOccurrences(of: "Basic", with: "Digest", options: .caseInsensitive)
        #expect(LogSanitizer.redact(unprotected).contains("hunter2"))
        Self.check(input, expected)
    }

    /// Where the opening quote is followed by blanks and no token, or is the context of a URL, it
    /// still ends a header's value (rule 1's context); a closing quote right before a URL stays the
    /// URL's.
    @Test(
        "a quote after a scheme's name that opens no token still closes",
        arguments: [
            (#""Authorization: Bearer " , next"#, #""Authorization: [redacted-secret]" , next"#),
            (#"'Authorization: Basic '"#, "'Authorization: [redacted-secret]'"),
            // The safe side: a blank and a token byte after the quote are read as a padded token
            // even where the quote closed the string (code in a log line).
            (#""Authorization: Bearer " + token"#, #""Authorization: [redacted-secret]"#),
            (
                #""Authorization: Bearer " https://api.example.com/x""#,
                #""Authorization: [redacted-secret]" https://api.example.com""#
            ),
            // In running text no quote closes the header's value (the eleventh session): it stops
            // at the URL and resumes after it.
            (
                #"Authorization: Bearer " https://api.example.com/x""#,
                #"Authorization: [redacted-secret]https://api.example.com""#
            ),
            (#"x Bearer " abc "https://api.example.com/x""#, #"x [redacted-bearer] "https://api.example.com""#),
            (#"token=Bearer " abc "https://api.example.com/x""#, #"token=[redacted-secret] "https://api.example.com""#),
        ]
    )
    func quoteOpensNoToken(_ input: String, _ expected: String) {
        Self.check(input, expected)
    }

    /// Before: `{"h":"Cookie: \"\"sid=hunter2"}` → unchanged: the escaped empty string was the
    /// header's whole value. Now passed over like `""`, with 1–15 backslashes before each quote.
    @Test(
        "an escaped empty string before a header's value is passed over",
        arguments: [
            (#"{"h":"Cookie: \"\"sid=hunter2"}"#, #"{"h":"Cookie: \"\"[redacted-secret]"}"#),
            (
                // (`Digest`: rule 3 takes an unlabelled `Basic` token since the tenth session, so
                // the quoted-key control below would lose it too.)
                #"{"h":"Authorization: \"\" Digest hunter2", "n": 1}"#,
                #"{"h":"Authorization: \"\"[redacted-secret]", "n": 1}"#
            ),
            (#""{\"h\":\"Cookie: \\\"\\\"sid=hunter2\"}""#, #""{\"h\":\"Cookie: \\\"\\\"[redacted-secret]\"}""#),
            (#"Set-Cookie: \"\"sid=hunter2; Path=/"#, #"Set-Cookie: \"\"[redacted-secret]"#),
        ]
    )
    func escapedEmptyQuotes(_ input: String, _ expected: String) {
        // The mechanism without the exception: after a quoted key the empty string is the value,
        // and what follows it is left.
        let quotedKey = input.replacingOccurrences(of: "Cookie:", with: "\\\"cookie\\\":")
            .replacingOccurrences(of: "Authorization:", with: "\\\"authorization\\\":")
        #expect(LogSanitizer.redact(quotedKey).contains("hunter2"))
        Self.check(input, expected)
    }

    /// The edges: an escaped empty string alone stays, runs of different lengths are no empty
    /// string (the value opened by the first runs on), and after a quoted key it stays empty.
    @Test(
        "an escaped empty string alone or after a quoted key stays",
        arguments: [
            (#"{"h":"Cookie: \"\""}"#, #"{"h":"Cookie: \"\""}"#),
            (#"{"h":"Cookie: \"\\\"x"}"#, #"{"h":"Cookie: \"[redacted-secret]"#),
            (#"{\"cookie\": \"\", \"u\": \"bob\"}"#, #"{\"cookie\": \"\", \"u\": \"bob\"}"#),
        ]
    )
    func escapedEmptyQuotesEdges(_ input: String, _ expected: String) {
        Self.check(input, expected)
    }

    /// Before: `token={josé's session} connecting to https://api.example.com/v1 ok` →
    /// `token={[redacted-secret]`: the `'` after `é` opened a string that never closed, so the
    /// structure took the rest of the line, host included. A `'` after a non-ASCII character other
    /// than a Unicode space or an invisible separator is now an apostrophe, as after an ASCII letter.
    @Test(
        "an apostrophe after a non-ASCII letter inside a structure opens no string",
        arguments: [
            (
                "token={jos\u{E9}'s session} connecting to https://api.example.com/v1 ok",
                "token={[redacted-secret]} connecting to https://api.example.com ok"
            ),
            ("secret=[Zo\u{EB}'s key] host=api.example.com", "secret=[[redacted-secret]] host=api.example.com"),
            ("token={\u{1F600}'s x} host=api.example.com", "token={[redacted-secret]} host=api.example.com"),
        ]
    )
    func apostropheAfterNonASCIILetter(_ input: String, _ expected: String) {
        // The mechanism without the exception: after a Unicode space (no letter) the same `'`
        // opens a string that does not close, and the structure takes the rest of the line.
        let spaced = input.replacingOccurrences(of: "'", with: "\u{00A0}'")
        #expect(!LogSanitizer.redact(spaced).contains("api.example.com"))
        Self.check(input, expected)
    }

    /// The edges: after a Unicode space or an invisible separator a `'` still opens a string (one
    /// that closes hides a bracket), and a string prefix after a non-ASCII letter is part of a word
    /// (`éu'` is an apostrophe, `b'` a string).
    @Test(
        "a quote after a Unicode space or an invisible separator still opens a string",
        arguments: [
            ("token={a:\u{00A0}'x}'} ok", "token={[redacted-secret]} ok"),
            ("token={a\u{200B}'x]', 'hunter2'} ok", "token={[redacted-secret]} ok"),
            ("token={jos\u{A0}'s session} host=api.example.com", "token={[redacted-secret]"),
            ("token={b'x}'} ok", "token={[redacted-secret]} ok"),
            ("token={\u{E9}u'x} ok'} host=api.example.com", "token={[redacted-secret]} ok'} host=api.example.com"),
        ]
    )
    func quoteAfterSpaceOpensString(_ input: String, _ expected: String) {
        Self.check(input, expected)
    }
}
