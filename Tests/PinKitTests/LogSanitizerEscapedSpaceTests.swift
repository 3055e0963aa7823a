import PinKitTestSupport
import Testing

@testable import PinKit

/// JSON escapes of Unicode spaces and invisible separators (the sixteenth session): Python's
/// `json.dumps` (`ensure_ascii`, its default) writes NBSP as `\u00a0` and ZWSP as `\u200b`. Rules 2
/// and 3 read a space's escape as the space (a blank, a separator after `bearer`), rules 3, 5 and 7
/// an invisible separator's as the separator (one character of the run it sits in); the scanner and
/// the reference agree on them, a second pass changes nothing, and the work stays linear.
@Suite("Log sanitizer: escaped Unicode spaces and invisible separators")
struct LogSanitizerEscapedSpaceTests {
    @Test("the scanner agrees with the reference on 20,000 lines of escaped spaces and separators, idempotent")
    func differentialEscapedSpaces() async {
        let mismatches = await LogSanitizerTests.agreement(20_000, seed: 0x5EED_0016) { corpus, _ in
            corpus.escapedSpaceLine()
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// The attack first: the rules before issue 15 keep each secret (and so did this scanner before
    /// the sixteenth session: `LogSanitizerReview6Tests.asciiEscapedSpaces`); then each goes.
    @Test(
        "an escaped space or invisible separator where rules 2, 3, 5 and 7 take the character",
        arguments: [
            (#"{"msg": "sent\u00a0Bearer\u00a0AbCdEf0123ghIJ"}"#, #"{"msg": "sent\u00a0[redacted-bearer]"}"#, "ghIJ"),
            (#"{"msg": "Bearer\u3000\u3000AbCd\u200bEf0123"}"#, #"{"msg": "[redacted-bearer]"}"#, "Ef0123"),
            (#"Authorization\u00a0Basic\u2009dXNl\u200BcjpwYXNz"#, #"Authorization\u00a0[redacted-bearer]"#, "cjpw"),
            (#"{"k": "AbCdEf0123\u200bghIJklMNop456789qrstUVwx"}"#, #"{"k": "[redacted-token]"}"#, "ghIJ"),
            (#"k: \ufeffAbCdEf0123ghIJklMN\u00ADop456789qrstUVw"#, #"k: [redacted-token]"#, "op456789"),
            (#"{"q": "{'password':\u00a0'hunter2'}"}"#, #"{"q": "{'password':\u00a0'[redacted-secret]'}"}"#, "hunter2"),
            (#"{"q": "password\u00a0=\u00a0hunter2"}"#, #"{"q": "password\u00a0=\u00a0[redacted-secret]"}"#, "hunter2"),
            (#"token\u00A0\u2028: \u3000"hunter2""#, #"token\u00A0\u2028: \u3000"[redacted-secret]""#, "hunter2"),
            (#"id 550e8400\u200b-e29b-41d4-a716-4466\u00ad55440000 ok"#, "id [redacted-uuid] ok", "55440000"),
            (#"id 550e\u2060840\u200B0-e29b-41d4-a716-446655440000"#, "id [redacted-uuid]", "550e"),
        ]
    )
    func escapedSpaces(_ input: String, _ expected: String, _ secret: String) {
        #expect(LegacyRegexSanitizer.redact(input).contains(secret), "the old rules already handled this")
        let once = LogSanitizer.redact(input)
        #expect(once == expected, "\(once.debugDescription)")
        #expect(!once.contains(secret))
        #expect(LogSanitizer.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
    }

    /// Near misses: an escape of something else (`\u0041`, `\u00e9`, `\u200e`), a truncated one, an
    /// escaped backslash before `u00a0` (`\\u00a0` in JSON is a backslash and text), `\U`; names,
    /// pins, hosts, events and numbers next to an escape stay readable.
    @Test(
        "what must stay as it is: other escapes, names, pins, hosts, events, numbers",
        arguments: [
            #"{"k": "AbCdEf0123\u0041ghIJklMNop456789qrstUVwx"}"#,
            #"{"k": "AbCdEf0123\u00e9ghIJklMNop456789qrstUVwx"}"#,
            #"{"k": "AbCdEf0123\u200eghIJklMNop456789qrstUVwx"}"#,
            #"{"k": "AbCdEf0123\u200ghIJklMNop456789qrstUVwxyz"}"#,
            #"{"k": "AbCdEf0123\U200bghIJklMNop456789qrstUVwx"}"#,
            #"{"msg": "sent\u00a0Bearer"}"#,
            #"{"msg": "Basic\u00a0auth with\u00a0user"}"#,
            #"{"q": "status\u00a0=\u00a0200"}"#,
            #"{"q": "password\u00e9=\u00a0x"}"#,
            #"{"q": "tokens\u00a0:\u00a0x"}"#,
            #"{"e": "event\u00a0token_refreshed\u00a0code\u00a0E_PIN_MISMATCH"}"#,
            #"{"m": "caf\u00e9\u00a0ok", "host": "api.example.com", "port": 443}"#,
            #"{"pin": "sha256/AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\u00a0ok"}"#,
            #"{"id": "550e8400\u200b-e29b-41d4-a716"}"#,
            #"{"n": "1234567\u200b8901\u00a0latency=12ms"}"#,
        ]
    )
    func readable(_ line: String) {
        #expect(LogSanitizer.redact(line) == line, "\(LogSanitizer.redact(line).debugDescription)")
        #expect(RegexReferenceSanitizer.redact(line) == line)
    }

    /// Inputs and what a pass leaves of them (nil: the input unchanged).
    static let runStartCases: [(String, String?)] = [
        // 1 + 1 + 29 characters from `x`: under 32, and none starts at `u` (5 + 29).
        (#"x\u200b"# + String(repeating: "Ab1", count: 9) + "Ab", nil),
        (#"\\u200b"# + String(repeating: "Ab1", count: 11), #"\[redacted-token]"#),
        (#"\\\u200b"# + String(repeating: "Ab1", count: 11), #"\\[redacted-token]"#),
        // `\u200x` is no escape: the run starts at its `u`.
        (#"\u200"# + String(repeating: "xY1", count: 11), #"\[redacted-token]"#),
    ]

    /// A run of rule 7 never starts inside an escape (`\u200b`'s `u200b` are base64 characters):
    /// from its `\` the run is one character where from its `u` it would be five. The escape's `\`
    /// may follow another (`\\u200b`: the second starts it), and a second pass sees the same.
    @Test(
        "no token starts inside an escape, and the escape's backslash may follow another",
        arguments: runStartCases)
    func runStarts(_ input: String, _ expected: String?) {
        let once = LogSanitizer.redact(input)
        #expect(once == (expected ?? input), "\(once.debugDescription)")
        #expect(LogSanitizer.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
    }

    /// The fuzz seed of this session (`Fuzz/Sources/FuzzSanitizer`): each form loses its secret.
    @Test("the sixteenth session's fuzz seed loses every secret")
    func fuzzSeed() {
        let seed =
            #"{"msg": "sent\u00a0Bearer\u00A0zq7SEEDnbsp0123", "q": "{'password':\u3000'zq7SEEDblank'}", "k": "AbCdEf0123\u200bzq7SEEDzwsp456789qrstUVwx", "p": "token\u2009=\u2009zq7SEEDeq"}"#
        let once = LogSanitizer.redact(seed)
        #expect(!once.contains("zq7SEED"), "\(once.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(seed) == once)
        #expect(LogSanitizer.redact(once) == once)
    }

    @Test("escaped spaces and separators cost linear work")
    func linear() {
        for unit in [
            #"\u00a0"#, #"\u200b"#, #"Bearer\u00a0"#, #"password\u00a0=\u00a0"#, #"a\u200b"#, #"1234\u200b-"#,
            #"\\u200b"#, #"\u200"#,
        ] {
            let small = LogSanitizer.operationCount(redacting: Array(String(repeating: unit, count: 2_000).utf8))
            let large = LogSanitizer.operationCount(redacting: Array(String(repeating: unit, count: 8_000).utf8))
            #expect(large <= 5 * small, "\(unit): \(small) → \(large)")
        }
    }

    /// Every Unicode space's escape, in both cases, between a key and its separator and after it:
    /// the key's look-back (whose first test is a table of what a blank may end in: the last hex
    /// digits of these escapes, the `m` of a colour code, white space, bytes of multi-byte
    /// characters) reads each.
    @Test("every Unicode space's escape, either case, around a separator")
    func everyEscapedSpaceAroundASeparator() {
        let spaces: [UInt32] = [0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000] + Array(0x2000...0x200A)
        var leaks: [String] = []
        for value in spaces {
            let hex = String(value, radix: 16)
            for digits in [hex.lowercased(), hex.uppercased()] {
                let escape = "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                for line in ["password\(escape)=hunter2", "{'token'\(escape):\(escape)'hunter2'}"]
                where SanitizerReview.leaks(line, "hunter2") {
                    leaks.append(line)
                }
            }
        }
        #expect(leaks.isEmpty, "\(leaks)")
        // A byte no blank ends in stays a key's own: `passwordx\u00a0=` is no key `password`.
        #expect(SanitizerReview.leaks("passwordx\\u00a0=hunter2", "hunter2"))
    }
}
