public import Foundation
import PinKit

/// ``CollectorStorage`` on any ``SQLDatabase``: the same SQL on SQLite and PostgreSQL.
public final class SQLCollectorStorage: CollectorStorage {
    public let database: any SQLDatabase

    public init(database: any SQLDatabase) { self.database = database }

    /// Opens `--database URL` when given (PostgreSQL), else `collector.sqlite3` in `directory`.
    public static func open(dataDirectory directory: String, databaseURL: String?) throws(CollectorError)
        -> SQLCollectorStorage
    {
        if let databaseURL {
            guard databaseURL.hasPrefix("postgres://") || databaseURL.hasPrefix("postgresql://") else {
                throw CollectorError(.configuration, "--database expects a postgres:// URL, saw a different scheme")
            }
            return SQLCollectorStorage(database: try PostgresDatabase(url: databaseURL))
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CollectorError(.configuration, "cannot create the data directory \(directory): \(error)")
        }
        let path = (directory as NSString).appendingPathComponent("collector.sqlite3")
        return SQLCollectorStorage(database: try SQLiteDatabase(path: path))
    }

    public func close() { database.close() }

    @discardableResult
    public func migrate() throws(CollectorError) -> [Int64] { try Migrations.apply(to: database) }

    private static func seconds(_ date: Date) -> SQLValue { .integer(Int64(date.timeIntervalSince1970.rounded(.down))) }
    private static func date(_ value: SQLValue) -> Date {
        Date(timeIntervalSince1970: TimeInterval(value.integer ?? 0))
    }

    private func touch(
        _ connection: any SQLConnection, installation: String, appVersion: String, fingerprint: String?,
        expiry: Date?, now: Date
    ) throws(CollectorError) {
        try connection.execute(
            """
            INSERT INTO installations (installation_id, app_version, pin_set_fingerprint, pin_set_expiry,
            first_seen, last_seen) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (installation_id) DO UPDATE SET app_version = excluded.app_version,
            pin_set_fingerprint = COALESCE(excluded.pin_set_fingerprint, installations.pin_set_fingerprint),
            pin_set_expiry = COALESCE(excluded.pin_set_expiry, installations.pin_set_expiry),
            last_seen = excluded.last_seen
            """,
            [
                .text(installation), .text(appVersion), .optional(fingerprint),
                expiry.map(Self.seconds) ?? .null, Self.seconds(now), Self.seconds(now),
            ])
    }

    public func storeReports(
        _ reports: [StoredReport], dropped: Int64, installation: String?, appVersion: String?, now: Date
    ) throws(CollectorError) -> [String] {
        try database.transaction { connection throws(CollectorError) -> [String] in
            for report in reports {
                try connection.execute(
                    """
                    INSERT INTO pin_failure_reports (report_id, installation_id, received_at, hostname, port,
                    app_version, mode, failure_reason, pin_set, served_keys, occurrences, first_seen, last_seen,
                    document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (report_id) DO NOTHING
                    """,
                    [
                        .text(report.id), .optional(installation), Self.seconds(now), .text(report.hostname),
                        .integer(Int64(report.port)), .text(report.appVersion), .text(report.mode),
                        .text(report.failureReason), .text(report.pinSet),
                        .text(report.servedKeys.joined(separator: ",")), .integer(report.count),
                        Self.seconds(report.firstSeen), Self.seconds(report.lastSeen), .text(report.document),
                    ])
            }
            if dropped > 0 {
                try connection.execute(
                    "INSERT INTO dropped_reports (installation_id, received_at, dropped) VALUES (?, ?, ?)",
                    [.text(installation ?? ""), Self.seconds(now), .integer(dropped)])
            }
            if let installation, let version = appVersion ?? reports.first?.appVersion {
                try touch(
                    connection, installation: installation, appVersion: version, fingerprint: nil, expiry: nil, now: now
                )
            }
            return reports.map(\.id)
        }
    }

