import Foundation
import PinKit
import PinKitCollector
import PinKitProcessGate
import Testing

@Suite("Collector device API over HTTP")
struct DeviceAPITests {
    @Test("the client's report upload is accepted by id, and a retry is stored once")
    func reportUpload() throws {
        let harness = try CollectorHarness()
        defer { harness.stop() }
        let upload = try CollectorFixtures.reportUpload([
            CollectorFixtures.event(), CollectorFixtures.event(host: "cdn.example.com"),
        ])
        for _ in 0..<2 {
            let response = try harness.post("/v1/pin-failures", upload.body)
            #expect(response.status == 200)
            let accepted = try JSONParser.parse(response.body)["accepted"]
            #expect(accepted == .array(upload.ids.map(JSONValue.string)))
        }
        #expect(try harness.storage.reportIDs() == upload.ids.sorted())
        // The client's own parser reads the answer (the existing contract).
        let summary = try harness.storage.pinFailureSummary(since: .distantPast)
        #expect(summary.count == 2 && summary.allSatisfy { $0.servedKeys.count == 2 })
    }

    static let badBodies: [(String, String, String)] = [
        ("not JSON", "{\"reports\": [", "malformed-json"),
        ("a duplicate key", "{\"reports\":[],\"reports\":[]}", "malformed-json"),
        ("an unknown top-level field", "{\"reports\":[],\"extra\":1}", "invalid-document"),
        ("a wrong type", "{\"reports\":{}}", "invalid-document"),
        ("a negative dropped count", "{\"reports\":[],\"dropped-reports\":-1}", "invalid-document"),
        ("a report that is not an object", "{\"reports\":[1]}", "invalid-document"),
    ]

    @Test("bad report bodies get a 400 problem and store nothing", arguments: badBodies)
    func badReports(name: String, body: String, code: String) throws {
        let harness = try CollectorHarness()
        defer { harness.stop() }
        let response = try harness.post("/v1/pin-failures", Array(body.utf8))
        #expect(response.status == 400, "\(name)")
        #expect(response.headers["content-type"] == "application/problem+json")
        #expect(try JSONParser.parse(response.body)["code"] == .string(code), "\(name): \(response.text)")
        #expect(try harness.storage.reportIDs().isEmpty)
    }

    /// Structured fields are validated against their schema: one bad field in the second report
    /// rejects the whole upload (one transaction), so the valid first report is not stored either.
    static let badReportFields: [(String, String, String)] = [
        ("a pin that is not 32 bytes", "known-pins", "[\"AAAA\"]"),
        ("a chain element that is not a certificate", "served-certificate-chain", "[\"-----BEGIN CERTIFICATE-----\"]"),
        ("a host name with a slash", "hostname", "\"evil.example/path\""),
        ("a port out of range", "port", "70000"),
        ("an unknown report field", "user-id", "\"alice\""),
    ]

    @Test("a report with a bad structured field rejects the whole upload", arguments: badReportFields)
    func badReportField(name: String, key: String, value: String) throws {
        let harness = try CollectorHarness()
        defer { harness.stop() }
        let upload = try CollectorFixtures.reportUpload([
            CollectorFixtures.event(), CollectorFixtures.event(host: "cdn.example.com"),
        ])
        guard case .object(var top) = try JSONParser.parse(upload.body), case .array(var reports) = top[0].value,
            case .object(var second) = reports[1]
        else {
            Issue.record("unexpected upload shape")
            return
        }
        let replacement = try JSONParser.parse(value)
        if let index = second.firstIndex(where: { $0.key == key }) {
            second[index].value = replacement
        } else {
            second.append((key, replacement))
        }
        reports[1] = .object(second)
        top[0].value = .array(reports)
        let response = try harness.post("/v1/pin-failures", Array(JSONValue.object(top).serialized().utf8))
        #expect(response.status == 400, "\(name): \(response.text)")
        #expect(try harness.storage.reportIDs().isEmpty)
    }

    @Test("free text is redacted before it is stored; structured fields arrive intact")
    func sanitizedReason() throws {
        let harness = try CollectorHarness()
        defer { harness.stop() }
        let upload = try CollectorFixtures.reportUpload([CollectorFixtures.event()])
        var text = String(decoding: upload.body, as: UTF8.self)
        text = text.replacingOccurrences(of: "\"pin mismatch\"", with: "\"mismatch for alice@example.com\"")
        #expect(try harness.post("/v1/pin-failures", Array(text.utf8)).status == 200)
        let stored = try harness.storage.database.transaction { connection throws(CollectorError) in
            try connection.execute("SELECT failure_reason, document FROM pin_failure_reports")
        }
        let reason = stored.first?[0].text ?? ""
        #expect(!reason.contains("alice@example.com") && reason.contains(LogSanitizer.emailPlaceholder))
        #expect(stored.first?[1].text?.contains(CollectorFixtures.servedChain[0].pem.split(separator: "\n")[1]) == true)
    }

