import Foundation
import PinKit
import PinKitCollector
import Testing

@Suite("Collector durability across kill -9")
struct CrashDurabilityTests {
    final class Ledger: @unchecked Sendable {
        // @unchecked Sendable: every access holds `lock`.
        private let lock = NSLock()
        private(set) var attempted: [String] = []
        private(set) var acknowledged: Set<String> = []
        private(set) var finishedWorkers = 0
        func finish() { lock.withLock { finishedWorkers += 1 } }
        var finished: Int { lock.withLock { finishedWorkers } }
        func attempt(_ id: String) { lock.withLock { attempted.append(id) } }
        func acknowledge(_ id: String) { lock.withLock { _ = acknowledged.insert(id) } }
        var acknowledgedCount: Int { lock.withLock { acknowledged.count } }
        var snapshot: (attempted: [String], acknowledged: Set<String>) { lock.withLock { (attempted, acknowledged) } }
    }

    @Test("no acknowledged report or audit entry is lost to kill -9, and retries store nothing twice")
    func killDuringUploads() throws {
        let directory = CollectorFixtures.temporaryDirectory()
        let template = try CollectorFixtures.reportUpload([CollectorFixtures.event()])
        let text = String(decoding: template.body, as: UTF8.self)
        @Sendable func body(_ id: String) -> [UInt8] {
            Array(text.replacingOccurrences(of: template.ids[0], with: id).utf8)
        }
        let log = try CollectorFixtures.auditLog(entries: 30)
        let entries = try JSONParser.parse(log.uploadDocument().body)
        guard case .array(let lines)? = entries["entries"] else {
            throw CollectorProcess.Failure(description: "no entries")
        }
        func auditBody(_ range: Range<Int>) -> [UInt8] {
            Array((["entries": .array(Array(lines[range]))] as JSONValue).serialized().utf8)
        }
        let headers = CollectorHarness.deviceHeaders

        var collector = try CollectorProcess(dataDirectory: directory)
        // Audit entries 1…10 acknowledged before the crash.
        let first = try LoopbackHTTP.exchange(
            port: collector.port, "POST", "/v1/audit", headers: headers, body: auditBody(0..<10))
        #expect(try JSONParser.parse(first.body) == ["acceptedThrough": 10])

        // Four devices upload reports continuously; the collector dies while they do.
        let ledger = Ledger()
        let port = collector.port
        let group = DispatchGroup()
        for worker in 0..<4 {
            DispatchQueue.global().async(group: group) {
                defer { ledger.finish() }
                // Each device has its own installation id (and so its own rate-limit bucket).
                var deviceHeaders = headers
                deviceHeaders["X-PinKit-Installation"] = "install-device-\(worker)"
                for index in 0..<200 {
                    let id = "report-\(worker)-\(String(format: "%04d", index))"
                    ledger.attempt(id)
                    guard
                        let response = try? LoopbackHTTP.exchange(
                            port: port, "POST", "/v1/pin-failures", headers: deviceHeaders, body: body(id)),
                        response.status == 200
                    else { return }
                    if (try? JSONParser.parse(response.body)["accepted"]) == [.string(id)] { ledger.acknowledge(id) }
                }
            }
        }
        // A half-sent audit upload (entries 11…20) is in flight at the moment of the kill.
        let partial = try LoopbackHTTP(port: port)
        defer { partial.close() }
        let request = LoopbackHTTP.request("POST", "/v1/audit", headers: headers, body: auditBody(10..<20))
        partial.send(Array(request.prefix(request.count - 40)))
        while ledger.acknowledgedCount < 40 && ledger.finished < 4 { usleep(5_000) }
        collector.kill9()
        group.wait()
        let (attempted, acknowledged) = ledger.snapshot
        #expect(acknowledged.count >= 40)
        #expect(partial.isClosedByPeer())

        // Restart on the same data: every acknowledged id survived.
        collector = try CollectorProcess(dataDirectory: directory)
        defer { collector.terminate() }
        let storage = try SQLCollectorStorage.open(dataDirectory: directory, databaseURL: nil)
        defer { storage.close() }
        let stored = Set(try storage.reportIDs())
        #expect(acknowledged.isSubset(of: stored))
        #expect(try storage.auditSequence(installation: "install-0000-test").map(\.seq) == Array(1...10))

        // The devices retry everything they attempted (acknowledged or not): one copy each.
        for id in attempted {
            var deviceHeaders = headers
            deviceHeaders["X-PinKit-Installation"] = "install-retry-\(id.split(separator: "-")[1])-\(id.suffix(2))"
            let response = try LoopbackHTTP.exchange(
                port: collector.port, "POST", "/v1/pin-failures", headers: deviceHeaders, body: body(id))
            #expect(response.status == 200)
        }
        let retry = try LoopbackHTTP.exchange(
            port: collector.port, "POST", "/v1/audit", headers: headers, body: auditBody(0..<30))
        #expect(try JSONParser.parse(retry.body) == ["acceptedThrough": 30])
        let rows = try storage.database.transaction { connection throws(CollectorError) in
            try connection.execute("SELECT COUNT(*), COUNT(DISTINCT report_id) FROM pin_failure_reports")
        }
        #expect(
            rows.first?[0].integer == Int64(Set(attempted).count)
                && rows.first?[1].integer == Int64(Set(attempted).count))
        let sequence = try storage.auditSequence(installation: "install-0000-test")
        #expect(sequence.map(\.seq) == Array(1...30) && !sequence.contains { $0.chainBroken })
        #expect(try storage.auditAnomalies(since: .distantPast).isEmpty)
    }
}
