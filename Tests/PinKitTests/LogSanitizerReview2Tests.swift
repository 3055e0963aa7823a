import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// A second hostile review of the seventh session's rule changes (rules 2, 3, 6 and 7 after
/// f3a96f3: `=>`, openers, backtick values, form keys, Unicode and colour-code blanks, inner
/// strings, escaped `\r`/`\n`, `\'`, `Bearer+`, new pin labels, two-segment `eyJ….x` tokens,
/// one-case runs, `redact(_:key:)`).
///
/// Every input was found with a generator piping its lines through `pinctl redact` twice (about 850,000
/// lines of the new forms and their neighbours) or by hand, and checked against `pinctl` at
/// f3a96f3. A finding still open is wrapped in `withKnownIssue`, so it fails loudly once the
/// sanitizer handles it (then drop the marker); the lead fixed six the same day (escaped line
/// breaks in header values, two-segment tokens, backtick keys, bracketed metadata keys). Each comment gives the input, the
/// output at d3bcf62 and the rule or promise it breaks.
@Suite("Log sanitizer review 2: findings")
struct LogSanitizerReview2Tests {
    /// Idempotence (new today). An unquoted header value now ends at an escaped `\r` or `\n`, at
    /// its backslash; when a later rule's match starts at the `r` or `n` (an email's local part, a
    /// token run, a URL scheme), the first pass writes `\` + a placeholder, and `\[` no longer ends
    /// the value, so the second pass takes it:
    /// `Cookie: \nalice@example.com` → `Cookie: \[redacted-email]` → `Cookie: [redacted-secret]`.
    /// At f3a96f3 the first pass gave `Cookie: [redacted-secret]`, stable. Breaks the header's
    /// "Redaction … is idempotent".
    @Test(
        "an escaped line break that starts a later rule's match is not stable under a second pass",
        arguments: [
            "Cookie: \\nalice@example.com",
            "{\"h\":\"Authorization: \\nnoreply@example.com\"}",
            "Cookie: \\rAbCdEfGhIjKlMnOpQrStUvWxYz012345",
        ]
    )
    func escapedLineBreakIdempotence(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(SanitizerReview.redact(once) == once, "first pass: \(once.debugDescription)")
    }

