import Foundation
import PinKit
import PinKitCollector
import PinKitTestSupport
import Testing

/// The storage contract, run against SQLite and a real PostgreSQL cluster.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres
    var testDescription: String { rawValue }

    /// Two independent connections ("nodes") to one fresh database.
    func makeNodes() throws -> (SQLCollectorStorage, SQLCollectorStorage) {
        switch self {
        case .sqlite:
            let directory = CollectorFixtures.temporaryDirectory()
            return (
                try SQLCollectorStorage.open(dataDirectory: directory, databaseURL: nil),
                try SQLCollectorStorage.open(dataDirectory: directory, databaseURL: nil)
            )
        case .postgres:
            let url = try PostgresCluster.shared().makeDatabase()
            return (
                try SQLCollectorStorage.open(dataDirectory: "", databaseURL: url),
                try SQLCollectorStorage.open(dataDirectory: "", databaseURL: url)
            )
        }
    }

    func makeStorage() throws -> SQLCollectorStorage {
        switch self {
        case .sqlite:
            return try SQLCollectorStorage.open(dataDirectory: CollectorFixtures.temporaryDirectory(), databaseURL: nil)
        case .postgres:
            let url = try PostgresCluster.shared().makeDatabase()
            return try SQLCollectorStorage.open(dataDirectory: "", databaseURL: url)
        }
    }
}

@Suite("Collector storage contract (SQLite and PostgreSQL)")
struct StorageContractTests {
    let now = CollectorFixtures.referenceTime

    func report(
        _ id: String, host: String = "api.example.com", version: String = "4.2.0", servedKeys: [String] = ["k1"]
    )
        -> StoredReport
    {
        StoredReport(
            id: id, hostname: host, port: 443, appVersion: version, mode: "enforce", failureReason: "pin mismatch",
            pinSet: "set1", servedKeys: servedKeys, count: 1, firstSeen: now, lastSeen: now, document: "{}")
    }

    @Test("migrations apply once, in order, and a second run applies nothing", arguments: Backend.allCases)
    func migrations(backend: Backend) throws {
        let storage = try backend.makeStorage()
        defer { storage.close() }
        #expect(try storage.migrate() == [1, 2])
        #expect(try storage.migrate() == [])
    }

    @Test("nodes starting together migrate once; both then see one schema", arguments: Backend.allCases)
    func concurrentMigrations(backend: Backend) async throws {
        let (first, second) = try backend.makeNodes()
        defer {
            first.close()
            second.close()
        }
        async let a = Task { try first.migrate() }.value
        async let b = Task { try second.migrate() }.value
        let applied = try await [a, b]
        #expect(applied.flatMap { $0 }.sorted() == [1, 2])
        _ = try second.storeReports([report("report-node1")], dropped: 0, installation: nil, appVersion: nil, now: now)
        #expect(try first.reportIDs() == ["report-node1"])
    }

    @Test("the canary's verdict per host is replaced, not appended", arguments: Backend.allCases)
    func canaryResults(backend: Backend) throws {
        let storage = try backend.makeStorage()
        defer { storage.close() }
        try storage.migrate()
        let bad = CanaryResult(
            host: "api.example.com", port: 443, checkedAt: now, brickedReleases: ["4.1"], chainKeys: ["k1", "k2"],
            warnings: ["release 5.0 has no pin outside the chain: no \"backup\""])
        try storage.recordCanary([bad])
        #expect(try storage.canaryResults() == [bad])
        var fixed = bad
        fixed.brickedReleases = []
        fixed.checkedAt = now.addingTimeInterval(60)
        try storage.recordCanary([fixed])
        #expect(try storage.canaryResults() == [fixed])
    }

