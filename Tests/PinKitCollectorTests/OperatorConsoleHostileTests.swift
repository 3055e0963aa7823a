import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit
@testable import PinKitCollector
@testable import PinKitOpenSSL

/// A red-team pass over the console's forms: sessions, cookies, cross-site posts, the form
/// parser (libmicrohttpd's post processor through the C shim) and the calendar download.
@Suite("Operator console, hostile review: sessions, cookies, cross-site forms, form parser, calendar")
struct OperatorConsoleHostileTests {
    typealias Forms = OperatorConsoleFormsTests
    static let urlencoded = ["Content-Type": "application/x-www-form-urlencoded"]

    @Test("one operator cannot push another's sessions or results out of the tables")
    func operatorsCannotEvictEachOther() throws {
        let start = CollectorFixtures.referenceTime
        let later = start.addingTimeInterval(1)
        // The attack: with one table-wide bound, bob (any token holder) opening sessions and
        // storing results signs alice out and deletes her result.
        let shared = ConsoleSessions(isolatesOperators: false)
        let sharedAlice = shared.open(operatorName: "alice", now: start)
        let sharedResult = shared.store(result: "alice's verdict", operatorName: "alice", now: start)
        for _ in 0..<256 {
            _ = shared.open(operatorName: "bob", now: later)
            _ = shared.store(result: "bob's", operatorName: "bob", now: later)
        }
        #expect(shared.session(id: sharedAlice.id, now: later) == nil)
        #expect(shared.result(id: sharedResult, operatorName: "alice", now: later) == nil)
        // The protection: each operator's quota only ever drops that operator's own oldest entry.
        let sessions = ConsoleSessions()
        let alice = sessions.open(operatorName: "alice", now: start)
        let result = sessions.store(result: "alice's verdict", operatorName: "alice", now: start)
        let bobsFirst = sessions.open(operatorName: "bob", now: start)
        for _ in 0..<256 {
            _ = sessions.open(operatorName: "bob", now: later)
            _ = sessions.store(result: "bob's", operatorName: "bob", now: later)
        }
        #expect(sessions.session(id: alice.id, now: later)?.operatorName == "alice")
        #expect(sessions.result(id: result, operatorName: "alice", now: later) == "alice's verdict")
        #expect(sessions.session(id: bobsFirst.id, now: later) == nil)
        #expect(sessions.sessionCount == 1 + ConsoleSessions.sessionsPerOperator)
        #expect(sessions.resultCount == 1 + ConsoleSessions.resultsPerOperator)

        // Over HTTP: bob opening the form 260 times (each opens a session) leaves alice signed in.
        let harness = try Forms.harness()
        defer { harness.stop() }
        let (cookie, _) = try Forms.session(harness)
        for _ in 0..<260 {
            #expect(try harness.get("/rotation-check", headers: ["Authorization": "Bearer \(Forms.bob)"]).status == 200)
        }
        #expect(try harness.get("/rotation-check", headers: ["Cookie": cookie]).text.contains("Signed in as alice"))
        #expect(harness.api.sessions.sessionCount == 1 + ConsoleSessions.sessionsPerOperator)
    }

    @Test("a session ends at its expiry, for every page and the calendar")
    func sessionsEnd() throws {
        let clock = ConsoleTestClock()
        let harness = try Forms.harness(clock: clock)
        defer { harness.stop() }
        let (cookie, _) = try Forms.session(harness)
        #expect(try harness.get("/", headers: ["Cookie": cookie]).status == 200)
        clock.advance(ConsoleSessions.sessionLifetime - 1)
        #expect(try harness.get("/deadlines", headers: ["Cookie": cookie]).status == 200)
        clock.advance(1)
        for path in ["/", "/rotation-check", "/deadlines", "/deadlines.ics"] {
            #expect(try harness.get(path, headers: ["Cookie": cookie]).status == 401, "\(path)")
        }
    }