    public func appendAudit(installation: String, appVersion: String, entries: [AuditUploadEntry], now: Date)
        throws(CollectorError) -> AuditOutcome
    {
        try database.transaction { connection throws(CollectorError) -> AuditOutcome in
            try connection.execute(
                """
                INSERT INTO audit_anchors (installation_id, last_seq, last_hash, updated_at) VALUES (?, 0, '', ?)
                ON CONFLICT (installation_id) DO NOTHING
                """,
                [.text(installation), Self.seconds(now)])
            // SQLite's BEGIN IMMEDIATE already serializes writers; PostgreSQL locks the anchor row.
            let lock = connection.dialect == .postgres ? " FOR UPDATE" : ""
            let anchor = try connection.execute(
                "SELECT last_seq, last_hash FROM audit_anchors WHERE installation_id = ?" + lock, [.text(installation)])
            var chain = AuditChain(
                seq: anchor.first?[0].integer ?? 0, hash: anchor.first?[1].text ?? "", installation: installation,
                appVersion: appVersion, now: now)
            var stored = 0
            for entry in entries {
                // Nothing above the anchor is stored yet (the anchor follows every stored entry),
                // so only entries at or below it need their stored hash.
                let known =
                    entry.seq > chain.seq
                    ? nil
                    : try connection.execute(
                        "SELECT entry_hash FROM audit_entries WHERE installation_id = ? AND seq = ?",
                        [.text(installation), .integer(entry.seq)]
                    ).first?[0].text
                guard let verdict = chain.accept(entry, storedHash: known) else { continue }
                try connection.execute(
                    """
                    INSERT INTO audit_entries (installation_id, seq, entry_hash, prev_hash, type, app_version,
                    received_at, chain_broken, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (installation_id, seq) DO NOTHING
                    """,
                    [
                        .text(installation), .integer(entry.seq), .text(entry.hash), .text(verdict.prev),
                        .text(entry.type), .text(appVersion), Self.seconds(now), .integer(verdict.broken ? 1 : 0),
                        .text(entry.document),
                    ])
                stored += 1
            }
            for anomaly in chain.anomalies {
                try connection.execute(
                    """
                    INSERT INTO audit_anomalies (installation_id, seq, kind, expected_hash, seen_hash, app_version,
                    detected_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """,
                    [
                        .text(installation), .integer(anomaly.seq), .text(anomaly.kind.rawValue),
                        .text(anomaly.expectedHash), .text(anomaly.seenHash), .text(appVersion),
                        Self.seconds(now),
                    ])
            }
            try connection.execute(
                "UPDATE audit_anchors SET last_seq = ?, last_hash = ?, updated_at = ? WHERE installation_id = ?",
                [.integer(chain.seq), .text(chain.hash), Self.seconds(now), .text(installation)])
            try touch(
                connection, installation: installation, appVersion: appVersion, fingerprint: nil, expiry: nil, now: now)
            return AuditOutcome(acceptedThrough: chain.seq, stored: stored, anomalies: chain.anomalies)
        }
    }

    public func checkIn(_ checkIn: CheckIn, now: Date) throws(CollectorError) {
        try database.transaction { connection throws(CollectorError) in
            try touch(
                connection, installation: checkIn.installationID, appVersion: checkIn.appVersion,
                fingerprint: checkIn.pinSetFingerprint, expiry: checkIn.pinSetExpiry, now: now)
        }
    }

    public func installedBase(window: TimeInterval, now: Date) throws(CollectorError) -> [InstalledVersion] {
        let rows = try database.transaction { connection throws(CollectorError) in
            try connection.execute(
                """
                SELECT app_version, COALESCE(pin_set_fingerprint, ''), COUNT(*) FROM installations
                WHERE last_seen >= ? GROUP BY app_version, COALESCE(pin_set_fingerprint, '')
                """,
                [Self.seconds(now.addingTimeInterval(-window))])
        }
        var counts: [String: Int64] = [:]
        var fingerprints: [String: Set<String>] = [:]
        for row in rows {
            guard let version = row[0].text, let count = row[2].integer else { continue }
            counts[version, default: 0] += count
            if let fingerprint = row[1].text, !fingerprint.isEmpty {
                fingerprints[version, default: []].insert(fingerprint)
            }
        }
        let total = counts.values.reduce(0, +)
        return counts.map { version, count in
            InstalledVersion(
                version: version, installations: count, share: total > 0 ? Double(count) / Double(total) : 0,
                pinSetFingerprints: (fingerprints[version] ?? []).sorted())
        }.sorted { AppVersion.compare($0.version, $1.version) == .orderedDescending }
    }

