public import Foundation

/// The outcome of checking a verified chain against a policy. A failed check is a result,
/// not an error: the caller decides what to do with a report-only mismatch.
public enum PinEvaluation: Hashable, Sendable {
    /// The host is outside every pin set: system trust alone decides.
    case unpinnedHost
    /// A pin matched a certificate of the verified chain.
    case matched(PinMatch)
    /// The host's pin set has expired; it is not enforced (the transport reports it).
    case pinSetExpired(setName: String, expired: Date)
    /// No pin matched. The connection is refused in `enforce` mode and allowed in `report-only`.
    case mismatch(PinFailure)

    /// Whether the connection may proceed.
    public var allowsConnection: Bool {
        if case .mismatch(let failure) = self { return failure.allowsConnection }
        return true
    }
}

public struct PinMatch: Hashable, Sendable {
    public var setName: String
    /// Position in the verified chain; 1 is the leaf.
    public var depth: Int
    public var pin: SPKIPin
    public var label: String?
}

/// Everything needed to explain and report a mismatch: the host, the verified chain's subjects
/// and keys, and the pins that were expected.
public struct PinFailure: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var setName: String
    public var mode: PinConfiguration.Mode
    public var verifiedChain: [CertificateFacts]
    public var expectedPins: [SPKIPin]
    /// The host pattern that selected the pin set (RFC 7469 "noted-hostname"): a report needs
    /// it, and carrying it here spares the transport a second policy lookup.
    public var notedHostname: String
    /// The pin set's `includeSubdomains` and `expires`, for the same report.
    public var includeSubdomains: Bool
    public var effectiveExpirationDate: Date?

    /// Whether the connection may proceed anyway (`report-only`). The one place this is decided.
    public var allowsConnection: Bool { mode == .reportOnly }

    public var description: String {
        "pin mismatch for \(host) (pin set \(setName)): verified chain \(PinConfiguration.describe(verifiedChain)); expected one of \(expectedPins.map(\.base64).joined(separator: ", "))"
    }
}

extension PinPolicy {
    /// Checks the chain the TLS library built and verified (leaf first) for `host`.
    ///
    /// > Warning: pass the *verified* chain, never the list the server sent: a server can append
    /// > a pinned certificate to an unrelated chain.
    public func evaluate(host: String, verifiedChain: [CertificateFacts], now: Date = Date()) -> PinEvaluation {
        evaluate(host: host, verifiedChainKeys: { verifiedChain.map(\.spki) }, now: now, chain: { verifiedChain })
    }

    /// The handshake-path form of ``evaluate(host:verifiedChain:now:)``: `keys` (the SPKI digests
    /// of the verified chain, leaf first) is called only when a live pin set applies, so an
    /// unpinned host costs no hashing; `chain` is called for the full certificate facts only when
    /// a mismatch must be explained.
    public func evaluate(
        host: String,
        verifiedChainKeys keys: () -> [SPKIPin],
        now: Date,
        chain: () -> [CertificateFacts]
    ) -> PinEvaluation {
        guard let (set, pattern) = match(for: host) else { return .unpinnedHost }
        if let expires = set.expires, expires <= now { return .pinSetExpired(setName: set.name, expired: expires) }
        for (offset, key) in keys().enumerated() {
            // Compare against every pin without an early exit inside the pin loop.
            var found: SPKIPin?
            for pin in set.pins where pin == key { found = pin }
            if let found {
                return .matched(PinMatch(setName: set.name, depth: offset + 1, pin: found, label: set.labels[found]))
            }
        }
        return .mismatch(
            PinFailure(
                host: HostName.normalize(host),
                setName: set.name,
                mode: set.mode,
                verifiedChain: chain(),
                expectedPins: set.pins,
                notedHostname: pattern,
                includeSubdomains: set.includeSubdomains,
                effectiveExpirationDate: set.expires
            )
        )
    }
}