    @Test("a retried report upload is accepted again and stored once", arguments: Backend.allCases)
    func idempotentReports(backend: Backend) throws {
        let storage = try backend.makeStorage()
        defer { storage.close() }
        try storage.migrate()
        let batch = [report("report-0001"), report("report-0002")]
        #expect(
            try storage.storeReports(batch, dropped: 0, installation: "install-aaaa", appVersion: nil, now: now)
                == ["report-0001", "report-0002"])
        #expect(
            try storage.storeReports(batch, dropped: 0, installation: "install-aaaa", appVersion: nil, now: now)
                == ["report-0001", "report-0002"])
        #expect(try storage.reportIDs() == ["report-0001", "report-0002"])
    }

    @Test("a transaction that fails half way leaves nothing behind", arguments: Backend.allCases)
    func atomicity(backend: Backend) throws {
        let storage = try backend.makeStorage()
        defer { storage.close() }
        try storage.migrate()
        // Without the transaction (the unprotected variant): the first insert stays.
        _ = try storage.storeReports([report("report-kept1")], dropped: 0, installation: nil, appVersion: nil, now: now)
        #expect(try storage.reportIDs() == ["report-kept1"])
        // In one transaction, a failure after the insert rolls it back.
        #expect(throws: CollectorError.self) {
            try storage.database.transaction { connection throws(CollectorError) in
                try connection.execute(
                    """
                    INSERT INTO pin_failure_reports (report_id, installation_id, received_at, hostname, port,
                    app_version, mode, failure_reason, pin_set, served_keys, occurrences, first_seen, last_seen,
                    document) VALUES ('report-lost1', NULL, 0, 'h', 443, '1', 'enforce', '', '', '', 1, 0, 0, '{}')
                    """)
                try connection.execute("INSERT INTO no_such_table VALUES (1)")
            }
        }
        #expect(try storage.reportIDs() == ["report-kept1"])
    }

    @Test("an audit chain is anchored: continuation, rewrite, break and gap", arguments: Backend.allCases)
    func auditAnchoring(backend: Backend) throws {
        let storage = try backend.makeStorage()
        defer { storage.close() }
        try storage.migrate()
        let log = try CollectorFixtures.auditLog(entries: 3)
        let first = try CollectorFixtures.entries(log.uploadDocument().body)
        var outcome = try storage.appendAudit(
            installation: "install-0001", appVersion: "4.2.0", entries: first, now: now)
        #expect(outcome.acceptedThrough == 3 && outcome.anomalies.isEmpty && outcome.stored == 3)
        // The same upload again (a lost acknowledgement): nothing new, nothing flagged.
        outcome = try storage.appendAudit(installation: "install-0001", appVersion: "4.2.0", entries: first, now: now)
        #expect(outcome.acceptedThrough == 3 && outcome.anomalies.isEmpty && outcome.stored == 0)
        // The device acknowledges, writes more: the marker plus entries 4…5 continue the chain.
        log.acknowledge(throughSeq: 3)
        log.record(.tokenRotated)
        log.record(.tokenRotated)
        outcome = try storage.appendAudit(
            installation: "install-0001", appVersion: "4.2.0",
            entries: try CollectorFixtures.entries(log.uploadDocument().body),
            now: now)
        #expect(outcome.acceptedThrough == 5 && outcome.anomalies.isEmpty)

        // A device-side rewrite of the whole log: a fresh log whose entries 1…6 differ.
        let forged = try CollectorFixtures.auditLog(entries: 6)
        outcome = try storage.appendAudit(
            installation: "install-0001", appVersion: "4.2.0",
            entries: try CollectorFixtures.entries(forged.uploadDocument().body),
            now: now)
        let kinds = Set(outcome.anomalies.map(\.kind.rawValue))
        #expect(kinds.contains("rewritten") && kinds.contains("chain-broken"))
        let broken = try #require(outcome.anomalies.first { $0.kind == .chainBroken })
        #expect(broken.seq == 6 && broken.expectedHash.count == 64 && broken.seenHash.count == 64)
        #expect(broken.expectedHash != broken.seenHash)
        // Stored anyway, flagged, and shown to operators.
        let sequence = try storage.auditSequence(installation: "install-0001")
        #expect(sequence.map(\.seq) == [1, 2, 3, 4, 5, 6] && sequence.last?.chainBroken == true)
        #expect(try storage.auditAnomalies(since: now.addingTimeInterval(-1)).count == outcome.anomalies.count)

        // A gap: an installation whose first upload starts at seq 3 without a marker.
        let partial = Array(first.dropFirst(2))
        outcome = try storage.appendAudit(installation: "install-0002", appVersion: "4.2.0", entries: partial, now: now)
        #expect(outcome.anomalies.map(\.kind) == [.gap])
    }

    @Test("check-ins and uploads count installations per version within the window", arguments: Backend.allCases)
    func installedBase(backend: Backend) throws {
        let storage = try backend.makeStorage()
        defer { storage.close() }
        try storage.migrate()
        for index in 0..<3 {
            try storage.checkIn(
                CheckIn(
                    installationID: "install-new\(index)", appVersion: "5.0.0", pinSetFingerprint: "fp5",
                    pinSetExpiry: now),
                now: now)
        }
        try storage.checkIn(
            CheckIn(installationID: "install-old0", appVersion: "4.0.0", pinSetFingerprint: "fp4", pinSetExpiry: nil),
            now: now)
        // Seen long ago: outside the 30-day window.
        try storage.checkIn(
            CheckIn(installationID: "install-gone", appVersion: "3.0.0", pinSetFingerprint: nil, pinSetExpiry: nil),
            now: now.addingTimeInterval(-60 * 86_400))
        // An upload moves an installation to its new version and keeps its fingerprint.
        _ = try storage.storeReports([], dropped: 1, installation: "install-old0", appVersion: "5.0.0", now: now)
        let base = try storage.installedBase(window: 30 * 86_400, now: now)
        #expect(base.map(\.version) == ["5.0.0"])
        #expect(base.first?.installations == 4 && base.first?.share == 1.0)
        #expect(base.first?.pinSetFingerprints == ["fp4", "fp5"])
    }

    @Test("the failure summary groups by host, pin set, version and served keys", arguments: Backend.allCases)
    func summary(backend: Backend) throws {
        let storage = try backend.makeStorage()
        defer { storage.close() }
        try storage.migrate()
        for index in 0..<3 {
            _ = try storage.storeReports(
                [report("report-rot\(index)", servedKeys: ["newkey"])], dropped: 0, installation: "install-rot\(index)",
                appVersion: nil, now: now)
        }
        _ = try storage.storeReports(
            [report("report-proxy", servedKeys: ["proxykey"])], dropped: 0, installation: "install-prox",
            appVersion: nil, now: now)
        let groups = try storage.pinFailureSummary(since: now.addingTimeInterval(-1))
        #expect(groups.count == 2)
        #expect(groups[0].servedKeys == ["newkey"] && groups[0].installations == 3 && groups[0].reports == 3)
        #expect(groups[1].servedKeys == ["proxykey"] && groups[1].installations == 1)
    }

    @Test("pin failures per day are bucketed by the UTC day of receipt", arguments: Backend.allCases)
    func failuresPerDay(backend: Backend) throws {
        let storage = try backend.makeStorage()
        defer { storage.close() }
        try storage.migrate()
        let day = (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        let midnight = Date(timeIntervalSince1970: day)
        for (index, at) in [midnight.addingTimeInterval(-1), midnight, midnight.addingTimeInterval(86_399)].enumerated()
        {
            _ = try storage.storeReports(
                [report("report-day\(index)", version: index == 2 ? "5.0.0" : "4.2.0")], dropped: 0,
                installation: "install-day\(index)", appVersion: nil, now: at)
        }
        let days = try storage.pinFailuresPerDay(since: midnight.addingTimeInterval(-86_400))
        #expect(days.map(\.day) == [midnight.addingTimeInterval(-86_400), midnight, midnight])
        #expect(days.map(\.appVersion) == ["4.2.0", "4.2.0", "5.0.0"])
        #expect(days.allSatisfy { $0.occurrences == 1 && $0.hostname == "api.example.com" && $0.pinSet == "set1" })
        #expect(try storage.pinFailuresPerDay(since: midnight).count == 2)
    }

    @Test("kill-switch publications only move forward and keep who and why", arguments: Backend.allCases)
    func killSwitch(backend: Backend) throws {
        let storage = try backend.makeStorage()
        defer { storage.close() }
        try storage.migrate()
        #expect(try storage.currentKillSwitch() == nil)
        func publication(_ serial: Int64) -> KillSwitchPublication {
            KillSwitchPublication(
                serial: serial, publishedAt: now, operatorName: "alice", reason: "incident \(serial)", pinning: "off",
                expiresAt: now.addingTimeInterval(86_400), document: "{\"serial\":\(serial)}")
        }
        try storage.publishKillSwitch(publication(5))
        let stale = #expect(throws: CollectorError.self) { try storage.publishKillSwitch(publication(5)) }
        #expect(stale?.code == .conflict)
        try storage.publishKillSwitch(publication(7))
        #expect(try storage.currentKillSwitch()?.serial == 7)
        #expect(try storage.killSwitchPublications().map(\.operatorName) == ["alice", "alice"])
    }

    @Test("purge removes expired rows but keeps the audit anchor", arguments: Backend.allCases)
    func purge(backend: Backend) throws {
        let storage = try backend.makeStorage()
        defer { storage.close() }
        try storage.migrate()
        let old = now.addingTimeInterval(-100 * 86_400)
        _ = try storage.storeReports(
            [report("report-old1")], dropped: 0, installation: "install-0001", appVersion: nil, now: old)
        _ = try storage.storeReports([report("report-new1")], dropped: 0, installation: nil, appVersion: nil, now: now)
        let log = try CollectorFixtures.auditLog(entries: 2)
        _ = try storage.appendAudit(
            installation: "install-0001", appVersion: "4.2.0",
            entries: try CollectorFixtures.entries(log.uploadDocument().body),
            now: old)
        let counts = try storage.purge(before: now.addingTimeInterval(-90 * 86_400))
        #expect(counts.reports == 1 && counts.auditEntries == 2 && counts.installations == 1)
        #expect(try storage.reportIDs() == ["report-new1"])
        // The anchor survived: the next upload still continues the chain without a flag.
        log.acknowledge(throughSeq: 2)
        log.record(.tokenRotated)
        let outcome = try storage.appendAudit(
            installation: "install-0001", appVersion: "4.2.0",
            entries: try CollectorFixtures.entries(log.uploadDocument().body),
            now: now)
        #expect(outcome.acceptedThrough == 3 && outcome.anomalies.isEmpty)
    }

    @Test("a retry storm on one installation's chain stores each entry once", arguments: Backend.allCases)
    func concurrentAudit(backend: Backend) async throws {
        let storage = try backend.makeStorage()
        defer { storage.close() }
        try storage.migrate()
        let log = try CollectorFixtures.auditLog(entries: 40)
        let entries = try CollectorFixtures.entries(log.uploadDocument().body)
        // The same upload from 8 workers at once (a device retrying over flaky links).
        let outcomes = try await withThrowingTaskGroup(of: AuditOutcome.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try storage.appendAudit(installation: "install-race", appVersion: "1.0", entries: entries, now: now)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { $0.acceptedThrough == 40 && $0.anomalies.isEmpty })
        #expect(outcomes.map(\.stored).reduce(0, +) == 40)
        #expect(try storage.auditSequence(installation: "install-race").map(\.seq) == Array(1...40))
    }
}
