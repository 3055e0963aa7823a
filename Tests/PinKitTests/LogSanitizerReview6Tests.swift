import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// A sixth hostile review (tenth session, at 98bf032), aimed at the ninth session's rules (values
/// resumed after a URL, scheme values, apostrophes and Python string prefixes in structures,
/// backslash runs by depth, `%40` emails, `\/` in runs, bearer after `%XX` or `\n`, a URL ending at
/// an escaped line break) and at log shapes real programs write: Python's `repr` (2 and 3) and
/// `json.dumps` (whose default `ensure_ascii` writes every non-ASCII character as `\uXXXX`), nginx's
/// access log (whose default escaping writes `"` as `\x22`), curl -v, cookie headers, form bodies,
/// Go and Java messages. Lines were piped through `pinctl redact` twice and shrunk by hand; the
/// known gaps README lists and the other engineers' items this session are not reported again.
///
/// Each finding is a test whose failing expectation is wrapped in `withKnownIssue`, so the suite
/// stays green and fails loudly once the sanitizer handles the form (then drop the marker). Each
/// test also shows, outside the marker, the protected sibling form going, so the test can see a
/// leak at all. Comments give input → output at 98bf032 and what a fixed sanitizer must output.
/// Severity: high, a real program's log shape leaks a credential; medium; low, contrived or a
/// design gap outside the rules' promise.
///
/// Index, most severe first (test function names): high — `pythonPrefixedValue` (`u'…'`, `b'…'`
/// values), `rustOptionValue` (`Some("…")`), `valueOverEscapedLineBreak` (header dumps in JSON
/// strings), `cookieHeaderWithQuoteInside`, `nginxHexEscapedBody`, `unlabelledBasic`; medium —
/// `quoteInAnotherEscaping` (`\u0022`, `&quot;`, CSV `""`), `gsonEscapedSeparator`,
/// `backslashedSingleQuotes` (`\'`),
/// `nameValuePair` (HAR, Kubernetes env), `logfmtErrorCode` (§4), `asciiEscapedEmail`,
/// `quotedValueAfterURLEndedByEscapedLineBreak`, `urlOverEscapedTab`, `markupLabelledSecret`,
/// `keysOutsideTheList`, `smtpAuthPlain`, `asciiEscapedSpaces`, `headerArrayMember` (§4); low —
/// the rest, and `referenceResumptionAfterBackslashQuote` (the oracle's blind spot, no leak).
/// What held: idempotence and scanner–reference agreement on 520,000 generated lines (one
/// disagreement class), linearity by operation count on 41 new families, 87,582 fuzz runs.
@Suite("Log sanitizer review 6: findings")
struct LogSanitizerReview6Tests {
    /// HIGH, rule 2 (the opening quote). Python 2's `repr` writes every string `u'…'`, Python 3's
    /// writes bytes `b'…'`; the prefix letter is taken as an unquoted value, which ends at the `'`,
    /// and the quoted secret after it stays:
    /// `{u'username': u'alice', u'password': u'hunter2'}` → `{u'username': u'alice', u'password': [redacted-secret]'hunter2'}`;
    /// `{'password': b'hunter2', 'host': 'db.example.com'}` → `{'password': [redacted-secret]'hunter2', …}`;
    /// `password=b'hunter2' host=db.example.com` → `password=[redacted-secret]'hunter2' host=db.example.com`;
    /// `{'token': rb'AbCdEf0123ghIJ'}` → `{'token': [redacted-secret]'AbCdEf0123ghIJ'}`.
    /// The ninth session taught the structure scan these prefixes (`afterStringPrefix`), not the
    /// value's opening quote. A fix: in `credential(key:separator:percent:stop:)` (and the
    /// reference), one or two of `u b r f` (any case) right before `'` or `"` belong to the opener;
    /// the fixed output is `{…, u'password': u'[redacted-secret]'}` (prefix and quotes kept).
    @Test(
        "a Python u, b, r or f string prefix before a credential's quoted value",
        arguments: [
            #"{u'username': u'alice', u'password': u'hunter2', u'host': u'db.example.com'}"#,
            #"{'password': b'hunter2', 'host': 'db.example.com'}"#,
            #"password=b'hunter2' host=db.example.com"#,
            #"{'api_key': r'hunter2', 'x': 1}"#,
            #"{'token': rb'hunter2'}"#,
            #"{"secret": b"hunter2"}"#,
        ]
    )
    func pythonPrefixedValue(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        #expect(once.contains("db.example.com") || !input.contains("db.example.com"))
        // The protection that exists: without the prefix the quoted value goes whole.
        let plain = input.replacingOccurrences(of: "u'", with: "'").replacingOccurrences(of: "rb'", with: "'")
            .replacingOccurrences(of: "b'", with: "'").replacingOccurrences(of: "r'", with: "'")
            .replacingOccurrences(of: "b\"", with: "\"")
        #expect(!SanitizerReview.leaks(plain, "hunter2"), "\(SanitizerReview.redact(plain).debugDescription)")
    }

    /// HIGH/medium, rule 2 (a header's unquoted value ends "at a closing quote as in rule 1": a quote
    /// followed by white space, `,;}])>` or the end). A cookie whose value is JSON (consent banners,
    /// preferences) has a `"` before `}` or `,`, which ends the header's value, and the cookies after
    /// it stay: `Cookie: prefs={"theme":"dark"}; sid=hunter2` → `Cookie: [redacted-secret]"}; sid=hunter2`;
    /// `Cookie: consent={"necessary":true,"lang":"en"}; sid=hunter2` → same shape;
    /// `Cookie: a=x'; sid=hunter2` → `Cookie: [redacted-secret]'; sid=hunter2`; a header followed
    /// on its line by a structure: `Authorization: Bearer AbCdEf0123 secret={"a":"x","b":"hunter2"}`
    /// → `Authorization: [redacted-secret]","b":"hunter2"}` (the header took the key `secret`).
    /// (An inner string is passed only after `=`, `[`, `(` or `{`, so `"dark"` after `:` is not one.)
    /// The same header inside a JSON string is fine (`{"headers":{"Cookie":"prefs={\"theme\":…}`).
    /// A fixed sanitizer outputs `Cookie: [redacted-secret]`: a header that is not inside a string
    /// runs to the line break; a quote can only close a string the header is in.
    /// Fixed (eleventh session): a header sits in a string only with a quote or an escaped line
    /// break right before its name (`headerContext`); otherwise no quote ends its value.
    @Test(
        "a cookie header holding JSON keeps the cookies after it",
        arguments: [
            #"Cookie: prefs={"theme":"dark"}; sid=hunter2"#,
            #"Cookie: consent={"necessary":true,"lang":"en"}; sid=hunter2"#,
            #"Cookie: a=x'; sid=hunter2"#,
            #"Cookie: ret=https://a.io/x'; sid=hunter2"#,
            #"Authorization: Bearer AbCdEf0123 secret={"a":"x","b":"hunter2"}"#,
        ]
    )
    func cookieHeaderWithQuoteInside(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
        // Without the quote the header's value runs to the line's end.
        let unquoted = input.replacingOccurrences(of: "\"", with: "").replacingOccurrences(of: "'", with: "")
        #expect(!SanitizerReview.leaks(unquoted, "hunter2"), "\(SanitizerReview.redact(unquoted).debugDescription)")
        // The attack without the protection: where the header sits in a string (a quote right
        // before its name), a quote of the string's kind that closes it still ends its value, as
        // before the fix everywhere (a real JSON string escapes the inner quotes, which then close
        // nothing; since the fourteenth session a quote of another kind closes nothing either).
        let quote = input.contains("\"") ? "\"" : "'"
        let inString = "{\"h\":" + quote + input + quote + "}"
        #expect(SanitizerReview.leaks(inString, "hunter2"), "\(SanitizerReview.redact(inString).debugDescription)")
    }

    /// What the fix keeps: a header in a string still ends at the string's closing quote, so the
    /// members and fields after it stay (`{"h":"Cookie: sid=x","host":"a.io"}`); a header in
    /// running text after a log field keeps the field before it. In a string whose opening quote
    /// (or escaped line break) has no backslash before it, `\"` is a quote inside the string.
    @Test(
        "a header in a string ends at its closing quote; in running text at the line's end",
        arguments: [
            (
                #"{"h":"Cookie: sid=hunter2","host":"api.example.com"}"#,
                #"{"h":"Cookie: [redacted-secret]","host":"api.example.com"}"#
            ),
            (
                #"curl -H 'Authorization: Basic hunter2' https://api.example.com/x"#,
                #"curl -H 'Authorization: [redacted-secret]' https://api.example.com"#
            ),
            (
                #"{"h":"X-Id: 1\r\nSet-Cookie: a={\"t\":1}; sid=hunter2","n":"api.example.com"}"#,
                #"{"h":"X-Id: 1\r\nSet-Cookie: [redacted-secret]","n":"api.example.com"}"#
            ),
            (
                #"event=login Cookie: a="x"; sid=hunter2 host=api.example.com"#,
                #"event=login Cookie: [redacted-secret]"#
            ),
            (
                #"Cookie: ret=https://api.example.com/x'; sid=hunter2"#,
                #"Cookie: [redacted-secret]https://api.example.com';[redacted-secret]"#
            ),
            (
                #"'Cookie: ret=https://api.example.com/x'; sid=hunter2"#,
                #"'Cookie: [redacted-secret]https://api.example.com'; sid=hunter2"#
            ),
            // In a JSON string a `\"` is a quote inside it (an odd run of backslashes), closing nothing…
            (
                #"{"h":"Cookie: prefs={\"theme\":\"dark\"}; sid=hunter2","host":"api.example.com"}"#,
                #"{"h":"Cookie: [redacted-secret]","host":"api.example.com"}"#
            ),
            (
                #"{"headers":"Host: a\r\nCookie: p={\"t\":1}; sid=hunter2\r\nX-Id: 1"}"#,
                #"{"headers":"Host: a\r\nCookie: [redacted-secret]\r\nX-Id: 1"}"#
            ),
            (
                #"{"msg":"Authorization: Digest \" hunter2\"", "n": "api.example.com"}"#,
                #"{"msg":"Authorization: [redacted-secret]", "n": "api.example.com"}"#
            ),
            // …but in a string escaped again its depth is unknown, and a `\"` that closes as in rule 1 ends it.
            (
                #"{"log":"{\"h\":\"Cookie: sid=hunter2\",\"n\":\"api.example.com\"}"}"#,
                #"{"log":"{\"h\":\"Cookie: [redacted-secret]\",\"n\":\"api.example.com\"}"}"#
            ),
        ]
    )
    func headerContext(_ input: String, _ expected: String) {
        let once = SanitizerReview.redact(input)
        #expect(once == expected)
        #expect(SanitizerReview.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
    }