    /// Idempotence (also at f3a96f3; fixed in the eighth session). A value's closing quote "closes"
    /// when the next candidate URL starts right after it; a URL with no host became `[redacted-url]`,
    /// after which the same quote no longer closed, and the second pass took the placeholder as the
    /// value: `authorization=\'https://` → `authorization=\'[redacted-url]` →
    /// `authorization=[redacted-secret]`; `token="\"https://` → `token="\"[redacted-url]` →
    /// `token="[redacted-secret]`. Now the scheme and separator stay and the placeholder takes the
    /// host's place (`authorization=\'https://[redacted-url]`): a second pass finds a URL (with a
    /// bracketed host) where the first did, so the quote closes again. The old form, checked here
    /// too, still moves on a second pass: the attack the new form stops.
    @Test(
        "a value's quote before a URL with no host is stable under a second pass",
        arguments: [
            "authorization=\\'https://", "Cookie: \\'https:// x", "token=\"\\\"https://",
            // A backslash-escaped character that starts a URL with no host (`r://`), inside a quoted value.
            "x Cookie\" : \"\\r://<eyJx",
        ]
    )
    func hostlessURLAfterQuote(_ input: String) throws {
        let once = SanitizerReview.redact(input)
        #expect(SanitizerReview.redact(once) == once, "first pass: \(once.debugDescription)")
        #expect(once.contains("://[redacted-url]"), "\(once.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(input) == once)
        // The previous output: the placeholder alone in the URL's place.
        let scheme = try NSRegularExpression(pattern: #"[A-Za-z][A-Za-z0-9+.\-]*://(?=\[redacted-url\])"#)
        let old = scheme.stringByReplacingMatches(
            in: once, range: NSRange(once.startIndex..., in: once), withTemplate: "")
        #expect(old != once, "\(old.debugDescription)")
        // (Since the eleventh session `\'` opens a value, so the placeholder alone after it is a
        // value that is a placeholder, which a second pass leaves: no longer a demonstration.)
        if !input.contains(#"\'"#) {
            #expect(SanitizerReview.redact(old) != old, "\(old.debugDescription)")
        }
    }

    /// Every place a URL's start decides something about the text before it, with a URL that has no
    /// host: a value that is empty up to it (after an opener, a quote, `\"`), a quote that closes
    /// before it, a backslash before it in a quoted value, the escaped and percent-encoded
    /// separators; and a hostless URL in running text that ends at punctuation or a bracket.
    @Test(
        "a URL with no host keeps its scheme and separator, and a second pass changes nothing",
        arguments: [
            "password=<https://", "api_key=Optional(\"https://?x\") ok", "Cookie: \"https://u:p@/x\" y",
            "{\"token\":\"\\\"https:\\/\\/\\\"\"}", "secret='https%3A%2F%2F%2Fx' z", "token=\"a\\https://\" q",
            "see https://?x. ok", "(https://@/p) x", "Authorization: a=\"x\"https://?q\" y", "x ://?a \"https://\"",
        ]
    )
    func hostlessURLKeepsItsStart(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(once.contains("/[redacted-url]") || once.contains("%2F[redacted-url]"), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once, "first pass: \(once.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(input) == once)
    }

    /// Idempotence (found by the eighth session's hunt generator). A header value's inner string
    /// (`a="…"`) closed at the quote right before a URL, so the value took that quote and the URL lost
    /// the context that ended it: `Authorization: a="hunter2"ws://h.example/p"x` →
    /// `Authorization: [redacted-secret]ws://h.example"x` → `… ws://h.example`. The inner string now
    /// does not close there; the value stops before the quote, as before any URL.
    @Test(
        "an inner string's closing quote right before a URL is the URL's context",
        arguments: [
            "Authorization: a=\"hunter2\"ws://h.example/p\"x", "Cookie: realm='x'https://h.example/p' y",
            "Authorization: realm=\\\"x\\\"https://h.example/p\\\" z",
        ]
    )
    func innerStringBeforeURL(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(
            once.contains("h.example") && !once.contains("hunter2") && !once.contains("/p"), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once, "first pass: \(once.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(input) == once)
    }

    /// Idempotence (found by the eighth session's hunt). A quoted value stopped before a quote or
    /// `\"` right before a URL, but took `\'`: the `'` that gave the URL its context went into
    /// `[redacted-secret]`, and a second pass ended the URL elsewhere:
    /// `password="a\'https://h.example/p'q' x"` → `password="[redacted-secret]https://h.example'q' x"`
    /// → `… https://h.example' x"`. Any backslash and quote before a URL now stop the value.
    @Test(
        "an escaped quote right before a URL stays the URL's context",
        arguments: [
            "password=\"a\\'https://h.example/p'q' x\"",
            "x-auth-token: Optional('it\\'sHTTPS://bücher.example:1/v1?s=abc).?u@b.de'password': 'hunter2\\''}",
            "secret=Optional(\"`v`it\\'s+http://[::1]/a@b.com/p&x=1Password = 'hunter2'sha256",
        ]
    )
    func escapedQuoteBeforeURL(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("/p") && !once.contains("/v1"), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once, "first pass: \(once.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(input) == once)
    }

    /// Idempotence (found by the eighth session's hunt). A bearer token's closing quote right before
    /// a URL went into `[redacted-bearer]`; it was the URL's context, and a second pass ended the URL
    /// elsewhere: `Bearer "tok"https://h.example/p"x` → `[redacted-bearer]https://h.example"x` →
    /// `[redacted-bearer]https://h.example`. That quote now stays outside the match.
    @Test(
        "a bearer token's closing quote right before a URL stays the URL's context",
        arguments: [
            "Bearer \"tok\"https://h.example/p\"x", "]Bearer: 'tok'ftp://h.example/a b' ok",
            "Bearer\t \"0uKUFpam0ZsouG89w4gtkhx.uKdtZaVJC.33vQWbUg2VMZW~\"svn+ssh://a\"b@[::1]:64514?session=abc/fhi81h32n_zw_b1pnvy@a.com2Bearer",
            "]]Bearer: \"0zfgg75L2_qYHt4kJfXe/ioGFJZ1yrcpgKpP6VHOM_gzYQq\"ftp%3A%2F%2Fa\"b@EXAMPLE.org:57383)id=1",
        ]
    )
    func bearerQuoteBeforeURL(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(once.contains("[redacted-bearer]") && !once.contains("tok"), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once, "first pass: \(once.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(input) == once)
    }

    /// Leak (new today). An escaped `\r` or `\n` right after a header's separator gives an empty
    /// value, so no credential; a header folded onto its next line (HTTP/1.1 obs-fold, RFC 7230
    /// §3.2.4) in a JSON-escaped request dump keeps its credentials. At d3bcf62 both lines come out
    /// unchanged; at f3a96f3 the value ran to the closing quote: `Authorization:[redacted-secret]"}`.
    @Test(
        "a header value on the escaped line after its separator (obs-fold) survives",
        arguments: [
            "{\"req\":\"GET / HTTP/1.1\\r\\nAuthorization:\\r\\n Basic dXNlcjpwYXNzd29yZA==\\r\\nHost: x\"}",
            "{\"req\":\"Cookie: \\r\\n\\tsession=hunter2\"}",
        ]
    )
    func escapedFoldedHeader(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("dXNlcjpwYXNzd29yZA==") && !once.contains("hunter2"), "\(once.debugDescription)")
    }

    /// Leak (new reach of a known issue). Openers and `=>` are now passed before the placeholder
    /// check, so a header value that starts with an opener and then a placeholder is left alone
    /// whole, and everything after the placeholder survives:
    /// `Authorization: {[redacted-token] hunter2` → unchanged. At f3a96f3 the header value started
    /// at `{`, not a placeholder: `Authorization: [redacted-secret]`. (The plain
    /// `password=[redacted-token]hunter2` form is `LogSanitizerLeakHuntFindingTests.placeholderPrefix`.)
    @Test(
        "an opener or `=>` before a placeholder lets the rest of a header value through",
        arguments: [
            "Authorization: {[redacted-token] hunter2", "Authorization: Optional([redacted-token] hunter2",
            "Cookie: <[redacted-email]> session=hunter2", "authorization=>[redacted-bearer]hunter2",
        ]
    )
    func openerBeforePlaceholder(_ input: String) {
        // Fixed in the eighth session: only a value that is a placeholder and nothing more stays.
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once, "first pass: \(once.debugDescription)")
    }

    /// Over-redaction of §4 names (new today). A two-segment `eyJ….x` token needs only `eyJ` and
    /// one character in the last stretch of a run, then `.segment`: a camel-case word with `ey`
    /// before a `J` (survey, key, journey, monkey, honey, money) and a dot is a token.
    /// `event surveyJob.completed ok` → `event [redacted-token] ok`. At f3a96f3 each came out
    /// unchanged (a JWT needed three segments).
    @Test(
        "event names and file names with `eyJ` inside a camel-case word become tokens",
        arguments: [
            "event surveyJob.completed ok", "event keyJustRotated.success ok", "loaded MonkeyJS.min ok",
            "file journeyJournal.pdf ok",
        ]
    )
    func twoSegmentWordIsNoToken(_ input: String) {
        #expect(SanitizerReview.redact(input) == input)
    }

    /// Over-redaction of a §4 pin (also at f3a96f3). The `\/` label was added for JSON as
    /// `JSONEncoder` writes it, but `JSONEncoder` escapes every `/`, also those inside the pin's
    /// base64 (about half of all SHA-256 pins hold one), which then is no run of 43 base64
    /// characters: `{"pins":["sha256\/k2v657xBsOVe1PQRwOsHsw3bsGT2VzIqz5K\/59sNQws="]}` →
    /// `{"pins":["sha256\[redacted-token]\/59sNQws="]}` (the label's `\` is kept, its `/` is not).
    /// Fixed: a pin's `/` may be written `\/` after every label (JSON escapes the body whatever the
    /// label), and so may the `/` after its `=` that makes it no pin.
    @Test("a JSON-escaped pin whose base64 holds `\\/` is redacted")
    func jsonEscapedPinWithSlash() {
        let input = "{\"pins\":[\"sha256\\/k2v657xBsOVe1PQRwOsHsw3bsGT2VzIqz5K\\/59sNQws=\"]}"
        // The same pin with `+` where the `/` was stays: the label works, the escaped body does not.
        let plus = "{\"pins\":[\"sha256\\/k2v657xBsOVe1PQRwOsHsw3bsGT2VzIqz5K+59sNQws=\"]}"
        #expect(SanitizerReview.redact(plus) == plus)
        #expect(SanitizerReview.redact(input) == input)
        #expect(RegexReferenceSanitizer.redact(input) == input)
    }

    /// The escaped pins JSON writes for each label: every `/` of the body as `\/` (here three), and
    /// curl's `sha256//` as `sha256\/\/`; the transport's own list in an escaped line too.
    @Test(
        "a pin with every `/` escaped stays after each label",
        arguments: [
            "sha256\\/", "sha256\\/\\/", "pin-sha256=\\\"", "SHA256:", "{\\\"sha256\\\":\\\"", "\"sha256\": \"",
            "sha256='", "expected one of ",
        ]
    )
    func escapedPinAfterEachLabel(_ label: String) {
        let pin = "k2v/57xBsOVe1PQRwOsHsw3bsGT2VzIqz5K/59sNQ/s="
        let escaped = pin.replacingOccurrences(of: "/", with: "\\/")
        var lines = ["pin \(label)\(escaped)\\\" ok"]
        if label == "expected one of " { lines.append("pin \(label)\(escaped), \(escaped)") }
        for line in lines {
            #expect(SanitizerReview.redact(line) == line)
            #expect(RegexReferenceSanitizer.redact(line) == line)
        }
    }

    /// What is no pin is still redacted: 43 characters with `\/` and no label, a labelled run of 42
    /// or 44, a `\` before anything but `/`, and a pin followed by `\/` (a longer run). A lax
    /// variant of the rule (the reference's expression with `{42,44}` and no look-ahead, in this test)
    /// keeps each of them: the attack it stops.
    @Test(
        "a run with `\\/` that is no labelled pin is still a token",
        arguments: [
            "x k2v657xBsOVe1PQRwOsHsw3bsGT2VzIqz5K\\/59sNQws= ok",
            "sha256\\/k2v657xBsOVe1PQRwOsHsw3bsGT2VzIqz5\\/59sNQws= ok",
            "sha256\\/k2v657xBsOVe1PQRwOsHsw3bsGT2VzIqz5KK\\/59sNQws= ok",
            "sha256\\/k2v657xBsOVe1PQRwOsHsw3bsGT2VzIqz5K\\+59sNQws= ok",
            "sha256\\/k2v657xBsOVe1PQRwOsHsw3bsGT2VzIqz5K\\/59sNQws=\\/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 ok",
        ]
    )
    func escapedRunThatIsNoPin(_ input: String) throws {
        let lax = try NSRegularExpression(pattern: #"(?:[Ss][Hh][Aa]256\\/)?(?:[A-Za-z0-9+/]|\\.){42,44}="#)
        let range = NSRange(input.startIndex..., in: input)
        #expect(lax.firstMatch(in: input, range: range) != nil, "the lax rule would keep it")
        let once = SanitizerReview.redact(input)
        #expect(once.contains("[redacted-token]"), "\(once.debugDescription)")
        #expect(!once.contains("k2v657xBsOVe1PQRwOsHsw3bsGT2Vz"), "\(once.debugDescription)")
        #expect(once == RegexReferenceSanitizer.redact(input))
        #expect(SanitizerReview.redact(once) == once)
    }

    /// Leak (the new form keys stop short). Rule 2 accepts `]` or `[]` after a key, but not an
    /// index (`password[0]=`, as `qs` writes arrays), a nested array (`user[password][]=`), nor
    /// the brackets a browser percent-encodes in a form body (`user%5Bpassword%5D=`, which is how
    /// `user[password]` goes on the wire). Each line comes out unchanged at d3bcf62 and f3a96f3.
    @Test(
        "form keys with an index, a nested array or percent-encoded brackets are not credentials",
        arguments: ["password[0]=hunter2&x=1", "user[password][]=hunter2&x=1", "user%5Bpassword%5D=hunter2&x=1"]
    )
    func formKeyVariants(_ input: String) {
        // The form rule 2 does know, next to them: caught.
        #expect(SanitizerReview.redact("user[password]=hunter2&x=1") == "user[password]=[redacted-secret]&x=1")
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("hunter2") && once.hasSuffix("&x=1"), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once)
    }

    /// Idempotence (found by the eighth session's generator; not in its rules: `headerEnd`). A
    /// header value's inner string (`realm="…"`) whose closing quote is the one right before a URL
    /// takes that quote, so the URL loses the context that ended it on the first pass:
    /// `Authorization: realm=", r="https://h.example/p x "quoted" y` →
    /// `Authorization: [redacted-secret]https://h.example"quoted" y` →
    /// `Authorization: [redacted-secret]https://h.example" y`. Also at 4bf23bd. Fixed the same
    /// session: an inner string whose closing quote is right before a URL is none.
    @Test(
        "a header value's inner string that closes right before a URL is not stable under a second pass",
        arguments: [
            "Authorization: realm=\", r=\"https://h.example/p x \"quoted\" y",
            "Cookie: a=[':'https://h.example/p x 'q' y", "Cookie: a=\\\", r=\\\"https://h.example/p x \\\"q\\\" y",
        ]
    )
    func headerInnerStringBeforeURL(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(SanitizerReview.redact(once) == once, "first pass: \(once.debugDescription)")
        #expect(once.contains("h.example") && !once.contains("/p x"), "\(once.debugDescription)")
    }

    /// The form suffixes' bounds (four suffixes, six digits an index) and a placeholder's own `]`,
    /// which closes no form key (a second pass must not find a key in what the first wrote).
    @Test(
        "form suffixes are bounded, and a placeholder's `]` starts none",
        arguments: [
            ("user[password][0][]%5B1%5D=hunter2&x=1", "user[password][0][]%5B1%5D=[redacted-secret]&x=1"),
            ("PASSWORD%5b%5D=hunter2&x=1", "PASSWORD%5b%5D=[redacted-secret]&x=1"),
            ("password[123456]=hunter2&x=1", "password[123456]=[redacted-secret]&x=1"),
            ("password[1234567]=hunter2&x=1", "password[1234567]=hunter2&x=1"),
            ("password[0][0][0][0][0]=hunter2&x=1", "password[0][0][0][0][0]=hunter2&x=1"),
            ("[redacted-token][0]=hunter2&x=1", "[redacted-token][0]=hunter2&x=1"),
            ("[redacted-secret]%5D=hunter2&x=1", "[redacted-secret]%5D=hunter2&x=1"),
        ]
    )
    func formSuffixBounds(_ input: String, _ expected: String) {
        #expect(SanitizerReview.redact(input) == expected)
        // A logger's metadata key takes the same suffixes (a placeholder there is no concern: the
        // key is never redacted, and taking its value is the safe side).
        if !input.hasPrefix("[redacted-") {
            #expect(LogSanitizer.isCredentialKey(String(input.prefix { $0 != "=" })) == (expected != input))
        }
    }

    /// Leak (new today). A two-segment `eyJ….x` token's last segment is base64url
    /// (`[A-Za-z0-9_-]`), so the match stops at the first `+` or `/` of a standard-base64
    /// signature, and the rest, now shorter than 32, stays: `t=eyJ0eXAiOiJKV1QifQ.dGhpcyBpcyBh+c2…`
    /// → `[redacted-token]+c2VjcmV0/c2lnbmF0dXJlaHVudGVy ok`. At f3a96f3 the JWT rule failed (two
    /// segments) and the base64 rule took the whole second run:
    /// `t=eyJ0eXAiOiJKV1QifQ.[redacted-token] ok`.
    @Test("a two-segment `eyJ` token leaves its signature's rest after a `+` or `/`")
    func twoSegmentStopsAtPlus() {
        let once = SanitizerReview.redact("t=eyJ0eXAiOiJKV1QifQ.dGhpcyBpcyBh+c2VjcmV0/c2lnbmF0dXJlaHVudGVy ok")
        #expect(!once.contains("c2lnbmF0dXJl"), "\(once.debugDescription)")
    }

    /// Leak (the new `[` opener stops short; also at f3a96f3). A header logged as an array of
    /// values (Node's `set-cookie`, a `[String: [String]]` dictionary): the opener and the first
    /// element's quote are passed, the value is that element, and every later element survives:
    /// `  'set-cookie': [ 'a=1; Path=/', 'session=hunter2; Path=/' ],` →
    /// `  'set-cookie': [ '[redacted-secret]', 'session=hunter2; Path=/' ],`. README: "`Cookie`/
    /// `Set-Cookie` to the end of the line". (A JSON object value is
    /// `LogSanitizerLeakHuntFindingTests.nestedObject`.)
    @Test(
        "a header whose value is an array keeps every element after the first",
        arguments: [
            "  'set-cookie': [ 'a=1; Path=/', 'session=hunter2; Path=/' ],",
            "{\"set-cookie\":[\"a=1; Path=/\",\"session=hunter2; Path=/\"]}",
            "headers: {\"Authorization\": [\"Basic Zm9v\", \"Basic hunter2\"]}",
        ]
    )
    func headerArray(_ input: String) {
        // Fixed in the eighth session: an array (or object) as the value goes whole.
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once, "first pass: \(once.debugDescription)")
    }

    /// Leak (the new backtick stops short; also at f3a96f3). A backtick now opens a value, but it
    /// does not close a key: MySQL quotes identifiers in backticks, and a logged statement keeps
    /// its literal: "UPDATE users SET `password` = 'hunter2' WHERE id = 1" comes out unchanged.
    @Test(
        "a key quoted in backticks (MySQL identifiers, Markdown tables) is not a credential",
        arguments: ["UPDATE users SET `password` = 'hunter2' WHERE id = 1", "| `token` | x | `api_key`: `hunter2` |"]
    )
    func backtickKey(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
    }

    /// Leak (new API). `redact(_:key:)` takes a value whole under a key that ends in a credential
    /// word, but not under the form keys rule 2 accepts in text (`user[password]`, `password[]`,
    /// `data[api_key]`): the value is redacted as text and comes out unchanged, and the record's
    /// text then shows `user[password]=hunter2` — which rule 2 would have caught had key and value
    /// reached it together (`pinctl redact` of that text gives `user[password]=[redacted-secret]`).
    @Test(
        "a metadata value under a bracketed form key is not a secret",
        arguments: ["user[password]", "password[]", "data[api_key]"]
    )
    func metadataFormKey(_ key: String) {
        // What the record's text would show, redacted as one line, is caught: the key is a credential.
        #expect(SanitizerReview.redact("\(key)=hunter2") == "\(key)=[redacted-secret]")
        #expect(LogSanitizer.redact("hunter2", key: key) == LogSanitizer.secretPlaceholder)
    }
}

/// Found by the lead in the eighth session (leak; also at the session's start, 4bf23bd): a value
/// stops at the next URL (so the URL keeps its host), and whatever of the value follows the URL is
/// left to the later rules:
/// `Set-Cookie: next=https://app.example.com/home; session=hunter2; Path=/` →
/// `Set-Cookie: [redacted-secret]https://app.example.com; session=hunter2; Path=/`.
/// A structure (JSON object or array) now takes the URLs inside it whole. Header values and
/// quoted values resume after the URL (ninth session): taking their URLs whole would lose the
/// hosts of URLs later on the same line (`LogSanitizerLeakTests` requires every host to stay), so
/// the resumed part starts after the bytes that ended the URL, which stay (else a second pass's
/// URL takes the placeholder as its path), in the scanner and the reference alike.
@Suite("Log sanitizer: a URL inside a value")
struct LogSanitizerValueURLTests {
    @Test(
        "what follows a URL in a structure is redacted",
        arguments: [
            "{\"token\":{\"u\":\"https://h.example/x\",\"v\":\"hunter2\"},\"n\":1}",
            "token=[\"https://h.example/x\", 'hunter2'] ok", "password={a ://x hunter2",
            "password={a [redacted-url] hunter2}", "token={\"u\":\"h\\'https://h.example/x'\",\"v\":\"hunter2\"}",
        ]
    )
    func urlInsideStructure(_ input: String) {
        let once = LogSanitizer.redact(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        #expect(LogSanitizer.redact(once) == once, "first pass: \(once.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(input) == once)
    }

    @Test(
        "what follows a URL in a header value or a quoted value is redacted",
        arguments: [
            "Set-Cookie: next=https://app.example.com/home; session=hunter2; Path=/",
            "Cookie: _s=abc; return_to=https%3A%2F%2Fapp.example.com%2Fdash; auth=hunter2",
            "{\"headers\":{\"cookie\":\"a=1; r=https://x.example/p; sid=hunter2\",\"host\":\"api.example.com\"}}",
            "Cookie: a=1; r=\"https://x.example/p\"; sid=hunter2",
        ]
    )
    func urlInsideHeaderValue(_ input: String) {
        // Fixed in the ninth session: the value resumes after the URL (its trailing punctuation and
        // what ended it stay, so a second pass ends the URL in the same place), and every host stays.
        // The rules before issue 15 (no credential rule at all) leak it: the test can fail.
        #expect(LegacyRegexSanitizer.redact(input).contains("hunter2"))
        let once = LogSanitizer.redact(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        #expect(once.contains("app.example.com") || once.contains("x.example"), "\(once.debugDescription)")
        #expect(LogSanitizer.redact(once) == once, "first pass: \(once.debugDescription)")
        #expect(RegexReferenceSanitizer.redact(input) == once)
    }

    /// The resumption, output by output: where it starts after each kind of URL end, where it
    /// does not (a line break, a quote that closes the header's string), and a URL as the value's
    /// first or last part or the whole of a JSON string.
    @Test(
        "a value resumes after a URL inside it",
        arguments: [
            (
                "Set-Cookie: next=https://app.example.com/home; session=hunter2; Path=/",
                "Set-Cookie: [redacted-secret]https://app.example.com; [redacted-secret]"
            ),
            (
                "Cookie: a=1; r=\"https://x.example/p\"; sid=hunter2",
                "Cookie: [redacted-secret]\"https://x.example\"[redacted-secret]"
            ),
            ("Cookie: https://x.example/p sid=hunter2", "Cookie: https://x.example [redacted-secret]"),
            (
                "Cookie: a=(https://x.example/p)sid=hunter2",
                "Cookie: [redacted-secret]https://x.example)[redacted-secret]"
            ),
            ("Cookie: a=https://x.example/p\nsid=hunter2", "Cookie: [redacted-secret]https://x.example\nsid=hunter2"),
            (
                "{\"cookie\":\"a=1; r=https://x.example/p; sid=hunter2\",\"host\":\"api.example.com\"}",
                "{\"cookie\":\"[redacted-secret]https://x.example; [redacted-secret]\",\"host\":\"api.example.com\"}"
            ),
            (
                "{\"cookie\":\"https://x.example/p\",\"host\":\"api.example.com\"}",
                "{\"cookie\":\"https://x.example\",\"host\":\"api.example.com\"}"
            ),
            (
                "password='a https://x.example/p b https://y.example/q c' ok",
                "password='[redacted-secret]https://x.example [redacted-secret]https://y.example [redacted-secret]' ok"
            ),
            (
                "{\"cookie\":\"r=https://x.example/p' sid=hunter2\"} password='a https://y.example/q\" b' ok",
                "{\"cookie\":\"[redacted-secret]https://x.example' [redacted-secret]\"} password='[redacted-secret]https://y.example\" [redacted-secret]' ok"
            ),
            ("password=\"a https://x.example/p\" b\" ok", "password=\"[redacted-secret]https://x.example\" b\" ok"),
            // (Fourteenth session: in a string escaped once a `\"` is a quote inside it, which closes
            // nothing, so the value resumes after the URL it ended.)
            (
                "{\"h\":\"Cookie: a=https://x.example/p\\\" sid=hunter2\"}",
                "{\"h\":\"Cookie: [redacted-secret]https://x.example\\\" [redacted-secret]\"}"
            ),
        ]
    )
    func valueResumesAfterURL(_ input: String, _ expected: String) {
        let once = LogSanitizer.redact(input)
        #expect(once == expected)
        #expect(LogSanitizer.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == expected)
    }

    /// The hosts around a structure stay: a URL after it keeps its host.
    @Test("a URL after a structure keeps its host")
    func urlAfterValue() {
        #expect(
            LogSanitizer.redact("token={\"v\":\"hunter2\"} https://api.example.com/x")
                == "token={[redacted-secret]} https://api.example.com")
    }
}
