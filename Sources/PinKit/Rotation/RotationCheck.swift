public import Foundation

/// Would a chain brick any installed release, and does the next release keep every installed
/// release safe? The planner behind `pinctl rotation-check`, callable from an app's CI.
///
/// Rules, for the chain the server will serve (leaf first, up to the root):
/// - every installed release must match it (else that release can no longer connect: bricked);
/// - every installed release should keep a pin that is *not* in the chain (a backup to rotate to);
/// - the next release must match the chain, must not drop a pin an installed release matches the
///   chain through, and must carry a backup pin not in the chain.
public struct RotationCheck: Sendable {
    public struct ReleaseResult: Sendable {
        public var version: String
        public var installed: Bool
        public var installedShare: Double?
        public var supportedUntil: Date?
        /// How the release decides for this chain.
        public var evaluation: PinEvaluation
        /// Pins of the applicable set that are not in the chain.
        public var backupPins: [SPKIPin]
        public var bricked: Bool { if case .mismatch = evaluation { return installed } else { return false } }
        public var lacksBackup: Bool {
            if case .matched = evaluation { return installed && backupPins.isEmpty } else { return false }
        }
    }

    public struct NextResult: Sendable {
        public var evaluation: PinEvaluation
        /// Pins installed releases match the chain through that the next release drops, with the
        /// releases relying on each.
        public var droppedPins: [(pin: SPKIPin, label: String?, reliedOnBy: [String])]
        public var backupPins: [SPKIPin]
    }

    public var host: String
    public var releases: [ReleaseResult]
    public var next: NextResult?
    /// Every broken rule, as sentences; empty means safe.
    public var problems: [String]
    public var isSafe: Bool { problems.isEmpty }

    /// - Parameters:
    ///   - chain: the chain as it will be verified, leaf first, up to the root.
    ///   - host: the host to check; default the leaf's first DNS name.
    public init(
        history: ReleaseHistory,
        chain: [CertificateFacts],
        host: String? = nil,
        next: PinConfiguration? = nil,
        minimumShare: Double = 0,
        now: Date = Date()
    ) {
        let leafName = chain.first?.dnsNames.first.map {
            $0.hasPrefix("*.") ? "wildcard" + $0.dropFirst() : Substring($0)
        }
        self.host = HostName.normalize(host ?? leafName.map(String.init) ?? "")
        let keys = Set(chain.map(\.spki))
        var problems: [String] = []
        var results: [ReleaseResult] = []
        for release in history.releases {
            let policy = PinPolicy(unvalidated: release.configuration)
            let evaluation = policy.evaluate(host: self.host, verifiedChain: chain, now: now)
            let backups = policy.pinSet(for: self.host)?.pins.filter { !keys.contains($0) } ?? []
            let result = ReleaseResult(
                version: release.version,
                installed: release.isInstalled(now: now, minimumShare: minimumShare),
                installedShare: release.installedShare,
                supportedUntil: release.supportedUntil,
                evaluation: evaluation,
                backupPins: backups
            )
            if result.bricked {
                problems.append("release \(release.version) would be bricked: none of its pins is in the chain")
            }
            if result.lacksBackup {
                problems.append("release \(release.version) has no pin outside the chain: no backup to rotate to")
            }
            results.append(result)
        }
        self.releases = results
        if let next {
            let policy = PinPolicy(unvalidated: next)
            let evaluation = policy.evaluate(host: self.host, verifiedChain: chain, now: now)
            let nextPins = Set(policy.pinSet(for: self.host)?.pins ?? [])
            var relied: [SPKIPin: (label: String?, versions: [String])] = [:]
            for (release, result) in zip(history.releases, results) where result.installed {
                if case .matched(let match) = result.evaluation {
                    relied[match.pin, default: (match.label, [])].versions.append(release.version)
                }
            }
            let dropped = relied.filter { !nextPins.contains($0.key) }
                .map { (pin: $0.key, label: $0.value.label, reliedOnBy: $0.value.versions) }
                .sorted { $0.pin.base64 < $1.pin.base64 }
            let backups = nextPins.filter { !keys.contains($0) }.sorted { $0.base64 < $1.base64 }
            if case .mismatch = evaluation {
                problems.append("the next release would be bricked on day one: none of its pins is in the chain")
            }
            for drop in dropped {
                problems.append(
                    "the next release drops \(drop.pin.base64)\(drop.label.map { " (\($0))" } ?? ""), which installed releases \(drop.reliedOnBy.joined(separator: ", ")) match this chain through"
                )
            }
            if backups.isEmpty && !nextPins.isEmpty {
                problems.append("the next release ships without a backup pin outside the chain")
            }
            self.next = NextResult(evaluation: evaluation, droppedPins: dropped, backupPins: backups)
        }
        if chain.isEmpty { problems.append("the chain is empty") }
        self.problems = problems
    }
}

/// When each pinned key stops being usable: the latest `notAfter` among all certificates that
/// carry it. A cross-signed certificate expiring early is not the key's deadline while a
/// self-signed certificate with the same key lives on in the trust store.
public struct KeyDeadlines: Sendable {
    public struct Key: Sendable {
        public var pin: SPKIPin
        public var pinSet: String
        public var label: String?
        public var role: PinConfiguration.Role
        /// Certificates carrying the key, from the chain and the trust store.
        public var certificates: [CertificateFacts]
        /// The latest `notAfter`, or nil when no certificate carries the key (a backup not yet used).
        public var deadline: Date? { certificates.map(\.notAfter).max() }
        /// The certificate that sets the deadline.
        public var decidingCertificate: CertificateFacts? { certificates.max { $0.notAfter < $1.notAfter } }
    }

    public var keys: [Key]
    /// Warnings such as a deadline or set expiry before a release's supportedUntil.
    public var warnings: [String]

    public init(configuration: PinConfiguration, certificates: [CertificateFacts], history: ReleaseHistory? = nil) {
        var byKey: [SPKIPin: [CertificateFacts]] = [:]
        var seen: Set<CertificateFacts> = []
        for certificate in certificates where seen.insert(certificate).inserted {
            byKey[certificate.spki, default: []].append(certificate)
        }
        var keys: [Key] = []
        for set in configuration.pinSets {
            for pin in set.pins {
                guard let parsed = try? SPKIPin(parsing: pin.sha256) else { continue }
                keys.append(
                    Key(
                        pin: parsed, pinSet: set.name, label: pin.label, role: pin.role,
                        certificates: byKey[parsed] ?? [])
                )
            }
        }
        self.keys = keys
        var warnings: [String] = []
        for release in history?.releases ?? [] {
            guard let until = release.supportedUntil else { continue }
            for key in keys {
                if let deadline = key.deadline, deadline < until {
                    warnings.append(
                        "key \(key.label ?? key.pin.base64) expires \(RFC3339.format(deadline)), before release \(release.version) is supported until \(RFC3339.format(until))"
                    )
                }
            }
            for set in configuration.pinSets {
                if let expires = set.expires, expires < until {
                    warnings.append(
                        "pin set \(set.name) expires \(RFC3339.format(expires)), before release \(release.version) is supported until \(RFC3339.format(until))"
                    )
                }
            }
        }
        self.warnings = warnings
    }

    /// Reminder dates for `key` at each lead time before its deadline.
    public func reminders(for key: Key, leads: [TimeInterval]) -> [Date] {
        guard let deadline = key.deadline else { return [] }
        return leads.map { deadline.addingTimeInterval(-$0) }
    }
}