    public func pinFailureSummary(since: Date) throws(CollectorError) -> [FailureGroup] {
        let rows = try database.transaction { connection throws(CollectorError) in
            try connection.execute(
                """
                SELECT hostname, pin_set, app_version, served_keys, COUNT(*), SUM(occurrences),
                COUNT(DISTINCT installation_id), MIN(first_seen), MAX(last_seen) FROM pin_failure_reports
                WHERE received_at >= ? GROUP BY hostname, pin_set, app_version, served_keys
                """,
                [Self.seconds(since)])
        }
        return rows.map { row in
            FailureGroup(
                hostname: row[0].text ?? "", pinSet: row[1].text ?? "", appVersion: row[2].text ?? "",
                servedKeys: (row[3].text ?? "").split(separator: ",").map(String.init),
                reports: row[4].integer ?? 0, occurrences: row[5].integer ?? 0, installations: row[6].integer ?? 0,
                firstSeen: Self.date(row[7]), lastSeen: Self.date(row[8]))
        }.sorted { ($0.installations, $0.occurrences, $0.hostname) > ($1.installations, $1.occurrences, $1.hostname) }
    }

    public func pinFailuresPerDay(since: Date) throws(CollectorError) -> [DailyFailureCount] {
        let rows = try database.transaction { connection throws(CollectorError) in
            // Integer division of BIGINT seconds is the UTC day in SQLite and PostgreSQL alike.
            try connection.execute(
                """
                SELECT received_at / 86400, hostname, pin_set, app_version, SUM(occurrences) FROM pin_failure_reports
                WHERE received_at >= ? GROUP BY received_at / 86400, hostname, pin_set, app_version
                """,
                [Self.seconds(since)])
        }
        return rows.map { row in
            DailyFailureCount(
                day: Date(timeIntervalSince1970: Double((row[0].integer ?? 0) * 86_400)), hostname: row[1].text ?? "",
                pinSet: row[2].text ?? "", appVersion: row[3].text ?? "", occurrences: row[4].integer ?? 0)
        }.sorted { ($0.day, $0.hostname, $0.pinSet, $0.appVersion) < ($1.day, $1.hostname, $1.pinSet, $1.appVersion) }
    }

    public func auditAnomalies(since: Date) throws(CollectorError) -> [AuditAnomaly] {
        let rows = try database.transaction { connection throws(CollectorError) in
            try connection.execute(
                """
                SELECT installation_id, seq, kind, expected_hash, seen_hash, app_version, detected_at
                FROM audit_anomalies WHERE detected_at >= ? ORDER BY detected_at, installation_id, seq
                """,
                [Self.seconds(since)])
        }
        return rows.map { row in
            AuditAnomaly(
                installationID: row[0].text ?? "", seq: row[1].integer ?? 0,
                kind: AuditAnomaly.Kind(rawValue: row[2].text ?? ""), expectedHash: row[3].text ?? "",
                seenHash: row[4].text ?? "", appVersion: row[5].text ?? "", detectedAt: Self.date(row[6]))
        }
    }

