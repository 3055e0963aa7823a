import Foundation
import PinKit
import PinKitCollector
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import PinKitTransport

/// `pinkit-bench --only collector`: ingest through HTTPS with keep-alive on both backends, as
/// ratios against a bare INSERT loop on the same database (one transaction per batch, the same
/// batch sizes), with p99 latency per request; and `GET /v1/kill-switch` 304 answers per second.
enum CollectorBenchmark {
    static let auditBatch = 50

    /// `count` upload bodies of ``auditBatch`` entries each, one unbroken chain from seq 1.
    static func chainedAuditBodies(count: Int) -> [[UInt8]] {
        var previous = AuditLog.genesis
        var seq: Int64 = 0
        let time = RFC3339.format(Date())
        return (0..<count).map { _ in
            var entries: [JSONValue] = []
            for _ in 0..<auditBatch {
                seq += 1
                let entry: JSONValue = [
                    "seq": .int(seq), "time": .string(time), "type": "token-rotated", "fields": [:],
                    "prev": .string(previous),
                ]
                previous = PortableSHA256.hex(Array(entry.serialized().utf8))
                entries.append(entry)
            }
            return Array((["entries": .array(entries)] as JSONValue).serialized().utf8)
        }
    }

    static func run(seconds: Double, rounds: Int) async throws -> JSONValue {
        let pki = try LabPKI(name: "Collector Bench", rootKeyKind: .ecP256)
        let identity = try pki.leaf(["localhost"])
        let directory = NSTemporaryDirectory() + "pinkit-bench-collector-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let caFile = try LabPKI.writeCAFile([pki.root.certificate], to: directory + "/ca.pem")
        // One report upload body and a chain of audit entries, made by the real client stores.
        let store = try PinFailureReportStore(directory: directory + "/reports")
        let served = identity.chain
        store.record(
            PinFailureReport(
                event: PinFailureEvent(
                    date: Date(), hostname: "api.example.com", port: 443, notedHostname: "api.example.com",
                    setName: "api", includeSubdomains: false, effectiveExpirationDate: nil, mode: .enforce,
                    servedCertificateChain: served.map(\.pem), validatedCertificateChain: served.map(\.pem),
                    knownPins: [pki.backupKey.spkiPin.base64], validatedChainPins: served.map(\.spkiSHA256),
                    reason: "pin mismatch"),
                appVersion: "1.0"))
        let reportTemplate = String(decoding: store.uploadDocument().body, as: UTF8.self)
        let reportID = store.uploadDocument().ids[0]
        // The body around the id, so a fresh id costs a concatenation, not a search.
        let idRange = reportTemplate.range(of: reportID)!
        let (head, tail) = (
            Array(reportTemplate[..<idRange.lowerBound].utf8), Array(reportTemplate[idRange.upperBound...].utf8)
        )
        func reportBody(_ counter: Int) -> [UInt8] { head + Array("bench-report-\(counter)".utf8) + tail }

        var results: [(key: String, value: JSONValue)] = []
        var backends: [(String, () throws -> SQLCollectorStorage)] = [
            (
                "sqlite",
                { try SQLCollectorStorage.open(dataDirectory: directory + "/sqlite-\(UUID())", databaseURL: nil) }
            )
        ]
        var postgresNote = "measured"
        if FileManager.default.fileExists(atPath: PostgresCluster.binaries + "/initdb") {
            backends.append(
                (
                    "postgres",
                    {
                        try SQLCollectorStorage.open(
                            dataDirectory: "", databaseURL: try PostgresCluster.shared().makeDatabase())
                    }
                ))
        } else {
            postgresNote = "skipped: PostgreSQL 15 is not installed (apt-get install postgresql)"
        }
        for (name, open) in backends {
            let storage = try open()
            try storage.migrate()
            var configuration = CollectorAPI.Configuration()
            configuration.addressRate = RateLimiter.Rule(burst: 1e9, perSecond: 1e9)
            configuration.installationRate = RateLimiter.Rule(burst: 1e9, perSecond: 1e9)
            let key = try PrivateKey.generate(.ed25519)
            let api = CollectorAPI(storage: storage, configuration: configuration)
            let now = Date()
            try storage.publishKillSwitch(
                KillSwitchPublication(
                    serial: 1, publishedAt: now, operatorName: "bench", reason: "bench", pinning: "off",
                    expiresAt: now.addingTimeInterval(3_600),
                    document: try KillSwitchDocument.envelope(
                        payload: .init(
                            serial: 1, issuedAt: now, expiresAt: now.addingTimeInterval(3_600), pinning: .off,
                            reason: "bench"),
                        signatures: [("k", "Ed25519", { try key.sign($0) })])))
            let server = try HTTPServer(
                address: "127.0.0.1", port: 0,
                tls: HTTPServer.TLS(
                    certificateChainPEM: identity.chain.map(\.pem).joined(), privateKeyPEM: identity.key.privateKeyPEM)
            ) { api.handle($0) }
            var settings = PinnedHTTPClient.Configuration.unpinned()
            settings.trustStore = .caFile(caFile)
            settings.httpVersion = .http1Only
            let client = try PinnedHTTPClient(settings)
            let base = "https://localhost:\(server.port)"
            let headers = HTTPHeaders([
                ("Content-Type", "application/json"), ("X-PinKit-Installation", "bench-installation"),
                ("X-PinKit-App-Version", "1.0"),
            ])
            var counter = 0
            var latencies: [Double] = []
            let clock = ContinuousClock()
            func timed(_ request: PinKitTransport.HTTPRequest) async throws -> Int {
                let start = clock.now
                let response = try await client.send(request)
                let elapsed = clock.now - start
                latencies.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                return response.status
            }
            // Audit: consecutive 50-entry uploads continuing one chain, made before the clock
            // starts (the device's cost is not the collector's).
            let auditBodies = chainedAuditBodies(count: Int(seconds * Double(rounds) * 600) + 20)
            var nextAudit = 0
            var auditRates: [Double] = []
            var reportRates: [Double] = []
            var bareAuditRates: [Double] = []
            var bareReportRates: [Double] = []
            var auditLatencies: [Double] = []
            var reportLatencies: [Double] = []
            var bareCounter = 0
            for _ in 0..<rounds {
                latencies = []
                auditRates.append(
                    Double(auditBatch)
                        * (try await rate(seconds: seconds) {
                            guard nextAudit < auditBodies.count else { return }
                            let body = auditBodies[nextAudit]
                            nextAudit += 1
                            _ = try await timed(
                                PinKitTransport.HTTPRequest(
                                    method: "POST", url: URL(string: base + "/v1/audit")!, headers: headers, body: body)
                            )
                        }))
                auditLatencies += latencies
                latencies = []
                reportRates.append(
                    try await rate(seconds: seconds) {
                        counter += 1
                        let body = reportBody(counter)
                        _ = try await timed(
                            PinKitTransport.HTTPRequest(
                                method: "POST", url: URL(string: base + "/v1/pin-failures")!, headers: headers,
                                body: body))
                    })
                reportLatencies += latencies
                // The baseline: the same rows with bare INSERTs, one transaction per batch.
                bareAuditRates.append(
                    Double(auditBatch)
                        * (try await rate(seconds: seconds) {
                            try storage.database.transaction { connection throws(CollectorError) in
                                for _ in 0..<auditBatch {
                                    bareCounter += 1
                                    try connection.execute(
                                        "INSERT INTO audit_entries (installation_id, seq, entry_hash, prev_hash, type, app_version, received_at, chain_broken, document) VALUES ('bare', ?, 'h', 'p', 't', '1', 0, 0, '{}')",
                                        [.integer(Int64(bareCounter))])
                                }
                            }
                        }))
                bareReportRates.append(
                    try await rate(seconds: seconds) {
                        bareCounter += 1
                        _ = try storage.database.transaction { connection throws(CollectorError) in
                            try connection.execute(
                                "INSERT INTO pin_failure_reports (report_id, installation_id, received_at, hostname, port, app_version, mode, failure_reason, pin_set, served_keys, occurrences, first_seen, last_seen, document) VALUES (?, NULL, 0, 'h', 443, '1', 'enforce', '', '', '', 1, 0, 0, ?)",
                                [.text("bare-\(bareCounter)"), .text(reportTemplate)])
                        }
                    })
            }
            // Kill switch revalidation: 304s.
            let tag =
                try await client.send(PinKitTransport.HTTPRequest(url: URL(string: base + "/v1/kill-switch")!)).headers[
                    "ETag"] ?? ""
            var notModified = 0
            let killSwitchRate = try await rate(seconds: seconds) {
                let response = try await client.send(
                    PinKitTransport.HTTPRequest(
                        url: URL(string: base + "/v1/kill-switch")!, headers: HTTPHeaders([("If-None-Match", tag)])))
                if response.status == 304 { notModified += 1 }
            }
            client.shutdown()
            server.stop()
            storage.close()
            func p99(_ values: [Double]) -> Double {
                let sorted = values.sorted()
                return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))] * 1000
            }
            let auditRatio = median(auditRates) / median(bareAuditRates)
            let reportRatio = median(reportRates) / median(bareReportRates)
            results.append(
                (
                    name,
                    [
                        "auditEntriesPerSecond": number(median(auditRates), digits: 1),
                        "bareInsertAuditEntriesPerSecond": number(median(bareAuditRates), digits: 1),
                        "auditOverBareInsert": number(auditRatio),
                        "auditUploadP99Milliseconds": number(p99(auditLatencies)),
                        "reportPostsPerSecond": number(median(reportRates), digits: 1),
                        "bareInsertReportsPerSecond": number(median(bareReportRates), digits: 1),
                        "reportsOverBareInsert": number(reportRatio),
                        "reportPostP99Milliseconds": number(p99(reportLatencies)),
                        "killSwitch304PerSecond": number(killSwitchRate, digits: 1),
                        "killSwitch304Answers": .int(notModified),
                        "goals": [
                            "auditOverBareInsertAtLeast0.5": .bool(auditRatio >= 0.5),
                            "reportsOverBareInsertAtLeast0.5": .bool(reportRatio >= 0.5),
                        ],
                    ]
                ))
        }
        results.append(("postgres", results.first { $0.key == "postgres" }?.value ?? .string(postgresNote)))
        results = Array(
            results.reduce(into: [(key: String, value: JSONValue)]()) { list, item in
                if !list.contains(where: { $0.key == item.key }) { list.append(item) }
            })
        results.append(("auditBatch", .int(auditBatch)))
        results.append(("transport", "HTTPS (libmicrohttpd TLS), HTTP/1.1 keep-alive, one client"))
        return .object(results)
    }
}
