public import Foundation
public import PinKit

/// The canary's verdict: for every pinned host's live chain, would any live release be
/// bricked? Seen here before the first device report arrives.
///
/// Every release in the history whose pin set is live counts, whatever its share (measured
/// shares order the output; they never hide a release). Pure: the chains are fetched by the
/// caller (`pinkit-collector canary` does a TLS handshake per host).
public struct CanaryReport: Sendable {
    public struct Host: Sendable {
        public var host: String
        public var port: Int
        public var chainKeys: [String]
        public var bricked: [String]
        public var warnings: [String]
    }

    public var hosts: [Host]
    /// Hosts whose chain could not be fetched, with the reason.
    public var unreachable: [(host: String, reason: String)]

    /// True when some live release would be bricked by a live chain.
    public var bricksALiveRelease: Bool { hosts.contains { !$0.bricked.isEmpty } }

    public init(
        history: ReleaseHistory, chains: [(host: String, port: Int, chain: [CertificateFacts])],
        unreachable: [(host: String, reason: String)] = [], now: Date
    ) {
        var everyRelease = history
        for index in everyRelease.releases.indices {
            // Installed while its set is live: drop the share filter, keep the expiry rule
            // (an expired set fails open and is reported as such, not as bricked).
            everyRelease.releases[index].installedShare = nil
            everyRelease.releases[index].supportedUntil = nil
        }
        hosts = chains.map { target in
            let check = RotationCheck(history: everyRelease, chain: target.chain, host: target.host, now: now)
            return Host(
                host: target.host, port: target.port, chainKeys: target.chain.map(\.spki.base64),
                bricked: check.releases.filter(\.bricked).map(\.version),
                warnings: check.problems.filter { $0.code != .releaseBricked }.map(\.description))
        }
        self.unreachable = unreachable
    }

    /// The verdicts to store (`canary --data`), for `GET /v1/canary`.
    public func results(at now: Date) -> [CanaryResult] {
        hosts.map {
            CanaryResult(
                host: $0.host, port: $0.port, checkedAt: now, brickedReleases: $0.bricked, chainKeys: $0.chainKeys,
                warnings: $0.warnings)
        }
    }

    public var json: JSONValue {
        [
            "bricksALiveRelease": .bool(bricksALiveRelease),
            "hosts": .array(
                hosts.map { host in
                    [
                        "host": .string(host.host), "port": .int(host.port),
                        "chainKeys": .array(host.chainKeys.map(JSONValue.string)),
                        "brickedReleases": .array(host.bricked.map(JSONValue.string)),
                        "warnings": .array(host.warnings.map(JSONValue.string)),
                    ]
                }),
            "unreachable": .array(
                unreachable.map { ["host": .string($0.host), "reason": .string($0.reason)] }),
        ]
    }
}
