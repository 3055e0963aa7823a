public import Foundation

/// An immutable, validated pinning policy: what the transport enforces.
///
/// Built only from a configuration without loading errors, so a policy value is proof that the
/// document is sound. Sessions capture one policy value for their whole life (invariant 4).
///
/// Runtime loading and the ship-time gate are different gates (invariant 9): ``init(_:)`` checks
/// only what depends on the document itself (``PinConfiguration/loadingProblems()``), so the
/// same document loads on every machine at every time. Whether a set has expired is decided per
/// handshake by ``evaluate(host:verifiedChain:now:)``: an expired set is not enforced (system
/// trust and a ``PinningEvent/pinSetExpired(host:port:setName:expired:at:)`` event), it never
/// leaves the app without a client. ``PinConfiguration/validate(chain:now:publicSuffixes:)`` and
/// ``PinConfiguration/meetsProductionPinPolicy(chain:now:publicSuffixes:)`` are the ship-time
/// gate, where an expired or expiring set is refused.
public struct PinPolicy: Hashable, Sendable {
    /// One enforced pin set: parsed pins and normalised host patterns.
    public struct PinSet: Hashable, Sendable {
        public let name: String
        public let pins: [SPKIPin]
        public let labels: [SPKIPin: String]
        public let backupPins: Set<SPKIPin>
        public let hosts: [String]
        public let includeSubdomains: Bool
        public let expires: Date?
        public let mode: PinConfiguration.Mode

        /// True once the set's `expires` has passed: it is then no longer enforced.
        public func isExpired(at now: Date) -> Bool { expires.map { $0 <= now } ?? false }
    }

    private enum Rule: Hashable, Sendable {
        case pinned(set: Int, includeSubdomains: Bool)
        case excluded
    }

    public let pinSets: [PinSet]
    /// Normalised pattern → rule. Lookups walk a host's suffixes from the most specific.
    private let rules: [String: Rule]
    /// The configuration the policy was built from.
    public let configuration: PinConfiguration

    /// A policy that pins nothing: system trust for every host.
    public static let systemTrustOnly = PinPolicy(validated: .systemTrustOnly)

    /// Builds the policy for `configuration`, as an app does at launch.
    ///
    /// Reads no clock and no file of the machine: a set past its `expires` loads (and is then not
    /// enforced, per handshake), and the public suffix list is the ship-time gate's business.
    /// - Throws: ``PinKitError/Code/invalidConfiguration`` listing every problem of
    ///   ``PinConfiguration/loadingProblems()``: errors in the document itself.
    public init(_ configuration: PinConfiguration) throws(PinKitError) {
        let errors = configuration.loadingProblems()
        guard errors.isEmpty else {
            throw PinKitError(
                .invalidConfiguration,
                "the pin configuration has \(errors.count) error\(errors.count == 1 ? "" : "s")",
                problems: errors
            )
        }
        self.init(validated: configuration)
    }

    /// For derived policies that only remove pinning from a validated one (the kill switch).
    init(unvalidated configuration: PinConfiguration) { self.init(validated: configuration) }

    private init(validated configuration: PinConfiguration) {
        self.configuration = configuration
        var sets: [PinSet] = []
        var rules: [String: Rule] = [:]
        for (index, set) in configuration.pinSets.enumerated() {
            var pins: [SPKIPin] = []
            var labels: [SPKIPin: String] = [:]
            var backups: Set<SPKIPin> = []
            for pin in set.pins {
                guard let parsed = try? SPKIPin(parsing: pin.sha256) else { continue }
                pins.append(parsed)
                labels[parsed] = pin.label
                if pin.role == .backup { backups.insert(parsed) }
            }
            let hosts = set.hosts.map(HostName.normalize)
            for host in hosts { rules[host] = .pinned(set: index, includeSubdomains: set.includeSubdomains) }
            for excluded in set.excludeSubdomains { rules[HostName.normalize(excluded)] = .excluded }
            sets.append(
                PinSet(
                    name: set.name,
                    pins: pins,
                    labels: labels,
                    backupPins: backups,
                    hosts: hosts,
                    includeSubdomains: set.includeSubdomains,
                    expires: set.expires,
                    mode: set.mode
                )
            )
        }
        self.pinSets = sets
        self.rules = rules
    }

    /// The pin set that applies to `host`, or nil when the host gets system trust only.
    ///
    /// The host is normalised (ASCII lower case, one trailing dot stripped); patterns match
    /// exactly or, with `includeSubdomains`, on a label boundary; the most specific pattern wins
    /// and an exclusion is a pattern that maps to "not pinned".
    public func pinSet(for host: String) -> PinSet? { match(for: host)?.set }

    /// The pin set that applies to `host` and the host pattern that selected it (RFC 7469's
    /// "noted hostname"), or nil when the host gets system trust only.
    public func match(for host: String) -> (set: PinSet, pattern: String)? {
        let normalized = HostName.normalize(host)
        guard !normalized.isEmpty else { return nil }
        var candidate = Substring(normalized)
        var isExact = true
        while true {
            switch rules[String(candidate)] {
            case .excluded?: return nil
            case .pinned(let set, let includeSubdomains)? where isExact || includeSubdomains:
                return (pinSets[set], String(candidate))
            default: break
            }
            guard let dot = candidate.firstIndex(of: ".") else { return nil }
            candidate = candidate[candidate.index(after: dot)...]
            isExact = false
        }
    }

    /// True when connections to `host` are checked against a pin set.
    public func isPinnedHost(_ host: String) -> Bool { pinSet(for: host) != nil }
}
