import Foundation

/// The console's browser sessions and its short-lived rotation-check results, in memory.
///
/// A session is what a form POST authenticates with: a random 256-bit id in an `HttpOnly`,
/// `Secure`, `SameSite=Strict` cookie, and a separate random CSRF token the server writes into
/// every form and compares in constant time. Both are bounded in number and lifetime; a restart
/// forgets them (operators sign in again with their token). Results belong to the operator who
/// asked for them and expire after ``resultLifetime``.
///
/// The bounds are per operator: opening a session or storing a result beyond an operator's
/// quota drops that operator's own oldest entry, never another operator's. A single table-wide
/// bound let any token holder (or one leaked token) sign every other operator out and delete
/// their results with 256 requests. The memory bound is the number of configured operators
/// times the quotas.
final class ConsoleSessions: @unchecked Sendable {
    // @unchecked Sendable: every field is read and written under `lock`; `isolatesOperators` is a let.
    struct Session {
        var operatorName: String
        var csrfToken: String
        var expiresAt: Date
    }

    struct Result {
        var operatorName: String
        var html: String
        var expiresAt: Date
    }

    static let cookieName = "__Host-pinkit-session"
    static let sessionLifetime: TimeInterval = 30 * 60
    static let resultLifetime: TimeInterval = 10 * 60
    static let sessionsPerOperator = 16
    static let resultsPerOperator = 16

    /// False only in tests: one table-wide bound (256) that evicts whoever's entry is oldest,
    /// to show the eviction attack the per-operator quotas stop.
    private let isolatesOperators: Bool

    init(isolatesOperators: Bool = true) {
        self.isolatesOperators = isolatesOperators
    }

    private let lock = NSLock()
    private var sessions: [String: Session] = [:]
    private var results: [String: Result] = [:]

    /// A new session for `operatorName`: its id (the cookie value) and CSRF token.
    func open(operatorName: String, now: Date) -> (id: String, session: Session) {
        let id = Self.randomToken()
        let session = Session(
            operatorName: operatorName, csrfToken: Self.randomToken(),
            expiresAt: now.addingTimeInterval(Self.sessionLifetime))
        lock.withLock {
            bound(&sessions, owner: operatorName, quota: Self.sessionsPerOperator, now: now, expiry: \.expiresAt)
            sessions[id] = session
        }
        return (id, session)
    }

    /// The live session with this cookie value, or nil (unknown, expired, or malformed).
    func session(id: String?, now: Date) -> Session? {
        guard let id, id.utf8.count == 64 else { return nil }
        return lock.withLock {
            guard let session = sessions[id] else { return nil }
            if session.expiresAt <= now {
                sessions[id] = nil
                return nil
            }
            return session
        }
    }

    func close(id: String) {
        lock.withLock { sessions[id] = nil }
    }

    /// Stores a rendered result and returns its id.
    func store(result html: String, operatorName: String, now: Date) -> String {
        let id = Self.randomToken()
        lock.withLock {
            bound(&results, owner: operatorName, quota: Self.resultsPerOperator, now: now, expiry: \.expiresAt)
            results[id] = Result(
                operatorName: operatorName, html: html, expiresAt: now.addingTimeInterval(Self.resultLifetime))
        }
        return id
    }

    /// The result `id` if it exists, has not expired and belongs to `operatorName`.
    func result(id: String?, operatorName: String, now: Date) -> String? {
        guard let id, id.utf8.count == 64 else { return nil }
        return lock.withLock {
            guard let result = results[id], result.expiresAt > now, result.operatorName == operatorName else {
                return nil
            }
            return result.html
        }
    }

    var resultCount: Int { lock.withLock { results.count } }
    var sessionCount: Int { lock.withLock { sessions.count } }

    /// Constant-time comparison of a submitted CSRF token with the session's.
    static func tokensMatch(_ submitted: String?, _ expected: String) -> Bool {
        guard let submitted else { return false }
        return OperatorTokens.constantTimeEqual(Array(submitted.utf8), Array(expected.utf8))
    }

    /// 32 random bytes from the system generator, as 64 hex digits.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }
            .joined()
    }

    /// Drops expired entries, then `owner`'s oldest-expiring ones until `owner` has room for
    /// one more; other operators' entries are never touched.
    private func bound<Value: OperatorOwned>(
        _ table: inout [String: Value], owner: String, quota: Int, now: Date, expiry: KeyPath<Value, Date>
    ) {
        table = table.filter { $0.value[keyPath: expiry] > now }
        let limit = isolatesOperators ? quota : 256
        var mine = isolatesOperators ? table.filter { $0.value.operatorName == owner } : table
        while mine.count >= limit, let oldest = mine.min(by: { $0.value[keyPath: expiry] < $1.value[keyPath: expiry] })
        {
            table[oldest.key] = nil
            mine[oldest.key] = nil
        }
    }
}

/// A session or result: both belong to the operator who made them.
protocol OperatorOwned {
    var operatorName: String { get }
}

extension ConsoleSessions.Session: OperatorOwned {}
extension ConsoleSessions.Result: OperatorOwned {}
