import Foundation
import PinKit
import PinKitTestSupport
import Testing

@testable import PinKit

func failureEvent(host: String = "api.example.com", date: Date = Fixture.now, chain: [String] = [Fixture.other])
    -> PinFailureEvent
{
    PinFailureEvent(
        date: date,
        hostname: host,
        port: 443,
        notedHostname: "example.com",
        setName: "cloud",
        includeSubdomains: true,
        effectiveExpirationDate: RFC3339.parse("2028-06-01T00:00:00Z"),
        mode: .enforce,
        servedCertificateChain: ["-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"],
        validatedCertificateChain: ["-----BEGIN CERTIFICATE-----\nBBBB\n-----END CERTIFICATE-----\n"],
        knownPins: ["pin-sha256=\"\(Fixture.intermediate)\""],
        validatedChainPins: chain.map { try! SPKIPin(parsing: $0) },
        reason: "pin mismatch for \(host)"
    )
}

@Suite("Pin-failure report store")
struct ReportStoreTests {
    static func report(_ host: String = "api.example.com", date: Date = Fixture.now, chain: [String] = [Fixture.other])
        -> PinFailureReport
    {
        PinFailureReport(event: failureEvent(host: host, date: date, chain: chain), appVersion: "1.4.2")
    }

    @Test("the report carries exactly the RFC 7469 fields plus app version, reason and mode")
    func reportFormat() throws {
        guard case .object(let members) = Self.report().json else {
            Issue.record("not an object")
            return
        }
        #expect(
            members.map(\.key) == [
                "date-time", "hostname", "port", "effective-expiration-date", "include-subdomains", "noted-hostname",
                "served-certificate-chain", "validated-certificate-chain", "known-pins", "app-version",
                "failure-reason", "mode",
            ])
        let parsed = try PinFailureReport(json: Self.report().json)
        #expect(parsed.json == Self.report().json)
    }

    @Test("a torn last line, a truncated file or appended garbage loses no complete record")
    func crashRecovery() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try PinFailureReportStore(directory: directory.path)
        for index in 0..<5 { store.record(Self.report("h\(index).example.com")) }
        let path = store.path
        let intact = try Data(contentsOf: URL(fileURLWithPath: path))
        let damages: [(String, Data)] = [
            ("torn last line", intact + PinFailureReportStore.frame(["op": "seen"]).prefix(20)),
            (
                "truncated mid-record",
                intact + PinFailureReportStore.frame(Self.report("x.example.com").json).dropLast(30)
            ),
            ("random bytes", intact + Data((0..<500).map { _ in UInt8.random(in: 0...255) })),
            (
                "a valid-looking line with a wrong checksum",
                intact + Data("v1 00000000 {\"op\":\"dropped\",\"total\":99}\n".utf8)
            ),
        ]
        for (name, damaged) in damages {
            try damaged.write(to: URL(fileURLWithPath: path))
            let reopened = try PinFailureReportStore(directory: directory.path)
            #expect(reopened.entries.map(\.report.event.hostname) == (0..<5).map { "h\($0).example.com" }, "\(name)")
            #expect(reopened.droppedCount == 0, "\(name)")
        }
    }

    @Test("10,000 identical failures make one report with a count, across a restart")
    func deduplication() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try PinFailureReportStore(directory: directory.path)
        for index in 0..<10_000 { store.record(Self.report(date: Fixture.now.addingTimeInterval(Double(index)))) }
        #expect(store.entries.count == 1)
        #expect(store.entries[0].count == 10_000)
        let reopened = try PinFailureReportStore(directory: directory.path)
        reopened.record(Self.report(date: Fixture.now.addingTimeInterval(20_000)))
        #expect(reopened.entries.count == 1)
        #expect(reopened.entries[0].count == 10_001)
        // Outside the 24-hour window, or with another chain, it is a new report.
        reopened.record(Self.report(date: Fixture.now.addingTimeInterval(25 * 3600)))
        reopened.record(Self.report(chain: [Fixture.root]))
        #expect(reopened.entries.count == 3)
        // The file stays small: compaction keeps it near the live state.
        let size = try FileManager.default.attributesOfItem(atPath: reopened.path)[.size] as? Int ?? 0
        #expect(size < 64 * 1024)
    }

    @Test("a full store drops the oldest reports and reports how many")
    func bounded() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var limits = PinFailureReportStore.Limits()
        limits.maximumReports = 10
        let store = try PinFailureReportStore(directory: directory.path, limits: limits)
        for index in 0..<25 { store.record(Self.report("h\(index).example.com")) }
        #expect(store.entries.map(\.report.event.hostname) == (15..<25).map { "h\($0).example.com" })
        #expect(store.droppedCount == 15)
        let document = try JSONParser.parse(store.uploadDocument().body)
        #expect(document["dropped-reports"] == .int(15))
        #expect(try PinFailureReportStore(directory: directory.path, limits: limits).droppedCount == 15)
        limits.maximumReports = 100
        limits.maximumBytes = 3_000
        let bytes = try PinFailureReportStore(directory: directory.file("b"), limits: limits)
        for index in 0..<20 { bytes.record(Self.report("h\(index).example.com")) }
        #expect(bytes.entries.reduce(0) { $0 + $1.report.json.serialized().utf8.count } <= 3_000)
        #expect(bytes.droppedCount > 0)
    }

    @Test("concurrent writers from many tasks lose nothing")
    func concurrentWriters() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var limits = PinFailureReportStore.Limits()
        limits.maximumReports = 10_000
        limits.maximumBytes = 100 << 20
        let store = try PinFailureReportStore(directory: directory.path, limits: limits)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<50 {
                group.addTask {
                    for index in 0..<20 { store.record(Self.report("t\(task)-\(index).example.com")) }
                    for _ in 0..<20 { store.record(Self.report("shared.example.com")) }
                }
            }
        }
        #expect(store.entries.count == 1_001)
        #expect(store.entries.first { $0.report.event.hostname == "shared.example.com" }?.count == 1_000)
        let reopened = try PinFailureReportStore(directory: directory.path, limits: limits)
        #expect(reopened.entries.count == 1_001)
        #expect(reopened.entries.first { $0.report.event.hostname == "shared.example.com" }?.count == 1_000)
    }
}

