import PinKit
public import PinKitTransport

/// Why an API call failed.
public struct APIError: Error, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The verified chain did not match the pins; see ``APIError/transport``.
        public static let pinning = Code(rawValue: "pinning")
        /// Any other transport failure (TLS, network, timeout, cancelled).
        public static let transport = Code(rawValue: "transport")
        /// The server answered with an error status; see ``APIError/status`` and ``APIError/problem``.
        public static let http = Code(rawValue: "http")
        /// The answer could not be decoded into the expected type.
        public static let decoding = Code(rawValue: "decoding")
        /// The request body could not be encoded.
        public static let encoding = Code(rawValue: "encoding")
        /// Not logged in, or logged out after a failed re-authentication.
        public static let unauthenticated = Code(rawValue: "unauthenticated")
        /// The credential store (the keyring) cannot be used; the message says what to do.
        public static let credentialStoreUnavailable = Code(rawValue: "credential-store-unavailable")
        /// The credential store answered with an error or holds an unreadable item.
        public static let credentialStoreFailed = Code(rawValue: "credential-store-failed")
    }

    public var code: Code
    public var message: String
    public var status: Int?
    /// The server's problem document (RFC 9457) or body text, redacted.
    public var problem: String?
    public var transport: TransportError?

    public init(
        _ code: Code, _ message: String, status: Int? = nil, problem: String? = nil, transport: TransportError? = nil
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.problem = problem
        self.transport = transport
    }

    init(_ error: TransportError) {
        self.init(error.code == .pinMismatch ? .pinning : .transport, error.reason, transport: error)
    }

    public var description: String { "\(code): \(message)" + (status.map { " (HTTP \($0))" } ?? "") }
}
