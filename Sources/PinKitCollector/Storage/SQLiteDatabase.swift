internal import CSQLite
public import Foundation

/// SQLite in WAL mode with `synchronous=FULL`: a commit is on stable storage before the
/// collector acknowledges it (power loss, not only `kill -9`). One connection, one writer at a
/// time (SQLite's own model); readers and writers are serialized by a lock.
public final class SQLiteDatabase: SQLDatabase, @unchecked Sendable {
    // @unchecked Sendable: the sqlite3 handle is only used inside `lock`.
    public let dialect = SQLDialect.sqlite
    public let path: String
    private let lock = NSLock()
    private var connection: Connection?

    /// Opens (or creates) the database file.
    /// - Throws: ``CollectorError/Code/database`` when the file cannot be opened or configured.
    public init(path: String) throws(CollectorError) {
        self.path = path
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw CollectorError(.database, "cannot open SQLite database \(path): \(message)")
        }
        let connection = Connection(handle)
        self.connection = connection
        try connection.execute("PRAGMA journal_mode=WAL")
        try connection.execute("PRAGMA synchronous=FULL")
        try connection.execute("PRAGMA foreign_keys=ON")
        sqlite3_busy_timeout(handle, 10_000)
        chmod(path, 0o600)
    }

    deinit { close() }

    public func close() {
        lock.lock()
        defer { lock.unlock() }
        if let connection { sqlite3_close_v2(connection.handle) }
        connection = nil
    }

    public func transaction<T>(_ body: (any SQLConnection) throws(CollectorError) -> T) throws(CollectorError) -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let connection else { throw CollectorError(.database, "the SQLite database is closed") }
        // IMMEDIATE takes the write lock up front, so a read-then-write never fails half way.
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let result = try body(connection)
            try connection.execute("COMMIT")
            return result
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    final class Connection: SQLConnection {
        let handle: OpaquePointer
        let dialect = SQLDialect.sqlite
        private var statements: [String: OpaquePointer] = [:]

        init(_ handle: OpaquePointer) { self.handle = handle }

        deinit { for statement in statements.values { sqlite3_finalize(statement) } }

        private var message: String { String(cString: sqlite3_errmsg(handle)) }

        @discardableResult
        func execute(_ sql: String, _ parameters: [SQLValue]) throws(CollectorError) -> [[SQLValue]] {
            let statement: OpaquePointer
            if let cached = statements[sql] {
                statement = cached
            } else {
                var prepared: OpaquePointer?
                guard sqlite3_prepare_v2(handle, sql, -1, &prepared, nil) == SQLITE_OK, let prepared else {
                    throw CollectorError(.database, "SQLite cannot prepare a statement: \(message)")
                }
                statements[sql] = prepared
                statement = prepared
            }
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            for (offset, parameter) in parameters.enumerated() {
                let index = Int32(offset + 1)
                let status: Int32
                switch parameter {
                case .null: status = sqlite3_bind_null(statement, index)
                case .integer(let value): status = sqlite3_bind_int64(statement, index, value)
                case .text(let text):
                    // SQLITE_TRANSIENT: SQLite copies the bytes before this call returns.
                    status = sqlite3_bind_text(
                        statement, index, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                }
                guard status == SQLITE_OK else { throw CollectorError(.database, "SQLite cannot bind: \(message)") }
            }
            var rows: [[SQLValue]] = []
            while true {
                let step = sqlite3_step(statement)
                if step == SQLITE_DONE { break }
                guard step == SQLITE_ROW else {
                    throw CollectorError(.database, "SQLite statement failed: \(message)")
                }
                let columns = sqlite3_column_count(statement)
                var row: [SQLValue] = []
                row.reserveCapacity(Int(columns))
                for column in 0..<columns {
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_NULL: row.append(.null)
                    case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
                    default:
                        let text = sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
                        row.append(.text(text))
                    }
                }
                rows.append(row)
            }
            return rows
        }
    }
}
