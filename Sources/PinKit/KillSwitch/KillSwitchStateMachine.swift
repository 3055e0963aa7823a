public import Foundation

/// Checks a kill-switch signature against a public key (OpenSSL in PinKitOpenSSL; injected so
/// the core stays free of C).
public protocol KillSwitchSignatureVerifying: Sendable {
    /// True when `signature` over `message` is valid for the key whose DER SubjectPublicKeyInfo
    /// is `publicKeySPKI`, under `algorithm` (`Ed25519` or `ES256`).
    func isValid(signature: [UInt8], message: [UInt8], algorithm: String, publicKeySPKI: [UInt8]) -> Bool
}

/// The kill switch's state and its transitions: a value type whose transitions return actions,
/// tested without a network.
///
/// Default, and whenever nothing valid was received: pinning on. A document changes the state
/// only when it parses strictly, carries a valid signature by a configured key (with no key
/// configured, no document is ever honoured), has a serial above every serial seen and above the
/// build's floor, is not expired, and does not live longer than allowed.
public struct KillSwitchStateMachine: Hashable, Sendable {
    public struct Settings: Sendable {
        /// The configured keys (key id → DER SPKI). Empty: every document is refused, signed or
        /// not; an unsigned kill switch fetched over the unpinned path would let any proxy or
        /// rogue CA switch pinning off.
        public var publicKeys: [String: [UInt8]]
        /// The build-time floor (`killSwitch.minimumSerial`): documents at or below it are
        /// refused even by an install that never saw a newer one (a fresh install, lost state).
        public var minimumSerial: Int64 = 0
        /// The longest `expiresAt - issuedAt` accepted (30 days by default).
        public var maximumValidity: TimeInterval = 30 * 86_400
        /// How far `issuedAt` may lie in the future (clock skew).
        public var allowedClockSkew: TimeInterval = 300
        public var verifier: any KillSwitchSignatureVerifying

        public init(publicKeys: [String: [UInt8]], verifier: any KillSwitchSignatureVerifying) {
            self.publicKeys = publicKeys
            self.verifier = verifier
        }
    }

    public enum Action: Hashable, Sendable {
        /// Write the new state atomically.
        case persist
        /// Record this in the audit log (and queue it for upload).
        case audit(AuditEvent)
        /// The effective policy changed: create new pinned sessions.
        case policyChanged
        /// The document changed nothing, and why: "CODE: sentence", CODE a ``Rejection/Code``
        /// (or `fetch-failed`), stable for scripts and metrics.
        case ignored(String)
    }

    /// The highest serial ever accepted; documents at or below it are replays.
    public private(set) var highestSerial: Int64 = 0
    /// The accepted "off" in force, if any (it lapses at its `expiresAt`).
    public private(set) var activeOff: KillSwitchDocument.Payload?

    public init() {}

    /// Handles a fetched document.
    public mutating func receive(_ data: [UInt8], settings: Settings, now: Date) -> [Action] {
        let document: KillSwitchDocument
        do {
            document = try KillSwitchDocument.parse(data)
        } catch {
            let detail = error.problems.first.map { "\($0.path): \($0.message)" } ?? error.reason
            return [.ignored("\(Rejection.Code.malformed): \(detail)")]
        }
        if let reason = rejectionReason(of: document, settings: settings, now: now) {
            return [.ignored(reason.description)]
        }
        let payload = document.payload
        var actions: [Action] = [.persist]
        let wasOff = activeOff != nil
        highestSerial = payload.serial
        activeOff = payload.pinning == .off ? payload : nil
        if wasOff || activeOff != nil { actions.append(.policyChanged) }
        let versions =
            [payload.scope.minimumAppVersion, payload.scope.maximumAppVersion].contains { $0 != nil }
            ? "\(payload.scope.minimumAppVersion ?? "*")-\(payload.scope.maximumAppVersion ?? "*")" : nil
        actions.append(
            .audit(
                .killSwitchChanged(
                    serial: payload.serial,
                    pinning: payload.pinning.rawValue,
                    reason: payload.reason,
                    hosts: payload.scope.hosts ?? ["*"],
                    appVersions: versions
                )
            )
        )
        return actions
    }

    /// Why a document changed nothing: a stable code and a sentence.
    public struct Rejection: Hashable, Sendable, CustomStringConvertible {
        public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public var description: String { rawValue }

            public static let malformed = Code(rawValue: "malformed")
            public static let noKeysConfigured = Code(rawValue: "no-keys-configured")
            public static let unsigned = Code(rawValue: "unsigned")
            public static let malformedSignature = Code(rawValue: "malformed-signature")
            public static let noValidSignature = Code(rawValue: "no-valid-signature")
            public static let replay = Code(rawValue: "replay")
            public static let belowMinimumSerial = Code(rawValue: "below-minimum-serial")
            public static let expired = Code(rawValue: "expired")
            public static let invalidValidity = Code(rawValue: "invalid-validity")
            public static let tooLong = Code(rawValue: "too-long")
            public static let issuedInFuture = Code(rawValue: "issued-in-future")
        }

        public var code: Code
        public var message: String
        public var description: String { "\(code): \(message)" }

        public init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    /// Why `document` must change nothing, or nil when it is acceptable.
    public func rejection(of document: KillSwitchDocument, settings: Settings, now: Date) -> String? {
        rejectionReason(of: document, settings: settings, now: now)?.message
    }