@Suite("Report upload")
struct ReportUploadTests {
    @Test("only acknowledged reports are removed; the rest survive a restart; failures back off")
    func partialAcknowledgement() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = TestClock(Fixture.now)
        let store = try PinFailureReportStore(directory: directory.path)
        let reporter = PinFailureReporter(store: store, appVersion: "1.4.2", now: { clock.now })
        for index in 0..<3 { reporter.record(failureEvent(host: "h\(index).example.com")) }
        let ids = store.entries.map(\.id)
        let outcome = await reporter.connectionSucceeded { body in
            let sent = try JSONParser.parse(body)
            guard case .array(let reports)? = sent["reports"] else { throw PinKitError(.invalidDocument, "no reports") }
            #expect(reports.count == 3)
            return Array(#"{"accepted": ["\#(ids[1])", "not-an-id"]}"#.utf8)
        }
        #expect(outcome == .uploaded(accepted: 2, remaining: 2))
        #expect(try PinFailureReportStore(directory: directory.path).entries.map(\.id) == [ids[0], ids[2]])

        struct Refused: Error {}
        let failed = await reporter.connectionSucceeded { _ in throw Refused() }
        guard case .failed(let failure) = failed else {
            Issue.record("expected a failure, got \(failed)")
            return
        }
        #expect(failure.code == .sendFailed, "\(failure)")
        guard case .notDue = await reporter.connectionSucceeded(send: { _ in [] }) else {
            Issue.record("a second attempt right after a failure must wait")
            return
        }
        clock.advance(by: 3600)
        let garbage = await reporter.connectionSucceeded { _ in Array("not json".utf8) }
        guard case .failed(let unreadable) = garbage else {
            Issue.record("an unreadable answer removes nothing: \(garbage)")
            return
        }
        #expect(unreadable.code == .invalidAnswer, "\(unreadable)")
        #expect(store.entries.count == 2)
    }

    @Test("back-off doubles up to its maximum and resets on success")
    func backoff() {
        var backoff = UploadBackoff(base: 30, maximum: 300)
        let start = Fixture.now
        #expect(backoff.isDue(at: start))
        var delays: [TimeInterval] = []
        for _ in 0..<6 {
            backoff.failed(at: start, jitter: 1)
            delays.append(backoff.notBefore!.timeIntervalSince(start))
        }
        #expect(delays == [30, 60, 120, 240, 300, 300])
        #expect(!backoff.isDue(at: start.addingTimeInterval(299)))
        backoff.succeeded()
        #expect(backoff.isDue(at: start))
    }
}

final class TestClock: Sendable {
    private let value: Locked<Date>
    init(_ start: Date) { value = Locked(start) }
    var now: Date { value.withLock { $0 } }
    func advance(by seconds: TimeInterval) { value.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

@Suite("Report store replay")
struct ReportStoreReplayTests {
    @Test("records with impossible counts or time spans are refused on replay")
    func impossibleRecords() throws {
        let report = ReportStoreTests.report().json
        func add(_ id: String, count: Int, first: String, last: String) -> Data {
            PinFailureReportStore.frame([
                "op": "add", "id": .string(id), "key": "k", "count": .int(count), "first": .string(first),
                "last": .string(last),
                "report": report,
            ])
        }
        let data =
            add("ok", count: 2, first: "2026-01-01T00:00:00Z", last: "2026-01-02T00:00:00Z")
            + add("zero", count: 0, first: "2026-01-01T00:00:00Z", last: "2026-01-01T00:00:00Z")
            + add("negative", count: -5, first: "2026-01-01T00:00:00Z", last: "2026-01-01T00:00:00Z")
            + add("backwards", count: 1, first: "2026-01-02T00:00:00Z", last: "2026-01-01T00:00:00Z")
            + PinFailureReportStore.frame(["op": "seen", "id": "ok", "count": -1, "last": "2026-01-03T00:00:00Z"])
        let (entries, _) = PinFailureReportStore.recover(from: data)
        #expect(entries.map(\.id) == ["ok"])
        #expect(entries[0].count == 2)
    }
}