    public func publishKillSwitch(_ publication: KillSwitchPublication) throws(CollectorError) {
        try database.transaction { connection throws(CollectorError) in
            if connection.dialect == .postgres {
                try connection.execute("LOCK TABLE kill_switch_publications IN SHARE ROW EXCLUSIVE MODE")
            }
            let highest = try connection.execute("SELECT MAX(serial) FROM kill_switch_publications").first?[0].integer
            if let highest, publication.serial <= highest {
                throw CollectorError(
                    .conflict, "serial \(publication.serial) is not above the published serial \(highest)")
            }
            try connection.execute(
                """
                INSERT INTO kill_switch_publications (serial, published_at, operator, reason, pinning, expires_at,
                document) VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .integer(publication.serial), Self.seconds(publication.publishedAt),
                    .text(publication.operatorName),
                    .text(publication.reason), .text(publication.pinning), Self.seconds(publication.expiresAt),
                    .text(publication.document),
                ])
        }
    }

    private static let publicationColumns = "serial, published_at, operator, reason, pinning, expires_at, document"

    private static func publication(_ row: [SQLValue]) -> KillSwitchPublication {
        KillSwitchPublication(
            serial: row[0].integer ?? 0, publishedAt: date(row[1]), operatorName: row[2].text ?? "",
            reason: row[3].text ?? "", pinning: row[4].text ?? "", expiresAt: date(row[5]), document: row[6].text ?? "")
    }

    public func currentKillSwitch() throws(CollectorError) -> KillSwitchPublication? {
        try database.transaction { connection throws(CollectorError) in
            try connection.execute(
                "SELECT \(Self.publicationColumns) FROM kill_switch_publications ORDER BY serial DESC LIMIT 1"
            ).first.map(Self.publication)
        }
    }

    public func killSwitchPublications() throws(CollectorError) -> [KillSwitchPublication] {
        try database.transaction { connection throws(CollectorError) in
            try connection.execute("SELECT \(Self.publicationColumns) FROM kill_switch_publications ORDER BY serial")
                .map(Self.publication)
        }
    }

    public func purge(before cutoff: Date) throws(CollectorError) -> PurgeCounts {
        try database.transaction { connection throws(CollectorError) -> PurgeCounts in
            let at = [Self.seconds(cutoff)]
            func count(_ table: String, _ column: String) throws(CollectorError) -> Int64 {
                let rows = try connection.execute("SELECT COUNT(*) FROM \(table) WHERE \(column) < ?", at)
                try connection.execute("DELETE FROM \(table) WHERE \(column) < ?", at)
                return rows.first?[0].integer ?? 0
            }
            let reports = try count("pin_failure_reports", "received_at")
            _ = try count("dropped_reports", "received_at")
            let entries = try count("audit_entries", "received_at")
            let anomalies = try count("audit_anomalies", "detected_at")
            let installations = try count("installations", "last_seen")
            return PurgeCounts(
                reports: reports, auditEntries: entries, anomalies: anomalies, installations: installations)
        }
    }

    public func recordCanary(_ results: [CanaryResult]) throws(CollectorError) {
        try database.transaction { connection throws(CollectorError) in
            for result in results {
                // Lists are stored as JSON arrays: a warning may contain any character.
                try connection.execute(
                    """
                    INSERT INTO canary_results (host, port, checked_at, bricked_releases, chain_keys, warnings)
                    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (host, port) DO UPDATE SET checked_at = excluded.checked_at,
                    bricked_releases = excluded.bricked_releases, chain_keys = excluded.chain_keys,
                    warnings = excluded.warnings
                    """,
                    [
                        .text(result.host), .integer(Int64(result.port)), Self.seconds(result.checkedAt),
                        .text(Self.list(result.brickedReleases)), .text(Self.list(result.chainKeys)),
                        .text(Self.list(result.warnings)),
                    ])
            }
        }
    }

    public func canaryResults() throws(CollectorError) -> [CanaryResult] {
        try database.transaction { connection throws(CollectorError) in
            try connection.execute(
                """
                SELECT host, port, checked_at, bricked_releases, chain_keys, warnings FROM canary_results
                ORDER BY host, port
                """
            ).map { row in
                CanaryResult(
                    host: row[0].text ?? "", port: Int(row[1].integer ?? 0), checkedAt: Self.date(row[2]),
                    brickedReleases: Self.list(row[3].text), chainKeys: Self.list(row[4].text),
                    warnings: Self.list(row[5].text))
            }
        }
    }

    private static func list(_ values: [String]) -> String {
        JSONValue.array(values.map(JSONValue.string)).serialized()
    }

    private static func list(_ text: String?) -> [String] {
        guard let text, case .array(let items)? = try? JSONParser.parse(text) else { return [] }
        return items.compactMap { if case .string(let value) = $0 { value } else { nil } }
    }

    public func reportIDs() throws(CollectorError) -> [String] {
        try database.transaction { connection throws(CollectorError) in
            try connection.execute("SELECT report_id FROM pin_failure_reports ORDER BY report_id").compactMap {
                $0[0].text
            }
        }
    }

    public func auditSequence(installation: String) throws(CollectorError)
        -> [(seq: Int64, hash: String, chainBroken: Bool)]
    {
        try database.transaction { connection throws(CollectorError) in
            try connection.execute(
                "SELECT seq, entry_hash, chain_broken FROM audit_entries WHERE installation_id = ? ORDER BY seq",
                [.text(installation)]
            ).map { ($0[0].integer ?? 0, $0[1].text ?? "", ($0[2].integer ?? 0) != 0) }
        }
    }
}
