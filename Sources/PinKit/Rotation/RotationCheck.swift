public import Foundation

/// Would a chain brick any installed release, and does the next release keep every installed
/// release safe? The planner behind `pinctl rotation-check`, callable from an app's CI.
///
/// Devices build their own certificate paths (they choose among cross-signed roots and fetch
/// missing intermediates), so the check takes **every plausible path** from the served leaf to a
/// root of the devices' trust store, and a rule holds only when it holds on every path.
///
/// Rules, for the chain the server will serve:
/// - every installed release must match every path (else a device that builds the other path
///   can no longer connect: bricked);
/// - every installed release should keep a pin that is on *no* path (a backup to rotate to);
/// - the next release must match every path, must not drop a pin an installed release matches
///   a path through, and must carry a backup pin on no path.
public struct RotationCheck: Sendable {
    /// A broken rule: a stable code scripts act on, and the sentence beside it.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public var description: String { rawValue }

            /// An installed release matches none of its pins on some path.
            public static let releaseBricked = Code(rawValue: "release-bricked")
            /// An installed release keeps no pin outside the paths.
            public static let releaseWithoutBackup = Code(rawValue: "release-without-backup")
            /// The next release matches none of its pins on some path.
            public static let nextBricked = Code(rawValue: "next-bricked")
            /// The next release drops a pin installed releases match through.
            public static let nextDropsReliedPin = Code(rawValue: "next-drops-relied-pin")
            /// The next release keeps no pin outside the paths.
            public static let nextWithoutBackup = Code(rawValue: "next-without-backup")
            /// The chain's leaf is the next release's operator-held spare, and the next release
            /// pins no other operator-held key: strategy (a) needs a new spare after each use.
            public static let nextWithoutNewSpare = Code(rawValue: "next-without-new-spare")
            /// No path reaches a root of the trust store: devices refuse the chain.
            public static let noTrustedPath = Code(rawValue: "no-trusted-path")
            /// The path search stopped at its bound: a path no release pins may be among those
            /// not explored, so no rotation can be called safe.
            public static let pathSearchIncomplete = Code(rawValue: "path-search-incomplete")
        }

        public var code: Code
        public var message: String
        public var description: String { message }

        public init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    public struct ReleaseResult: Sendable {
        public var version: String
        public var installed: Bool
        public var installedShare: Double?
        public var supportedUntil: Date?
        /// How the release decides for each path, in the order of ``RotationCheck/paths``.
        public var pathEvaluations: [PinEvaluation]
        /// The decision that matters: the first path that mismatches, else the first path's.
        public var evaluation: PinEvaluation
        /// Pins of the applicable set that are on no path.
        public var backupPins: [SPKIPin]
        public var bricked: Bool { if case .mismatch = evaluation { return installed } else { return false } }
        public var lacksBackup: Bool {
            if case .matched = evaluation { return installed && backupPins.isEmpty } else { return false }
        }
    }

    public struct NextResult: Sendable {
        public var pathEvaluations: [PinEvaluation]
        public var evaluation: PinEvaluation
        /// Pins installed releases match a path through that the next release drops, with the
        /// releases relying on each.
        public var droppedPins: [(pin: SPKIPin, label: String?, reliedOnBy: [String])]
        public var backupPins: [SPKIPin]
    }

    public var host: String
    /// Every path checked, leaf first, each ending with its root.
    public var paths: [[CertificateFacts]]
    public var releases: [ReleaseResult]
    public var next: NextResult?
    /// Every broken rule; empty means safe.
    public var problems: [Problem]
    public var isSafe: Bool { problems.isEmpty }

    /// Checks one chain, as it will be verified (leaf first, up to the root).
    ///
    /// > Warning: a device may build another path (a cross-signed root, a re-keyed root of the
    /// > same name). Prefer ``init(history:paths:host:next:minimumShare:now:)`` with every path
    /// > `CertificatePathBuilder` (PinKitOpenSSL) finds.
    public init(
        history: ReleaseHistory,
        chain: [CertificateFacts],
        host: String? = nil,
        next: PinConfiguration? = nil,
        minimumShare: Double = 0,
        now: Date = Date()
    ) {
        self.init(
            history: history, paths: chain.isEmpty ? [] : [chain], host: host, next: next, minimumShare: minimumShare,
            now: now)
    }

    /// - Parameters:
    ///   - paths: every path a device could build, each leaf first and ending with its root;
    ///     all share the leaf. No path is itself a problem (devices refuse such a chain).
    ///   - host: the host to check; default the leaf's first DNS name.
    ///   - allPathsFound: false when the path search stopped at a bound (a hostile or enormous
    ///     trust store): SAFE is a claim about every path, so an incomplete search is a problem.
    public init(
        history: ReleaseHistory,
        paths: [[CertificateFacts]],
        host: String? = nil,
        next: PinConfiguration? = nil,
        minimumShare: Double = 0,
        now: Date = Date(),
        allPathsFound: Bool = true
    ) {
        let host = HostName.normalize(host ?? paths.first?.first.map(Self.defaultHost(leaf:)) ?? "")
        self.host = host
        self.paths = paths
        let keys = Set(paths.flatMap { $0.map(\.spki) })
        var problems: [Problem] = []
        if paths.isEmpty {
            problems.append(
                Problem(
                    .noTrustedPath, "no path from the leaf reaches a root of the trust store: devices refuse this chain"
                ))
        }
        if !allPathsFound {
            problems.append(
                Problem(
                    .pathSearchIncomplete,
                    "the path search stopped at its bound before exploring every path the trust store allows: a path no release pins may be among the rest"
                ))
        }
        func decide(_ policy: PinPolicy) -> (all: [PinEvaluation], decisive: PinEvaluation) {
            let all = paths.map { policy.evaluate(host: host, verifiedChain: $0, now: now) }
            let mismatch = all.first { if case .mismatch = $0 { true } else { false } }
            return (all, mismatch ?? all.first ?? .unpinnedHost)
        }
        func onPath(_ evaluations: [PinEvaluation]) -> String {
            guard paths.count > 1,
                let index = evaluations.firstIndex(where: { if case .mismatch = $0 { true } else { false } })
            else { return "" }
            return " on path \(index + 1) (root \(paths[index].last?.subject ?? "?"))"
        }
        var results: [ReleaseResult] = []
        for release in history.releases {
            let policy = PinPolicy(unvalidated: release.configuration)
            let (all, evaluation) = decide(policy)
            let backups = policy.pinSet(for: host)?.pins.filter { !keys.contains($0) } ?? []
            let result = ReleaseResult(
                version: release.version,
                installed: release.isInstalled(now: now, minimumShare: minimumShare),
                installedShare: release.installedShare,
                supportedUntil: release.supportedUntil,
                pathEvaluations: all,
                evaluation: evaluation,
                backupPins: backups
            )
            if result.bricked {
                problems.append(
                    Problem(
                        .releaseBricked,
                        "release \(release.version) would be bricked: none of its pins is in the chain\(onPath(all))"))
            }
            if result.lacksBackup {
                problems.append(
                    Problem(
                        .releaseWithoutBackup,
                        "release \(release.version) has no pin outside the chain: no backup to rotate to"))
            }
            results.append(result)
        }
        self.releases = results
        if let next {
            let policy = PinPolicy(unvalidated: next)
            let (all, evaluation) = decide(policy)
            let nextPins = Set(policy.pinSet(for: host)?.pins ?? [])
            var relied: [SPKIPin: (label: String?, versions: [String])] = [:]
            for (release, result) in zip(history.releases, results) where result.installed {
                for case .matched(let match) in result.pathEvaluations
                where !(relied[match.pin]?.versions.contains(release.version) ?? false) {
                    relied[match.pin, default: (match.label, [])].versions.append(release.version)
                }
            }
            let dropped = relied.filter { !nextPins.contains($0.key) }
                .map { (pin: $0.key, label: $0.value.label, reliedOnBy: $0.value.versions) }
                .sorted { $0.pin.base64 < $1.pin.base64 }
            let backups = nextPins.filter { !keys.contains($0) }.sorted { $0.base64 < $1.base64 }
            if case .mismatch = evaluation {
                problems.append(
                    Problem(
                        .nextBricked,
                        "the next release would be bricked on day one: none of its pins is in the chain\(onPath(all))"))
            }
            for drop in dropped {
                problems.append(
                    Problem(
                        .nextDropsReliedPin,
                        "the next release drops \(drop.pin.base64)\(drop.label.map { " (\($0))" } ?? ""), which installed releases \(drop.reliedOnBy.joined(separator: ", ")) match this chain through"
                    ))
            }
            if let set = policy.pinSet(for: host), let written = next.pinSets.first(where: { $0.name == set.name }) {
                let held = written.pins.filter(\.operatorHeld).compactMap { try? SPKIPin(parsing: $0.sha256) }
                let leafKeys = Set(paths.compactMap { $0.first?.spki })
                if held.contains(where: leafKeys.contains), !held.contains(where: { !keys.contains($0) }) {
                    problems.append(
                        Problem(
                            .nextWithoutNewSpare,
                            "the chain's leaf now uses the operator-held spare; the next release must pin a new operator-held spare (pinctl keygen, \"operatorHeld\": true)"
                        ))
                }
            }
            if backups.isEmpty && !nextPins.isEmpty {
                problems.append(
                    Problem(
                        .nextWithoutBackup,
                        "the next release ships without a backup pin outside the chain: add a new spare key (pinctl keygen) before shipping"
                    ))
            }
            self.next = NextResult(
                pathEvaluations: all, evaluation: evaluation, droppedPins: dropped, backupPins: backups)
        }
        self.problems = problems
    }

    /// The host checked when none is given: the leaf's first DNS name (`*.x` becomes `wildcard.x`).
    public static func defaultHost(leaf: CertificateFacts) -> String {
        guard let name = leaf.dnsNames.first else { return "" }
        return name.hasPrefix("*.") ? "wildcard" + name.dropFirst() : name
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

    /// Several configurations' deadlines as one, e.g. every release's for one calendar: a key a
    /// set pins in several releases appears once, as does a repeated warning.
    public init(merging parts: [KeyDeadlines]) {
        var seenKeys: Set<String> = []
        keys = parts.flatMap(\.keys).filter { seenKeys.insert($0.pinSet + "|" + $0.pin.base64).inserted }
        var seenWarnings: Set<String> = []
        warnings = parts.flatMap(\.warnings).filter { seenWarnings.insert($0).inserted }
    }

    /// Reminder dates for `key` at each lead time before its deadline.
    public func reminders(for key: Key, leads: [TimeInterval]) -> [Date] {
        guard let deadline = key.deadline else { return [] }
        return leads.map { deadline.addingTimeInterval(-$0) }
    }
}
