internal import CPinKitSecret
public import Foundation
internal import PinKit
public import PinKitClient

/// Tokens and the server URL at rest in the freedesktop Secret Service (GNOME Keyring, KWallet,
/// KeePassXC…) through libsecret: the Linux counterpart of the Apple keychain.
///
/// Items carry the schema `org.pinkit.Credentials` with the attributes `kind` (`tokens` or
/// `server-url`), `server` (scheme, host and port of the base URL: tokens belong to one server)
/// and `account`. The token pair is one secret, so a save replaces both tokens in one Secret
/// Service call and no reader ever sees half a pair.
///
/// > Warning: When the Secret Service cannot be used (no session bus, nothing serving
/// > `org.freedesktop.secrets`, no default keyring, a locked one) every call throws
/// > ``CredentialStoreError`` `credential-store-unavailable`. There is no fallback to memory or a
/// > file, and no call asks to unlock anything (a prompt hangs without a display): the default
/// > collection's lock state is checked immediately before each call and searches never ask to
/// > unlock. A keyring locked in the instant between that check and the call is left to the
/// > provider, which refuses or prompts as it would for any client.
///
/// The Secret Service is found on the process's D-Bus session bus (`DBUS_SESSION_BUS_ADDRESS`,
/// else `$XDG_RUNTIME_DIR/bus`). Each call opens its own Secret Service proxy and runs off the
/// Swift concurrency pool, so calls from many tasks proceed independently.
public final class SecretServiceCredentialStore: CredentialStore {
    /// Names the session within the server (the app's user or profile); part of every item's key.
    public let account: String
    // The server whose tokens `load`/`save`/`clear` concern; changed by `serverChanged(to:)`.
    private let current: Locked<URL>

    /// A store for `server`'s tokens.
    public init(server: URL, account: String = "default") {
        self.account = account
        self.current = Locked(server)
    }

    /// The store for the server saved by the last ``APIClient/switchServer(to:)`` (through
    /// ``serverChanged(to:)``), or for `defaultServer` when none was saved. Use its ``server`` as
    /// the API client's base URL, so a switched server survives a restart.
    /// - Throws: ``CredentialStoreError`` (unavailable or locked keyring, unreadable item).
    public static func restoring(defaultServer: URL, account: String = "default")
        async throws(CredentialStoreError) -> SecretServiceCredentialStore
    {
        let store = SecretServiceCredentialStore(server: defaultServer, account: account)
        if let saved = try await store.savedServer() { store.current.withLock { $0 = saved } }
        return store
    }

    /// The server whose tokens this store reads and writes.
    public var server: URL { current.withLock { $0 } }