    /// Why `document` must change nothing (with a stable code), or nil when it is acceptable.
    public func rejectionReason(of document: KillSwitchDocument, settings: Settings, now: Date) -> Rejection? {
        let payload = document.payload
        guard !settings.publicKeys.isEmpty else {
            return Rejection(
                .noKeysConfigured,
                "no kill-switch public keys are configured, so no document is honoured (an unsigned kill switch would let anyone on the unpinned path turn pinning off)"
            )
        }
        let checks = document.checkSignatures(trustedKeys: settings.publicKeys, verifier: settings.verifier)
        if let malformed = checks.first(where: { $0.status == .malformed }) {
            return Rejection(.malformedSignature, malformed.message)
        }
        if !checks.contains(where: { $0.status == .verified }) {
            if document.signatures.isEmpty {
                return Rejection(.unsigned, "unsigned, but the configuration requires a signature")
            }
            return Rejection(
                .noValidSignature,
                "no valid signature by a configured key (key ids \(document.signatures.map(\.keyId).joined(separator: ", ")))"
            )
        }
        if payload.serial <= highestSerial {
            return Rejection(.replay, "serial \(payload.serial) is not above \(highestSerial): a replay")
        }
        if payload.serial <= settings.minimumSerial {
            return Rejection(
                .belowMinimumSerial,
                "serial \(payload.serial) is at or below this build's killSwitch.minimumSerial \(settings.minimumSerial): an old document replayed to a fresh install"
            )
        }
        if payload.expiresAt <= now { return Rejection(.expired, "expired at \(RFC3339.format(payload.expiresAt))") }
        if payload.expiresAt <= payload.issuedAt {
            return Rejection(.invalidValidity, "expiresAt is not after issuedAt")
        }
        if payload.expiresAt.timeIntervalSince(payload.issuedAt) > settings.maximumValidity {
            return Rejection(.tooLong, "valid for longer than \(Int(settings.maximumValidity / 86_400)) days")
        }
        if payload.issuedAt.timeIntervalSince(now) > settings.allowedClockSkew {
            return Rejection(.issuedInFuture, "issued in the future (\(RFC3339.format(payload.issuedAt)))")
        }
        return nil
    }

    /// The `killSwitch.minimumSerial` to ship in the next release: the highest serial seen, or
    /// just below an "off" still in force at `now` (fresh installs must still receive it).
    public func proposedMinimumSerial(now: Date) -> Int64 {
        if let active = activeOff, active.expiresAt > now { return active.serial - 1 }
        return highestSerial
    }

    /// Lapses an "off" whose time is up: pinning is back.
    public mutating func tick(now: Date) -> [Action] {
        guard let active = activeOff, active.expiresAt <= now else { return [] }
        activeOff = nil
        return [
            .persist, .policyChanged,
            .audit(
                .killSwitchChanged(
                    serial: active.serial,
                    pinning: "expired",
                    reason: active.reason,
                    hosts: active.scope.hosts ?? ["*"],
                    appVersions: nil
                )
            ),
        ]
    }

    /// Whether the kill switch turns pinning off for `host` in this app version at `now`.
    public func disablesPinning(for host: String, appVersion: String, now: Date) -> Bool {
        guard let active = activeOff, active.expiresAt > now, active.scope.contains(appVersion: appVersion) else {
            return false
        }
        return active.scope.contains(host: host)
    }

    /// `base` with pinning turned off where the kill switch says so; `base` itself otherwise.
    public func effectivePolicy(_ base: PinPolicy, appVersion: String, now: Date) -> PinPolicy {
        guard let active = activeOff, active.expiresAt > now, active.scope.contains(appVersion: appVersion) else {
            return base
        }
        guard let hosts = active.scope.hosts else { return .systemTrustOnly }
        return base.disablingPinning(for: hosts)
    }

    // MARK: - Persistence

    public var json: JSONValue {
        ["highestSerial": .int(highestSerial), "activeOff": activeOff.map(\.json) ?? .null]
    }

    /// Restores a persisted state. Anything unreadable is an error; the caller then starts with
    /// pinning on.
    public init(json value: JSONValue) throws(PinKitError) {
        guard case .number(let text)? = value["highestSerial"], let serial = Int64(text), serial >= 0,
            serial <= KillSwitchDocument.maximumSerial
        else {
            throw PinKitError(.invalidDocument, "the kill-switch state has no valid highestSerial")
        }
        highestSerial = serial
        if let active = value["activeOff"], active != .null {
            // The stored payload goes through the same strict parser as a fetched one.
            let envelope: JSONValue = [
                "payload": .string(Base64.encode(Array(active.serialized().utf8), alphabet: .url)), "signatures": [],
            ]
            let document = try KillSwitchDocument.parse(Array(envelope.serialized().utf8))
            activeOff = document.payload
        }
    }
}

extension PinPolicy {
    /// This policy with pinning off for `hosts` and everything below them. Only ever removes
    /// pinning, so it needs no new validation.
    public func disablingPinning(for hosts: [String]) -> PinPolicy {
        var configuration = self.configuration
        configuration.pinSets = configuration.pinSets.compactMap { set in
            var set = set
            set.hosts.removeAll { host in
                hosts.contains { HostName.host(HostName.normalize(host), isWithinOrEqualTo: HostName.normalize($0)) }
            }
            let extra = hosts.filter { scope in
                set.hosts.contains {
                    HostName.host(HostName.normalize(scope), isWithinOrEqualTo: HostName.normalize($0))
                }
            }
            set.excludeSubdomains += extra
            return set.hosts.isEmpty ? nil : set
        }
        return PinPolicy(unvalidated: configuration)
    }
}