    /// HIGH/medium, rules 2 and 3. nginx's access log (`escape=default`, the default) writes `"`, `\`
    /// and control bytes of a logged request body or header as `\xHH`. Rule 2 reads a key's closing
    /// quote as `"` (after backslashes), `'`, backtick, `%22` or `%27`, and rule 3 starts after
    /// `%XX` but not after `\xHH` (its `2` is a digit), so a logged JSON body keeps its secrets:
    /// `… "{\x22username\x22:\x22alice\x22,\x22password\x22:\x22hunter2\x22}"` → unchanged;
    /// `… "{\x22auth\x22:\x22Bearer AbCdEf0123ghIJ\x22}"` → unchanged.
    /// A fixed sanitizer outputs `\x22password\x22:\x22[redacted-secret]\x22` and
    /// `\x22auth\x22:\x22[redacted-bearer]\x22`: `\x22` and `\x27` are quotes as `%22` and `%27` are,
    /// and `bearer` may follow `\xHH` as it follows `%XX`.
    @Test(
        "nginx's \\x22-escaped request body keeps no secret",
        arguments: [
            (
                #"127.0.0.1 - - [01/Dec/2026:02:07:01 +0000] "POST /v1/login HTTP/1.1" 200 61 "{\x22username\x22:\x22alice\x22,\x22password\x22:\x22hunter2\x22}""#,
                "hunter2"
            ),
            (
                #"127.0.0.1 - - [01/Dec/2026:02:07:01 +0000] "POST /v1/login HTTP/1.1" 200 61 "{\x22auth\x22:\x22Bearer AbCdEf0123ghIJ\x22}""#,
                "AbCdEf0123ghIJ"
            ),
        ]
    )
    func nginxHexEscapedBody(_ input: String, _ secret: String) {
        // Fixed (tenth session): `\x22`/`\x27` are quotes as `%22`/`%27` are; bearer follows `\xHH`.
        let once = SanitizerReview.redact(input)
        #expect(!once.contains(secret), "\(once.debugDescription)")
        #expect(
            once.contains(#"\x22password\x22:\x22[redacted-secret]\x22}"#)
                || once.contains(#"\x22auth\x22:\x22[redacted-bearer]\x22}"#), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once)
        // The same body logged with nginx's `escape=json` (`\"`) loses its secret.
        let json = input.replacingOccurrences(of: #"\x22"#, with: #"\""#)
        #expect(!SanitizerReview.leaks(json, secret), "\(SanitizerReview.redact(json).debugDescription)")
    }

    /// HIGH/medium, rule 3 (bearer only). HTTP Basic credentials with no `Authorization:` label
    /// survive: nginx's `"$http_authorization"` field, a client's debug line. The token is
    /// `base64(user:password)`, shorter than 32 characters for most passwords, so rule 7 does not
    /// take it either:
    /// `… "curl/8.5.0" "Basic YWxpY2U6aHVudGVyMg=="` → unchanged (`alice:hunter2`);
    /// `DEBUG sending request with auth header Basic YWxpY2U6aHVudGVyMg==` → unchanged.
    /// A fixed sanitizer outputs `"[redacted-bearer]"` or a new `[redacted-basic]`: `basic` (any
    /// case, not after a letter or digit) then blanks and a base64 run holding a digit, `+ / =` or
    /// both cases (so "Basic auth" and "using Basic with user" stay).
    @Test(
        "an unlabelled Basic credential goes as a bearer token does",
        arguments: [
            #"127.0.0.1 - - [01/Dec/2026:02:07:01 +0000] "GET /v1 HTTP/1.1" 401 0 "-" "curl/8.5.0" "Basic YWxpY2U6aHVudGVyMg==""#,
            "DEBUG sending request with auth header Basic YWxpY2U6aHVudGVyMg==",
        ]
    )
    func unlabelledBasic(_ input: String) {
        #expect(
            Data(base64Encoded: "YWxpY2U6aHVudGVyMg==").map { String(decoding: $0, as: UTF8.self) } == "alice:hunter2")
        // Fixed (tenth session): rule 3 takes `basic` and a token that looks like one.
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("YWxpY2U6aHVudGVyMg"), "\(once.debugDescription)")
        #expect(once.hasSuffix("[redacted-bearer]\"") || once.hasSuffix("header [redacted-bearer]"), "\(once)")
        #expect(SanitizerReview.redact(once) == once)
        // The same line with Bearer, or with the header's label, loses it.
        let bearer = input.replacingOccurrences(of: "Basic", with: "Bearer")
        #expect(
            !SanitizerReview.leaks(bearer, "YWxpY2U6aHVudGVyMg"), "\(SanitizerReview.redact(bearer).debugDescription)")
        let labelled = input.replacingOccurrences(of: "Basic", with: "Authorization: Basic")
        #expect(!SanitizerReview.leaks(labelled, "YWxpY2U6aHVudGVyMg"))
    }

    /// Words after `Basic` that are no credential stay: one case and no digit or `+ / =`, or a
    /// capital only at the start; and `Basic` inside a word or before a scheme's name is no label.
    @Test(
        "Basic before a word stays",
        arguments: [
            "HTTP Basic auth failed", "using Basic with user alice", "Basic Authentication required", "BASIC MODE",
            "xBasic YWxpY2U6aHVudGVyMg==", "Basic: none", "basic realm", "basic\tconfig",
        ]
    )
    func basicBeforeAWord(_ input: String) {
        #expect(SanitizerReview.redact(input) == input)
    }

    /// A scheme's name after `Basic` is not its token: the scheme after it takes its own.
    @Test("Basic before Bearer or Basic")
    func basicBeforeAScheme() {
        #expect(SanitizerReview.redact("Basic Bearer AbCdEf0123") == "Basic [redacted-bearer]")
        #expect(SanitizerReview.redact("Basic basic YWxpY2U6aHVudGVyMg==") == "Basic [redacted-bearer]")
        #expect(SanitizerReview.redact("Basic\u{A0}YTpi, ok") == "[redacted-bearer], ok")
    }

