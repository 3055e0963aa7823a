import Foundation
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
        /// The request cannot be made as given (a path that is not a URL reference).
        public static let invalidRequest = Code(rawValue: "invalid-request")
    }

    public var code: Code
    /// What happened, naming the request by method, host and route template only: never a
    /// concrete path, query or identifier, so it may be logged.
    public var message: String
    public var status: Int?
    /// The server's problem document (RFC 9457) or body text, redacted, with the request's path
    /// and query replaced by `[path]` (an RFC 9457 `instance` is often the path itself). What
    /// else the server chose to echo is the server's; it is not part of ``description``.
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

    /// A transport failure of a request to `url`, with the URL's path, query and fragment
    /// removed from the message (and from the wrapped error's reason), whatever the transport
    /// wrote there.
    init(_ error: TransportError, sending url: URL) {
        var scrubbed = error
        scrubbed.reason = Self.scrub(error.reason, of: url)
        self.init(scrubbed)
    }

    static func scrub(_ text: String, of url: URL) -> String {
        var secrets = [url.absoluteString, url.relativeString]
        if let components = URLComponents(url: url, resolvingAgainstBaseURL: true) {
            secrets += [
                components.percentEncodedPath, components.path, components.percentEncodedQuery, components.query,
                components.percentEncodedFragment, components.fragment,
            ].compactMap { $0 }
        }
        var text = text
        for secret in Set(secrets.filter { $0.count > 1 }).sorted(by: { $0.count > $1.count }) {
            text = text.replacingOccurrences(of: secret, with: "[path]")
        }
        return LogSanitizer.redact(text)
    }

    public var description: String { "\(code): \(message)" + (status.map { " (HTTP \($0))" } ?? "") }
}
