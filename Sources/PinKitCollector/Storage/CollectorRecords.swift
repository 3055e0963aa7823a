public import Foundation

/// A validated pin-failure report, ready to store.
public struct StoredReport: Hashable, Sendable {
    public var id: String
    public var hostname: String
    public var port: Int
    public var appVersion: String
    public var mode: String
    /// Sanitized free text.
    public var failureReason: String
    /// A fingerprint of the report's known pins (sorted), so reports group by pin set.
    public var pinSet: String
    /// The SPKI pins of the *served* chain, in chain order.
    public var servedKeys: [String]
    public var count: Int64
    public var firstSeen: Date
    public var lastSeen: Date
    /// The report's JSON as received (structured fields validated, free text sanitized).
    public var document: String

    public init(
        id: String, hostname: String, port: Int, appVersion: String, mode: String, failureReason: String,
        pinSet: String, servedKeys: [String], count: Int64, firstSeen: Date, lastSeen: Date, document: String
    ) {
        self.id = id
        self.hostname = hostname
        self.port = port
        self.appVersion = appVersion
        self.mode = mode
        self.failureReason = failureReason
        self.pinSet = pinSet
        self.servedKeys = servedKeys
        self.count = count
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.document = document
    }
}

/// One audit entry of an upload, validated: a chained entry or the truncation marker.
public struct AuditUploadEntry: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A chained entry with the SHA-256 of its predecessor line.
        case entry(prev: String)
        /// `{"type":"truncated","seq":K,"anchor":H}`: entries through K were cut; H is entry K's hash.
        case truncated(anchor: String)
    }

    public var seq: Int64
    public var kind: Kind
    public var type: String
    /// SHA-256 (hex) of the entry's line exactly as the device hashed it.
    public var hash: String
    public var document: String

    public init(seq: Int64, kind: Kind, type: String, hash: String, document: String) {
        self.seq = seq
        self.kind = kind
        self.type = type
        self.hash = hash
        self.document = document
    }
}

/// Why an upload did not continue the chain the server anchors.
public struct AuditAnomaly: Hashable, Sendable {
    public struct Kind: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The entry's `prev` is not the hash the server anchored.
        public static let chainBroken = Kind(rawValue: "chain-broken")
        /// An entry the server already holds came back with other content.
        public static let rewritten = Kind(rawValue: "rewritten")
        /// Entries are missing between the anchor and the upload.
        public static let gap = Kind(rawValue: "gap")
    }

    public var installationID: String
    public var seq: Int64
    public var kind: Kind
    public var expectedHash: String
    public var seenHash: String
    public var appVersion: String
    public var detectedAt: Date

    public init(
        installationID: String, seq: Int64, kind: Kind, expectedHash: String, seenHash: String, appVersion: String,
        detectedAt: Date
    ) {
        self.installationID = installationID
        self.seq = seq
        self.kind = kind
        self.expectedHash = expectedHash
        self.seenHash = seenHash
        self.appVersion = appVersion
        self.detectedAt = detectedAt
    }
}

/// What an audit upload did.
public struct AuditOutcome: Hashable, Sendable {
    /// The newest sequence number the server anchors for the installation.
    public var acceptedThrough: Int64
    public var stored: Int
    public var anomalies: [AuditAnomaly]
}

/// A daily check-in: one installation's version and pin set.
public struct CheckIn: Hashable, Sendable {
    public var installationID: String
    public var appVersion: String
    public var pinSetFingerprint: String?
    public var pinSetExpiry: Date?

    public init(installationID: String, appVersion: String, pinSetFingerprint: String?, pinSetExpiry: Date?) {
        self.installationID = installationID
        self.appVersion = appVersion
        self.pinSetFingerprint = pinSetFingerprint
        self.pinSetExpiry = pinSetExpiry
    }
}

/// One app version's share of the installations seen within a window.
public struct InstalledVersion: Hashable, Sendable {
    public var version: String
    public var installations: Int64
    public var share: Double
    public var pinSetFingerprints: [String]
}

/// Pin-failure reports grouped by host, pin set, app version and the served chain's keys.
public struct FailureGroup: Hashable, Sendable {
    public var hostname: String
    public var pinSet: String
    public var appVersion: String
    public var servedKeys: [String]
    public var reports: Int64
    public var occurrences: Int64
    public var installations: Int64
    public var firstSeen: Date
    public var lastSeen: Date
}

