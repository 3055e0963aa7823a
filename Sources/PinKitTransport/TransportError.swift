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
        public static let timeout = Code(rawValue: "timeout")
        public static let dnsFailure = Code(rawValue: "dns-failure")
        /// Another network failure (reset, closed mid-response, send/receive errors).
        public static let network = Code(rawValue: "network")
        public static let cancelled = Code(rawValue: "cancelled")
        public static let responseTooLarge = Code(rawValue: "response-too-large")
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

    /// True for failures where the request never reached a server (retry may help).
    public var isNetwork: Bool { [.connectionRefused, .timeout, .dnsFailure, .network].contains(code) }

    /// Bounded and secret-free: the code alone, for metrics.
    public var shortDescription: String { code.rawValue }

    public var description: String { "\(code): \(reason)" }
}
