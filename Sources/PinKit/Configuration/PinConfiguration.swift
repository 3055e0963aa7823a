public import Foundation

/// A pin configuration as written: host patterns, pins as text, kill-switch and reporting URLs.
///
/// This is the *document*; it can hold mistakes. ``validate(chain:now:publicSuffixes:)`` lists
/// them all, and ``PinPolicy`` (built only from a configuration without errors) is what the
/// transport enforces. No pin sets at all is valid: every host gets system trust.
public struct PinConfiguration: Hashable, Sendable {
    /// A release build refuses pin sets with fewer well-formed pins than this (an active pin and
    /// a backup at the least).
    public static let minimumProductionPinCount = 2

    public var pinSets: [PinSet]
    public var killSwitch: KillSwitch?
    public var reporting: Reporting?
    /// Honoured only by ``effective(isDebugBuild:)`` in a debug build; refused by the release gate.
    public var debugOverrides: DebugOverrides?
    /// True when read from the flat `HLPinnedHosts` / `HLPinnedSPKIHashes` keys; problem paths
    /// then name those keys.
    public var isFlatForm: Bool

    public init(pinSets: [PinSet] = [], killSwitch: KillSwitch? = nil, reporting: Reporting? = nil) {
        self.pinSets = pinSets
        self.killSwitch = killSwitch
        self.reporting = reporting
        self.isFlatForm = false
    }

    /// A configuration that pins nothing: system trust for every host.
    public static let systemTrustOnly = PinConfiguration()

    public struct PinSet: Hashable, Sendable {
        public var name: String
        public var hosts: [String]
        /// Defaults to true: an apex is pinned together with every name below it.
        public var includeSubdomains: Bool
        /// Names (and everything below them) that get system trust although a host pattern covers them.
        public var excludeSubdomains: [String]
        public var pins: [Pin]
        /// After this instant the set is no longer enforced (see README: an expired set fails open,
        /// reported, rather than bricking installs that missed an update).
        public var expires: Date?
        public var mode: Mode
        /// Guard warnings the operator accepted on purpose, each with its reason; the release
        /// gate reports them as notes instead of failing. Errors cannot be acknowledged.
        public var acknowledged: [Acknowledgement]

        public init(
            name: String,
            hosts: [String],
            includeSubdomains: Bool = true,
            excludeSubdomains: [String] = [],
            pins: [Pin],
            expires: Date? = nil,
            mode: Mode = .enforce,
            acknowledged: [Acknowledgement] = []
        ) {
            self.name = name
            self.hosts = hosts
            self.includeSubdomains = includeSubdomains
            self.excludeSubdomains = excludeSubdomains
            self.pins = pins
            self.expires = expires
            self.mode = mode
            self.acknowledged = acknowledged
        }
    }

    /// A recorded, reasoned acceptance of one guard warning for one pin set (like "accepted
    /// tradeoff: CA-level pins only, no off-chain backup, reviewed 2026-11").
    public struct Acknowledgement: Hashable, Sendable {
        /// The warning's code, e.g. `no-backup-pin`.
        public var code: String
        /// Why it is acceptable; required and shown by the gate.
        public var reason: String

        public init(code: String, reason: String) {
            self.code = code
            self.reason = reason
        }
    }

    public struct Pin: Hashable, Sendable {
        /// The pin as written, in any form ``SPKIPin/init(parsing:)`` accepts.
        public var sha256: String
        public var label: String?
        public var role: Role
        /// The key is held by the operator (generated with `pinctl keygen`, certified by the CA
        /// on request) rather than by a CA or fresh at every renewal: it changes only when the
        /// operator decides, so pinning it as a leaf key is deliberate, not a `leaf-pinned` mistake.
        public var operatorHeld: Bool

        public init(sha256: String, label: String? = nil, role: Role = .active, operatorHeld: Bool = false) {
            self.sha256 = sha256
            self.label = label
            self.role = role
            self.operatorHeld = operatorHeld
        }
    }

    public enum Mode: String, Hashable, Sendable, CaseIterable {
        /// A mismatch aborts the handshake.
        case enforce
        /// A mismatch is reported; the connection proceeds under system trust.
        case reportOnly = "report-only"
    }

    public enum Role: String, Hashable, Sendable, CaseIterable {
        /// Expected in today's chain.
        case active
        /// A key held in reserve, not in today's chain, that the server can move to without a release.
        case backup
    }

    public struct KillSwitch: Hashable, Sendable {
        /// Fetched over an unpinned session; its host must not be pinned.
        public var url: String
        /// Keys whose signature a kill-switch document needs (one valid signature suffices). Empty
        /// is an error: no document would ever be honoured. Production wants two, held apart.
        public var publicKeys: [PublicKey]
        /// The build-time floor: documents with this serial or a lower one are refused, so an old
        /// "off" cannot be replayed to a fresh install. `pinctl killswitch status` proposes it.
        public var minimumSerial: Int64?

        public init(url: String, publicKeys: [PublicKey] = [], minimumSerial: Int64? = nil) {
            self.url = url
            self.publicKeys = publicKeys
            self.minimumSerial = minimumSerial
        }

        public struct PublicKey: Hashable, Sendable {
            public var keyId: String
            /// Base64 of the DER SubjectPublicKeyInfo (Ed25519 or EC P-256).
            public var spki: String

            public init(keyId: String, spki: String) {
                self.keyId = keyId
                self.spki = spki
            }
        }
    }

    public struct Reporting: Hashable, Sendable {
        public var url: String
        public init(url: String) { self.url = url }
    }
}

extension PinConfiguration.PinSet {
    /// Paths into the document for problem messages, in whichever form the set was written.
    struct Paths {
        var base: String
        var flat: Bool
        var hosts: String { flat ? "HLPinnedHosts" : base + ".hosts" }
        var pins: String { flat ? "HLPinnedSPKIHashes" : base + ".pins" }
        func host(_ index: Int) -> String { "\(hosts)[\(index)]" }
        func pin(_ index: Int) -> String { "\(pins)[\(index)]" }
        func exclude(_ index: Int) -> String { "\(base).excludeSubdomains[\(index)]" }
        var expires: String { base + ".expires" }
        var mode: String { base + ".mode" }
        var set: String { flat ? "" : base }
    }
}