/// Pin-failure occurrences received on one UTC day for one host, pin set and app version.
public struct DailyFailureCount: Hashable, Sendable {
    /// Midnight UTC of the day the collector received the reports.
    public var day: Date
    public var hostname: String
    public var pinSet: String
    public var appVersion: String
    public var occurrences: Int64
}

/// A kill-switch document the collector verified and published, with who and why.
public struct KillSwitchPublication: Hashable, Sendable {
    public var serial: Int64
    public var publishedAt: Date
    /// The operator token's name.
    public var operatorName: String
    public var reason: String
    public var pinning: String
    public var expiresAt: Date
    /// The signed envelope exactly as uploaded.
    public var document: String

    public init(
        serial: Int64, publishedAt: Date, operatorName: String, reason: String, pinning: String, expiresAt: Date,
        document: String
    ) {
        self.serial = serial
        self.publishedAt = publishedAt
        self.operatorName = operatorName
        self.reason = reason
        self.pinning = pinning
        self.expiresAt = expiresAt
        self.document = document
    }
}

/// The canary's latest verdict for one host.
public struct CanaryResult: Hashable, Sendable {
    public var host: String
    public var port: Int
    public var checkedAt: Date
    public var brickedReleases: [String]
    public var chainKeys: [String]
    public var warnings: [String]

    public init(
        host: String, port: Int, checkedAt: Date, brickedReleases: [String], chainKeys: [String], warnings: [String]
    ) {
        self.host = host
        self.port = port
        self.checkedAt = checkedAt
        self.brickedReleases = brickedReleases
        self.chainKeys = chainKeys
        self.warnings = warnings
    }
}

/// Rows removed by a retention purge.
public struct PurgeCounts: Hashable, Sendable {
    public var reports: Int64
    public var auditEntries: Int64
    public var anomalies: Int64
    public var installations: Int64

    public init(reports: Int64, auditEntries: Int64, anomalies: Int64, installations: Int64) {
        self.reports = reports
        self.auditEntries = auditEntries
        self.anomalies = anomalies
        self.installations = installations
    }
}

/// Everything the collector stores, behind one protocol: SQLite by default, PostgreSQL at
/// scale, and one contract test suite for both. Every write is one transaction; a method
/// returns only after its commit.
public protocol CollectorStorage: Sendable {
    /// Applies pending schema migrations. - Returns: the versions applied.
    @discardableResult
    func migrate() throws(CollectorError) -> [Int64]
    /// Stores reports idempotently by id. - Returns: every id of `reports` (new or already stored).
    func storeReports(_ reports: [StoredReport], dropped: Int64, installation: String?, appVersion: String?, now: Date)
        throws(CollectorError) -> [String]
    /// Appends audit entries, checking them against the installation's anchor.
    func appendAudit(installation: String, appVersion: String, entries: [AuditUploadEntry], now: Date)
        throws(CollectorError) -> AuditOutcome
    func checkIn(_ checkIn: CheckIn, now: Date) throws(CollectorError)
    func installedBase(window: TimeInterval, now: Date) throws(CollectorError) -> [InstalledVersion]
    func pinFailureSummary(since: Date) throws(CollectorError) -> [FailureGroup]
    /// Occurrences per UTC day of receipt, host, pin set and app version; oldest day first.
    func pinFailuresPerDay(since: Date) throws(CollectorError) -> [DailyFailureCount]
    func auditAnomalies(since: Date) throws(CollectorError) -> [AuditAnomaly]
    /// Records a verified publication. - Throws: ``CollectorError/Code/conflict`` when the serial is not new.
    func publishKillSwitch(_ publication: KillSwitchPublication) throws(CollectorError)
    func currentKillSwitch() throws(CollectorError) -> KillSwitchPublication?
    func killSwitchPublications() throws(CollectorError) -> [KillSwitchPublication]
    /// Deletes what was received before `cutoff` (audit anchors and publications stay).
    func purge(before cutoff: Date) throws(CollectorError) -> PurgeCounts
    /// Replaces the canary's verdict for each host in `results`.
    func recordCanary(_ results: [CanaryResult]) throws(CollectorError)
    /// The latest verdict per host.
    func canaryResults() throws(CollectorError) -> [CanaryResult]
    /// Stored report ids and audit entry keys, for export and tests.
    func reportIDs() throws(CollectorError) -> [String]
    func auditSequence(installation: String) throws(CollectorError) -> [(seq: Int64, hash: String, chainBroken: Bool)]
    func close()
}