    @Test("a Cookie header naming the session twice, quoted, or padded is no session")
    func ambiguousCookies() throws {
        let harness = try Forms.harness()
        defer { harness.stop() }
        let alice = try Forms.session(harness).cookie
        let bob = try Forms.session(harness, token: Forms.bob).cookie
        let aliceID = String(alice.dropFirst(ConsoleSessions.cookieName.count + 1))
        // Each cookie alone is a session.
        #expect(try harness.get("/rotation-check", headers: ["Cookie": alice]).text.contains("Signed in as alice"))
        #expect(try harness.get("/rotation-check", headers: ["Cookie": bob]).text.contains("Signed in as bob"))
        // A planted session next to the operator's own (fixation): whichever came first used
        // to win, so the operator worked in the attacker's session. Two values are ambiguous.
        for header in ["\(bob); \(alice)", "\(alice); \(bob)", "\(alice); \(alice)", "\(bob);\(alice)"] {
            let response = try harness.get("/rotation-check", headers: ["Cookie": header])
            #expect(response.status == 401, "\(header)")
            #expect(!response.text.contains("Signed in as"), "\(header)")
            #expect(try harness.get("/", headers: ["Cookie": header]).status == 401, "\(header)")
        }
        // Quoting or case games around the name or value are not the cookie.
        for header in [
            "\(ConsoleSessions.cookieName)=\"\(aliceID)\"", "__host-pinkit-session=\(aliceID)",
            "\(ConsoleSessions.cookieName)=\(aliceID)x", "x\(alice)",
        ] {
            #expect(try harness.get("/rotation-check", headers: ["Cookie": header]).status == 401, "\(header)")
        }
        // Other cookies around it are fine.
        #expect(try harness.get("/rotation-check", headers: ["Cookie": "a=1; \(alice); b=2"]).status == 200)
        // A cookie header past libmicrohttpd's header memory is refused; the server carries on.
        let huge = try harness.get(
            "/rotation-check", headers: ["Cookie": alice + "; pad=" + String(repeating: "p", count: 64 * 1024)])
        #expect((400..<500).contains(huge.status))
        #expect(try harness.get("/rotation-check", headers: ["Cookie": alice]).status == 200)
    }

