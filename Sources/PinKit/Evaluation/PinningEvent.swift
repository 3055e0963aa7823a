public import Foundation

/// Something the transport observed about pinning during a handshake. Delivered to the
/// session's observer; persisting and uploading is the report store's job.
public enum PinningEvent: Hashable, Sendable {
    /// No pin matched the verified chain (blocked in `enforce`, allowed in `report-only`).
    case pinFailure(PinFailureEvent)
    /// A pinned host's set has passed its `expires`; the connection ran under system trust.
    case pinSetExpired(host: String, port: Int, setName: String, expired: Date, at: Date)
}

/// Everything an RFC 7469 section 3 report needs, and nothing secret: no URL path or query,
/// no header, no user identifier.
public struct PinFailureEvent: Hashable, Sendable {
    /// When the failure was observed.
    public var date: Date
    /// The host the client connected to (normalised).
    public var hostname: String
    public var port: Int
    /// The host pattern of the pin set that applied (RFC 7469 "noted-hostname").
    public var notedHostname: String
    public var setName: String
    public var includeSubdomains: Bool
    /// The pin set's `expires` (RFC 7469 "effective-expiration-date"), if any.
    public var effectiveExpirationDate: Date?
    public var mode: PinConfiguration.Mode
    /// PEM certificates as the server sent them, leaf first.
    public var servedCertificateChain: [String]
    /// PEM certificates of the chain the TLS library built and verified, leaf first.
    public var validatedCertificateChain: [String]
    /// The pins that were expected, in RFC 7469 form: `pin-sha256="…"`.
    public var knownPins: [String]
    /// The SPKI digests of the validated chain, leaf first (for deduplication and messages).
    public var validatedChainPins: [SPKIPin]
    /// A human-readable reason naming the chain's subjects and keys and the expected pins.
    public var reason: String

    public init(
        date: Date,
        hostname: String,
        port: Int,
        notedHostname: String,
        setName: String,
        includeSubdomains: Bool,
        effectiveExpirationDate: Date?,
        mode: PinConfiguration.Mode,
        servedCertificateChain: [String],
        validatedCertificateChain: [String],
        knownPins: [String],
        validatedChainPins: [SPKIPin],
        reason: String
    ) {
        self.date = date
        self.hostname = hostname
        self.port = port
        self.notedHostname = notedHostname
        self.setName = setName
        self.includeSubdomains = includeSubdomains
        self.effectiveExpirationDate = effectiveExpirationDate
        self.mode = mode
        self.servedCertificateChain = servedCertificateChain
        self.validatedCertificateChain = validatedCertificateChain
        self.knownPins = knownPins
        self.validatedChainPins = validatedChainPins
        self.reason = reason
    }
}