    /// The server URL saved in the keyring, if any.
    public func savedServer() async throws(CredentialStoreError) -> URL? {
        guard let text = try await lookup(Item(kind: .serverURL, server: nil, account: account)) else { return nil }
        guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
            throw CredentialStoreError(
                .failed, "the keyring's PinKit server URL item is not an absolute URL",
                remedy:
                    "Delete the item (secret-tool clear xdg:schema org.pinkit.Credentials kind server-url) and switch server again."
            )
        }
        return url
    }

    public func load() async throws(CredentialStoreError) -> Tokens? {
        let item = tokenItem()
        guard let text = try await lookup(item) else { return nil }
        guard let pair = try? JSONDecoder().decode(StoredPair.self, from: Data(text.utf8)) else {
            throw CredentialStoreError(
                .failed, "the keyring item for \(item.server ?? "") is not a PinKit token pair",
                remedy: "Sign in again: clear() removes the item.")
        }
        return Tokens(accessToken: pair.accessToken, refreshToken: pair.refreshToken)
    }

    public func save(_ tokens: Tokens) async throws(CredentialStoreError) {
        let item = tokenItem()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let pair = StoredPair(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
        // Encoding two strings cannot fail.
        let secret = String(decoding: (try? encoder.encode(pair)) ?? Data(), as: UTF8.self)
        try await store(item, label: "PinKit tokens for \(server.host ?? item.server ?? "")", secret: secret)
    }

    /// Stores `secret` as this server's token item verbatim: for tests of what `load` does with
    /// an item some other program wrote under the PinKit schema.
    package func saveRawTokenItem(_ secret: String) async throws(CredentialStoreError) {
        try await store(tokenItem(), label: "PinKit tokens (raw)", secret: secret)
    }

    public func clear() async throws(CredentialStoreError) {
        _ = try await remove(tokenItem())
    }

    /// Records `baseURL` as the server (in the keyring, so it survives a restart); later calls
    /// concern its tokens. The API client clears the old server's tokens before calling this.
    public func serverChanged(to baseURL: URL) async throws(CredentialStoreError) {
        try await store(
            Item(kind: .serverURL, server: nil, account: account), label: "PinKit server URL (\(account))",
            secret: baseURL.absoluteString)
        current.withLock { $0 = baseURL }
    }

    /// How many token items exist for `server` (locked or not), without reading them.
    package func tokenItemCount(server: URL) async throws(CredentialStoreError) -> Int {
        let item = Item(kind: .tokens, server: Self.serverKey(server), account: account)
        return try await run { () -> Result<Int, CredentialStoreError> in
            var count: Int32 = 0
            var message: UnsafeMutablePointer<CChar>?
            let status = pinkit_secret_count(item.kind.rawValue, item.server, item.account, &count, &message)
            return Self.check(status, message).map { Int(count) }
        }
    }

    /// `scheme://host:port`, lower case, the port explicit: the key of a server's tokens.
    package static func serverKey(_ url: URL) -> String {
        let scheme = (url.scheme ?? "").lowercased()
        var host = (url.host ?? "").lowercased()
        if host.contains(":") && !host.hasPrefix("[") { host = "[\(host)]" }
        let port = url.port ?? (scheme == "http" ? 80 : 443)
        return "\(scheme)://\(host):\(port)"
    }

    // MARK: - Items

    private struct StoredPair: Codable {
        let accessToken: String
        let refreshToken: String
    }

    struct Item: Sendable {
        enum Kind: String, Sendable {
            case tokens
            case serverURL = "server-url"
        }
        var kind: Kind
        var server: String?
        var account: String
    }

    private func tokenItem() -> Item { Item(kind: .tokens, server: Self.serverKey(server), account: account) }

    private func lookup(_ item: Item) async throws(CredentialStoreError) -> String? {
        try Self.checkAttributes(item)
        return try await run { () -> Result<String?, CredentialStoreError> in
            var secret: UnsafeMutablePointer<CChar>?
            var message: UnsafeMutablePointer<CChar>?
            let status = pinkit_secret_lookup(item.kind.rawValue, item.server, item.account, &secret, &message)
            defer { pinkit_secret_free(secret) }
            if status == PINKIT_SECRET_NOT_FOUND { return .success(nil) }
            return Self.check(status, message).map { secret.map { String(cString: $0) } }
        }
    }

    private func store(_ item: Item, label: String, secret: String) async throws(CredentialStoreError) {
        try Self.checkAttributes(item)
        // JSON escapes a NUL in a token; a server URL with one is refused by URL already.
        try await run { () -> Result<Void, CredentialStoreError> in
            var message: UnsafeMutablePointer<CChar>?
            let status = pinkit_secret_store(
                item.kind.rawValue, item.server, item.account, label, secret, &message)
            return Self.check(status, message)
        }
    }

    private func remove(_ item: Item) async throws(CredentialStoreError) -> Int {
        try Self.checkAttributes(item)
        return try await run { () -> Result<Int, CredentialStoreError> in
            var count: Int32 = 0
            var message: UnsafeMutablePointer<CChar>?
            let status = pinkit_secret_clear(item.kind.rawValue, item.server, item.account, &count, &message)
            return Self.check(status, message).map { Int(count) }
        }
    }

    /// Attributes cross into C as NUL-terminated strings: an account "a\0b" would silently be
    /// the item of account "a".
    private static func checkAttributes(_ item: Item) throws(CredentialStoreError) {
        guard !item.account.utf8.contains(0), !(item.server ?? "").utf8.contains(0) else {
            throw CredentialStoreError(
                .failed, "the account or server name contains a NUL byte",
                remedy: "Use an account name without NUL bytes.")
        }
    }

    /// Runs a blocking libsecret call on a dispatch thread: D-Bus round trips must not hold one
    /// of the few threads Swift concurrency has.
    private func run<T: Sendable>(_ body: @escaping @Sendable () -> Result<T, CredentialStoreError>)
        async throws(CredentialStoreError) -> T
    {
        let result = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: body()) }
        }
        return try result.get()
    }

    private static func check(_ status: pinkit_secret_status, _ message: UnsafeMutablePointer<CChar>?)
        -> Result<Void, CredentialStoreError>
    {
        defer { pinkit_secret_free(message) }
        let reason = message.map { String(cString: $0) } ?? "the Secret Service failed"
        switch status {
        case PINKIT_SECRET_OK, PINKIT_SECRET_NOT_FOUND:
            return .success(())
        case PINKIT_SECRET_UNAVAILABLE:
            return .failure(
                CredentialStoreError(
                    .unavailable, reason,
                    remedy:
                        "Run in a desktop session with a Secret Service provider (GNOME Keyring, KWallet, KeePassXC) on the D-Bus session bus; a headless service must start one or use the app's own store. PinKit does not fall back to memory or a file."
                ))
        case PINKIT_SECRET_LOCKED:
            return .failure(
                CredentialStoreError(
                    .unavailable, reason,
                    remedy:
                        "Unlock the keyring (sign in to the desktop session, or unlock it in the keyring manager) and retry; PinKit never shows an unlock prompt itself."
                ))
        case PINKIT_SECRET_NO_DEFAULT_COLLECTION:
            return .failure(
                CredentialStoreError(
                    .unavailable, reason,
                    remedy: "Create a default keyring (in Seahorse, or gnome-keyring-daemon --unlock) and retry."))
        default:
            return .failure(
                CredentialStoreError(
                    .failed, reason, remedy: "See the Secret Service provider's log (journalctl --user) and retry."))
        }
    }
}