    @Test("a cross-site form POST is refused, sign-in included: accepted with the check off, 403 with it")
    func crossSitePosts() throws {
        let crossSite = ["Sec-Fetch-Site": "cross-site"]
        let login = Array("token=\(Forms.alice)".utf8)
        // The attack (login CSRF): a page elsewhere auto-submits a sign-in form with the
        // attacker's token, and the victim's browser gets the attacker's session.
        let unprotected = try Forms.harness(checksCSRF: false)
        defer { unprotected.stop() }
        let planted = try unprotected.post(
            "/login", login, headers: Self.urlencoded.merging(crossSite) { $1 })
        #expect(planted.status == 303 && planted.headers["set-cookie"] != nil)
        // The protection: browsers say where a form came from; anything but the collector's own
        // page (or an address the operator typed) is refused before any state changes.
        let harness = try Forms.harness()
        defer { harness.stop() }
        let (cookie, csrf) = try Forms.session(harness)
        let chain = Forms.pem(try Forms.rotated.leaf(["api.example.com"]).chain)
        for site in ["cross-site", "same-site", "Cross-Site", ""] {
            let headers = Self.urlencoded.merging(["Sec-Fetch-Site": site]) { $1 }
            let refused = try harness.post("/login", login, headers: headers)
            #expect(refused.status == 403 && refused.headers["set-cookie"] == nil, "\(site)")
            #expect(refused.text.contains("another site"), "\(site)")
            let upload = try Forms.upload(
                harness, cookie: cookie, csrf: csrf, chain: chain, extra: ["Sec-Fetch-Site": site])
            #expect(upload.status == 403, "\(site)")
            let logout = try harness.post(
                "/logout", Array("csrf=\(csrf)".utf8), headers: headers.merging(["Cookie": cookie]) { $1 })
            #expect(logout.status == 403, "\(site)")
        }
        #expect(harness.api.sessions.sessionCount == 1 && harness.api.sessions.resultCount == 0)
        #expect(try harness.get("/rotation-check", headers: ["Cookie": cookie]).status == 200)
        // The collector's own form, a typed address and a script (no header) still work.
        for site in ["same-origin", "none", nil] {
            let headers = site.map { Self.urlencoded.merging(["Sec-Fetch-Site": $0]) { $1 } } ?? Self.urlencoded
            #expect(try harness.post("/login", login, headers: headers).status == 303, "\(site ?? "absent")")
        }
        #expect(
            try Forms.upload(
                harness, cookie: cookie, csrf: csrf, chain: chain, extra: ["Sec-Fetch-Site": "same-origin"]
            )
            .status == 303)
    }

    @Test("method confusion: other methods are 405 and change nothing; a text/plain body is no form")
    func methodConfusion() throws {
        let harness = try Forms.harness()
        defer { harness.stop() }
        let (cookie, csrf) = try Forms.session(harness)
        let login = Array("token=\(Forms.alice)".utf8)
        for (method, path) in [
            ("PUT", "/login"), ("DELETE", "/logout"), ("GET", "/logout"), ("PUT", "/rotation-check"),
            ("POST", "/deadlines"), ("POST", "/deadlines.ics"), ("POST", "/rotation-check/result"), ("POST", "/"),
        ] {
            let response = try LoopbackHTTP.exchange(
                port: harness.port, method, path, headers: Self.urlencoded.merging(["Cookie": cookie]) { $1 },
                body: login)
            #expect(response.status == 405 && response.headers["allow"] != nil, "\(method) \(path)")
            #expect(response.headers["set-cookie"] == nil, "\(method) \(path)")
        }
        // A GET with a sign-in body signs nobody in; HEAD shows the form's headers, no body.
        let get = try LoopbackHTTP.exchange(
            port: harness.port, "GET", "/login", headers: Self.urlencoded, body: login)
        #expect(get.status == 200 && get.headers["set-cookie"] == nil)
        let head = try LoopbackHTTP.exchange(port: harness.port, "HEAD", "/rotation-check", headers: ["Cookie": cookie])
        #expect(head.status == 200 && head.body.isEmpty)
        // A cross-origin form may be sent as text/plain without a preflight: it is not a form here.
        let plain = try harness.post(
            "/rotation-check", Array("csrf=\(csrf)&chainText=x".utf8),
            headers: ["Content-Type": "text/plain", "Cookie": cookie])
        #expect(plain.status == 400)
        #expect(harness.api.sessions.sessionCount == 1 && harness.api.sessions.resultCount == 0)
    }

    @Test("a calendar text value cannot start a line: CR, LF, VT, FF, NEL, LS, PS and controls are escaped")
    func calendarLineBreaks() throws {
        let breaks = ["\r", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]
        for linebreak in breaks {
            let name = "cloud\(linebreak)X-INJECTED:1"
            // The attack: a lenient reader (most split on any of these) sees a property line.
            #expect(Self.lenientLines("SUMMARY:" + name).contains("X-INJECTED:1"))
            let label = "key\(linebreak)ATTENDEE:mailto:x@example.net\u{07}"
            let json = """
                {"pinSets": [{"name": \(JSONValue.string(name).serialized()), "hosts": ["api.example.com"],
                "pins": [{"sha256": "\(Forms.old.intermediate.pin.base64)", "label": \(JSONValue.string(label).serialized())},
                {"sha256": "\(Forms.old.backupKey.spkiPin.base64)"}]}]}
                """
            let configuration = try PinConfiguration.parse(Data(json.utf8))
            let deadlines = KeyDeadlines(
                configuration: configuration, certificates: Forms.trustStore.map(\.facts))
            let calendar = ICalendar.deadlines(deadlines, leads: [86_400], stamp: CollectorFixtures.referenceTime)
            #expect(calendar.contains("BEGIN:VEVENT"))
            let lines = Self.lenientLines(calendar)
            #expect(
                !lines.contains { $0.hasPrefix("X-INJECTED") || $0.hasPrefix("ATTENDEE") },
                "\(linebreak.debugDescription)")
            // Only CRLF ends a line; no control character but the folding is left in the text.
            let unfolded = calendar.replacingOccurrences(of: "\r\n", with: "")
            let breaking: Set<Unicode.Scalar> = ["\u{85}", "\u{2028}", "\u{2029}", "\u{7F}"]
            let stray = unfolded.unicodeScalars.filter { $0.value < 0x20 || breaking.contains($0) }
            #expect(stray.isEmpty, "\(linebreak.debugDescription)")
        }
        #expect(ICalendar.text("a\r\nb\rc\nd;e,f\\") == "a\\nb\\nc\\nd\\;e\\,f\\\\")
        // A label of one grapheme cluster (a letter and 300 combining marks) is still folded at
        // 75 octets: folding may split between code points, never inside one (RFC 5545 3.1).
        let cluster = "e" + String(repeating: "\u{0301}", count: 300)
        let folded = ICalendar.fold("SUMMARY:" + cluster)
        let foldedLines = folded.components(separatedBy: "\r\n")
        #expect(foldedLines.count > 1 && foldedLines.allSatisfy { $0.utf8.count <= 75 })
        let unfolded = foldedLines.enumerated().map {
            $0.offset == 0 ? $0.element : String(String.UnicodeScalarView($0.element.unicodeScalars.dropFirst()))
        }
        #expect(unfolded.joined() == "SUMMARY:" + cluster)
    }

    /// Lines as a lenient calendar reader splits them (Python's `splitlines`), unfolded.
    static func lenientLines(_ text: String) -> [String] {
        var lines: [String] = []
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline }) {
            if line.hasPrefix(" "), !lines.isEmpty {
                lines[lines.count - 1] += line.dropFirst()
            } else {
                lines.append(String(line))
            }
        }
        return lines
    }

    @Test("a certificate subject with CR/LF and markup stays one escaped line in the page")
    func subjectWithLineBreaks() throws {
        let key = try PrivateKey.generate(.ecP256)
        let hostile = try Forms.rotated.intermediate.issue(
            CertificateBuilder(
                commonName: "evil\r\nX-Injected: 1\r\n<b>bold</b>\u{0}",
                notBefore: CollectorFixtures.referenceTime.addingTimeInterval(-86_400),
                notAfter: CollectorFixtures.referenceTime.addingTimeInterval(86_400), dnsNames: ["api.example.com"]),
            for: key)
        // OpenSSL's RFC 2253 form already escapes control bytes; the page escapes the rest.
        #expect(!hostile.subject.contains("\r") && !hostile.subject.contains("\n"))
        let harness = try Forms.harness()
        defer { harness.stop() }
        let (cookie, csrf) = try Forms.session(harness)
        let posted = try Forms.upload(
            harness, cookie: cookie, csrf: csrf, chain: Forms.pem([hostile, Forms.rotated.intermediate.certificate]))
        #expect(posted.status == 303)
        let location = try #require(posted.headers["location"])
        #expect(location.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F })
        let page = try harness.get(location, headers: ["Cookie": cookie]).text
        #expect(page.contains("bold") && !page.contains("<b>") && !page.contains("X-Injected: 1\r"))
    }

    /// A leaf and 15 certificates named "Hostile CA": five RSA keys whose public exponent is as
    /// long as the modulus, three certificates per key, each key's signed by the next key, so
    /// every step of the path search has three issuers that verify.
    static let hostileExponents = """
        import sys, secrets, datetime
        from math import gcd
        from cryptography import x509
        from cryptography.x509.oid import NameOID
        from cryptography.hazmat.primitives.asymmetric import rsa, ec
        from cryptography.hazmat.primitives import hashes, serialization
        bits = int(sys.argv[1])
        def huge_exponent_key():
            k = rsa.generate_private_key(65537, bits).private_numbers()
            p, q = k.p, k.q
            phi = (p - 1) * (q - 1)
            while True:
                e = secrets.randbits(bits - 2) | (1 << (bits - 3)) | 1
                if gcd(e, phi) == 1: break
            d = pow(e, -1, phi)
            public = rsa.RSAPublicNumbers(e, p * q)
            return rsa.RSAPrivateNumbers(p, q, d, d % (p - 1), d % (q - 1), pow(q, -1, p), public).private_key()
        keys = [huge_exponent_key() for _ in range(5)]
        ca = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Hostile CA")])
        def cert(subject, public, signer, serial):
            return (x509.CertificateBuilder().subject_name(subject).issuer_name(ca).public_key(public)
                .serial_number(serial).not_valid_before(datetime.datetime(2020, 1, 1))
                .not_valid_after(datetime.datetime(2035, 1, 1)).sign(signer, hashes.SHA256()))
        leaf = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "api.example.com")])
        chain = [cert(leaf, ec.generate_private_key(ec.SECP256R1()).public_key(), keys[0], 1)]
        for i in range(5):
            for j in range(3):
                chain.append(cert(ca, keys[i].public_key(), keys[(i + 1) % 5], 2 + 3 * i + j))
        sys.stdout.write("".join(c.public_bytes(serialization.Encoding.PEM).decode() for c in chain))
        """

    @Test("certificates with huge RSA exponents cost no signature check; unbounded, hundreds")
    func costlyIssuerKeys() throws {
        let generated = try Shell.run(["python3", "-c", Self.hostileExponents, "1024"])
        try #require(generated.status == 0, "python3 cryptography failed: \(generated.stderr)")
        let chain = try X509Certificate.load(bytes: Array(generated.stdout.utf8))
        #expect(chain.count == 16 && chain.dropFirst().allSatisfy { !$0.hasBoundedPublicExponent })
        // The attack: every signature check with such a key is a full modular exponentiation
        // (7.4 ms of CPU at 3072 bits here, against 0.06 ms with e = 65537); this chain makes the
        // search check 537 issuer/child pairs, 4.5 s of CPU per upload with 3072-bit keys.
        var unbounded = CertificatePathBuilder(trustStore: Forms.trustStore)
        unbounded.boundsSignatureWork = false
        let attack = unbounded.paths(for: chain, at: CollectorFixtures.referenceTime)
        #expect(attack.signatureChecks >= 500)
        // The protection: such a key is never an issuer candidate, so it is never used.
        let bounded = CertificatePathBuilder(trustStore: Forms.trustStore).paths(
            for: chain, at: CollectorFixtures.referenceTime)
        #expect(bounded.signatureChecks == 0 && bounded.paths.isEmpty && !bounded.truncated)
        // Through the console: an answer (no path reaches the trust store), not a stalled worker.
        let harness = try Forms.harness()
        defer { harness.stop() }
        let (cookie, csrf) = try Forms.session(harness)
        let posted = try Forms.upload(harness, cookie: cookie, csrf: csrf, chain: Array(generated.stdout.utf8))
        #expect(posted.status == 303)
        let page = try harness.get(try #require(posted.headers["location"]), headers: ["Cookie": cookie]).text
        #expect(page.contains("No path reaches a root of the trust store"))
    }

    // MARK: The form parser (C shim over libmicrohttpd's post processor)

    /// A server whose handler records each parsed form.
    final class FormEcho: Sendable {
        final class Seen: @unchecked Sendable {
            // @unchecked Sendable: `forms` is read and written under `lock`.
            let lock = NSLock()
            var forms: [([FormField]?, Bool)] = []
        }
        let seen = Seen()
        let server: HTTPServer

        init() throws {
            let seen = self.seen
            server = try HTTPServer(address: "127.0.0.1", port: 0, tls: nil) { request in
                seen.lock.withLock { seen.forms.append((request.form, request.formMalformed)) }
                return HTTPResponse(status: 204, headers: [], body: [])
            }
        }

        func post(_ body: [UInt8], type: String) throws -> (form: [FormField]?, malformed: Bool, status: Int) {
            let response = try LoopbackHTTP.exchange(
                port: server.port, "POST", "/", headers: ["Content-Type": type], body: body)
            let last = try #require(seen.lock.withLock { seen.forms.last })
            return (last.0, last.1, response.status)
        }
    }

    @Test("form values arrive byte for byte: split across many callbacks, NUL, CR/LF, same names twice")
    func formValuesIntact() throws {
        let echo = try FormEcho()
        defer { echo.server.stop() }
        // 200 KiB of every byte value, NULs included: the post processor hands it over in pieces.
        let value = (0..<(200 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        let multipart = Forms.multipart([
            ("a", nil, Array("first".utf8)), ("file", "x.pem", value), ("a", nil, Array("second".utf8)),
            ("empty", nil, []),
        ])
        let parsed = try echo.post(multipart, type: "multipart/form-data; boundary=pinkit-test-boundary")
        let form = try #require(parsed.form)
        #expect(form.map(\.name) == ["a", "file", "a", "empty"])
        #expect(form[1].value == value && form[1].filename == "x.pem")
        #expect(form[0].text == "first" && form[2].text == "second" && form[3].value.isEmpty)
        // urlencoded: %00 and CR/LF decode to those bytes; a 600 KiB value in pieces.
        let long = String(repeating: "%41", count: 200 * 1024)
        let encoded = try echo.post(
            Array("a=x%00y%0D%0Az&b=\(long)&a=".utf8), type: "application/x-www-form-urlencoded")
        let fields = try #require(encoded.form)
        #expect(fields.map(\.name) == ["a", "b", "a"])
        #expect(fields[0].value == [0x78, 0, 0x79, 13, 10, 0x7A])
        #expect(fields[1].value == Array(repeating: 0x41, count: 200 * 1024))
    }

    @Test("hostile form bodies are refused as malformed, never crash: a 1 MiB key, 100k tiny fields, bad parts")
    func hostileFormBodies() throws {
        let echo = try FormEcho()
        defer { echo.server.stop() }
        let bodies: [(String, String, [UInt8])] = [
            (
                "100,000 tiny fields", "application/x-www-form-urlencoded",
                Array(String(repeating: "a=1&", count: 100_000).utf8.prefix(1 << 20 - 16))
            ),
            (
                "100,000 empty fields", "application/x-www-form-urlencoded",
                Array(String(repeating: "&", count: 100_000).utf8)
            ),
            (
                "multipart: 33 fields", "multipart/form-data; boundary=b",
                Array(
                    String(repeating: "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nx\r\n", count: 33).utf8)
                    + Array("--b--\r\n".utf8)
            ),
            (
                "multipart: no closing boundary", "multipart/form-data; boundary=b",
                Array("--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nx".utf8)
            ),
            (
                "multipart: no name", "multipart/form-data; boundary=b",
                Array("--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--\r\n".utf8)
            ),
            ("multipart: boundary only", "multipart/form-data; boundary=b", Array("--b--".utf8)),
        ]
        for (name, type, body) in bodies {
            let parsed = try echo.post(body, type: type)
            #expect(parsed.status == 204, "\(name)")
            // Every one is refused (no fields, marked malformed) except a run of `&`: no field at all.
            let empty = name == "100,000 empty fields"
            #expect(parsed.malformed == !empty, "\(name)")
            #expect(parsed.form == (empty ? [] : nil), "\(name)")
        }
        // A key of nearly 1 MiB (the body limit) and a 1 MiB key in multipart: bounded, no crash.
        let bigKey = Array(String(repeating: "k", count: (1 << 20) - 4).utf8) + Array("=v".utf8)
        let keyed = try echo.post(bigKey, type: "application/x-www-form-urlencoded")
        #expect(keyed.status == 204)
        let multipartKey =
            Array("--b\r\nContent-Disposition: form-data; name=\"".utf8)
            + Array(repeating: UInt8(ascii: "k"), count: 1 << 19)
            + Array("\"\r\n\r\nv\r\n--b--\r\n".utf8)
        let multipartKeyed = try echo.post(multipartKey, type: "multipart/form-data; boundary=b")
        #expect(multipartKeyed.status == 204)
        // Keys longer than the post processor's 4 KiB buffer are refused, not truncated.
        #expect(keyed.form == nil && keyed.malformed && multipartKeyed.form == nil && multipartKeyed.malformed)
        // The server is still there.
        #expect(try echo.post(Array("a=1".utf8), type: "application/x-www-form-urlencoded").form?.first?.text == "1")
    }
}
