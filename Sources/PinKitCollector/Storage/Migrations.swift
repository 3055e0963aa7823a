import Foundation

/// The collector's schema, as numbered migrations applied in order at start (`migrate`).
///
/// The SQL is shared by SQLite and PostgreSQL: `BIGINT`, `TEXT`, `ON CONFLICT`, no
/// auto-increment and no blobs. Times are Unix seconds. Nothing here holds an IP address: a
/// client address lives only in the rate limiter's memory.
enum Migrations {
    static let all: [(version: Int64, statements: [String])] = [
        (
            1,
            [
                """
                CREATE TABLE installations (installation_id TEXT PRIMARY KEY, app_version TEXT NOT NULL,
                pin_set_fingerprint TEXT, pin_set_expiry BIGINT, first_seen BIGINT NOT NULL,
                last_seen BIGINT NOT NULL)
                """,
                "CREATE INDEX installations_last_seen ON installations (last_seen)",
                """
                CREATE TABLE pin_failure_reports (report_id TEXT PRIMARY KEY, installation_id TEXT,
                received_at BIGINT NOT NULL, hostname TEXT NOT NULL, port BIGINT NOT NULL,
                app_version TEXT NOT NULL, mode TEXT NOT NULL, failure_reason TEXT NOT NULL,
                pin_set TEXT NOT NULL, served_keys TEXT NOT NULL, occurrences BIGINT NOT NULL,
                first_seen BIGINT NOT NULL, last_seen BIGINT NOT NULL, document TEXT NOT NULL)
                """,
                "CREATE INDEX pin_failure_reports_received ON pin_failure_reports (received_at)",
                """
                CREATE TABLE dropped_reports (installation_id TEXT NOT NULL, received_at BIGINT NOT NULL,
                dropped BIGINT NOT NULL)
                """,
                """
                CREATE TABLE audit_anchors (installation_id TEXT PRIMARY KEY, last_seq BIGINT NOT NULL,
                last_hash TEXT NOT NULL, updated_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE audit_entries (installation_id TEXT NOT NULL, seq BIGINT NOT NULL,
                entry_hash TEXT NOT NULL, prev_hash TEXT NOT NULL, type TEXT NOT NULL, app_version TEXT NOT NULL,
                received_at BIGINT NOT NULL, chain_broken BIGINT NOT NULL, document TEXT NOT NULL,
                PRIMARY KEY (installation_id, seq))
                """,
                "CREATE INDEX audit_entries_received ON audit_entries (received_at)",
                """
                CREATE TABLE audit_anomalies (installation_id TEXT NOT NULL, seq BIGINT NOT NULL,
                kind TEXT NOT NULL, expected_hash TEXT NOT NULL, seen_hash TEXT NOT NULL,
                app_version TEXT NOT NULL, detected_at BIGINT NOT NULL,
                PRIMARY KEY (installation_id, seq, kind, seen_hash))
                """,
                """
                CREATE TABLE kill_switch_publications (serial BIGINT PRIMARY KEY, published_at BIGINT NOT NULL,
                operator TEXT NOT NULL, reason TEXT NOT NULL, pinning TEXT NOT NULL, expires_at BIGINT NOT NULL,
                document TEXT NOT NULL)
                """,
            ]
        ),
        (
            2,
            [
                """
                CREATE TABLE canary_results (host TEXT NOT NULL, port BIGINT NOT NULL, checked_at BIGINT NOT NULL,
                bricked_releases TEXT NOT NULL, chain_keys TEXT NOT NULL, warnings TEXT NOT NULL,
                PRIMARY KEY (host, port))
                """
            ]
        ),
    ]

    /// Applies every migration newer than the database's version, each in its own transaction.
    /// - Returns: the versions applied now.
    @discardableResult
    static func apply(to database: any SQLDatabase) throws(CollectorError) -> [Int64] {
        try database.transaction { connection throws(CollectorError) in
            if connection.dialect == .postgres { try connection.execute("SELECT pg_advisory_xact_lock(7469017)") }
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)")
        }
        var applied: [Int64] = []
        for migration in all {
            let done = try database.transaction { connection throws(CollectorError) -> Bool in
                // N collectors may start together against one PostgreSQL: one applies, the others wait.
                if connection.dialect == .postgres { try connection.execute("SELECT pg_advisory_xact_lock(7469017)") }
                let rows = try connection.execute(
                    "SELECT version FROM schema_migrations WHERE version = ?", [.integer(migration.version)])
                guard rows.isEmpty else { return false }
                for statement in migration.statements { try connection.execute(statement) }
                try connection.execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                    [.integer(migration.version), .integer(Int64(Date().timeIntervalSince1970))])
                return true
            }
            if done { applied.append(migration.version) }
        }
        return applied
    }

    static var latest: Int64 { all.last?.version ?? 0 }
}
