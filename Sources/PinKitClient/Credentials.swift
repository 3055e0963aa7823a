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
/// never write tokens in plain text to a file.
public protocol CredentialStore: Sendable {
    func load() async -> Tokens?
    func save(_ tokens: Tokens) async
    func clear() async
}

/// Tokens in memory only: nothing reaches the disk.
public actor InMemoryCredentialStore: CredentialStore {
    private var tokens: Tokens?
    public init(_ tokens: Tokens? = nil) { self.tokens = tokens }
    public func load() -> Tokens? { tokens }
    public func save(_ tokens: Tokens) { self.tokens = tokens }
    public func clear() { tokens = nil }
}
