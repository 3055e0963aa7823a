import Foundation
import PinKit
import PinKitProcessGate
import PinKitTestSupport
import Testing

@testable import PinKitCollector

@Suite("Operator console: server-rendered HTML, token-protected, escaped, checked in Chromium")
struct OperatorConsoleTests {
    static let token = "0123456789abcdef0123"
    static let hostile = "<script>alert(\"x\")</script>'</svg><b>bold</b>"

    /// A collector with an operator token, filled through the device API the way devices do.
    static func filledHarness() throws -> CollectorHarness {
        var configuration = CollectorHarness.permissive()
        configuration.operatorTokens = try OperatorTokens(text: "alice:\(token)")
        let harness = try CollectorHarness(configuration: configuration)
        let upload = try CollectorFixtures.reportUpload([CollectorFixtures.event()])
        #expect(try harness.post("/v1/pin-failures", upload.body).status == 200)
        for (index, version) in ["5.0.0", "5.0.0", "4.9.0"].enumerated() {
            var headers = CollectorHarness.deviceHeaders
            headers["X-PinKit-Installation"] = "install-100\(index)-test"
            let body =
                "{\"appVersion\":\"\(version)\",\"pinSetFingerprint\":\"abc123\",\"pinSetExpiry\":\"2027-06-01T00:00:00Z\"}"
            #expect(try harness.post("/v1/check-in", Array(body.utf8), headers: headers).status == 200)
        }
        #expect(
            try harness.post("/v1/audit", CollectorFixtures.auditLog(entries: 4).uploadDocument().body).status == 200)
        let forged = try CollectorFixtures.auditLog(entries: 5, event: .login(method: "forged"))
        #expect(try harness.post("/v1/audit", forged.uploadDocument().body).status == 200)
        // Publishing over HTTP needs a signed document (KillSwitchPublishTests); the console only reads the log.
        try harness.storage.publishKillSwitch(
            KillSwitchPublication(
                serial: 7, publishedAt: CollectorFixtures.referenceTime, operatorName: "alice",
                reason: "CA compromise drill", pinning: "disabled",
                expiresAt: CollectorFixtures.referenceTime.addingTimeInterval(86_400), document: "{}"))
        return harness
    }

    /// Strings a hostile or corrupted database could hold, in every column the page shows.
    static func hostileData() -> ConsoleData {
        let at = CollectorFixtures.referenceTime
        let publication = KillSwitchPublication(
            serial: 1, publishedAt: at, operatorName: hostile, reason: hostile, pinning: hostile,
            expiresAt: at.addingTimeInterval(60), document: "{}")
        return ConsoleData(
            now: at, currentKillSwitch: publication, publications: [publication], failuresSince: at,
            failures: [
                FailureGroup(
                    hostname: hostile, pinSet: hostile, appVersion: hostile, servedKeys: [hostile], reports: 1,
                    occurrences: 3, installations: 1, firstSeen: at, lastSeen: at)
            ],
            failuresPerDay: [
                DailyFailureCount(day: at, hostname: hostile, pinSet: hostile, appVersion: hostile, occurrences: 3)
            ], installedBaseWindow: 86_400,
            installedBase: [
                InstalledVersion(version: hostile, installations: 2, share: 1, pinSetFingerprints: [hostile])
            ],
            anomalies: [
                AuditAnomaly(
                    installationID: hostile, seq: 2, kind: AuditAnomaly.Kind(rawValue: hostile), expectedHash: hostile,
                    seenHash: hostile, appVersion: hostile, detectedAt: at)
            ])
    }

    @Test("without a valid token the console is 401 and shows nothing; the token never appears in the page")
    func tokenRequired() throws {
        let harness = try Self.filledHarness()
        defer { harness.stop() }
        for path in ["/", "/?token=nope", "/?token=0123456789abcdef0124"] {
            let response = try harness.get(path)
            #expect(response.status == 401, "\(path)")
            #expect(!response.text.contains("api.example.com") && !response.text.contains("alice"))
        }
        #expect(try harness.get("/", headers: ["Authorization": "Bearer nope"]).status == 401)
        for response in [
            try harness.get("/", headers: ["Authorization": "Bearer \(Self.token)"]),
            try harness.get("/?token=\(Self.token)"),
        ] {
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "text/html; charset=utf-8")
            #expect(response.headers["cache-control"] == "no-store")
            #expect(response.headers["referrer-policy"] == "no-referrer")
            #expect(!response.text.contains(Self.token))
        }
        // Only GET and HEAD.
        #expect(try harness.post("/", [], headers: ["Authorization": "Bearer \(Self.token)"]).status == 405)
    }

    @Test("the page shows kill switch, failures with served keys, installed base and anomalies; no script")
    func pageContent() throws {
        let harness = try Self.filledHarness()
        defer { harness.stop() }
        let response = try harness.get("/", headers: ["Authorization": "Bearer \(Self.token)"])
        let html = response.text
        let policy = response.headers["content-security-policy"] ?? ""
        #expect(policy.hasPrefix("default-src 'none'; style-src 'unsafe-inline'; img-src data:"))
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(!html.lowercased().contains("<script") && !html.contains("src=") && !html.contains("<link"))
        #expect(!html.lowercased().contains("onload=") && !html.lowercased().contains("javascript:"))
        // Kill switch: state, who, serial, reason, expiry.
        #expect(html.contains("Current: serial 7, pinning <strong>disabled</strong>, published by alice"))
        #expect(html.contains("CA compromise drill"))
        #expect(html.contains(RFC3339.format(CollectorFixtures.referenceTime.addingTimeInterval(86_400))))
        // Failures: chart bar and table row with the served keys.
        #expect(html.contains("<svg id=\"pin-failures-chart\" role=\"img\""))
        #expect(html.contains("text-anchor=\"end\">2026-09-21 · api.example.com · "))
        #expect(html.contains(" · 4.2.0</text><rect"))
        for key in CollectorFixtures.servedChain.map(\.spkiSHA256.base64) { #expect(html.contains(key), "\(key)") }
        // Installed base: 2 of 4 installations on 5.0.0 (the uploading device is on 4.2.0).
        #expect(html.contains("<th scope=\"row\">5.0.0</th><td>2</td><td>50.0 %</td>"))
        #expect(html.contains("<th scope=\"row\">4.9.0</th><td>1</td>"))
        // Anomalies: the rewritten log of the test installation.
        #expect(html.contains("<th scope=\"row\">install-0000-test</th>"))
        #expect(html.contains("rewritten") && html.contains("chain-broken"))
        // Accessible tables: one caption and column headers per table.
        let tables = html.components(separatedBy: "<table>").count - 1
        #expect(tables == 4)
        #expect(html.components(separatedBy: "<caption>").count - 1 == tables)
        #expect(!html.contains("<th>"))
    }

    @Test("database strings with <script>, quotes and </svg> render as text; unescaped they would be markup")
    func escapingAttack() throws {
        let data = Self.hostileData()
        // The attack, with escaping switched off: the script element and the closing </svg> get through.
        let raw = ConsolePage(escape: { $0 }).render(data)
        #expect(raw.contains("<script>alert(\"x\")</script>"))
        #expect(raw.contains("'</svg><b>bold</b>"))
        // The real page: none of it is markup.
        let html = ConsolePage().render(data)
        #expect(!html.contains("<script") && !html.contains("<b>") && !html.contains("'</svg>"))
        #expect(
            html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&lt;/svg&gt;&lt;b&gt;bold&lt;/b&gt;"))
        // Each of the 20 places the hostile string appears (chart label included) is escaped.
        #expect(html.components(separatedBy: "&lt;script&gt;").count - 1 >= 15)
        #expect(html.components(separatedBy: "</svg>").count - 1 == 2)
        #expect(HTMLText.escaped("a\u{0}b\u{1B}c") == "a\u{FFFD}b\u{FFFD}c")
    }

    @Test("the kill-switch overview tells none, active and expired apart")
    func killSwitchStates() {
        var data = Self.hostileData()
        data.currentKillSwitch = nil
        #expect(
            ConsolePage().render(data).contains("No kill-switch document is published: devices enforce their pins."))
        let at = CollectorFixtures.referenceTime
        data.currentKillSwitch = KillSwitchPublication(
            serial: 3, publishedAt: at.addingTimeInterval(-7_200), operatorName: "bob", reason: "drill",
            pinning: "disabled", expiresAt: at.addingTimeInterval(-3_600), document: "{}")
        let expired = ConsolePage().render(data)
        #expect(expired.contains("Current: serial 3, pinning <strong>disabled</strong>, published by bob"))
        #expect(expired.contains("<strong>expired</strong> at ") && expired.contains("(devices enforce pins again)"))
        data.now = at.addingTimeInterval(-5_400)
        let active = ConsolePage().render(data)
        #expect(active.contains("; expires at ") && !active.contains("<strong>expired</strong>"))
    }

    @Test("headless Chromium renders the page: the DOM has every section, hostile text stays text")
    func chromiumRendersTheConsole() throws {
        let chromium = "/usr/bin/chromium"
        try #require(FileManager.default.isExecutableFile(atPath: chromium), "Debian chromium is required")
        let harness = try Self.filledHarness()
        defer { harness.stop() }
        try harness.storage.storeReports(
            [
                StoredReport(
                    id: "hostile-report", hostname: Self.hostile, port: 443, appVersion: "4.2.0", mode: "enforce",
                    failureReason: "x", pinSet: "api", servedKeys: ["k"], count: 1,
                    firstSeen: CollectorFixtures.referenceTime, lastSeen: CollectorFixtures.referenceTime,
                    document: "{}")
            ], dropped: 0, installation: "install-hostile", appVersion: "4.2.0", now: CollectorFixtures.referenceTime)
        let dom = try Self.dumpDOM(chromium: chromium, url: "http://127.0.0.1:\(harness.port)/?token=\(Self.token)")
        for text in [
            "PinKit collector console", "Kill switch", "CA compromise drill", "Pin failures since",
            "api.example.com", "Installed base", "5.0.0", "Audit anomalies", "install-0000-test", "rewritten",
        ] {
            #expect(dom.contains(text), "\(text) missing from the rendered DOM")
        }
        // The browser parsed the hostile hostname as text: serialized back escaped, no script element.
        #expect(dom.contains("&lt;script&gt;alert(\"x\")&lt;/script&gt;'&lt;/svg&gt;&lt;b&gt;bold&lt;/b&gt;"))
        #expect(!dom.contains("<script"))
        // CI keeps a screenshot as an artifact when asked to (PINKIT_CONSOLE_SCREENSHOTS=folder).
        if let folder = ProcessInfo.processInfo.environment["PINKIT_CONSOLE_SCREENSHOTS"] {
            let file = folder + "/console.png"
            _ = try Self.runChromium(
                chromium,
                [
                    "--screenshot=\(file)", "--window-size=1200,900",
                    "http://127.0.0.1:\(harness.port)/?token=\(Self.token)",
                ])
            #expect(FileManager.default.fileExists(atPath: file))
        }
        // Without the token the browser gets the 401 problem, not the console.
        let denied = try Self.dumpDOM(chromium: chromium, url: "http://127.0.0.1:\(harness.port)/")
        #expect(denied.contains("unauthorized") && !denied.contains("api.example.com"))
    }

    @Test("Chromium renders the console over a collector the fleet simulator filled (pinkit-fleet, bad rotation)")
    func consoleOverFleetData() throws {
        let chromium = "/usr/bin/chromium"
        try #require(FileManager.default.isExecutableFile(atPath: chromium), "Debian chromium is required")
        let binaries = PinctlBinary.url.deletingLastPathComponent()
        let fleet = binaries.appendingPathComponent("pinkit-fleet").path
        let collector = binaries.appendingPathComponent("pinkit-collector").path
        try #require(FileManager.default.isExecutableFile(atPath: fleet), "pinkit-fleet is built with the tests")
        // pinkit-fleet runs its own `pinkit-collector serve --data TEMP` and deletes TEMP at the
        // end; through --collector, a wrapper runs the same binary with --data pointing here.
        let directory = CollectorFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = directory + "/data"
        let wrapper = directory + "/collector.sh"
        try """
        #!/bin/sh
        previous=""
        for argument do
          shift
          if [ "$previous" = "--data" ]; then set -- "$@" "\(data)"; else set -- "$@" "$argument"; fi
          previous="$argument"
        done
        exec "\(collector)" "$@"

        """.write(toFile: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper)
        let run = try Shell.run([
            fleet, "--devices", "1000", "--live-every", "10", "--scenario", "bad-rotation", "--output",
            directory + "/out", "--collector", wrapper,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try JSONParser.parse(Array(run.stdout.utf8))
        guard case .array(let runs)? = summary["runs"],
            case .number(let installedText)? = runs.first?["collectorInstallations"],
            case .number(let storedText)? = runs.first?["collectorStoredReports"],
            let installations = Int(installedText), let stored = Int(storedText)
        else {
            Issue.record("unexpected pinkit-fleet summary: \(run.stdout)")
            return
        }
        #expect(installations > 0 && stored > 0)
        // The simulator's collector has stopped; serve its database with the console.
        let storage = try SQLCollectorStorage.open(dataDirectory: data, databaseURL: nil)
        var configuration = CollectorHarness.permissive()
        configuration.operatorTokens = try OperatorTokens(text: "alice:\(Self.token)")
        let api = CollectorAPI(storage: storage, configuration: configuration)
        let server = try HTTPServer(address: "127.0.0.1", port: 0, tls: nil) { api.handle($0) }
        defer {
            server.stop()
            storage.close()
        }
        let dom = try Self.dumpDOM(chromium: chromium, url: "http://127.0.0.1:\(server.port)/?token=\(Self.token)")
        // What the simulated fleet did is what the page shows: its installations on 4.2.0, its
        // pin failures for api.fleet.test, the kill switch it published.
        #expect(
            dom.contains("<th scope=\"row\">4.2.0</th><td>\(installations)</td><td>100.0 %</td>"), "\(dom.prefix(3000))"
        )
        #expect(dom.contains("<th scope=\"row\">api.fleet.test</th>"))
        #expect(dom.contains("Current: serial ") && dom.contains("published by fleet"))
        #expect(!dom.contains("No pin failure reported.") && !dom.contains("No installation checked in."))
    }

    /// `chromium --headless --dump-dom`, in a throwaway profile, loopback only.
    static func dumpDOM(chromium: String, url: String) throws -> String {
        try runChromium(chromium, ["--dump-dom", url])
    }

    static func runChromium(_ chromium: String, _ arguments: [String]) throws -> String {
        let profile = CollectorFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                "--user-data-dir=\(profile)",
            ] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try ProcessGate.run(process)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
