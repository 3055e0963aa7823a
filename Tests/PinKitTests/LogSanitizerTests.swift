import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

@Suite("Log sanitizer")
struct LogSanitizerTests {
    @Test(
        "each rule, on the issue's examples",
        arguments: [
            ("Authorization: Bearer abc.def-123==", "Authorization: [redacted-secret]"),
            ("BEARER\tx", "[redacted-bearer]"),
            ("notBearer abc", "notBearer abc"),
            ("bearer Bearer s3cret", "[redacted-bearer]"),
            ("x bearer bearer ", "x [redacted-bearer] "),
            ("https://user:pw@api.example.com:8443/v1/x?token=abc#f", "https://api.example.com"),
            ("see https://api.example.com/v1/x.", "see https://api.example.com."),
            ("(HTTP://[::1]:443/a)", "(HTTP://[::1])"),
            ("https://u:p@[::1]:8443/x", "https://[::1]"),
            ("https://a@b@evil.example/x", "https://evil.example"),
            ("https://user:pw@/x?token=1 ok", "https://[redacted-url] ok"),
            ("mail alice.smith+tag@mail.example.co.uk now", "mail [redacted-email] now"),
            ("id 550E8400-e29b-41d4-A716-446655440000 ok", "id [redacted-uuid] ok"),
            ("jwt eyJhbGciOiJIUzI1NiJ9.e30.sig x", "jwt [redacted-token] x"),
            ("key " + String(repeating: "a", count: 31) + "7", "key [redacted-token]"),
            // Both cases, with a lone lower-case letter after a capital (no word): a token.
            ("key " + String(repeating: "a", count: 30) + "Ab", "key [redacted-token]"),
            // Both cases that read as words (lower-case stretches of two or more but the first): a
            // name (§4, the eleventh session: camel-case names, logfmt codes).
            ("key " + String(repeating: "a", count: 31) + "A", "key " + String(repeating: "a", count: 31) + "A"),
            // One case and no digit: a name (§4), however long.
            ("key=" + String(repeating: "a", count: 32), "key=" + String(repeating: "a", count: 32)),
            ("event=pin_failure_report_upload_completed", "event=pin_failure_report_upload_completed"),
            ("key sk.eyJ1IjoiZXhhbXBsZSIsImEiOiJjazEyMyJ9.c2lnbmF0dXJlLXNpZ25h ok", "key sk.[redacted-token] ok"),
            ("event surveyJob.completed ok", "event surveyJob.completed ok"),
            ("q=Bearer+tok&x=1", "q=[redacted-bearer]&x=1"),
            ("x bearer bearer+", "x [redacted-bearer]"),
            ("short " + String(repeating: "a", count: 31), "short " + String(repeating: "a", count: 31)),
            ("", ""),
            ("GET https://h.example/x?auth=Bearer tok1 ok", "GET https://h.example ok"),
            ("GET https://h.example/x?auth=bearer:\ttok1 ok", "GET https://h.example ok"),
            ("https://bearer tok", "https://bearer tok"),
            ("https://h.example/xbearer tok", "https://h.example tok"),
            // The README's table, row by row.
            ("redis://:p4ss@10.0.0.5:6379/0", "redis://10.0.0.5"),
            ("\"https://x.io/?q=O'Brien&ssn=1 2\" ok", "\"https://x.io\" ok"),
            ("(see https://a.io/items?f[o]=1&token=s)", "(see https://a.io)"),
            ("\"https:\\/\\/a.io\\/v1?session=abc\"", "\"https:\\/\\/a.io\""),
            ("redirect_uri=https%3A%2F%2Fc.io%2Fcb%3Fcode%3DX", "redirect_uri=https%3A%2F%2Fc.io"),
            ("https://user:pw@/x", "https://[redacted-url]"),
            ("Authorization: Basic dXNlcjpw", "Authorization: [redacted-secret]"),
            ("{\"client_secret\":\"abc\"}", "{\"client_secret\":\"[redacted-secret]\"}"),
            ("x_Bearer: abc=def123", "x_[redacted-bearer]"),
            ("jöhn.o'neil@bücher.de root@10.0.0.1", "[redacted-email] [redacted-email]"),
            ("550e8400-e29b-41d4-a716-446655440000", "[redacted-uuid]"),
            (
                "pin-sha256=\"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\"",
                "pin-sha256=\"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\""
            ),
            ("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "[redacted-token]"),
            // The eighth session's rows.
            ("next=https%253A%252F%252Fc.io%252Fcb", "next=https%253A%252F%252Fc.io"),
            ("user[password][]=abc", "user[password][]=[redacted-secret]"),
            ("user%5Bpassword%5D=abc", "user%5Bpassword%5D=[redacted-secret]"),
            ("form=user%3Dbob%26password%3Dabc", "form=user%3Dbob%26password%3D[redacted-secret]"),
            ("body=%7B%22token%22%3A%22abc%22%7D", "body=%7B%22token%22%3A%22[redacted-secret]%22%7D"),
            ("{\"token\":{\"value\":\"abc\"},\"n\":1}", "{\"token\":{[redacted-secret]},\"n\":1}"),
            ("'set-cookie': ['a=1', 'sid=abc']", "'set-cookie': [[redacted-secret]]"),
            ("Cookie: {\"consent\":true}; sid=abc", "Cookie: {[redacted-secret]"),
            (
                "{\"log\":\"{\\\"body\\\":\\\"{\\\\\\\"password\\\\\\\":\\\\\\\"abc\\\\\\\"}\\\"}\"}",
                "{\"log\":\"{\\\"body\\\":\\\"{\\\\\\\"password\\\\\\\":\\\\\\\"[redacted-secret]\\\\\\\"}\\\"}\"}"
            ),
            ("password=[redacted-token]abc", "password=[redacted-secret]"),
            // The ninth session's: a string escaped once that ends in an escaped backslash.
            (
                #"{\"token\":[\"C:\\\\\", \"]\", \"abc\"],\"n\":1}"#,
                #"{\"token\":[[redacted-secret]],\"n\":1}"#
            ),
            // The ninth session's row.
            ("Cookie: ``sid=abc", "Cookie: ``[redacted-secret]"),
            ("token=Bearer \"abc\"", "token=[redacted-secret]"),
            ("token={user's x} https://a.io/v1", "token={[redacted-secret]} https://a.io"),
            (
                "Set-Cookie: n=https://a.io/h; sid=abc; Path=/",
                "Set-Cookie: [redacted-secret]https://a.io; [redacted-secret]"
            ),
            (
                "{\"pins\":[\"sha256\\/k2v657xBsOVe1PQRwOsHsw3bsGT2VzIqz5K\\/59sNQws=\"]}",
                "{\"pins\":[\"sha256\\/k2v657xBsOVe1PQRwOsHsw3bsGT2VzIqz5K\\/59sNQws=\"]}"
            ),
            // The ninth session's rows.
            ("alice%40example.com", "[redacted-email]"),
            ("{\"k\":\"wJalrXUtnFEMI\\/K7MDENG\\/bPxRfiCYEXAMPLEKEY\"}", "{\"k\":\"[redacted-token]\"}"),
            // The tenth session's: quotes at a value's start.
            (#"{"h":"Cookie: \"\"sid=abc"}"#, #"{"h":"Cookie: \"\"[redacted-secret]"}"#),
            (#"Authorization: Basic " abc""#, #"Authorization: [redacted-secret]"#),
            ("token={jos\u{E9}'s x} https://a.io/v1", "token={[redacted-secret]} https://a.io"),
        ]
    )
    func examples(_ input: String, _ expected: String) {
        #expect(LogSanitizer.redact(input) == expected)
        #expect(RegexReferenceSanitizer.redact(input) == expected)
    }

    @Test("rule order: a later rule never sees what an earlier one replaced")
    func order() {
        // The URL keeps its long host label: rule 5 does not see rule 2's output.
        let host = String(repeating: "h", count: 40) + ".example.com"
        #expect(LogSanitizer.redact("https://\(host)/p") == "https://\(host)")
        // URLs go first: a bearer keyword inside one goes with it.
        #expect(LogSanitizer.redact("https://x.com/a=bearer%20tok") == "https://x.com")
        // An email inside a URL goes with the URL.
        #expect(LogSanitizer.redact("https://a.com/?e=a@b.com") == "https://a.com")
    }

    @Test("the scanner agrees byte for byte with the regular-expression reference on 100,000 generated lines")
    func differential() async {
        // Two fixed seeds, 50,000 lines each, checked in parallel (the reference is the slow part).
        let mismatches = await withTaskGroup(of: [String].self) { group in
            for chunk in 0..<2 {
                group.addTask {
                    var corpus = LogCorpus(seed: 0x5EED_0001 &+ UInt64(chunk))
                    var mismatches: [String] = []
                    for index in 0..<50_000 {
                        // Long CPU-bound tests yield, so the network tests sharing the pool are not starved.
                        if index % 50 == 0 { await Task.yield() }
                        let line = corpus.line()
                        let ours = LogSanitizer.redact(line)
                        let reference = RegexReferenceSanitizer.redact(line)
                        if ours != reference && mismatches.count < 5 {
                            mismatches.append(
                                "input: \(line.debugDescription)\n ours: \(ours.debugDescription)\n  ref: \(reference.debugDescription)"
                            )
                        }
                    }
                    return mismatches
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// Appends the first few lines on which the scanner's output `ours` and the reference's differ.
    static func compare(_ line: String, _ ours: String, into mismatches: inout [String]) {
        let reference = RegexReferenceSanitizer.redact(line)
        guard ours != reference, mismatches.count < 5 else { return }
        mismatches.append(
            "input: \(line.debugDescription)\n ours: \(ours.debugDescription)\n  ref: \(reference.debugDescription)")
    }

    /// The redaction of `input`, after the two checks every focused sanitizer test makes: a second
    /// pass changes nothing, and the regular-expression reference gives the same (recorded at the
    /// caller's line).
    static func checkedRedaction(_ input: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let once = LogSanitizer.redact(input)
        #expect(
            LogSanitizer.redact(once) == once, "not idempotent: \(once.debugDescription)",
            sourceLocation: sourceLocation)
        #expect(RegexReferenceSanitizer.redact(input) == once, sourceLocation: sourceLocation)
        return once
    }

    /// The first mismatches of `count` lines that `line` makes from a corpus seeded with `seed`
    /// (the line's index passed too): where the scanner differs from the reference, where a second
    /// pass changes its output, and, with `engines`, where the previous engine differs from it.
    static func agreement(
        _ count: Int, seed: UInt64, engines: Bool = false, _ line: (inout LogCorpus, Int) -> String
    ) async -> [String] {
        var corpus = LogCorpus(seed: seed)
        var mismatches: [String] = []
        for index in 0..<count {
            // Long CPU-bound tests yield, so the network tests sharing the pool are not starved.
            if index % 50 == 0 { await Task.yield() }
            let text = line(&corpus, index)
            let ours = LogSanitizer.redact(text)
            compare(text, ours, into: &mismatches)
            if LogSanitizer.redact(ours) != ours, mismatches.count < 5 {
                mismatches.append("not idempotent: \(text.debugDescription) → \(ours.debugDescription)")
            }
            if engines, mismatches.count < 5,
                LogSanitizer.countingRedact(Array(text.utf8), engine: .regionByRegion).output != Array(ours.utf8)
            {
                mismatches.append("engines differ: \(text.debugDescription)")
            }
        }
        return mismatches
    }

    @Test("the scanner agrees with the reference on 28,000 lines of the leak hunts' credential forms")
    func differentialHuntForms() async {
        // 20,000 of the seventh session's forms, then 8,000 of the eighth's.
        let mismatches = await Self.agreement(28_000, seed: 0x5EED_0007) { corpus, index in
            index < 20_000 ? corpus.huntLine() : corpus.huntFormLine()
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test("a labelled pin's 43 characters tested in blocks agree with the reference on mutated pins")
    func mutatedPins() {
        var generator = SeededGenerator(seed: 0x9175)
        // Also a pin as JSON writes it, each `/` as `\/`.
        let pins = [
            "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=", "k2v\\/57xBsOVe1PQRwOsHsw3bsGT2VzIqz5K\\/59sNQ\\/s=",
        ]
        let replacements = ["-", "_", "=", "é", " ", ".", "+", "/", "A", "0", "\u{200B}", "", "\\/", "\\", "\\+"]
        let labels = [
            "sha256/", "sha256//", "pin-sha256=\"", "SHA256:", "\"sha256\": \"", "expected one of ", "", "sha256\\/",
            "sha256\\/\\/",
        ]
        var mismatches: [String] = []
        for _ in 0..<5_000 {
            var characters = Array(pins[Int.random(in: 0...1, using: &generator)]).map(String.init)
            for _ in 0..<Int.random(in: 0...1, using: &generator) {
                let at = Int.random(in: 0..<characters.count, using: &generator)
                characters[at] = replacements[Int.random(in: 0..<replacements.count, using: &generator)]
            }
            let label = labels[Int.random(in: 0..<labels.count, using: &generator)]
            let second = labels[5] == label && Bool.random(using: &generator) ? ", " + characters.joined() : ""
            let line =
                "pin " + label + characters.joined() + second
                + ["", "\"", ";", " x", "A", "\\/", "\\/x", "\\\""][Int.random(in: 0..<8, using: &generator)]
            let ours = LogSanitizer.redact(line)
            Self.compare(line, ours, into: &mismatches)
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test("escaped pins read in blocks agree with the reference, near a region's end and the input's too")
    func escapedPinBlocks() {
        // Bodies from a small alphabet, so that `\/`, a `\` before other bytes, 41 to 45 characters
        // and a second `=` come up often; a URL or a credential after some ends the region, and the
        // padding after others lets the blocks read (near the input's end, bytes are read one by one).
        var generator = SeededGenerator(seed: 0xE5C_A9ED)
        // Mostly letters and digits, so that what is no pin holds a token run the output shows.
        let clean = ["A", "k", "9", "Q", "z", "3", "+", "/", "x", "7", "M", "\\/"]
        let breaking = ["\\", "=", "-", "\\\\/"]
        var mismatches: [String] = []
        for _ in 0..<6_000 {
            // 41 to 45 characters, most of them clean (each `\/` one character), now and then one
            // that breaks the body.
            var body = ""
            for _ in 0..<Int.random(in: 41...45, using: &generator) {
                body +=
                    Int.random(in: 0..<40, using: &generator) == 0
                    ? breaking[Int.random(in: 0..<breaking.count, using: &generator)]
                    : Int.random(in: 0..<12, using: &generator) == 0
                        ? "\\/" : clean[Int.random(in: 0..<clean.count, using: &generator)]
            }
            body += ["=", "=", "==", "=\\/", ""][Int.random(in: 0..<5, using: &generator)]
            let label = ["sha256\\/", "sha256:", "expected one of ", "sha256\\/\\/"][
                Int.random(in: 0..<4, using: &generator)]
            let after = [
                "", " ok", "https://h.example/p", "\"token=x", String(repeating: " pad", count: 30),
                String(repeating: " pad", count: 30),
            ][Int.random(in: 0..<6, using: &generator)]
            let line = "pin " + label + body + after
            let ours = LogSanitizer.redact(line)
            Self.compare(line, ours, into: &mismatches)
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test("redaction is idempotent")
    func idempotent() async {
        var corpus = LogCorpus(seed: 0x5EED_0002)
        for index in 0..<20_000 {
            if index % 50 == 0 { await Task.yield() }
            let line = corpus.line()
            let once = LogSanitizer.redact(line)
            #expect(LogSanitizer.redact(once) == once, "\(line.debugDescription)")
        }
    }

    @Test("no generated secret survives, and every URL's host does")
    func properties() async {
        var corpus = LogCorpus(seed: 0x5EED_0003)
        for index in 0..<10_000 {
            if index % 50 == 0 { await Task.yield() }
            // Secrets carry a marker that filler text cannot produce; they sit between words.
            let marker = "Q" + corpus.string("0123456789", 6...6) + "Z"
            let password = "pw\(marker)"
            let path = "/v1/records/\(marker)/x"
            let query = "token\(marker)=1"
            let bearer = "tok\(marker)" + corpus.string(".~+/", 0...3)
            let email = "user.\(marker.lowercased())@mail.example.com"
            let uuid = corpus.uuid()
            let jwt =
                "eyJ\(marker).\(corpus.string(LogCorpus.base64url, 5...30)).\(corpus.string(LogCorpus.base64url, 0...30))"
            let token = marker + corpus.string(LogCorpus.base64url, 32...48)
            let host = corpus.pick(["api.example.com", "health.example.net", "10.1.2.3", "[2001:db8::1]"])
            let url = "https://admin:\(password)@\(host):8443\(path)?\(query)#frag"
            let secrets: [String] = [url, "Bearer \(bearer)", email, uuid, jwt, token]
            var words = (0..<Int.random(in: 0...10, using: &corpus.generator)).map { _ in
                corpus.string("abcdefghij ,;:()", 1...8)
            }
            for secret in secrets.shuffled(using: &corpus.generator) {
                words.insert(secret, at: Int.random(in: 0...words.count, using: &corpus.generator))
            }
            let line = words.joined(separator: " ")
            let redacted = LogSanitizer.redact(line)
            for secret in [password, path, query, bearer, email, uuid, jwt, token, marker] {
                #expect(!redacted.contains(secret), "\(secret) survived in \(redacted)")
            }
            #expect(redacted.contains("https://\(host)"), "the host was lost: \(redacted)")
        }
    }

    @Test("any bytes: invalid UTF-8, NUL, separators only, very long lines")
    func hostileBytes() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 0...200, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            let once = LogSanitizer.redact(bytes: bytes)
            #expect(LogSanitizer.redact(bytes: once) == once)
        }
        let invalid: [UInt8] = [0xFF, 0xFE] + Array(" Bearer abc".utf8) + [0x00, 0xC3]
        #expect(LogSanitizer.redact(bytes: invalid) == [0xFF, 0xFE] + Array(" [redacted-bearer]".utf8) + [0x00, 0xC3])
        let long = String(repeating: "word ", count: 400_000) + "https://u:p@h.example/x"
        #expect(LogSanitizer.redact(long).hasSuffix("word https://h.example"))
        #expect(
            LogSanitizer.redact(String(repeating: "-._@:/", count: 10_000))
                == String(repeating: "-._@:/", count: 10_000))
    }
}
