/// A statement parameter or a result cell, the subset both SQLite and PostgreSQL agree on.
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case text(String)

    /// The value as an integer (PostgreSQL answers in text).
    public var integer: Int64? {
        switch self {
        case .integer(let value): return value
        case .text(let text): return Int64(text)
        case .null: return nil
        }
    }

    public var text: String? {
        switch self {
        case .integer(let value): return String(value)
        case .text(let text): return text
        case .null: return nil
        }
    }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }

    public static func optional(_ text: String?) -> SQLValue { text.map(SQLValue.text) ?? .null }
}

/// What the shared SQL needs to know about the database it runs on.
public enum SQLDialect: String, Hashable, Sendable {
    case sqlite, postgres
}

/// One connection inside a transaction. Statements use `?` placeholders on every backend.
public protocol SQLConnection: AnyObject {
    var dialect: SQLDialect { get }
    /// Runs one statement and returns its rows.
    /// - Throws: ``CollectorError/Code/database``.
    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws(CollectorError) -> [[SQLValue]]
}

extension SQLConnection {
    @discardableResult
    public func execute(_ sql: String) throws(CollectorError) -> [[SQLValue]] { try execute(sql, []) }
}

/// A database the collector's storage runs on: transactions over pooled connections.
public protocol SQLDatabase: Sendable {
    var dialect: SQLDialect { get }
    /// Runs `body` in one transaction: committed (durably) when it returns, rolled back when it throws.
    func transaction<T>(_ body: (any SQLConnection) throws(CollectorError) -> T) throws(CollectorError) -> T
    /// Closes every connection.
    func close()
}
