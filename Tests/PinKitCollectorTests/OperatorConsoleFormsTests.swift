import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import Testing

@testable import PinKitCollector

/// A clock the test moves (result and session expiry), read from the collector's threads.
final class ConsoleTestClock: @unchecked Sendable {
    // @unchecked Sendable: `current` is read and written under `lock`.
    private let lock = NSLock()
    private var current = CollectorFixtures.referenceTime
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

@Suite("Operator console forms: sign-in, rotation check in the browser, deadlines and calendar")
struct OperatorConsoleFormsTests {
    static let alice = "0123456789abcdef0123"
    static let bob = "fedcba9876543210fedc"
    static let old = CollectorFixtures.pki
    static let rotated = try! LabPKI(name: "New CA", referenceTime: CollectorFixtures.referenceTime)

    /// 4.0 pins only the old CA; 5.0 pins old and new CA. Each keeps a backup key.
    static func history() throws -> ReleaseHistory {
        func configuration(_ pins: [SPKIPin], expires: String) throws -> PinConfiguration {
            let list = pins.map { #"{"sha256": "\#($0.base64)"}"# }.joined(separator: ", ")
            let json =
                #"{"pinSets": [{"name": "cloud", "hosts": ["api.example.com"], "expires": "\#(expires)", "pins": [\#(list)]}]}"#
            return try PinConfiguration.parse(Data(json.utf8))
        }
        return ReleaseHistory(releases: [
            .init(
                version: "4.0",
                configuration: try configuration(
                    [old.intermediate.pin, old.backupKey.spkiPin], expires: "2027-06-01T00:00:00Z")),
            .init(
                version: "5.0",
                configuration: try configuration(
                    [old.intermediate.pin, rotated.intermediate.pin, rotated.backupKey.spkiPin],
                    expires: "2027-09-01T00:00:00Z")),
        ])
    }

    /// The devices' store: roots, plus the intermediates standing in for what devices fetch (AIA).
    static var trustStore: [X509Certificate] {
        [
            old.root.certificate, old.intermediate.certificate, rotated.root.certificate,
            rotated.intermediate.certificate,
        ]
    }

    /// A collector with two operators, the release history, and 4.0 and 5.0 installations.
    static func harness(
        clock: ConsoleTestClock = ConsoleTestClock(), checksCSRF: Bool = true, releases: Bool = true
    ) throws -> CollectorHarness {
        var configuration = CollectorHarness.permissive()
        configuration.operatorTokens = try OperatorTokens(text: "alice:\(alice)\nbob:\(bob)")
        if releases { configuration.consoleReleases = ConsoleReleases(history: try history(), trustStore: trustStore) }
        configuration.checksCSRF = checksCSRF
        let harness = try CollectorHarness(configuration: configuration, now: { clock.now })
        for (index, version) in ["4.0", "5.0", "5.0", "5.0"].enumerated() {
            try harness.storage.checkIn(
                CheckIn(
                    installationID: "install-700\(index)", appVersion: version, pinSetFingerprint: nil,
                    pinSetExpiry: nil), now: clock.now)
        }
        return harness
    }

    static func pem(_ certificates: [X509Certificate]) -> [UInt8] { Array(certificates.map(\.pem).joined().utf8) }

    /// Opens the form with a token: the answer starts a session (cookie) and carries its CSRF token.
    static func session(_ harness: CollectorHarness, token: String = alice) throws -> (cookie: String, csrf: String) {
        let form = try harness.get("/rotation-check", headers: ["Authorization": "Bearer \(token)"])
        #expect(form.status == 200)
        let setCookie = try #require(form.headers["set-cookie"])
        let cookie = String(try #require(setCookie.split(separator: ";").first))
        let marker = "name=\"csrf\" value=\""
        let start = try #require(form.text.range(of: marker)).upperBound
        let csrf = String(form.text[start...].prefix { $0 != "\"" })
        return (cookie, csrf)
    }

    static func multipart(
        _ fields: [(name: String, filename: String?, value: [UInt8])], boundary: String = "pinkit-test-boundary"
    ) -> [UInt8] {
        var body: [UInt8] = []
        for field in fields {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field.name)\""
            if let filename = field.filename {
                head += "; filename=\"\(filename)\"\r\nContent-Type: application/x-pem-file"
            }
            body += Array((head + "\r\n\r\n").utf8) + field.value + Array("\r\n".utf8)
        }
        return body + Array("--\(boundary)--\r\n".utf8)
    }

    static func upload(
        _ harness: CollectorHarness, cookie: String?, csrf: String?, chain: [UInt8], extra: [String: String] = [:],
        host: String? = nil
    ) throws -> LoopbackHTTP.Response {
        var fields: [(name: String, filename: String?, value: [UInt8])] = []
        if let csrf { fields.append(("csrf", nil, Array(csrf.utf8))) }
        fields.append(("chain", "candidate.pem", chain))
        if let host { fields.append(("host", nil, Array(host.utf8))) }
        var headers = ["Content-Type": "multipart/form-data; boundary=pinkit-test-boundary"]
        if let cookie { headers["Cookie"] = cookie }
        headers.merge(extra) { $1 }
        return try harness.post("/rotation-check", multipart(fields), headers: headers)
    }

    @Test(
        "sign-in exchanges the token for an HttpOnly, Secure, SameSite=Strict session; a wrong token or cookie is 401")
    func signIn() throws {
        let harness = try Self.harness()
        defer { harness.stop() }
        let page = try harness.get("/login")
        #expect(page.status == 200 && page.text.contains("<label for=\"token\">"))
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        let refused = try harness.post("/login", Array("token=wrong-token-0000000000".utf8), headers: form)
        #expect(refused.status == 401 && refused.headers["set-cookie"] == nil)
        #expect(harness.api.sessions.sessionCount == 0)
        #expect(!refused.text.contains("wrong-token"))
        let accepted = try harness.post("/login", Array("token=\(Self.alice)".utf8), headers: form)
        #expect(accepted.status == 303 && accepted.headers["location"] == "/rotation-check")
        let setCookie = try #require(accepted.headers["set-cookie"])
        for attribute in ["__Host-pinkit-session=", "Path=/", "Max-Age=1800", "HttpOnly", "Secure", "SameSite=Strict"] {
            #expect(setCookie.contains(attribute), "\(attribute)")
        }
        let cookie = String(try #require(setCookie.split(separator: ";").first))
        #expect(!accepted.text.contains(Self.alice))
        // The cookie opens every console page; the token never appears in one.
        for path in ["/", "/rotation-check", "/deadlines"] {
            let response = try harness.get(path, headers: ["Cookie": cookie])
            #expect(response.status == 200, "\(path)")
            #expect(!response.text.contains(Self.alice))
        }
        #expect(try harness.get("/rotation-check", headers: ["Cookie": cookie]).text.contains("Signed in as alice"))
        // A made-up or tampered session id is no session.
        let forged = "__Host-pinkit-session=" + String(repeating: "a", count: 64)
        let denied = try harness.get("/rotation-check", headers: ["Cookie": forged])
        #expect(denied.status == 401 && denied.text.contains("<label for=\"token\">"))
        #expect(try harness.get("/", headers: ["Cookie": forged]).status == 401)
        // Sign-out needs the CSRF token too, then the cookie is dead.
        let page2 = try harness.get("/rotation-check", headers: ["Cookie": cookie]).text
        let start = try #require(page2.range(of: "name=\"csrf\" value=\"")).upperBound
        let csrf = String(page2[start...].prefix { $0 != "\"" })
        #expect(try harness.post("/logout", [], headers: form.merging(["Cookie": cookie]) { $1 }).status == 403)
        let out = try harness.post(
            "/logout", Array("csrf=\(csrf)".utf8), headers: form.merging(["Cookie": cookie]) { $1 })
        #expect(out.status == 303 && out.headers["set-cookie"]?.contains("Max-Age=0") == true)
        #expect(try harness.get("/rotation-check", headers: ["Cookie": cookie]).status == 401)
    }

    @Test("an uploaded chain gets the CLI's verdict: POST, 303, GET shows the bricked release")
    func rotationCheckInTheBrowser() throws {
        let harness = try Self.harness()
        defer { harness.stop() }
        let (cookie, csrf) = try Self.session(harness)
        let newChain = try Self.rotated.leaf(["api.example.com"]).chain
        let posted = try Self.upload(harness, cookie: cookie, csrf: csrf, chain: Self.pem(newChain))
        #expect(posted.status == 303)
        let location = try #require(posted.headers["location"])
        #expect(location.hasPrefix("/rotation-check/result?id=") && location.count == 26 + 64)
        let result = try harness.get(location, headers: ["Cookie": cookie])
        #expect(result.status == 200)
        let html = result.text
        #expect(html.contains("UNSAFE") && html.contains("release-bricked"))
        #expect(html.contains("<th scope=\"row\">4.0</th><td>25.0 %</td><td><strong>BRICKED</strong></td>"))
        #expect(html.contains("<th scope=\"row\">5.0</th><td>75.0 %</td><td>works (depth 1 from the leaf)</td>"))
        // The same decision as the library's RotationCheck (what pinctl rotation-check runs).
        let search = CertificatePathBuilder(trustStore: Self.trustStore).paths(
            for: newChain, at: CollectorFixtures.referenceTime)
        let direct = RotationCheck(
            history: try Self.history().applyingMeasuredShares(
                ["4.0": 0.25, "5.0": 0.75], now: CollectorFixtures.referenceTime),
            paths: search.paths.map(\.facts), now: CollectorFixtures.referenceTime)
        #expect(direct.releases.filter(\.bricked).map(\.version) == ["4.0"])
        // The old chain, pasted into the textarea (urlencoded): safe for both releases.
        let oldChain = String(decoding: Self.pem(try Self.old.leaf(["api.example.com"]).chain), as: UTF8.self)
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._")
        let body = "csrf=\(csrf)&chainText=\(oldChain.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        let pasted = try harness.post(
            "/rotation-check", Array(body.utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie])
        #expect(pasted.status == 303)
        let safe = try harness.get(try #require(pasted.headers["location"]), headers: ["Cookie": cookie]).text
        #expect(safe.contains("SAFE: no installed release would be bricked") && !safe.contains("BRICKED"))
        // A script with a Bearer token needs no cookie and no CSRF token.
        let scripted = try Self.upload(
            harness, cookie: nil, csrf: nil, chain: Self.pem(newChain), extra: ["Authorization": "Bearer \(Self.alice)"]
        )
        #expect(scripted.status == 303)
    }

    @Test("a cross-site POST with the victim's cookie: accepted without the CSRF check, 403 with it")
    func csrfAttack() throws {
        let chain = Self.pem(try Self.rotated.leaf(["api.example.com"]).chain)
        let attacker = ["Origin": "https://evil.example", "Referer": "https://evil.example/"]
        // The attack: the CSRF check switched off, a forged form with only the (ambient) cookie works.
        let unprotected = try Self.harness(checksCSRF: false)
        defer { unprotected.stop() }
        let victim = try Self.session(unprotected)
        let forged = try Self.upload(unprotected, cookie: victim.cookie, csrf: nil, chain: chain, extra: attacker)
        #expect(forged.status == 303 && unprotected.api.sessions.resultCount == 1)
        // The protection: the same forged POST is refused and stores nothing.
        let harness = try Self.harness()
        defer { harness.stop() }
        let session = try Self.session(harness)
        for csrf in [nil, "", String(repeating: "0", count: 64), session.csrf + "0", String(session.csrf.dropLast())] {
            let refused = try Self.upload(harness, cookie: session.cookie, csrf: csrf, chain: chain, extra: attacker)
            #expect(refused.status == 403, "\(csrf ?? "nil")")
            #expect(refused.text.contains("CSRF token is missing or wrong"))
        }
        // Another session's CSRF token does not fit this session.
        let other = try Self.session(harness, token: Self.bob)
        #expect(try Self.upload(harness, cookie: session.cookie, csrf: other.csrf, chain: chain).status == 403)
        // ?token= is for GET pages only: a POST with it and no cookie is unauthenticated.
        let viaQuery = try harness.post(
            "/rotation-check?token=\(Self.alice)", Self.multipart([("chain", "c.pem", chain)]),
            headers: ["Content-Type": "multipart/form-data; boundary=pinkit-test-boundary"])
        #expect(viaQuery.status == 401)
        #expect(harness.api.sessions.resultCount == 0)
    }

    @Test("hostile uploads each get a clear error page with the right status and store nothing")
    func hostileUploads() throws {
        let clock = ConsoleTestClock()
        let harness = try Self.harness(clock: clock)
        defer { harness.stop() }
        let (cookie, csrf) = try Self.session(harness)
        let leaf = try Self.rotated.leaf(["api.example.com"])
        let cases: [(String, [UInt8], Int, String)] = [
            ("garbage", Array("<script>alert(1)</script> not a certificate".utf8), 422, "expected PEM text"),
            (
                "DER in a PEM wrapper that does not parse",
                Array(
                    "-----BEGIN CERTIFICATE-----\nMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw\n-----END CERTIFICATE-----\n"
                        .utf8),
                422, "CERTIFICATE block at line 1"
            ),
            ("17 certificates", Self.pem(Array(repeating: leaf.leaf, count: 17)), 422, "at most 16"),
            (
                "markup in a PEM label",
                Array(
                    "-----BEGIN <script>alert(2)</script>-----\nAAAA\n-----END <script>alert(2)</script>-----\n".utf8),
                422, "Not a certificate chain"
            ),
            ("an empty upload", [], 422, "the input is empty"),
            ("over 256 KiB", Array(repeating: UInt8(ascii: "A"), count: 300 * 1024), 413, "over 256 KiB"),
        ]
        for (name, chain, status, message) in cases {
            let response = try Self.upload(harness, cookie: cookie, csrf: csrf, chain: chain)
            #expect(response.status == status, "\(name)")
            #expect(response.text.contains(message), "\(name): \(response.text.prefix(600))")
            #expect(response.headers["content-type"] == "text/html; charset=utf-8", "\(name)")
            #expect(!response.text.contains("<script>alert"), "\(name)")
        }
        let hostileHost = try Self.upload(
            harness, cookie: cookie, csrf: csrf, chain: Self.pem(leaf.chain), host: "<script>x</script>")
        #expect(hostileHost.status == 422 && !hostileHost.text.contains("<script>x"))
        // Multipart bodies libmicrohttpd's post processor refuses: no boundary, an oversized
        // boundary, a body cut off mid-part.
        let chainField = Self.multipart([("csrf", nil, Array(csrf.utf8)), ("chain", "c.pem", Self.pem(leaf.chain))])
        let bodies: [(String, String, [UInt8])] = [
            ("no boundary", "multipart/form-data", chainField),
            (
                "a 3000-byte boundary", "multipart/form-data; boundary=" + String(repeating: "b", count: 3000),
                chainField
            ),
            (
                "a truncated body", "multipart/form-data; boundary=pinkit-test-boundary",
                Array(chainField.prefix(chainField.count / 2))
            ),
            (
                "33 fields", "multipart/form-data; boundary=pinkit-test-boundary",
                Self.multipart(
                    [("csrf", nil, Array(csrf.utf8))] + (0..<32).map { ("f\($0)", nil, [UInt8(ascii: "x")]) })
            ),
        ]
        for (name, type, body) in bodies {
            let response = try harness.post(
                "/rotation-check", body, headers: ["Content-Type": type, "Cookie": cookie])
            #expect(response.status == 400, "\(name)")
            #expect(response.text.contains("not a well-formed form"), "\(name)")
        }
        #expect(harness.api.sessions.resultCount == 0 && harness.api.sessions.sessionCount == 1)
        // Replaying result ids: another operator's, a made-up one, an expired one.
        let posted = try Self.upload(harness, cookie: cookie, csrf: csrf, chain: Self.pem(leaf.chain))
        let location = try #require(posted.headers["location"])
        #expect(try harness.get(location, headers: ["Cookie": cookie]).status == 200)
        #expect(try harness.get(location + "&token=\(Self.alice)").status == 200)
        let bobs = try harness.get(location, headers: ["Authorization": "Bearer \(Self.bob)"])
        #expect(bobs.status == 404 && bobs.text.contains("No such result") && !bobs.text.contains("BRICKED"))
        let madeUp = "/rotation-check/result?id=" + String(repeating: "f", count: 64)
        #expect(try harness.get(madeUp, headers: ["Cookie": cookie]).status == 404)
        #expect(try harness.get("/rotation-check/result?id=%3Cscript%3E", headers: ["Cookie": cookie]).status == 404)
        clock.advance(ConsoleSessions.resultLifetime + 1)
        #expect(try harness.get(location + "&token=\(Self.alice)").status == 404)
    }

    @Test("a certificate subject with markup renders as text; unescaped it would be an element")
    func hostileSubject() throws {
        let key = try PrivateKey.generate(.ecP256)
        let hostile = try Self.rotated.intermediate.issue(
            CertificateBuilder(
                commonName: "<img src=x onerror=alert(1)>",
                notBefore: CollectorFixtures.referenceTime.addingTimeInterval(-86_400),
                notAfter: CollectorFixtures.referenceTime.addingTimeInterval(86_400), dnsNames: ["api.example.com"]),
            for: key)
        let chain = [hostile, Self.rotated.intermediate.certificate]
        let search = CertificatePathBuilder(trustStore: Self.trustStore).paths(
            for: chain, at: CollectorFixtures.referenceTime)
        let check = RotationCheck(
            history: try Self.history(), paths: search.paths.map(\.facts), now: CollectorFixtures.referenceTime)
        let raw = ConsoleFormsPage(escape: { $0 }).rotationResult(
            check, search: search, window: 86_400, checkedAt: CollectorFixtures.referenceTime)
        #expect(raw.contains("<img src=x onerror=alert(1)\\>"))
        let escaped = ConsoleFormsPage().rotationResult(
            check, search: search, window: 86_400, checkedAt: CollectorFixtures.referenceTime)
        #expect(!escaped.contains("<img") && escaped.contains("&lt;img src=x onerror=alert(1)\\&gt;"))
    }

    @Test("deadlines page lists set expiry, key deadlines and the kill switch; the calendar is pinctl's")
    func deadlinesAndCalendar() throws {
        let harness = try Self.harness()
        defer { harness.stop() }
        try harness.storage.publishKillSwitch(
            KillSwitchPublication(
                serial: 9, publishedAt: CollectorFixtures.referenceTime, operatorName: "alice", reason: "drill",
                pinning: "disabled", expiresAt: CollectorFixtures.referenceTime.addingTimeInterval(3_600),
                document: "{}"))
        let page = try harness.get("/deadlines?token=\(Self.alice)")
        #expect(page.status == 200)
        let html = page.text
        #expect(!html.contains(Self.alice))
        #expect(html.contains("Serial 9 (pinning disabled) expires at"))
        #expect(html.contains("<th scope=\"row\">4.0</th><td>25.0 %</td><td>cloud</td>"))
        #expect(html.contains("2027-06-01T00:00:00Z") && html.contains("2027-09-01T00:00:00Z"))
        #expect(html.contains(HTMLText.escaped(Self.old.intermediate.certificate.subject)))
        #expect(html.contains("<a href=\"/deadlines.ics\" download>"))
        #expect(html.components(separatedBy: "<table>").count - 1 == 2)
        #expect(html.components(separatedBy: "<caption>").count - 1 == 2 && !html.contains("<th>"))
        let calendar = try harness.get("/deadlines.ics", headers: ["Authorization": "Bearer \(Self.alice)"])
        #expect(calendar.status == 200)
        #expect(calendar.headers["content-type"] == "text/calendar; charset=utf-8")
        #expect(calendar.headers["content-disposition"] == "attachment; filename=\"pinkit-deadlines.ics\"")
        #expect(calendar.text.hasPrefix("BEGIN:VCALENDAR\r\n") && calendar.text.contains("BEGIN:VALARM"))
        #expect(try harness.get("/deadlines.ics").status == 401)
        #expect(try harness.get("/deadlines.ics?token=nope-nope-nope-nope").status == 401)
        // Byte for byte what `pinctl deadlines --ics` writes for the same release and trust store.
        let directory = CollectorFixtures.temporaryDirectory()
        let config = directory + "/config.json"
        try
            #"{"pinSets": [{"name": "cloud", "hosts": ["api.example.com"], "expires": "2027-06-01T00:00:00Z", "pins": [{"sha256": "\#(Self.old.intermediate.pin.base64)"}, {"sha256": "\#(Self.old.backupKey.spkiPin.base64)"}]}]}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let store = directory + "/store.pem"
        try Data(Self.pem(Self.trustStore)).write(to: URL(fileURLWithPath: store))
        let ics = directory + "/cli.ics"
        let cli = try PinctlBinary.run([
            "deadlines", "--config", config, "--trust-store", store, "--ics", ics,
            "--now", RFC3339.format(CollectorFixtures.referenceTime),
        ])
        #expect(cli.status == 0, "\(cli.stderr)")
        var single = CollectorHarness.permissive()
        single.operatorTokens = try OperatorTokens(text: "alice:\(Self.alice)")
        single.consoleReleases = ConsoleReleases(
            history: ReleaseHistory(releases: [
                .init(
                    version: "4.0",
                    configuration: try PinConfiguration.parse(Data(contentsOf: URL(fileURLWithPath: config))))
            ]), trustStore: Self.trustStore)
        let one = try CollectorHarness(configuration: single)
        defer { one.stop() }
        let served = try one.get("/deadlines.ics", headers: ["Authorization": "Bearer \(Self.alice)"])
        #expect(served.body == Array(try Data(contentsOf: URL(fileURLWithPath: ics))))
        // Without --releases the pages say so.
        let bare = try Self.harness(releases: false)
        defer { bare.stop() }
        #expect(try bare.get("/deadlines.ics?token=\(Self.alice)").status == 409)
        #expect(try bare.get("/rotation-check?token=\(Self.alice)").text.contains("No release history is configured"))
    }

    @Test("headless Chromium renders sign-in, upload form, result and deadlines: labels, headers, escaping")
    func chromiumRendersTheForms() throws {
        let chromium = "/usr/bin/chromium"
        try #require(FileManager.default.isExecutableFile(atPath: chromium), "Debian chromium is required")
        let harness = try Self.harness()
        defer { harness.stop() }
        let base = "http://127.0.0.1:\(harness.port)"
        // A result with a hostile subject, made through the HTTP form (cookie + CSRF).
        let key = try PrivateKey.generate(.ecP256)
        let hostile = try Self.rotated.intermediate.issue(
            CertificateBuilder(
                commonName: "<img src=x onerror=alert(1)>",
                notBefore: CollectorFixtures.referenceTime.addingTimeInterval(-86_400),
                notAfter: CollectorFixtures.referenceTime.addingTimeInterval(86_400), dnsNames: ["api.example.com"]),
            for: key)
        let (cookie, csrf) = try Self.session(harness)
        let posted = try Self.upload(
            harness, cookie: cookie, csrf: csrf, chain: Self.pem([hostile, Self.rotated.intermediate.certificate]))
        let location = try #require(posted.headers["location"])
        let pages = [
            ("login", "\(base)/login", ["Operator token", "Sign in"]),
            (
                "rotation-form", "\(base)/rotation-check?token=\(Self.alice)",
                ["Chain file (PEM)", "Signed in as alice"]
            ),
            ("rotation-result", "\(base)\(location)&token=\(Self.alice)", ["UNSAFE", "BRICKED", "Paths checked"]),
            ("deadlines", "\(base)/deadlines?token=\(Self.alice)", ["Pin sets by release", "Download the calendar"]),
            (
                "error", "\(base)/rotation-check/result?id=\(String(repeating: "f", count: 64))&token=\(Self.alice)",
                ["No such result", "belongs to another operator"]
            ),
        ]
        for (name, url, texts) in pages {
            let dom = try OperatorConsoleTests.dumpDOM(chromium: chromium, url: url)
            #expect(dom.contains("<html lang=\"en\">"), "\(name)")
            for text in texts { #expect(dom.contains(text), "\(name): \(text) missing") }
            #expect(!dom.contains("<script") && !dom.contains("<img"), "\(name)")
            #expect(!dom.contains(Self.alice), "\(name): the token is in the DOM")
            // Every visible control has a label naming its id; every table a caption and scoped headers.
            for id in Self.attributeValues("id", in: dom, tag: ["input", "textarea"]) {
                #expect(dom.contains("<label for=\"\(id)\">"), "\(name): \(id) has no label")
            }
            let controls =
                dom.components(separatedBy: "<input").count + dom.components(separatedBy: "<textarea").count - 2
            let hidden = dom.components(separatedBy: "type=\"hidden\"").count - 1
            #expect(
                Self.attributeValues("id", in: dom, tag: ["input", "textarea"]).count == controls - hidden, "\(name)")
            let tables = dom.components(separatedBy: "<table>").count - 1
            #expect(dom.components(separatedBy: "<caption>").count - 1 == tables, "\(name)")
            #expect(!dom.contains("<th>"), "\(name)")
            if let folder = ProcessInfo.processInfo.environment["PINKIT_CONSOLE_SCREENSHOTS"] {
                _ = try OperatorConsoleTests.runChromium(
                    chromium, ["--screenshot=\(folder)/\(name).png", "--window-size=1200,900", url])
            }
        }
        let result = try OperatorConsoleTests.dumpDOM(chromium: chromium, url: "\(base)\(location)&token=\(Self.alice)")
        #expect(result.contains("&lt;img src=x onerror=alert(1)\\&gt;"))
    }

    @Test("serve --releases and --trust-store feed the console; an unreadable release history is a usage error")
    func serveOptions() throws {
        let directory = CollectorFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/4.0.json"
        try
            #"{"pinSets": [{"name": "cloud", "hosts": ["api.example.com"], "pins": [{"sha256": "\#(Self.old.intermediate.pin.base64)"}, {"sha256": "\#(Self.old.backupKey.spkiPin.base64)"}]}]}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let releases = directory + "/releases.json"
        try #"{"releases": [{"version": "4.0", "configuration": "\#(config)"}]}"#
            .write(toFile: releases, atomically: true, encoding: .utf8)
        let store = directory + "/store.pem"
        try Data(Self.pem(Self.trustStore)).write(to: URL(fileURLWithPath: store))
        let tokens = directory + "/operators"
        try "alice:\(Self.alice)\n".write(toFile: tokens, atomically: true, encoding: .utf8)
        let collector = try CollectorProcess(
            dataDirectory: directory + "/data",
            extra: ["--operator-token-file", tokens, "--releases", releases, "--trust-store", store])
        defer { collector.terminate() }
        let page = try LoopbackHTTP.exchange(
            port: collector.port, "GET", "/deadlines", headers: ["Authorization": "Bearer \(Self.alice)"])
        #expect(page.status == 200 && page.text.contains("<th scope=\"row\">4.0</th>"))
        #expect(page.text.contains(HTMLText.escaped(Self.old.intermediate.certificate.subject)))
        let refused = try Shell.run([
            CollectorProcess.binary, "serve", "--data", directory + "/other", "--plain-http", "--releases",
            directory + "/missing.json",
        ])
        #expect(refused.status == 2 && refused.stderr.contains("--releases"), "\(refused.stderr)")
    }

    /// Values of `attribute` on the given elements of a serialized DOM.
    static func attributeValues(_ attribute: String, in dom: String, tag names: [String]) -> [String] {
        var values: [String] = []
        for name in names {
            for element in dom.components(separatedBy: "<\(name)").dropFirst() {
                let tag = element.prefix { $0 != ">" }
                if tag.contains("type=\"hidden\"") { continue }
                if let range = tag.range(of: " \(attribute)=\"") {
                    values.append(String(tag[range.upperBound...].prefix { $0 != "\"" }))
                }
            }
        }
        return values
    }
}
