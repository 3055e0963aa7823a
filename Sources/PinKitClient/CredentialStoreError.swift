/// Why a credential store could not do what was asked. Never answered by a fallback to another
/// store: the app decides (tell the user to unlock the keyring, retry later, sign in again).
public struct CredentialStoreError: Error, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The store cannot be used now: no session bus, no Secret Service on it, no default
        /// keyring, or a locked one. ``CredentialStoreError/remedy`` says what to do.
        public static let unavailable = Code(rawValue: "credential-store-unavailable")
        /// The store answered with an error, or holds an item PinKit cannot read.
        public static let failed = Code(rawValue: "credential-store-failed")
    }

    public var code: Code
    /// What happened, with the store's own message. Never contains a secret.
    public var reason: String
    /// What the user or operator can do about it.
    public var remedy: String

    public init(_ code: Code, _ reason: String, remedy: String) {
        self.code = code
        self.reason = reason
        self.remedy = remedy
    }

    public var description: String { "\(code): \(reason). \(remedy)" }
}
