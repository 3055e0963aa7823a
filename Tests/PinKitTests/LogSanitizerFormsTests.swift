import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// Issue 15 §3, the tenth session's encodings and emails: a percent-encoded `/ + =` as one base64
/// character of rules 3 and 7, `%2540` as rule 4's `@`, a percent-encoded non-ASCII domain, and an
/// email glued to a token. Each test first shows the line leaking under the rules before issue 15
/// (`LegacyRegexSanitizer`, the deliberately unprotected variant), or under a form the new reading
/// does not cover, then not leaking; and checks idempotence and the reference.
@Suite("Log sanitizer: encoded forms and glued emails")
struct LogSanitizerFormsTests {
    static let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

    func redact(_ text: String) -> String { LogSanitizer.redact(text) }

    func expectStable(_ input: String, _ once: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(redact(once) == once, "second pass of \(once.debugDescription)", sourceLocation: sourceLocation)
        #expect(RegexReferenceSanitizer.redact(input) == once, sourceLocation: sourceLocation)
    }

    /// `/` as a form or a query encodes it, once or twice, any case; `+` and `=` likewise.
    @Test(
        "a base64 secret whose / + = are percent-encoded goes whole",
        arguments: ["%2F", "%2f", "%252F", "%252f"]
    )
    func percentEncodedSlash(_ slash: String) {
        for (prefix, suffix) in [("form=x%26aws%3D", ""), ("k=", "%3D%3D&n=1"), ("{\"k\":\"", "%2B%3d\"}"), ("", "")] {
            let input = prefix + Self.secret.replacingOccurrences(of: "/", with: slash) + suffix
            let once = redact(input)
            #expect(!once.contains("bPxRfiCY") && !once.contains("wJalrXUt") && !once.contains("K7MDENG"), "\(once)")
            expectStable(input, once)
            // Unprotected: the rules before issue 15 leave it, and so does an encoding of another
            // byte (`%2C`, a comma), which splits the secret into runs under 32.
            #expect(LegacyRegexSanitizer.redact(input).contains("bPxRfiCYEXAMPLEKEY"))
            let comma = redact(input.replacingOccurrences(of: slash, with: "%2C"))
            #expect(comma.contains("bPxRfiCYEXAMPLEKEY"), "\(comma)")
        }
    }

    /// The encoding counts as its character, not as the digit and letter it is written with: a
    /// path of one case encoded with `%2F` stays, as it does with `/`. Read as characters, its
    /// `2F` would hold a digit and both cases, and every long encoded path would go.
    @Test(
        "an encoded path of one case and no digit stays",
        arguments: [
            "path=%2Fusers%2Fprofile%2Fsettings%2Fnotifications%2Fall%2Fitems ok",
            "next=%2fdocs%2fguide%2fgetting%2bstarted%2finstall%2fconfigure%3dyes",
            "path %252FUSERS%252FPROFILE%252FSETTINGS%252FNOTIFICATIONS%252FALL",
        ]
    )
    func encodedPathStays(_ input: String) {
        #expect(redact(input) == input)
        #expect(RegexReferenceSanitizer.redact(input) == input)
        // The wrong reading, the encodings' bytes as characters of the run, is a token.
        let asCharacters = input.replacingOccurrences(of: "%", with: "")
        #expect(redact(asCharacters).contains("[redacted-token]"), "\(redact(asCharacters))")
    }

    /// No match starts inside an encoding: a run measured from its `%` is never shorter than from
    /// inside it, so a run that fails fails from every later position (linear), and the scanner
    /// agrees with the reference where 32 characters would start only inside one (`2F` and 30 more).
    @Test(
        "a token never starts inside a percent-encoded character",
        arguments: [
            ("%2F" + String(repeating: "a1", count: 15), nil),
            ("x%252F" + String(repeating: "B7", count: 14) + "b", nil),
            ("%3D%3D" + String(repeating: "Zz", count: 15), "[redacted-token]"),
            // `%2%` encodes nothing: the run starts at its `2`.
            ("%2%2F" + String(repeating: "q9", count: 16), "%[redacted-token]"),
        ] as [(String, String?)]
    )
    func noStartInsideEncoding(_ input: String, _ expected: String?) {
        let once = redact(input)
        #expect(once == (expected ?? input))
        expectStable(input, once)
        // Read from inside the first encoding, the same bytes are a token.
        let inside = String(input.drop { $0 != "%" }.dropFirst())
        #expect(redact(inside).contains("[redacted-token]"), "\(redact(inside))")
    }

    @Test(
        "a bearer token's percent-encoded / + = are its characters",
        arguments: ["q=Bearer+AbCdEf0123%2FghIJklMNop456789%2FqrstUVwx", "h=Bearer%20AbCdEf0123%252FghIJkl%3D%3D"]
    )
    func bearerEncodedSlash(_ input: String) {
        let once = redact(input)
        #expect(!once.contains("ghIJkl"), "\(once)")
        expectStable(input, once)
        #expect(LegacyRegexSanitizer.redact(input).contains("ghIJkl"))
    }