    @Test("when the database cannot commit, nothing is acknowledged: 503 with Retry-After")
    func storageDown() throws {
        let harness = try CollectorHarness()
        defer { harness.server.stop() }
        let upload = try CollectorFixtures.reportUpload([CollectorFixtures.event()])
        #expect(try harness.post("/v1/pin-failures", upload.body).status == 200)
        harness.storage.close()
        let response = try harness.post("/v1/pin-failures", upload.body)
        #expect(response.status == 503 && response.headers["retry-after"] == "30")
        #expect(try JSONParser.parse(response.body)["accepted"] == nil)
        let audit = try harness.post("/v1/audit", CollectorFixtures.auditLog(entries: 1).uploadDocument().body)
        #expect(audit.status == 503)
    }

    @Test("a declared oversized body is refused before it is read; without the limit it is taken")
    func oversizedDeclared() throws {
        var small = HTTPServer.Limits()
        small.maximumBody = 2_048
        let upload = try CollectorFixtures.reportUpload([CollectorFixtures.event()])
        #expect(upload.body.count > small.maximumBody)
        // Unprotected variant: a limit above the body's size lets it through.
        let open = try CollectorHarness()
        defer { open.stop() }
        #expect(try open.post("/v1/pin-failures", upload.body).status == 200)
        // With the limit: 413, nothing stored.
        let limited = try CollectorHarness(limits: small)
        defer { limited.stop() }
        let response = try limited.post("/v1/pin-failures", upload.body)
        #expect(response.status == 413)
        #expect(try JSONParser.parse(response.body)["code"] == "body-too-large")
        #expect(try limited.storage.reportIDs().isEmpty)
    }

    @Test("a chunked body that grows past the limit is discarded and refused")
    func oversizedChunked() throws {
        var small = HTTPServer.Limits()
        small.maximumBody = 2_048
        let harness = try CollectorHarness(limits: small)
        defer { harness.stop() }
        let upload = try CollectorFixtures.reportUpload([CollectorFixtures.event()])
        let client = try LoopbackHTTP(port: harness.port)
        defer { client.close() }
        var bytes = Array(
            "POST /v1/pin-failures HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        bytes += Array(String(upload.body.count, radix: 16).utf8) + [13, 10] + upload.body + [13, 10]
        bytes += Array("0\r\n\r\n".utf8)
        client.send(bytes)
        #expect(client.receive()?.status == 413)
        #expect(try harness.storage.reportIDs().isEmpty)
    }

    @Test("a sender dripping bytes is cut off by the total deadline; without it, it holds the connection")
    func slowSender() throws {
        var unprotected = HTTPServer.Limits()
        unprotected.requestDeadlineMilliseconds = 0
        unprotected.idleTimeoutSeconds = 30
        var protected = unprotected
        protected.requestDeadlineMilliseconds = 300
        for (limits, expectCut) in [(unprotected, false), (protected, true)] {
            let harness = try CollectorHarness(limits: limits)
            defer { harness.stop() }
            let client = try LoopbackHTTP(port: harness.port)
            defer { client.close() }
            client.send(Array("POST /v1/pin-failures HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 64\r\n\r\n".utf8))
            // One byte every 100 ms: each byte resets libmicrohttpd's idle timeout.
            var sent = 0
            var stillOpen = true
            while sent < 20 && stillOpen {
                usleep(100_000)
                stillOpen = client.send([UInt8(ascii: " ")])
                sent += 1
                if harness.server.deadlineCutoffs > 0 { break }
            }
            if expectCut {
                #expect(client.isClosedByPeer())
                #expect(harness.server.deadlineCutoffs == 1)
            } else {
                #expect(stillOpen && sent == 20)
                #expect(harness.server.deadlineCutoffs == 0)
            }
        }
    }

    @Test("token buckets answer 429 with Retry-After per installation; without a limit all pass")
    func rateLimits() throws {
        var limited = CollectorHarness.permissive()
        limited.installationRate = RateLimiter.Rule(burst: 3, perSecond: 0.01)
        let body = Array("{\"reports\":[]}".utf8)
        for (configuration, expectLimited) in [(CollectorHarness.permissive(), false), (limited, true)] {
            let harness = try CollectorHarness(configuration: configuration)
            defer { harness.stop() }
            let statuses = try (0..<5).map { _ in try harness.post("/v1/pin-failures", body) }
            if expectLimited {
                #expect(statuses.map(\.status) == [200, 200, 200, 429, 429])
                #expect(statuses[3].headers["retry-after"].flatMap(Int.init) ?? 0 >= 1)
                // Another installation has its own bucket.
                var other = CollectorHarness.deviceHeaders
                other["X-PinKit-Installation"] = "install-9999-test"
                #expect(try harness.post("/v1/pin-failures", body, headers: other).status == 200)
            } else {
                #expect(statuses.allSatisfy { $0.status == 200 })
            }
        }
    }

    @Test("audit uploads are anchored: acceptedThrough, and a rewritten log is flagged for operators")
    func auditOverHTTP() throws {
        var configuration = CollectorHarness.permissive()
        configuration.operatorTokens = try OperatorTokens(text: "alice:0123456789abcdef0123")
        let harness = try CollectorHarness(configuration: configuration)
        defer { harness.stop() }
        let log = try CollectorFixtures.auditLog(entries: 4)
        var response = try harness.post("/v1/audit", log.uploadDocument().body)
        #expect(try JSONParser.parse(response.body) == ["acceptedThrough": 4])
        // Headers are required for audit uploads.
        response = try harness.post("/v1/audit", log.uploadDocument().body, headers: [:])
        #expect(response.status == 400)
        let forged = try CollectorFixtures.auditLog(entries: 5, event: .login(method: "forged"))
        response = try harness.post("/v1/audit", forged.uploadDocument().body)
        #expect(response.status == 200)
        let anomalies = try harness.get(
            "/v1/audit/anomalies", headers: ["Authorization": "Bearer 0123456789abcdef0123"])
        guard case .array(let list)? = try JSONParser.parse(anomalies.body)["anomalies"] else {
            Issue.record("no anomalies array: \(anomalies.text)")
            return
        }
        #expect(list.contains { $0["kind"] == "rewritten" && $0["chainBroken"] == true })
        #expect(list.contains { $0["kind"] == "chain-broken" && $0["seq"] == 5 })
    }

    @Test("a thousand uploads at once on a thousand connections are all acknowledged and stored")
    func thousandConcurrentUploads() throws {
        // Two thousand descriptors (both ends of every connection) in this process: no child
        // process may be launched meanwhile (ProcessGate: Foundation's Process.run() reads past
        // its readdir buffer at about 1,500 descriptors).
        try ProcessGate.withManyDescriptors {
            let harness = try CollectorHarness()
            defer { harness.stop() }
            let template = try CollectorFixtures.reportUpload([CollectorFixtures.event()])
            let text = String(decoding: template.body, as: UTF8.self)
            let ids = (0..<1_000).map { String(format: "report-%06d", $0) }
            // Every connection is open and every request sent before any answer is read.
            var clients: [LoopbackHTTP] = []
            defer { for client in clients { client.close() } }
            for id in ids {
                let client = try LoopbackHTTP(port: harness.port)
                clients.append(client)
                let body = Array(text.replacingOccurrences(of: template.ids[0], with: id).utf8)
                #expect(
                    client.send(
                        LoopbackHTTP.request(
                            "POST", "/v1/pin-failures", headers: CollectorHarness.deviceHeaders, body: body)))
            }
            var accepted = 0
            for (client, id) in zip(clients, ids) {
                if let response = client.receive(), response.status == 200,
                    try JSONParser.parse(response.body)["accepted"] == [.string(id)]
                {
                    accepted += 1
                }
            }
            #expect(accepted == 1_000)
            #expect(try harness.storage.reportIDs() == ids)

        }
    }

