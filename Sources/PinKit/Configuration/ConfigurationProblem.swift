/// One problem the configuration guard found: a stable code, where it is, and what was
/// expected versus what was seen.
public struct ConfigurationProblem: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable {
        /// The configuration must not ship. Runtime loading refuses only the errors about the
        /// document itself (``PinConfiguration/loadingProblems()``), never one about the clock
        /// or the machine.
        case error
        /// Usable, but fails ``PinConfiguration/meetsProductionPinPolicy(chain:now:publicSuffixes:)``.
        case warning
    }

    /// A stable identifier scripts can match on. Extensible: new codes never break callers.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        // Structure
        public static let unknownKey = Code(rawValue: "unknown-key")
        public static let missingKey = Code(rawValue: "missing-key")
        public static let wrongType = Code(rawValue: "wrong-type")
        public static let invalidValue = Code(rawValue: "invalid-value")
        public static let mixedForms = Code(rawValue: "mixed-forms")
        // Pin sets
        public static let hashesWithoutHosts = Code(rawValue: "hashes-without-hosts")
        public static let hostsWithoutHashes = Code(rawValue: "hosts-without-hashes")
        public static let tooFewPins = Code(rawValue: "too-few-pins")
        public static let invalidPin = Code(rawValue: "invalid-pin")
        public static let duplicatePin = Code(rawValue: "duplicate-pin")
        public static let placeholderPin = Code(rawValue: "placeholder-pin")
        public static let duplicateHost = Code(rawValue: "duplicate-host")
        public static let duplicateName = Code(rawValue: "duplicate-name")
        public static let emptyHost = Code(rawValue: "empty-host")
        public static let emptyLabel = Code(rawValue: "empty-label")
        public static let ipLiteralHost = Code(rawValue: "ip-literal-host")
        public static let wildcardHost = Code(rawValue: "wildcard-host")
        public static let nonASCIIHost = Code(rawValue: "non-ascii-host")
        public static let invalidHost = Code(rawValue: "invalid-host")
        public static let publicSuffixHost = Code(rawValue: "public-suffix-host")
        public static let excludeOutsideHosts = Code(rawValue: "exclude-outside-hosts")
        /// An exclusion equal to, or above, a host that a pin set lists: it would unpin that host.
        public static let excludeCoversListedHost = Code(rawValue: "exclude-covers-listed-host")
        public static let expiredPinSet = Code(rawValue: "expired-pin-set")
        public static let expiresSoon = Code(rawValue: "expires-soon")
        public static let reportOnlyMode = Code(rawValue: "report-only-mode")
        public static let noDeclaredBackup = Code(rawValue: "no-declared-backup")
        public static let publicSuffixListUnavailable = Code(rawValue: "public-suffix-list-unavailable")
        public static let noPinSets = Code(rawValue: "no-pin-sets")
        // URLs
        public static let invalidURL = Code(rawValue: "invalid-url")
        public static let insecureURL = Code(rawValue: "insecure-url")
        public static let killSwitchHostPinned = Code(rawValue: "kill-switch-host-pinned")
        public static let unsignedKillSwitch = Code(rawValue: "unsigned-kill-switch")
        // Against a chain
        public static let noPinMatchesChain = Code(rawValue: "no-pin-matches-chain")
        public static let noBackupPin = Code(rawValue: "no-backup-pin")
        public static let leafPinned = Code(rawValue: "leaf-pinned")
        public static let chainOutsidePinSets = Code(rawValue: "chain-outside-pin-sets")
    }

    public var code: Code
    public var severity: Severity
    /// Where in the document, e.g. `pinSets[0].pins[2]`; empty for the document as a whole.
    public var path: String
    public var message: String

    public init(_ code: Code, _ severity: Severity = .error, path: String, _ message: String) {
        self.code = code
        self.severity = severity
        self.path = path
        self.message = message
    }

    public var description: String {
        "\(severity.rawValue) [\(code)] \(path.isEmpty ? "(document)" : path): \(message)"
    }
}