    /// `%2540` is an `@` encoded twice (rule 1 already reads it in an authority); a form encoded
    /// twice keeps its fields (`%253D`, `%2526`), as one encoded once does.
    @Test(
        "an email encoded twice goes, and the twice-encoded fields before it stay",
        arguments: [
            ("user=zorro%2540example.com", "user=[redacted-email]"),
            (
                "state=event%253Dsync.completed%2526email%253Dzorro%2540example.com",
                "state=event%253Dsync.completed%2526email%253D[redacted-email]"
            ),
            ("a%2540b%25C3%25BCcher.de x", "[redacted-email] x"),
            ("to=zorro%2540ex.io%2526n%253D1", "to=[redacted-email]%2526n%253D1"),
        ]
    )
    func twiceEncodedEmail(_ input: String, _ expected: String) {
        let once = redact(input)
        #expect(once == expected)
        expectStable(input, once)
        #expect(LegacyRegexSanitizer.redact(input).contains("%25"))
        #expect(LegacyRegexSanitizer.redact(input) != expected)
    }

    /// A domain label may hold percent-encoded bytes 80–FF (the UTF-8 of a non-ASCII letter), after
    /// `%40` and after a plain `@` alike (`mailto:` links encode the domain and not the `@`).
    @Test(
        "an email with a percent-encoded non-ASCII domain goes",
        arguments: [
            ("alice%40b%C3%BCcher.de", "[redacted-email]"),
            ("to=alice%40B%c3%bccher.de&x=1", "to=[redacted-email]&x=1"),
            ("mailto:alice@b%C3%BCcher.de ok", "mailto:[redacted-email] ok"),
            ("alice%40%E4%BE%8B%E3%81%88.jp", "[redacted-email]"),
        ]
    )
    func encodedNonASCIIDomain(_ input: String, _ expected: String) {
        let once = redact(input)
        #expect(once == expected)
        expectStable(input, once)
        // Unprotected: an encoded ASCII byte (`%7A`) is no label character, and the name survives.
        #expect(LegacyRegexSanitizer.redact(input).contains("alice"))
        let ascii = input.replacingOccurrences(of: "%C3%BC", with: "%7A").replacingOccurrences(
            of: "%c3%bc", with: "%7a")
        if ascii != input { #expect(redact(ascii).contains("alice"), "\(redact(ascii))") }
    }

    /// An email glued to a token on either side: the email's own stretch (its domain's last label,
    /// or its local part's first stretch) would take the token's head or tail and leave the rest
    /// under 32 characters; the email's match takes the whole run rule 7 would take.
    @Test(
        "an email glued to a token on either side takes the whole token",
        arguments: [
            "bob@example.com-wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "zorro%40ex.io.wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCY+bob@example.com",
            #"{"k":"wJalrXUtnFEMI\/K7MDENG\/bPxRfiCY+bob@example.com"}"#,
            "to=bob@example.com_wJalrXUtnFEMI%2FK7MDENG%2FbPxRfiCYEXAMPLEKEY&n=1",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY/bob@example.com-K7MDENG/bPxRfiCYEXAMPLEKEY/wJalrXUtnFEMI",
            // The domain's last label takes a JWT's first segment (the differential test's find).
            "bob@x.ioeyJwJalrXUtnFEMI._K7MDENG.bPxRfiCY<",
        ]
    )
    func emailGluedToToken(_ input: String) {
        let once = redact(input)
        for piece in ["wJalrXUt", "K7MDENG", "bPxRfiCY", "bob", "zorro"] {
            #expect(!once.contains(piece), "\(piece) in \(once.debugDescription)")
        }
        expectStable(input, once)
        #expect(LegacyRegexSanitizer.redact(input).contains("K7MDENG"))
    }

    /// What the widening must not take: a path, a sentence's full stop, a short word glued on.
    @Test(
        "an email next to ordinary text reads as before",
        arguments: [
            ("alice@example.com/profile", "[redacted-email]/profile"),
            ("see alice@example.com.", "see [redacted-email]."),
            ("ref/bob@example.com", "ref/[redacted-email]"), ("bob@example.com-backup", "[redacted-email]"),
            // A labelled pin glued after an email is rule 6's, and stays.
            (
                "bob@example.com/sha256/AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8= ok",
                "[redacted-email]/sha256/AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8= ok"
            ),
            (
                "mail alice@example.com/inbox/archive/2026/november ok",
                "mail [redacted-email]/inbox/archive/2026/november ok"
            ),
        ]
    )
    func emailNextToText(_ input: String, _ expected: String) {
        let once = redact(input)
        #expect(once == expected)
        expectStable(input, once)
    }
}