    @Test("check-in feeds the installed base; the operator endpoint needs a valid token")
    func installedBase() throws {
        var configuration = CollectorHarness.permissive()
        configuration.operatorTokens = try OperatorTokens(text: "# ops\nalice:0123456789abcdef0123\n")
        let harness = try CollectorHarness(configuration: configuration)
        defer { harness.stop() }
        for (index, version) in ["5.0.0", "5.0.0", "4.9.0"].enumerated() {
            var headers = CollectorHarness.deviceHeaders
            headers["X-PinKit-Installation"] = "install-000\(index)-test"
            let body =
                "{\"appVersion\":\"\(version)\",\"pinSetFingerprint\":\"abc123\",\"pinSetExpiry\":\"2027-06-01T00:00:00Z\"}"
            #expect(try harness.post("/v1/check-in", Array(body.utf8), headers: headers).status == 200)
        }
        #expect(try harness.post("/v1/check-in", Array("{\"appVersion\":1}".utf8)).status == 400)
        // No token, a wrong token, a token that differs only in its last character: 401.
        for authorization in [nil, "Bearer nope", "Bearer 0123456789abcdef0124"] as [String?] {
            let response = try harness.get(
                "/v1/installed-base", headers: authorization.map { ["Authorization": $0] } ?? [:])
            #expect(response.status == 401)
        }
        let response = try harness.get("/v1/installed-base", headers: ["Authorization": "Bearer 0123456789abcdef0123"])
        #expect(response.status == 200)
        let document = try JSONParser.parse(response.body)
        #expect(document["window"] == "30d")
        guard case .array(let versions)? = document["versions"] else {
            Issue.record("no versions: \(response.text)")
            return
        }
        #expect(versions.map { $0["version"] } == ["5.0.0", "4.9.0"])
        #expect(versions.first?["installations"] == 2 && versions.first?["pinSetFingerprints"] == ["abc123"])
    }
}