    /// MEDIUM, rule 4 (and rules 3, 7 for Unicode spaces and invisible separators). Python's
    /// `json.dumps` (`ensure_ascii=True`, the default; also `JSON::XS`'s `ascii`, Jackson's
    /// `ESCAPE_NON_ASCII`) writes every non-ASCII character as `\uXXXX`. Issue 15 asked for
    /// `alice@bücher.de` and `jöhn.smith@…`; their escaped forms survive:
    /// `{"email": "alice@b\u00fccher.de", …}` → unchanged;
    /// `{"email": "j\u00f6rg@m\u00fcller.de", …}` → unchanged;
    /// `{"email": "j\u00f6rg.schmidt@example.com", …}` → `{"email": "j\[redacted-email]", …}` (the
    /// `jö` issue 15 names). A fixed sanitizer outputs `{"email": "[redacted-email]", …}`: a `\u`
    /// and four hex digits of a non-ASCII character is a local-part or domain character.
    /// Fixed in the eleventh session (`escapedNonASCII`); an escaped Unicode space is none (as the
    /// space itself is none), and an escaped ASCII character is none either.
    @Test(
        "an email with non-ASCII characters written as \\u escapes",
        arguments: [
            #"{"email": "alice@b\u00fccher.de", "event": "signup"}"#,
            #"{"email": "j\u00f6rg@m\u00fcller.de", "event": "signup"}"#,
            #"{"email": "j\u00f6rg.schmidt@example.com", "event": "signup"}"#,
        ]
    )
    func asciiEscapedEmail(_ input: String) throws {
        // Without the escape read as a character, the part before it stays (the attack as it was).
        let ascii = input.replacingOccurrences(of: #"\u00"#, with: #"\x00"#)
        #expect(SanitizerReview.redact(ascii) != #"{"email": "[redacted-email]", "event": "signup"}"#)
        // The oracle: this is what json.dumps writes for the unescaped address.
        let decoded = try #require(
            JSONSerialization.jsonObject(with: Data(input.utf8)) as? [String: String]
        )["email"]
        let unescaped = try #require(decoded)
        let once = SanitizerReview.redact(input)
        #expect(once == #"{"email": "[redacted-email]", "event": "signup"}"#, "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once)
        // The same address written as UTF-8 goes whole.
        #expect(
            SanitizerReview.redact(#"{"email": "\#(unescaped)", "event": "signup"}"#)
                == #"{"email": "[redacted-email]", "event": "signup"}"#)
    }

    /// MEDIUM/low, rules 3 and 7: the same `ensure_ascii` escaping of a Unicode space around
    /// `Bearer` or an invisible separator inside a token (issue 15's §3 lists both unescaped):
    /// `{"msg": "sent\u00a0Bearer\u00a0AbCdEf0123ghIJ"}` → unchanged;
    /// `{"k": "AbCdEf0123\u200bghIJklMNop456789qrstUVwx"}` → unchanged (two runs under 32);
    /// rule 2's blanks too: `{"q": "{'password':\u00a0'hunter2'}"}` → `{"q": "{'password':[redacted-secret]'hunter2'}"}`,
    /// `{"q": "password\u00a0=\u00a0hunter2"}` → unchanged.
    /// A fixed sanitizer outputs `{"msg": "sent\u00a0[redacted-bearer]"}`, `{"k": "[redacted-token]"}`
    /// and `{"q": "{'password':\u00a0'[redacted-secret]'}"}`: `\u` and the four hex digits of a
    /// Unicode space or invisible separator are one. Fixed in the sixteenth session: a JSON escape of
    /// a Unicode space is that space to rules 2 and 3 (`blanksEnd`, `blanksStart`, `separatorsEnd`),
    /// one of an invisible separator that separator inside a run of rules 3, 5 and 7 (one character;
    /// no match starts inside one); `LogSanitizerEscapedSpaceTests` has the forms and near misses.
    @Test(
        "a Unicode space or invisible separator written as a \\u escape",
        arguments: [
            (#"{"msg": "sent\u00a0Bearer\u00a0AbCdEf0123ghIJ"}"#, "AbCdEf0123ghIJ"),
            (#"{"k": "AbCdEf0123\u200bghIJklMNop456789qrstUVwx"}"#, "ghIJklMNop456789"),
            (#"{"q": "{'password':\u00a0'hunter2'}"}"#, "hunter2"),
            (#"{"q": "password\u00a0=\u00a0hunter2"}"#, "hunter2"),
        ]
    )
    func asciiEscapedSpaces(_ input: String, _ secret: String) throws {
        #expect(!SanitizerReview.leaks(input, secret), "\(SanitizerReview.redact(input).debugDescription)")
        // Decoded (what the escape stands for), the secret goes.
        let object = try #require(JSONSerialization.jsonObject(with: Data(input.utf8)) as? [String: String])
        let decoded = try #require(object.values.first)
        #expect(decoded.unicodeScalars.contains { $0.value == 0xA0 || $0.value == 0x200B })
        #expect(!SanitizerReview.leaks(decoded, secret), "\(SanitizerReview.redact(decoded).debugDescription)")
    }

    /// MEDIUM, rule 2's resumption after a URL (new this session) meets f73e2b4 (a URL in running
    /// text ends at an escaped line break). In a quoted value an escaped `\n` is no line break (the
    /// value runs to its closing quote), but after a URL that it ended the value does not resume:
    /// `{"token":"see https://a.io/x\nhunter2"}` → `{"token":"[redacted-secret]https://a.io\nhunter2"}`;
    /// `{"cookie":"ret=https://a.io/cb\r\nsid=hunter2"}` → `{"cookie":"[redacted-secret]https://a.io\r\nsid=hunter2"}`.
    /// `resumption(after:kind:end:)` resumes after white space, brackets and quotes, not after `\n`.
    /// A fixed sanitizer outputs `{"token":"[redacted-secret]https://a.io\n[redacted-secret]"}` (the
    /// `\n` kept, so a second pass ends the URL in the same place). Fixed in the eleventh session:
    /// a quoted value resumes after `\r`, `\n` or `\r\n` (a header's value ends there).
    @Test(
        "a quoted value resumes after a URL that an escaped line break ended",
        arguments: [
            #"{"token":"see https://a.io/x\nhunter2"}"#,
            #"{"cookie":"ret=https://a.io/cb\r\nsid=hunter2"}"#,
            #"{\"password\":\"x https://a.io/p\nhunter2\"}"#,
        ]
    )
    func quotedValueAfterURLEndedByEscapedLineBreak(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once)
        // The URL keeps its host and what ended it, and the value goes on after it.
        #expect(once.contains(#"https://a.io\"#) && once.contains(#"\n[redacted-secret]"#), "\(once.debugDescription)")
        // With a blank after the URL the value resumes, and without the URL it goes whole.
        let blank = input.replacingOccurrences(of: #"\r\n"#, with: " ").replacingOccurrences(of: #"\n"#, with: " ")
        #expect(!SanitizerReview.leaks(blank, "hunter2"), "\(SanitizerReview.redact(blank).debugDescription)")
        let noURL = input.replacingOccurrences(of: "https://", with: "")
        #expect(!SanitizerReview.leaks(noURL, "hunter2"), "\(SanitizerReview.redact(noURL).debugDescription)")
    }

    /// MEDIUM/low, rule 1 (f73e2b4 ends a URL in running text at an escaped `\r` or `\n`, not at an
    /// escaped tab). A tab-separated record or header dump inside a JSON string: the URL runs over
    /// `\t` and the next field's key, which is then lost, and its value stays:
    /// `{"msg":"url=https://a.io/cb\tCookie: sid=hunter2"}` → `{"msg":"url=https://a.io: sid=hunter2"}`;
    /// `{"msg":"url=https://a.io/cb\tX-Api-Key: hunter2"}` → `{"msg":"url=https://a.io: hunter2"}`.
    /// With a real tab the URL ends there and the header's value goes. A fixed sanitizer outputs
    /// `{"msg":"url=https://a.io\tCookie: [redacted-secret]"}`: `\t` ends a URL as `\n` does. Fixed
    /// in the eleventh session (after `bearer` in a path it does not end it, as a tab does not).
    @Test(
        "a URL ends at an escaped tab as at a real one",
        arguments: [
            #"{"msg":"url=https://a.io/cb\tCookie: sid=hunter2"}"#,
            #"{"msg":"url=https://a.io/cb\tX-Api-Key: hunter2"}"#,
        ]
    )
    func urlOverEscapedTab(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        #expect(once.contains(#"url=https://a.io\t"#), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once)
        // Without the escaped tab as an end, the URL takes the next field's key (the attack).
        let other = input.replacingOccurrences(of: #"\t"#, with: #"\q"#)
        #expect(SanitizerReview.leaks(other, "hunter2"), "\(SanitizerReview.redact(other).debugDescription)")
        let real = input.replacingOccurrences(of: #"\t"#, with: "\t")
        #expect(!SanitizerReview.leaks(real, "hunter2"), "\(SanitizerReview.redact(real).debugDescription)")
        let newline = input.replacingOccurrences(of: #"\t"#, with: #"\n"#)
        #expect(!SanitizerReview.leaks(newline, "hunter2"), "\(SanitizerReview.redact(newline).debugDescription)")
    }

    /// MEDIUM/low, rule 2 (a Python tuple is no structure). `(` is no opener, so the value is `(`
    /// up to the quote and the members stay:
    /// `{'password': ('alice', 'hunter2')}` → `{'password': [redacted-secret]'alice', 'hunter2')}`;
    /// `secret=('x', 'hunter2')` → `secret=[redacted-secret]'x', 'hunter2')`; Foundation's
    /// `NSDictionary` description (`allHeaderFields`, `HTTPURLResponse`), JSON-escaped by a logger:
    /// `{"msg":"Headers {\n    \"X-Api-Key\" =     (\n        hunter2\n    );\n}"}` →
    /// `{"msg":"Headers {\n    \"X-Api-Key\" =     [redacted-secret]        hunter2\n    );\n}"}`.
    /// A fixed sanitizer outputs `{'password': ([redacted-secret])}`: `(` opens a structure as `[`
    /// does (closed by `)`).
    @Test(
        "a tuple as a credential's value",
        arguments: [
            #"{'password': ('alice', 'hunter2')}"#, #"secret=('x', 'hunter2')"#,
            #"{"msg":"Headers {\n    \"X-Api-Key\" =     (\n        hunter2\n    );\n}"}"#,
        ]
    )
    func tupleValue(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        #expect(once.contains("([redacted-secret])"), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once)
        // Where `(` opens no value (after a word), the tuple's members stay: what `(` did before.
        let word = input.replacingOccurrences(of: "(", with: "x(")
        #expect(SanitizerReview.leaks(word, "hunter2"), "\(SanitizerReview.redact(word).debugDescription)")
        let list = input.replacingOccurrences(of: "(", with: "[").replacingOccurrences(of: ")", with: "]")
        #expect(!SanitizerReview.leaks(list, "hunter2"), "\(SanitizerReview.redact(list).debugDescription)")
    }

    /// MEDIUM (design gap: rule 2's separators are `=`, `=>` and `:`). Secrets labelled by markup or
    /// position rather than a separator: a multipart body logged as a JSON string, a SOAP/XML body
    /// (Java clients log envelopes), a command line:
    /// `{"body":"--X\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nhunter2\r\n--X--"}`,
    /// `<soap:Body><login><password>hunter2</password></login></soap:Body>`, WS-Security's
    /// `<wsse:Password Type="#PasswordText">hunter2</wsse:Password>` and
    /// `exec: mysql --user=app --password hunter2 --host=db.example.com` were unchanged.
    /// Closed (fourteenth session) for markup: an XML element named by a credential key (its start
    /// tag's `>` is a trigger of rules 1–2's pass; a prefix, attributes and CDATA too) and a
    /// form-data part named by one (`name="password"`, a blank line, real or escaped, its first
    /// line) → `[redacted-secret]` in the secret's place. The long option and a blank
    /// (`--password hunter2`) was closed in the sixteenth session (``optionLabelledSecret(_:_:)``).
    @Test(
        "secrets labelled by markup, not a separator",
        arguments: [
            #"{"body":"--X\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nhunter2\r\n--X--"}"#,
            "--X\r\nContent-Disposition: form-data; name=\"client_secret\"\r\n\r\nhunter2\r\n--X--",
            "<soap:Body><login><password>hunter2</password></login></soap:Body>",
            ##"<wsse:UsernameToken><wsse:Username>alice</wsse:Username><wsse:Password Type="#PasswordText">hunter2</wsse:Password></wsse:UsernameToken>"##,
            "<config><db_password><![CDATA[hunter2]]></db_password></config>",
            #"{"xml":"<AccessToken>hunter2</AccessToken>"}"#,
        ]
    )
    func markupLabelledSecret(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        #expect(once.contains("[redacted-secret]"), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
        // What the rule needs: markup named by a credential key. Named by another word, or with
        // the key inside a longer word, the same text stays.
        for kept in [
            input.replacingOccurrences(of: "assword", with: "asswordHint"),
            input.replacingOccurrences(of: "client_secret", with: "client_secretName"),
            input.replacingOccurrences(of: "AccessToken", with: "AccessTokenType"),
        ] where kept != input {
            #expect(SanitizerReview.leaks(kept, "hunter2"), "\(SanitizerReview.redact(kept).debugDescription)")
        }
        // With a separator after the key the same secret goes.
        #expect(!SanitizerReview.leaks("password=hunter2", "hunter2"))
    }

    /// A markup credential leaves the rest of the document: the elements after it, a self-closing
    /// element, an element whose text is blank, and a URL in the value (its host stays).
    @Test(
        "markup credentials keep what is around them",
        arguments: [
            (
                "<login><password>hunter2</password><host>db.example.com</host></login>",
                "<login><password>[redacted-secret]</password><host>db.example.com</host></login>"
            ),
            ("<password/><token a=\"1\" />ok", "<password/><token a=\"1\" />ok"),
            (
                "<credentials> <password>x</password></credentials>",
                "<credentials> <password>[redacted-secret]</password></credentials>"
            ),
            ("<token>abc https://a.io/x </token>", "<token>[redacted-secret]https://a.io </token>"),
            ("a -> b >= c <p>password</p>", "a -> b >= c <p>password</p>"),
        ]
    )
    func markupKeepsItsSurroundings(_ input: String, _ expected: String) {
        #expect(SanitizerReview.redact(input) == expected)
        #expect(RegexReferenceSanitizer.redact(input) == expected)
    }

    /// MEDIUM (see ``markupLabelledSecret(_:)``): a long command-line option named by a key and a
    /// blank, `exec: mysql --user=app --password hunter2 --host=db.example.com`, kept `hunter2`
    /// (rule 2 needed `=`, `=>` or `:` after a key). Fixed in the sixteenth session: the first `-`
    /// of a `--` is a trigger of rules 1–2's pass (the span finder's window compares the bytes it
    /// loaded once more with `-`, and a `-` counts when the next one is one too); `--` not right
    /// after an `[A-Za-z0-9_-]`, a run of those ending in one of rule 2's keys, spaces or tabs and a
    /// byte that is no `-` separate the value, which is then rule 2's (unquoted, quoted, openers,
    /// structures). `--password --host=x` (a flag, mysql's prompt) and `-p hunter2` (a short option:
    /// too many mean something else) stay.
    @Test(
        "a secret after a long option and a blank",
        arguments: [
            (
                "exec: mysql --user=app --password hunter2 --host=db.example.com",
                "exec: mysql --user=app --password [redacted-secret] --host=db.example.com"
            ),
            (
                "pg_dump --db-password 'hunter 2' --host db.example.com",
                "pg_dump --db-password '[redacted-secret]' --host db.example.com"
            ),
            ("cli --access-token\thunter2", "cli --access-token\t[redacted-secret]"),
            ("curl --cookie \"sid=hunter2\" https://a.io/x", "curl --cookie \"[redacted-secret]\" https://a.io"),
            ("x --API-KEY  hunter2,y", "x --API-KEY  [redacted-secret],y"),
            ("run --password=hunter2", "run --password=[redacted-secret]"),
            // A separator after the blanks is the key's own (a multipart boundary glued to a key).
            ("--X--secret = 'hunter2'", "--X--secret = '[redacted-secret]'"),
            (
                "--password :\thunter2 --token \u{00A0}＝ hunter3",
                "--password :\t[redacted-secret] --token \u{00A0}＝ [redacted-secret]"
            ),
        ]
    )
    func optionLabelledSecret(_ input: String, _ expected: String) {
        #expect(SanitizerReview.redact(input) == expected)
        #expect(RegexReferenceSanitizer.redact(input) == expected)
        #expect(SanitizerReview.redact(expected) == expected)
        #expect(!SanitizerReview.leaks(input, "hunter"))
    }

    /// The attack without the rule: the same line with the option's name no key, or the option
    /// not a long one, keeps its value; and what must stay: a flag before another option or at the
    /// end, a short option, `--` inside a word or after one, a key inside the name (not its end),
    /// `--` alone (the end of options), numbers, hosts and pins after an option.
    @Test(
        "near misses of a long option's value stay",
        arguments: [
            "exec: mysql --user app --host db.example.com",
            "exec: mysql --password --host=db.example.com",
            "exec: mysql --password",
            "exec: mysql --password\t-x",
            "mysql -p hunter2 -h db.example.com",
            // (Not `mysql`'s: mysql reads `-password` as `-p` and the password `assword`, which rule 2's
            // command options take since the twentieth session.)
            "psql -password hunter2",
            "x--password hunter2",
            "x_--password hunter2",
            "--password-file /run/secrets/db",
            "--tokens 5 --secretive yes",
            "git log -- password",
            "--retries 3 --pin sha256/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ABCDEFG= --host a.example.com",
            "xn--bcher-kva.example -- password token",
        ]
    )
    func optionNearMisses(_ input: String) {
        #expect(SanitizerReview.redact(input) == input)
        #expect(RegexReferenceSanitizer.redact(input) == input)
    }

    /// LOW (§4, over-redaction; new with 173ee26: rule 7 reads 1–15 backslashes and `/` as one
    /// character, rule 6 reads `\/` only). A pin in JSON escaped twice (a JSON log line carrying a
    /// JSON document) is no labelled pin and becomes a token:
    /// `{"log":"{\"pin\":\"sha256\\\/AbCdEf…ABCDEFG=\"}"}` → `{"log":"{\"pin\":\"[redacted-token]\"}"}`.
    /// Escaped once (`sha256\/…`) it stays. A fixed sanitizer keeps the pin as written: rule 6's
    /// label and body read `/` after 1–15 backslashes as rule 7 does.
    @Test("a pin in JSON escaped twice stays readable")
    func twiceEscapedPin() {
        let body = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ABCDEFG="
        let twice = #"{"log":"{\"pin\":\"sha256\\\/"# + body + #"\"}"}"#
        #expect(SanitizerReview.redact(twice) == twice)
        // Each `/` of the body escaped twice too, and the curl label `//`.
        let slashes = body.replacingOccurrences(of: "0123", with: "01/3").replacingOccurrences(of: "/", with: #"\\\/"#)
        let both = #"{"log":"{\"pin\":\"sha256\\\/\\\/"# + slashes + #"\"}"}"#
        #expect(SanitizerReview.redact(both) == both)
        let once = #"{"pin":"sha256\/"# + body + #""}"#
        #expect(SanitizerReview.redact(once) == once)
        // Without a label (or with a label's `/` after 16 backslashes, which no JSON escaping
        // writes) the same body is a token and goes: rule 6 keeps only a labelled pin.
        for label in ["sha257" + #"\\\/"#, "sha256" + String(repeating: "\\", count: 16) + "/"] {
            let unlabelled = #"{"log":"{\"pin\":\""# + label + body + #"\"}"}"#
            #expect(!SanitizerReview.leaks(unlabelled, body), "\(SanitizerReview.redact(unlabelled).debugDescription)")
        }
    }

    /// LOW (contrived: a secret that parses as a URL). A value stops at the next URL, and a URL keeps
    /// its host, so a secret holding `://` keeps its tail as a "host" and its head as a "scheme":
    /// `password=abc://hunter2` → unchanged; `password=hunter2https://a.io/x` →
    /// `password=hunter2https://a.io`. A fixed sanitizer outputs `password=[redacted-secret]`: a URL
    /// that starts at a credential value's first byte is the value.
    @Test(
        "a credential value that looks like a URL",
        arguments: ["password=abc://hunter2", "password=hunter2https://a.io/x"]
    )
    func valueThatIsAURL(_ input: String) {
        withKnownIssue("a value stops where a URL starts, even at its own first byte") {
            #expect(!SanitizerReview.leaks(input, "hunter2"), "\(SanitizerReview.redact(input).debugDescription)")
        }
        #expect(!SanitizerReview.leaks("password=abc:/hunter2", "hunter2"))
    }

    /// LOW, rule 2: Go's and make's `:=` takes `=` as the value: `PASSWORD := hunter2` →
    /// `PASSWORD :[redacted-secret] hunter2`. A fixed sanitizer outputs `PASSWORD := [redacted-secret]`.
    @Test("a := assignment")
    func colonEquals() {
        // Fixed (eleventh session): `:=` is a separator, as `=>` is.
        #expect(SanitizerReview.redact("PASSWORD := hunter2") == "PASSWORD := [redacted-secret]")
        #expect(SanitizerReview.redact("x:=1 token:=\"hunter2\" ok") == "x:=1 token:=\"[redacted-secret]\" ok")
        #expect(SanitizerReview.redact("PASSWORD := [redacted-secret]") == "PASSWORD := [redacted-secret]")
        // Read as `:` and a value, `=` alone would be the value and the secret after a blank stays:
        // what the rule without `:=` leaves.
        #expect(SanitizerReview.leaks("PASSWORD : = hunter2", "hunter2"))
        #expect(!SanitizerReview.leaks("PASSWORD = hunter2", "hunter2"))
    }

    /// LOW (§4, over-redaction): an scp-style git remote and an npm package with a version are
    /// emails to rule 4, and the host goes: `fatal: could not read from git@github.com:org/repo.git`
    /// → `fatal: could not read from [redacted-email]:org/repo.git`; `npm ERR! 404 '@types/node@18.0.0'`
    /// → `npm ERR! 404 '@types/[redacted-email]'`. The `ssh://git@github.com/org/repo.git` form keeps
    /// its host. A fixed sanitizer keeps `git@github.com` (a local part that is a service account's
    /// name is no one's address) — a judgement call; recorded so the choice is deliberate.
    /// Fixed in the eleventh session, narrowly: a run of local-part characters that is `git` (after
    /// quotes or not) and a domain followed by `:` is no email; any other local part, or `git@host`
    /// without the `:`, still goes.
    @Test(
        "a git remote keeps its host",
        arguments: [
            ("fatal: could not read from git@github.com:org/repo.git", nil),
            ("git clone 'git@gitlab.example.com:team/app.git'", nil),
            (#"{"remote":"git@github.com:org/repo.git"}"#, nil),
            ("git@github.com: Permission denied (publickey).", nil),
            ("user alice@example.com: not found", "user [redacted-email]: not found"),
            ("mail xgit@github.com:org", "mail [redacted-email]:org"),
            ("ssh git@github.com", "ssh [redacted-email]"),
            ("Git@github.com:org", "[redacted-email]:org"),
            ("a.git@github.com:org", "[redacted-email]:org"),
        ] as [(String, String?)]
    )
    func gitRemote(_ input: String, _ expected: String?) {
        let once = SanitizerReview.redact(input)
        #expect(once == (expected ?? input), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once)
        #expect(
            SanitizerReview.redact("fatal: could not read from ssh://git@github.com/org/repo.git").contains(
                "github.com"))
    }

    /// MEDIUM, rule 2 (quotes escaped by backslashes are `"` only). Python's `repr` of a string that
    /// holds both quote kinds writes it in `'…'` with every `'` as `\'` (`logger.info("%r", body)`),
    /// as PHP's `var_export` and a JavaScript `'…'` literal do; the key's closing quote `\'` and the
    /// value's opening one are not read, and the secret stays:
    /// `body: '{\'password\': \'hunter2\', "note": "ok"}'` → unchanged;
    /// `args: 'password=\'hunter2\' msg="hi"'` → unchanged.
    /// A fixed sanitizer outputs `body: '{\'password\': \'[redacted-secret]\', "note": "ok"}'`:
    /// a `'` after 1–15 backslashes is a key's closing quote and a value's opening one as `"` is, and
    /// the value ends at the same escaped quote.
    @Test(
        "Python's repr of a string holding both quotes escapes ' and keeps the secret",
        arguments: [
            #"body: '{\'password\': \'hunter2\', "note": "ok"}'"#,
            #"args: 'password=\'hunter2\' msg="hi"'"#,
        ]
    )
    func backslashedSingleQuotes(_ input: String) {
        // Fixed (eleventh session): `\'` closes a key as `\"` does, and opens a value that runs to
        // the next `\'`; the text after it stays.
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        #expect(once.contains(#"\'[redacted-secret]\'"#), "\(once.debugDescription)")
        #expect(once.hasSuffix(#""hi"'"#) || once.hasSuffix(#""ok"}'"#), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
        // Escaped once more (the repr inside a JSON string: `\\'`), the value's quote is one rule 2
        // does not read (one backslash opens a value), and the secret stays: the leak without the
        // protection, and a residual.
        let json = input.replacingOccurrences(of: #"\'"#, with: #"\\'"#)
        #expect(SanitizerReview.leaks(json, "hunter2"), "\(SanitizerReview.redact(json).debugDescription)")
        // The same text with its `'` escaped the JSON way (`\"`) loses the secret.
        let double = input.replacingOccurrences(of: #"\'"#, with: #"\""#)
        #expect(!SanitizerReview.leaks(double, "hunter2"), "\(SanitizerReview.redact(double).debugDescription)")
    }

    /// LOW/medium, rule 2's scheme value (new this session) is not read after a percent-encoded
    /// separator: `data=token%3DBearer%20AbCdEf0123ghIJ%26next%3D1` →
    /// `data=token%3D[redacted-secret]%20AbCdEf0123ghIJ%26next%3D1`. A fixed sanitizer outputs
    /// `data=token%3D[redacted-secret]%26next%3D1` (`%20` is a blank after the scheme's name).
    @Test("a scheme value after a percent-encoded separator takes its token")
    func percentSchemeValue() {
        let input = "data=token%3DBearer%20AbCdEf0123ghIJ%26next%3D1"
        // Fixed (eleventh session): a scheme's name and `%20`s take the run after them.
        #expect(SanitizerReview.redact(input) == "data=token%3D[redacted-secret]%26next%3D1")
        #expect(SanitizerReview.redact("x=Token%3Abasic%20%20BEARER%20AbCdEf0123ghIJ") == "x=Token%3A[redacted-secret]")
        #expect(RegexReferenceSanitizer.redact(input) == SanitizerReview.redact(input))
        // After an encoded tab (no blank to the rule) the name alone is the value, and the token
        // after it stays: what the rule leaves without the scheme's reading.
        #expect(SanitizerReview.leaks("data=token%3DBearer%09AbCdEf0123ghIJ%26next%3D1", "AbCdEf0123ghIJ"))
        #expect(!SanitizerReview.leaks("data=token=Bearer AbCdEf0123ghIJ&next=1", "AbCdEf0123ghIJ"))
    }

    /// LOW, rule 2's percent-encoded separator: `%20` before it is not read, and a form encoded twice
    /// (`%253D`; rule 1 reads URLs encoded twice) is no separator:
    /// `data=api_key%20%3D%20%22hunter2%22` → unchanged; `data=password%253Dhunter2%2526next%253D1` →
    /// unchanged. (README's limit names `%2540` and `%252F`, not a separator.) A fixed sanitizer
    /// outputs `data=api_key%20%3D%20%22[redacted-secret]%22` and `data=password%253D[redacted-secret]%2526next%253D1`.
    /// Fixed (eleventh session) for `%20` before `%3D`; fixed (fifteenth session) for a separator
    /// encoded twice: `%253D`, `%253A`, blanks `%2520` and `%2B`, quotes `%2522`, `%2527`, a value's
    /// stops `%25` + a stop's code, and any stop encoded once (a real `&` of the outer level).
    @Test(
        "a percent-encoded separator after %20, and one encoded twice",
        arguments: [
            ("data=api_key%20%3D%20%22hunter2%22", "data=api_key%20%3D%20%22[redacted-secret]%22"),
            ("data=password%253Dhunter2%2526next%253D1", "data=password%253D[redacted-secret]%2526next%253D1"),
            ("data=password%253dhunter2%2526next%253d1", "data=password%253d[redacted-secret]%2526next%253d1"),
            (
                "%2522password%2522%253A%2522hunter2%2522",
                "%2522password%2522%253A%2522[redacted-secret]%2522"
            ),
            (
                "%2522password%2522%253a%2522hunter2%2522%252C%2522n%2522%253a1",
                "%2522password%2522%253a%2522[redacted-secret]%2522%252C%2522n%2522%253a1"
            ),
            ("%2527token%2527%253A%2520%2527hunter2%2527", "%2527token%2527%253A%2520%2527[redacted-secret]%2527"),
            // Form encoding's `+` for a space, encoded once more, is `%2B` (a `+` of the value is `%252B`).
            ("q=password%2B%253D%2Bhunter2%252Bx%2526n%253D1", "q=password%2B%253D%2B[redacted-secret]%2526n%253D1"),
            // A stop encoded once ends the value too: `%26` is a real `&` of the outer level.
            ("data=password%253Dhunter2%26next%3D1", "data=password%253D[redacted-secret]%26next%3D1"),
            // (In a URL's query rule 1 drops it with the path: `redirect=https%3A%2F%2Fa.io`.)
            ("state=user%253Dbob%2526password%253Dhunter2", "state=user%253Dbob%2526password%253D[redacted-secret]"),
            ("data=token%253DBearer%2520hunter2%2526n%253D1", "data=token%253D[redacted-secret]%2526n%253D1"),
            (
                "h=Cookie%253A%2520sid%253Dhunter2%253B%2520t%253D1%250D%250AHost%253A%2520a.io",
                "h=Cookie%253A%2520[redacted-secret]%250D%250AHost%253A%2520a.io"
            ),
            // A `%25` without two hex digits after it ends the value, as a `%` does encoded once.
            ("x=password%253Dhunter%25zz2", "x=password%253D[redacted-secret]%25zz2"),
        ]
    )
    func percentSeparatorForms(_ input: String, _ expected: String) {
        let once = SanitizerReview.redact(input)
        #expect(once == expected)
        #expect(!once.contains("hunter2"))
        #expect(SanitizerReview.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
        #expect(!SanitizerReview.leaks("data=api_key%3D%22hunter2%22", "hunter2"))
    }

    /// The limit of `percentSeparatorForms`: rule 2 reads a separator encoded once or twice, and one
    /// encoded three times (`%25253D`) is text, as it was for `%253D` before the fifteenth session:
    /// the control that the protection, not something else, redacts the form encoded twice.
    @Test("a separator encoded three times is still none")
    func percentSeparatorThreeTimes() {
        let input = "data=password%25253Dhunter2%252526next%25253D1"
        #expect(SanitizerReview.redact(input) == input)
        #expect(
            SanitizerReview.redact("redirect=https%3A%2F%2Fa.io%2Fcb%3Fpassword%253Dx") == "redirect=https%3A%2F%2Fa.io"
        )
        #expect(RegexReferenceSanitizer.redact(input) == input)
        // …and a key quote encoded twice is one only before a separator encoded twice.
        #expect(SanitizerReview.redact("%2522password%2522%3Ahunter2") == "%2522password%2522%3Ahunter2")
    }

    /// LOW (§4, over-redaction): nginx writes a logged header dump's line breaks as `\x0D\x0A`, which
    /// does not end a header's value (`\r\n` and `%0D%0A` do), so the `Host` and event after it go:
    /// `… "Authorization: Bearer AbCdEf0123ghIJ\x0D\x0AHost: api.example.com\x0D\x0AX-Event: sync.completed"`
    /// → `… "Authorization: [redacted-secret]"`. A fixed sanitizer keeps
    /// `\x0D\x0AHost: api.example.com\x0D\x0AX-Event: sync.completed`.
    /// Fixed (eleventh session): `\x0D`, `\x0A` (any case) end a value as `\r`, `\n` do.
    @Test("a header value ends at nginx's \\x0D\\x0A")
    func nginxEscapedLineBreak() {
        let input =
            #"127.0.0.1 - - [01/Dec/2026:02:07:01 +0000] "POST /v1 HTTP/1.1" 200 61 "Authorization: Bearer AbCdEf0123ghIJ\x0D\x0AHost: api.example.com\x0D\x0AX-Event: sync.completed""#
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("AbCdEf0123ghIJ"))
        #expect(once.contains("api.example.com") && once.contains("sync.completed"), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
        // Folded (a space after the line break), the next line is more of the header's value.
        let folded = input.replacingOccurrences(of: #"\x0D\x0AHost"#, with: #"\x0D\x0A Host"#)
        #expect(
            !SanitizerReview.redact(folded).contains("api.example.com"),
            "\(SanitizerReview.redact(folded).debugDescription)")
        // Written as JSON escapes the same dump keeps its host.
        let json = input.replacingOccurrences(of: #"\x0D\x0A"#, with: #"\r\n"#)
        #expect(SanitizerReview.redact(json).contains("api.example.com"))
    }

    /// LOW (the differential oracle has a blind spot; found by 30,000 random lines of this review's
    /// fragments compared with `RegexReferenceSanitizer`, then shrunk). A header's value that is
    /// empty before a URL in a `\'`-escaped string (Python's `repr`) resumes after the URL's closing
    /// `'` in the scanner, as the header comment says ("an empty value before the URL resumes too"),
    /// and not in the reference:
    /// `Cookie: \'https://a.io/p' sid=x` → scanner `Cookie: \'https://a.io'[redacted-secret]`,
    /// reference `Cookie: \'https://a.io' sid=x`; `Cookie%22:\'://'}` → scanner
    /// `Cookie%22:\'://[redacted-url]'[redacted-secret]`, reference `Cookie%22:\'://[redacted-url]'}`.
    /// The scanner is the safe side; the reference needs the resumption after `\'` (and the corpus
    /// generator the form), or the differential test cannot see a regression here.
    @Test(
        "the reference resumes a header's value after a URL in a \\' string, as the scanner does",
        arguments: [#"Cookie: \'https://a.io/p' sid=x"#, #"Cookie%22:\'://'}"#, #"Cookie: \'https://a.io/p'}"#]
    )
    func referenceResumptionAfterBackslashQuote(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(once.hasSuffix("'[redacted-secret]"), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
        // Without the backslash both agree (the quoted value is closed by the URL's end).
        let plain = input.replacingOccurrences(of: #"\'"#, with: "'")
        #expect(RegexReferenceSanitizer.redact(plain) == SanitizerReview.redact(plain))
    }

    /// LOW/medium (§4, over-redaction; documented as "a header's structure always takes the rest of
    /// the line", but this shape is common). Go's `json.Marshal(req.Header)` (`map[string][]string`)
    /// and many JSON loggers write a header as a JSON member whose value is an array; after
    /// `"authorization"` or `"cookie"` the rest of the line goes, hosts and event names included:
    /// `{"Authorization":["Bearer AbCdEf0123ghIJ"],"X-Forwarded-Host":["api.example.com"],"X-Event":["sync.completed"]}`
    /// → `{"Authorization":[[redacted-secret]`. The rule is for `Cookie: {"a":1}; sid=x`, where
    /// the header is not a JSON member. A fixed sanitizer outputs
    /// `{"Authorization":[[redacted-secret]],"X-Forwarded-Host":["api.example.com"],"X-Event":["sync.completed"]}`:
    /// after a quoted key (`keyQuoted`) a header's structure ends at its closing bracket, as a value's does.
    /// Fixed so (eleventh session).
    @Test("a header that is a JSON member with an array value keeps the members after it")
    func headerArrayMember() {
        let input =
            #"{"Authorization":["Bearer AbCdEf0123ghIJ"],"X-Forwarded-Host":["api.example.com"],"X-Event":["sync.completed"]}"#
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("AbCdEf0123ghIJ"))
        #expect(once.contains("api.example.com") && once.contains("sync.completed"), "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
        // After a key with no closing quote the structure still takes the rest of the line.
        let bare = #"Authorization: ["Bearer AbCdEf0123ghIJ"] X-Forwarded-Host: api.example.com"#
        #expect(LogSanitizer.redact(bare) == "Authorization: [[redacted-secret]")
        // Under a value key the same array closes, and the members after it stay.
        let value = input.replacingOccurrences(of: "Authorization", with: "access_token")
        #expect(
            SanitizerReview.redact(value).contains("api.example.com"),
            "\(SanitizerReview.redact(value).debugDescription)")
    }

    /// LOW, rule 2's structure scan: Node's `util.inspect` writes a string holding both `'` and `"`
    /// in backticks, which the scan does not read as a string; a bracket inside one closes the
    /// structure: ``secret={ note: `it's "quoted" ]`, value: 'hunter2' } host=a.io`` →
    /// ``secret={[redacted-secret]]`, value: 'hunter2' } host=a.io``. A fixed sanitizer outputs
    /// `secret={[redacted-secret]} host=a.io`: a backtick string is passed whole, as `'` and `"` are.
    @Test("a backtick string inside a structure")
    func backtickStringInStructure() {
        let input = "secret={ note: `it's \"quoted\" ]`, value: 'hunter2' } host=a.io"
        #expect(SanitizerReview.redact(input) == "secret={[redacted-secret]} host=a.io")
        #expect(SanitizerReview.redact(SanitizerReview.redact(input)) == SanitizerReview.redact(input))
        // Read as plain text (the backticks taken out, the bracket inside then closes the
        // structure), the member after it stays: what the scan did before.
        let plain = input.replacingOccurrences(of: "`", with: " ")
        #expect(SanitizerReview.leaks(plain, "hunter2"), "\(SanitizerReview.redact(plain).debugDescription)")
        // With `"` for the backticks (what a Python repr would pick) the string is passed whole.
        let quoted = "secret={ note: 'it\\'s ]', value: 'hunter2' } host=a.io"
        #expect(!SanitizerReview.leaks(quoted, "hunter2"), "\(SanitizerReview.redact(quoted).debugDescription)")
    }

    /// MEDIUM (the nginx finding's siblings: a quote written in another escaping). .NET's
    /// `System.Text.Json` (its default encoder) writes `"` inside a string as `\u0022`; an HTML
    /// attribute or template writes it `&quot;`; a CSV export of JSON logs (log stores, log4j's CSV
    /// layout) doubles it; SQL and YAML `'…'` double `'`. Rule 2's key quote and value quote and
    /// rule 3's start read none of them:
    /// `{"msg":"{\u0022password\u0022:\u0022hunter2\u0022}"}` → unchanged;
    /// `{"msg":"{\u0022auth\u0022:\u0022Bearer AbCdEf0123ghIJ\u0022}"}` → unchanged;
    /// `data-config="{&quot;password&quot;:&quot;hunter2&quot;}"` → unchanged;
    /// `2026-12-01T02:07:01Z,info,"{""password"":""hunter2""}",api` → unchanged;
    /// `INSERT INTO logs VALUES ('{''password'': ''hunter2''}')` → unchanged.
    /// A fixed sanitizer outputs `[redacted-secret]` (or `[redacted-bearer]`) between the same
    /// escaped quotes: `\u0022`, `\u0027`, `&quot;`, `&#34;`, `&#39;` and a doubled quote are a
    /// key's closing quote and a value's quotes, and `bearer` may follow them.
    @Test(
        "a quote written as \\u0022, &quot; or doubled",
        arguments: [
            (#"{"msg":"{\u0022password\u0022:\u0022hunter2\u0022}"}"#, "hunter2", #"\u0022"#, #"\""#),
            (#"{"msg":"{\u0022auth\u0022:\u0022Bearer AbCdEf0123ghIJ\u0022}"}"#, "AbCdEf0123ghIJ", #"\u0022"#, #"\""#),
            (#"data-config="{&quot;password&quot;:&quot;hunter2&quot;}""#, "hunter2", "&quot;", "'"),
            (#"2026-12-01T02:07:01Z,info,"{""password"":""hunter2""}",api"#, "hunter2", #""""#, #"\""#),
            ("INSERT INTO logs VALUES ('{''password'': ''hunter2''}')", "hunter2", "''", "'"),
        ]
    )
    func quoteInAnotherEscaping(_ input: String, _ secret: String, _ written: String, _ plain: String) {
        // Fixed (eleventh session): each spelling is a key's closing quote and a value's quotes, the
        // value running to the same spelling (a doubled one after a doubled key quote), and `bearer`
        // follows `\uHHHH` as it follows `\xHH`.
        let once = SanitizerReview.redact(input)
        #expect(!once.contains(secret), "\(once.debugDescription)")
        #expect(
            once.contains(written + "[redacted-secret]" + written)
                || once.contains(written + "[redacted-bearer]" + written),
            "\(once.debugDescription)")
        #expect(SanitizerReview.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
        // Written half-way (`\u002`, `&quot` without `;`, a single quote where CSV doubles it), the
        // quote is none of these and the secret stays: the forms without the protection.
        // (For a doubled quote: the key's closing quote single, after which `""` is an empty string.)
        let broken =
            written.count == 2
            ? input.replacingOccurrences(of: "password" + written, with: "password" + written.prefix(1))
            : input.replacingOccurrences(of: written, with: String(written.dropLast()))
        #expect(SanitizerReview.leaks(broken, secret), "\(SanitizerReview.redact(broken).debugDescription)")
        // The same text with the quote written as a form rule 2 reads loses the secret.
        let readable = input.replacingOccurrences(of: written, with: plain)
        #expect(!SanitizerReview.leaks(readable, secret), "\(SanitizerReview.redact(readable).debugDescription)")
    }

    /// MEDIUM/high (§4, over-redaction: "error codes stay"). Rule 7's run holds `=`, so a logfmt key
    /// (lower case) glued by `=` to an upper-case error code makes one run of both cases, 32 bytes
    /// or more, and key and code go — libcurl's own pinning error among them:
    /// `level=error host=api.example.com code=CURLE_SSL_PINNEDPUBKEYNOTMATCH` →
    /// `level=error host=api.example.com [redacted-token]`;
    /// `reason=CERTIFICATE_VERIFY_FAILED` → `[redacted-token]`;
    /// `status=ERR_CERT_COMMON_NAME_INVALID` → `[redacted-token]`.
    /// As JSON (`"code":"CURLE_SSL_PINNEDPUBKEYNOTMATCH"`) or after `: ` the code stays. A fixed
    /// sanitizer keeps all three: the case-and-digit test reads the run after its last `=` that
    /// is not padding (a key is no part of a secret), or a run of one case, digits and `_` after
    /// `=` is a name.
    @Test(
        "a logfmt key glued to an upper-case error code",
        arguments: [
            "level=error host=api.example.com code=CURLE_SSL_PINNEDPUBKEYNOTMATCH",
            "level=error host=api.example.com reason=CERTIFICATE_VERIFY_FAILED",
            "status=ERR_CERT_COMMON_NAME_INVALID",
        ]
    )
    func logfmtErrorCode(_ input: String) {
        #expect(SanitizerReview.redact(input) == input)
        // The code alone, or after `: `, is a name of one case and stays.
        let colon = input.replacingOccurrences(of: "=", with: ": ")
        #expect(SanitizerReview.redact(colon) == colon)
        // The same letters with the case of every other one flipped (lone lower-case letters
        // between capitals: no words) are a secret's shape, and the run goes.
        let code = String(input.split(separator: "=").last!)
        let mixed = String(
            code.enumerated().map { $0.offset % 2 == 1 ? Character($0.element.lowercased()) : $0.element })
        let secret = input.replacingOccurrences(of: code, with: mixed)
        #expect(!SanitizerReview.leaks(secret, mixed), "\(SanitizerReview.redact(secret).debugDescription)")
    }

    /// LOW/medium (§4: "event names, error codes stay"). A camel-case name of 32 characters or more
    /// holds both cases, so rule 7 takes it: Foundation's TLS error names, Java and Kotlin exception
    /// classes, camel-case event names:
    /// `Code=-1202 "NSURLErrorServerCertificateUntrusted" host=api.example.com` →
    /// `Code=-1202 "[redacted-token]" host=api.example.com`;
    /// `org.springframework.web.HttpRequestMethodNotSupportedException: Request method 'GET' not supported`
    /// → `org.springframework.web.[redacted-token]: …`;
    /// `event=pinning.certificatePinningFailureReported` → `event=pinning.[redacted-token]`.
    /// A fixed sanitizer keeps them: a run with no digit that reads as words (each upper-case letter
    /// starts a lower-case stretch of two or more) is a name; a random 32-character base64 secret
    /// has no such shape (and holds a digit with probability 1 − (54/64)^32 ≈ 99.6 %).
    @Test(
        "a camel-case error or event name of 32 characters or more",
        arguments: [
            #"Error Domain=NSURLErrorDomain Code=-1202 "NSURLErrorServerCertificateUntrusted" host=api.example.com"#,
            "org.springframework.web.HttpRequestMethodNotSupportedException: Request method 'GET' not supported",
            "event=pinning.certificatePinningFailureReported host=api.example.com",
        ]
    )
    func camelCaseName(_ input: String) {
        #expect(SanitizerReview.redact(input) == input)
        // A digit, a `/` or a lone lower-case letter between capitals makes the same run a token.
        for (from, to) in [("Certificate", "Certificat3"), ("Request", "Re/quest"), ("Pinning", "PiNning")] {
            let secret = input.replacingOccurrences(of: from, with: to)
            guard secret != input else { continue }
            #expect(
                SanitizerReview.redact(secret).contains("[redacted-token]"),
                "\(SanitizerReview.redact(secret).debugDescription)")
        }
        // Shorter than 32 the same shape stays, which is why the name's length decides today.
        #expect(
            SanitizerReview.redact("Code=-1202 \"NSURLErrorCertificateUntrusted\"")
                == "Code=-1202 \"NSURLErrorCertificateUntrusted\"")
    }

    /// The price of keeping names (rule 7's `isName`): a random secret of both cases and no digit
    /// that happens to read as words stays. Measured on 40,000 and 10,000 seeded random runs of 32 characters,
    /// against the rates LogSanitizer.swift's header states (standard base64 about 2 in 100,000;
    /// letters only about 1.5 %): base64 with no name-shaped run kept would be 0, and a shape test
    /// that kept every run of both cases would keep all.
    @Test("random 32-character secrets pass as names at the rate the header states")
    func randomSecretsAsNames() {
        var corpus = LogCorpus(seed: 1511)
        var kept = (base64: 0, letters: 0)
        let count = 40_000
        for _ in 0..<count {
            let secret = corpus.string(LogCorpus.base64, 32...32)
            if LogSanitizer.redact("x " + secret).hasSuffix(secret) { kept.base64 += 1 }
        }
        for _ in 0..<(count / 4) {
            let secret = corpus.string(String(LogCorpus.base64.prefix(52)), 32...32)
            if LogSanitizer.redact("x " + secret).hasSuffix(secret) { kept.letters += 1 }
        }
        // One case only and no digit (about 2e-21 for base64) also stays; names are the rest.
        #expect(kept.base64 <= 10, "\(kept.base64) of \(count) base64 runs kept")
        #expect(kept.letters >= 70 && kept.letters <= 300, "\(kept.letters) of \(count / 4) letter runs kept")
    }

    /// HIGH, rule 2 (an unquoted value other than a header's ends at white space, not at an escaped
    /// line break; the ninth session made escaped `\r` and `\n` end a URL and a header's value).
    /// In a header dump or a config block inside a JSON string (Go's `%q`, a JSON logger's message),
    /// a value key's value (`X-Api-Key`, `X-Auth-Token`: `api-key`, `token` are value keys) runs over
    /// `\r\n` and the next line's name, up to the blank after its `:`, and that line's value stays:
    /// `{"h":"X-Auth-Token: AbCdEf0123\r\nAuthorization: Basic YWxpY2U6aHVudGVyMg==\r\nHost: api.example.com"}` →
    /// `{"h":"X-Auth-Token: [redacted-secret] Basic YWxpY2U6aHVudGVyMg==\r\nHost: api.example.com"}`;
    /// `{"h":"X-Api-Key: k3y\r\nCookie: sid=hunter2\r\nHost: api.example.com"}` →
    /// `{"h":"X-Api-Key: [redacted-secret] sid=hunter2\r\nHost: api.example.com"}`;
    /// `{"msg":"config:\npassword: hunter2\napi_key: k3yk3y\nhost: db.example.com"}` →
    /// `{"msg":"config:\npassword: [redacted-secret] k3yk3y\nhost: db.example.com"}`.
    /// A fixed sanitizer outputs `{"h":"X-Auth-Token: [redacted-secret]\r\nAuthorization: [redacted-secret]\r\nHost: api.example.com"}`:
    /// an unquoted value also ends at an escaped `\r` or `\n` (and, with it, a `\` before a later
    /// rule's placeholder, as a header's value does, for idempotence).
    @Test(
        "an unquoted value ends at an escaped line break, and the next header's value goes",
        arguments: [
            (
                // (`Token`, not `Basic`: rule 3 takes an unlabelled Basic token since the tenth session.)
                #"{"h":"X-Auth-Token: AbCdEf0123\r\nAuthorization: Token YWxpY2U6aHVudGVyMg==\r\nHost: api.example.com"}"#,
                "YWxpY2U6aHVudGVyMg"
            ),
            (#"{"h":"X-Api-Key: k3y\r\nCookie: sid=hunter2\r\nHost: api.example.com"}"#, "hunter2"),
            (#"{"msg":"config:\npassword: hunter2\napi_key: k3yk3y\nhost: db.example.com"}"#, "k3yk3y"),
        ]
    )
    func valueOverEscapedLineBreak(_ input: String, _ secret: String) {
        let once = SanitizerReview.redact(input)
        #expect(!once.contains(secret), "\(once.debugDescription)")
        // With real line breaks each line's value goes.
        let real = input.replacingOccurrences(of: #"\r\n"#, with: "\r\n").replacingOccurrences(of: #"\n"#, with: "\n")
        #expect(!SanitizerReview.leaks(real, secret), "\(SanitizerReview.redact(real).debugDescription)")
    }

    /// LOW/medium, rule 2's separators: a full-width `：` (U+FF1A) or `＝` (U+FF1D), which CJK input
    /// methods type into format strings and messages, was no separator, although the ideographic
    /// space U+3000 is a blank: `登录失败 password：hunter2 host=api.example.com` → unchanged;
    /// `token＝AbCdEf0123ghIJ` → unchanged. (`Authorization：Bearer …` goes by rule 3.) Closed
    /// (fourteenth session): both separate a key as `:` and `=` do (the span pass's fifth trigger
    /// byte is their first, 0xEF); the output is `登录失败 password：[redacted-secret] host=api.example.com`
    /// and `token＝[redacted-secret]`.
    @Test(
        "a full-width colon or equals sign after a credential key",
        arguments: [
            ("登录失败 password：hunter2 host=api.example.com", "hunter2"), ("token＝AbCdEf0123ghIJ", "AbCdEf0123ghIJ"),
        ]
    )
    func fullWidthSeparator(_ input: String, _ secret: String) {
        #expect(!SanitizerReview.leaks(input, secret), "\(SanitizerReview.redact(input).debugDescription)")
        let once = SanitizerReview.redact(input)
        #expect(once == input.replacingOccurrences(of: secret, with: "[redacted-secret]"))
        #expect(SanitizerReview.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
        let ascii = input.replacingOccurrences(of: "：", with: ":").replacingOccurrences(of: "＝", with: "=")
        #expect(!SanitizerReview.leaks(ascii, secret), "\(SanitizerReview.redact(ascii).debugDescription)")
    }

    /// HIGH, rule 2's openers (`Optional(` and `<` only). Rust's `{:?}` of a struct
    /// (`#[derive(Debug)]`) writes an `Option<String>` as `Some("…")` and a `Result` as `Ok("…")`;
    /// `Some` is read as an unquoted value that ends at the quote, and the secret stays:
    /// `Config { user: "alice", password: Some("hunter2"), host: "db.example.com" }` →
    /// `Config { user: "alice", password: [redacted-secret]"hunter2"), host: "db.example.com" }`;
    /// `token = Some(Secret("AbCdEf0123ghIJ"))` → `token = [redacted-secret]"AbCdEf0123ghIJ"))`;
    /// `api_key: Ok("AbCdEf0123ghIJ")` → `api_key: [redacted-secret]"AbCdEf0123ghIJ")`;
    /// Haskell's `password: Just "hunter2"` → `password: [redacted-secret] "hunter2"`.
    /// Swift's `Optional("hunter2")` goes. A fixed sanitizer outputs
    /// `password: Some("[redacted-secret]")`: a capitalised word and `(` (a constructor: `Some(`,
    /// `Ok(`, `Secret(`, `Optional(`) is an opener, and `Just ` too.
    @Test(
        "Rust's Some(…) and Ok(…) around a credential's value",
        arguments: [
            (#"Config { user: "alice", password: Some("hunter2"), host: "db.example.com" }"#, "hunter2"),
            (#"token = Some(Secret("AbCdEf0123ghIJ"))"#, "AbCdEf0123ghIJ"),
            (#"api_key: Ok("AbCdEf0123ghIJ")"#, "AbCdEf0123ghIJ"),
            (#"password: Just "hunter2""#, "hunter2"),
        ]
    )
    func rustOptionValue(_ input: String, _ secret: String) {
        let once = SanitizerReview.redact(input)
        #expect(!once.contains(secret), "\(once.debugDescription)")
        #expect(once.contains("db.example.com") || !input.contains("db.example.com"))
        // Swift's spelling of the same optional is an opener, and the secret goes.
        let swift = input.replacingOccurrences(of: "Some(Secret(", with: "Optional(Optional(").replacingOccurrences(
            of: "Some(", with: "Optional("
        )
        .replacingOccurrences(of: "Ok(", with: "Optional(").replacingOccurrences(
            of: "Just \"hunter2\"", with: "Optional(\"hunter2\")")
        #expect(!SanitizerReview.leaks(swift, secret), "\(SanitizerReview.redact(swift).debugDescription)")
    }

    /// MEDIUM (the unlabelled Basic finding's sibling): SMTP's `AUTH PLAIN` sends
    /// `base64("\0user\0password")`, which Python's `smtplib` (`set_debuglevel(1)`) and mail servers'
    /// protocol logs print: `send: 'AUTH PLAIN AGFsaWNlAGh1bnRlcjI=\r\n'` → unchanged
    /// (`\0alice\0hunter2`). No byte of `AUTH PLAIN x` was a trigger any rule's finder stopped at
    /// (rule 2 stops at `:`, `=`, `%`; rule 3 at `be`, `ba`). Fixed in the sixteenth session: rule 3's
    /// finder stops at `au` too (two more compares in the block test it makes for `be` and `ba`, and
    /// in the word rules' classification pass), and `AUTH` or `AUTHENTICATE` (any case, where
    /// `bearer` may start), blanks, `PLAIN` or `LOGIN`, blanks and a run of four or more base64
    /// characters with a Basic token's shape, before a line end, a blank, a quote or an escaped
    /// `\r`/`\n`: the run → `[redacted-secret]`, `send: 'AUTH PLAIN [redacted-secret]\r\n'`.
    @Test(
        "an SMTP AUTH PLAIN credential",
        arguments: [
            (#"send: 'AUTH PLAIN AGFsaWNlAGh1bnRlcjI=\r\n'"#, #"send: 'AUTH PLAIN [redacted-secret]\r\n'"#),
            ("C: auth plain AGFsaWNlAGh1bnRlcjI=", "C: auth plain [redacted-secret]"),
            ("a001 AUTHENTICATE PLAIN AGFsaWNlAGh1bnRlcjI=\r\n", "a001 AUTHENTICATE PLAIN [redacted-secret]\r\n"),
            ("AUTH LOGIN YWxpY2U=", "AUTH LOGIN [redacted-secret]"),
            ("{\"cmd\":\"AUTH\tPLAIN  AGFsaWNlAGh1bnRlcjI=\\n\"}", "{\"cmd\":\"AUTH\tPLAIN  [redacted-secret]\\n\"}"),
        ]
    )
    func smtpAuthPlain(_ input: String, _ expected: String) {
        #expect(Data(base64Encoded: "AGFsaWNlAGh1bnRlcjI=") == Data("\u{0}alice\u{0}hunter2".utf8))
        #expect(SanitizerReview.redact(input) == expected)
        #expect(RegexReferenceSanitizer.redact(input) == expected)
        #expect(SanitizerReview.redact(expected) == expected)
        // Labelled as a header's value, the same credential goes.
        #expect(!SanitizerReview.leaks("Authorization: PLAIN AGFsaWNlAGh1bnRlcjI=", "AGFsaWNlAGh1bnRlcjI"))
    }

    /// The attack without the rule (the same credential after words that are no SASL command) and
    /// what must stay: `AUTH PLAIN` alone or with the SASL empty response `=`, a run of fewer than
    /// four characters, prose (`auth plain text`: a word of one case and no digit has no token's
    /// shape), a run glued to more text, `auth` inside a word, the server's `334` prompt.
    @Test(
        "near misses of an AUTH PLAIN credential stay",
        arguments: [
            "send: 'AUTH XOAUTH AGFsaWNlAGh1bnRlcjI;'",
            "AUTH PLAIN", "AUTH PLAIN =", "AUTH PLAIN ab1", "use auth plain text or auth login instead",
            "AUTH PLAIN AGFsaWNl;x", "OAUTH PLAIN AGFsaWNlAGh1bnRlcjI=", "reply: b'334 '", "AUTH PLAINx AGFsaWNl",
            "authplain AGFsaWNl", "AUTH LOGIN failed for a.example.com: 535",
        ]
    )
    func authPlainNearMisses(_ input: String) {
        #expect(SanitizerReview.redact(input) == input)
        #expect(RegexReferenceSanitizer.redact(input) == input)
    }

    /// MEDIUM (design gap: rule 2's key list is issue 15's list). Common credential names outside it
    /// keep their values, in text and as a logger's metadata key (`redact(_:key:)`): Django's
    /// `SECRET_KEY` (50 characters with `^ ( ! $ @ * & ) +`, so no 32-character run for rule 7),
    /// `private_key`, `secretKey`, `passphrase`, `pwd` (ADO.NET and ODBC connection strings),
    /// `sessionid` (Django's session cookie name, also as a parameter), `credentials`:
    /// `SECRET_KEY=django-insecure-h^x7(k!q2v$e@p*z&m-r+w)u` → unchanged; `Pwd=hunter2;` → unchanged.
    /// A fixed sanitizer outputs `SECRET_KEY=[redacted-secret]`: keys ending in `secret_key`,
    /// `secretkey`, `private_key`, `privatekey`, `passphrase`, `pwd`, `sessionid`, `session_id`,
    /// `credentials` join the list (each a word's end, as today).
    @Test(
        "credential names outside rule 2's key list",
        arguments: [
            ("SECRET_KEY=django-insecure-h^x7(k!q2v$e@p*z&m-r+w)u", "SECRET_KEY", "h^x7(k!q2v"),
            ("private_key=h^x7(k!q2v$e@p*z", "private_key", "h^x7(k!q2v"),
            ("secretKey=h^x7(k!q2v$e@p*z", "secretKey", "h^x7(k!q2v"),
            ("passphrase=hunter2", "passphrase", "hunter2"),
            ("Server=db.example.com;User Id=sa;Pwd=hunter2;", "Pwd", "hunter2"),
            ("GET /v1/items?sessionid=hunter2&page=2", "sessionid", "hunter2"),
            ("credentials=alice:hunter2", "credentials", "hunter2"),
        ]
    )
    func keysOutsideTheList(_ input: String, _ key: String, _ secret: String) {
        #expect(!SanitizerReview.leaks(input, secret), "\(SanitizerReview.redact(input).debugDescription)")
        #expect(LogSanitizer.redact(secret, key: key) == LogSanitizer.secretPlaceholder)
        let once = SanitizerReview.redact(input)
        #expect(SanitizerReview.redact(once) == once)
        // Under a key outside the list (the key's last letter dropped or one added) the same value
        // stays: the list decides, as it did before the eleventh session for these keys.
        for other in [String(key.dropLast()), key + "s"] {
            let unlisted = input.replacingOccurrences(of: key, with: other)
            #expect(SanitizerReview.leaks(unlisted, secret), "\(SanitizerReview.redact(unlisted).debugDescription)")
            #expect(LogSanitizer.redact(secret, key: other) == secret)
        }
    }

    /// MEDIUM/high (design gap: the key is a sibling member's value). HAR files (browser and proxy
    /// captures: headers, query strings and cookies), Kubernetes pod specs and ECS task definitions
    /// (`env`), AWS SSM parameters and many config APIs write a name–value pair as two members, so
    /// the credential's name is a value and no rule sees a key:
    /// `{"request":{"headers":[{"name":"Cookie","value":"sid=hunter2; theme=dark"},…]}}` → unchanged;
    /// `{"env":[{"name":"DB_PASSWORD","value":"hunter2"},{"name":"DB_HOST","value":"db.example.com"}]}` → unchanged;
    /// `{"key":"password","value":"hunter2"}` → unchanged. (A bearer token still goes by rule 3.)
    /// A fixed sanitizer outputs `{"name":"DB_PASSWORD","value":"[redacted-secret]"}` and keeps
    /// `{"name":"DB_HOST","value":"db.example.com"}`: in one object, a `name` or `key` member (any
    /// case) whose string ends in a credential key makes the next `value` member's string a value.
    /// Fixed (eleventh session, `pairValueKey`): the `name` or `key` member right before the `value`
    /// one, every quote `"` or every one `\"`, a space at most around `:` and `,`, the name a
    /// credential key after up to 32 `[A-Za-z0-9_.-]` (fourteenth session: any run, and Python's `'`
    /// quotes and Go's unquoted members too; eighteenth session: up to four plain members between
    /// them, as AWS SSM writes `Type` and sorted keys put anything from `o` to `u` there). Still
    /// open: the members in the other order.
    @Test(
        "a name-value pair whose name is a credential key",
        arguments: [
            #"{"request":{"headers":[{"name":"Cookie","value":"sid=hunter2; theme=dark"},{"name":"Host","value":"api.example.com"}]}}"#,
            #"{"env":[{"name":"DB_PASSWORD","value":"hunter2"},{"name":"DB_HOST","value":"db.example.com"}]}"#,
            #"{"queryString":[{"name":"access_token","value":"hunter2"}]}"#,
            #"{"key":"password","value":"hunter2"}"#,
        ]
    )
    func nameValuePair(_ input: String) {
        let once = SanitizerReview.redact(input)
        #expect(!once.contains("hunter2"), "\(once.debugDescription)")
        #expect(once.contains(".example.com") || !input.contains(".example.com"))
        #expect(SanitizerReview.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
        // Escaped as JSON in a JSON string, the same.
        let escaped = input.replacingOccurrences(of: "\"", with: "\\\"")
        #expect(!SanitizerReview.leaks(escaped, "hunter2"), "\(SanitizerReview.redact(escaped).debugDescription)")
        #expect(RegexReferenceSanitizer.redact(escaped) == SanitizerReview.redact(escaped))
        // Up to four plain members between the name and the value: the value goes too.
        let apart = input.replacingOccurrences(of: #"","value":"#, with: #"","type":"x","n":1,"value":"#)
        #expect(!SanitizerReview.leaks(apart, "hunter2"), "\(SanitizerReview.redact(apart).debugDescription)")
        #expect(RegexReferenceSanitizer.redact(apart) == SanitizerReview.redact(apart))
        // The attack without the protection: a member the look-back does not pass (a structure),
        // or a fifth one, leaves the value.
        for between in [#""meta":{"a":1},"#, #""a":1,"b":2,"c":3,"d":4,"e":5,"#] {
            let far = input.replacingOccurrences(of: #"","value":"#, with: #"","# + between + #""value":"#)
            #expect(SanitizerReview.leaks(far, "hunter2"), "\(SanitizerReview.redact(far).debugDescription)")
            #expect(RegexReferenceSanitizer.redact(far) == SanitizerReview.redact(far))
        }
        // As a member of its own the same credential goes.
        #expect(!SanitizerReview.leaks(#"{"DB_PASSWORD":"hunter2","Cookie":"sid=hunter2"}"#, "hunter2"))
    }

    /// What a pair's look-back reads: a name that is no credential key (`Host`, `DB_HOST`, a key
    /// word inside a longer word: `tokens`), keeps its value.
    @Test(
        "a name-value pair whose name is no credential key keeps its value",
        arguments: [
            #"{"name":"DB_HOST","value":"db.example.com"}"#, #"{"name":"tokens","value":"db.example.com"}"#,
            #"{"name": "Host", "value": "db.example.com"}"#, #"{"names":"password","value":"db.example.com"}"#,
            #"{"name":"x password","value":"db.example.com"}"#,
        ]
    )
    func nameValuePairKept(_ input: String) {
        #expect(SanitizerReview.redact(input) == input)
        #expect(RegexReferenceSanitizer.redact(input) == input)
    }

    /// MEDIUM/high (the `\u0022` finding's sibling for separators). Gson's default, HTML-safe
    /// escaping (`new Gson()`, Java and Android) writes `=` as `\u003d`, `&` as `\u0026` and `'` as
    /// `\u0027`, so a form body or query logged inside a Gson-written JSON kept its credentials:
    /// `{"body":"user\u003dalice\u0026password\u003dhunter2\u0026remember\u003d1"}` → unchanged;
    /// `{"query":"access_token\u003dhunter2\u0026page\u003d2"}` → unchanged. Closed (fourteenth
    /// session): `\u003d` and `\u003a` (the letter in either case) separate a key as `=` and `:` do,
    /// and an unquoted value ends at a JSON escape `\u00XX` of a byte that ends one (`\u0026`; not at
    /// its first byte, as an escaped line break): the output is
    /// `{"body":"user\u003dalice\u0026password\u003d[redacted-secret]\u0026remember\u003d1"}` and
    /// `{"query":"access_token\u003d[redacted-secret]\u0026page\u003d2"}`. The `\` of `\u003` is the
    /// span pass's fourth trigger byte (`SpanTriggers`), one more lane compare per sixteen bytes.
    @Test(
        "Gson's \\u003d and \\u0026 in a logged form body",
        arguments: [
            #"{"body":"user\u003dalice\u0026password\u003dhunter2\u0026remember\u003d1"}"#,
            #"{"query":"access_token\u003dhunter2\u0026page\u003d2"}"#,
        ]
    )
    func gsonEscapedSeparator(_ input: String) throws {
        #expect(!SanitizerReview.leaks(input, "hunter2"), "\(SanitizerReview.redact(input).debugDescription)")
        let once = SanitizerReview.redact(input)
        #expect(once == input.replacingOccurrences(of: "hunter2", with: "[redacted-secret]"))
        #expect(SanitizerReview.redact(once) == once)
        #expect(RegexReferenceSanitizer.redact(input) == once)
        // Decoded (what Gson wrote), the form loses its secret.
        let object = try #require(JSONSerialization.jsonObject(with: Data(input.utf8)) as? [String: String])
        let decoded = try #require(object.values.first)
        #expect(decoded.contains("=hunter2&"))
        #expect(!SanitizerReview.leaks(decoded, "hunter2"), "\(SanitizerReview.redact(decoded).debugDescription)")
    }
}
