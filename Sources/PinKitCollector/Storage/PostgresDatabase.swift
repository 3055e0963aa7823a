internal import CPostgres
public import Foundation

/// PostgreSQL through libpq: a small pool of connections, one transaction per checkout.
/// Statements are written with `?` placeholders and numbered (`$1`…) here; every value travels
/// as a text parameter, never spliced into SQL.
public final class PostgresDatabase: SQLDatabase, @unchecked Sendable {
    // @unchecked Sendable: `idle` and `open` are only touched under `condition`; a checked-out
    // connection is used by one thread at a time.
    public let dialect = SQLDialect.postgres
    private let url: String
    private let maximumConnections: Int
    private let condition = NSCondition()
    private var idle: [Connection] = []
    private var open = 0

    /// Connects once to check the URL (`postgres://user@host:port/db` or a libpq key=value string).
    /// - Throws: ``CollectorError/Code/database`` when the server cannot be reached.
    public init(url: String, maximumConnections: Int = 8) throws(CollectorError) {
        self.url = url
        self.maximumConnections = max(1, maximumConnections)
        let first = try Connection(url: url)
        idle.append(first)
        open = 1
    }

    deinit { close() }

    public func close() {
        condition.lock()
        defer { condition.unlock() }
        for connection in idle { connection.finish() }
        idle.removeAll()
    }

    public func transaction<T>(_ body: (any SQLConnection) throws(CollectorError) -> T) throws(CollectorError) -> T {
        let connection = try checkOut()
        var healthy = true
        defer { checkIn(connection, healthy: healthy) }
        do {
            try connection.execute("BEGIN")
            let result = try body(connection)
            try connection.execute("COMMIT")
            return result
        } catch {
            if (try? connection.execute("ROLLBACK")) == nil { healthy = false }
            healthy = healthy && connection.isHealthy
            throw error
        }
    }

    private func checkOut() throws(CollectorError) -> Connection {
        condition.lock()
        while idle.isEmpty && open >= maximumConnections { condition.wait() }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        open += 1
        condition.unlock()
        do {
            return try Connection(url: url)
        } catch {
            condition.lock()
            open -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func checkIn(_ connection: Connection, healthy: Bool) {
        condition.lock()
        if healthy {
            idle.append(connection)
        } else {
            connection.finish()
            open -= 1
        }
        condition.signal()
        condition.unlock()
    }

    final class Connection: SQLConnection {
        let dialect = SQLDialect.postgres
        private var handle: OpaquePointer?
        private var numbered: [String: String] = [:]

        init(url: String) throws(CollectorError) {
            let handle = PQconnectdb(url)
            guard let handle, PQstatus(handle) == CONNECTION_OK else {
                let message = handle.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
                PQfinish(handle)
                throw CollectorError(.database, "cannot connect to PostgreSQL: \(Self.oneLine(message))")
            }
            self.handle = handle
            _ = try execute("SET client_min_messages = warning")
        }

        deinit { finish() }

        var isHealthy: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

        func finish() {
            if let handle { PQfinish(handle) }
            handle = nil
        }

        static func oneLine(_ text: String) -> String {
            text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .joined(separator: " ")
        }

        /// `?` → `$n`, in order (the shared SQL has no `?` inside literals).
        private func number(_ sql: String) -> String {
            if let cached = numbered[sql] { return cached }
            var output = ""
            var index = 0
            for character in sql {
                if character == "?" {
                    index += 1
                    output += "$\(index)"
                } else {
                    output.append(character)
                }
            }
            numbered[sql] = output
            return output
        }

        @discardableResult
        func execute(_ sql: String, _ parameters: [SQLValue]) throws(CollectorError) -> [[SQLValue]] {
            guard let handle else { throw CollectorError(.database, "the PostgreSQL connection is closed") }
            let texts: [String?] = parameters.map(\.text)
            var cStrings: [UnsafeMutablePointer<CChar>?] = texts.map { $0.flatMap { strdup($0) } }
            defer { for pointer in cStrings { free(pointer) } }
            let result = cStrings.withUnsafeMutableBufferPointer { buffer -> OpaquePointer? in
                buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(1, buffer.count)) {
                    PQexecParams(
                        handle, number(sql), Int32(parameters.count), nil, parameters.isEmpty ? nil : $0, nil, nil, 0)
                }
            }
            guard let result else {
                throw CollectorError(.database, "PostgreSQL: \(Self.oneLine(String(cString: PQerrorMessage(handle))))")
            }
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                let message = String(cString: PQresultErrorMessage(result))
                throw CollectorError(.database, "PostgreSQL statement failed: \(Self.oneLine(message))")
            }
            let rowCount = PQntuples(result)
            let columns = PQnfields(result)
            var rows: [[SQLValue]] = []
            rows.reserveCapacity(Int(rowCount))
            for row in 0..<rowCount {
                var values: [SQLValue] = []
                for column in 0..<columns {
                    if PQgetisnull(result, row, column) == 1 {
                        values.append(.null)
                    } else {
                        values.append(.text(String(cString: PQgetvalue(result, row, column))))
                    }
                }
                rows.append(values)
            }
            return rows
        }
    }
}
