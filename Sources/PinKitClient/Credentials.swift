public import Foundation

/// The tokens a session holds. Passwords are exchanged for these and never kept.
public struct Tokens: Hashable, Sendable {
    public var accessToken: String
    public var refreshToken: String

    public init(accessToken: String, refreshToken: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }
}

/// Where tokens live. Platform keychains plug in behind this protocol; implementations must
/// never write tokens in plain text to a file, and never fall back to another store when
/// theirs is unavailable: they throw ``CredentialStoreError`` instead.
///
/// Semantics every implementation keeps: `save` replaces the pair atomically (no reader ever
/// sees half of it), `clear` is idempotent, and a persistent store's `load` after a restart
/// returns what was saved.
public protocol CredentialStore: Sendable {
    func load() async throws(CredentialStoreError) -> Tokens?
    func save(_ tokens: Tokens) async throws(CredentialStoreError)
    func clear() async throws(CredentialStoreError)
    /// Tokens belong to one server. ``APIClient/switchServer(to:)`` calls this after clearing the
    /// old server's tokens; later calls concern `baseURL`, and a persistent store records it so
    /// the switch survives a restart. The default does nothing.
    func serverChanged(to baseURL: URL) async throws(CredentialStoreError)
}

extension CredentialStore {
    public func serverChanged(to baseURL: URL) async throws(CredentialStoreError) {}
}

/// Tokens in memory only: nothing reaches the disk.
public actor InMemoryCredentialStore: CredentialStore {
    private var tokens: Tokens?
    public init(_ tokens: Tokens? = nil) { self.tokens = tokens }
    public func load() -> Tokens? { tokens }
    public func save(_ tokens: Tokens) { self.tokens = tokens }
    public func clear() { tokens = nil }
}
