public import PinKit

/// Why a request failed. Pin mismatches, invalid chains and network failures are told apart
/// by ``code``; a pin mismatch carries the ``PinFailure`` that explains it.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The verified chain holds no pinned key (enforce mode).
        public static let pinMismatch = Code(rawValue: "pin-mismatch")
        /// The chain does not lead to a trusted root (includes self-signed and rogue chains).
        public static let untrustedCertificate = Code(rawValue: "untrusted-certificate")
        /// A certificate of the chain is expired or not yet valid.
        public static let expiredCertificate = Code(rawValue: "expired-certificate")
        /// The leaf is not valid for the host name.
        public static let hostnameMismatch = Code(rawValue: "hostname-mismatch")
        /// Another TLS failure (protocol, version, handshake aborted).
        public static let tlsHandshake = Code(rawValue: "tls-handshake")
        public static let connectionRefused = Code(rawValue: "connection-refused")
        /// The send()'s one deadline passed (redirect hops and time queued for a connection
        /// included); the reason says how long it ran and whether the request was in flight.
        public static let timeout = Code(rawValue: "timeout")
        public static let dnsFailure = Code(rawValue: "dns-failure")
        /// Another network failure (reset, closed mid-response, send/receive errors).
        public static let network = Code(rawValue: "network")
        public static let cancelled = Code(rawValue: "cancelled")
        public static let responseTooLarge = Code(rawValue: "response-too-large")
        /// The bodies of all responses in flight on the client passed
        /// `maximumInFlightResponseBytes` together (many HTTP/2 streams); transient.
        public static let inFlightLimit = Code(rawValue: "in-flight-limit")
        /// A close-delimited body ended without TLS close_notify: the connection was cut, so the
        /// body may be short (an on-path attacker can do that without any key).
        public static let truncatedResponse = Code(rawValue: "truncated-response")
        /// A response header line (or all of them) is larger than the transport accepts.
        public static let responseHeaderTooLarge = Code(rawValue: "response-header-too-large")
        /// An HTTP status the caller cannot use where only one is acceptable (the kill-switch
        /// fetch wants 200): a redirect it does not follow, 304, or an error status.
        public static let unexpectedRedirect = Code(rawValue: "unexpected-redirect")
        public static let notModified = Code(rawValue: "not-modified")
        public static let unexpectedStatus = Code(rawValue: "unexpected-status")
        /// The request itself is unusable (not https, malformed URL).
        public static let invalidRequest = Code(rawValue: "invalid-request")
        public static let tooManyRedirects = Code(rawValue: "too-many-redirects")
        /// The client was shut down.
        public static let shutDown = Code(rawValue: "shut-down")
    }

    public var code: Code
    /// What happened, naming the host; for a pin mismatch, the chain's keys and the expected pins.
    public var reason: String
    public var host: String
    public var pinFailure: PinFailure?
    /// libcurl's result code, when libcurl reported the failure.
    public var curlCode: Int?
    /// PEM of the chain the server sent, when the request asked for chains
    /// (``PinnedHTTPClient/handshake(host:port:)``) and the server sent one.
    public var servedChainPEM: [String] = []
    /// True when bytes of the request left the client: the server may have received it and
    /// acted on it, even though no complete response came back. False means it certainly did
    /// not (failed before any byte was handed to the connection: DNS, connect, TLS, pinning,
    /// or the deadline passed while waiting for a connection).
    ///
    /// Retry safety: retrying is always safe when `wasSent` is false. When it is true, retry
    /// only an idempotent request (GET, HEAD, PUT, DELETE, OPTIONS) or one that carries an
    /// idempotency key the server honours, reusing the same key.
    public var wasSent = false
    /// How long the ``PinnedHTTPClient/send(_:)`` ran before failing (hops and queueing
    /// included), when the transport measured it.
    public var elapsed: Duration?

    public init(_ code: Code, _ reason: String, host: String = "", pinFailure: PinFailure? = nil, curlCode: Int? = nil)
    {
        self.code = code
        self.reason = reason
        self.host = host
        self.pinFailure = pinFailure
        self.curlCode = curlCode
    }

    /// True for a certificate problem that normal X.509 validation found (not pinning).
    public var isChainInvalid: Bool {
        [.untrustedCertificate, .expiredCertificate, .hostnameMismatch].contains(code)
    }

    /// True for failures of the network (refused, timeout, DNS, reset, truncation). It does not
    /// say whether the server received the request: ``wasSent`` does.
    public var isNetwork: Bool {
        [.connectionRefused, .timeout, .dnsFailure, .network, .truncatedResponse].contains(code)
    }

    /// Bounded and secret-free: the code alone, for metrics.
    public var shortDescription: String { code.rawValue }

    public var description: String { "\(code): \(reason)" }
}
