public import Foundation

extension PinConfiguration {
    /// What a developer needs to debug through Charles or mitmproxy, like Android Network
    /// Security Config's `debug-overrides`: pinning off for named hosts, and the proxy's CA as
    /// an extra trust anchor. Honoured only in a debug build (``effective(isDebugBuild:)``);
    /// `pinctl validate --production` refuses a configuration that carries it.
    ///
    /// > Warning: a release build that honoured these would accept the proxy's chain for those
    /// > hosts, which is exactly the interception pinning exists to stop.
    public struct DebugOverrides: Hashable, Sendable {
        /// Host names (and everything below them) the overrides apply to.
        public var hosts: [String]
        /// True for `"pinning": "off"`: the hosts get system trust (plus the extra anchors).
        public var pinningOff: Bool
        /// PEM files of extra trust anchors (the proxy's CA), for the debug build's client.
        public var trustAnchors: [String]

        public init(hosts: [String], pinningOff: Bool = true, trustAnchors: [String] = []) {
            self.hosts = hosts
            self.pinningOff = pinningOff
            self.trustAnchors = trustAnchors
        }
    }

    /// The configuration a build enforces. In a debug build the overrides apply (their hosts
    /// lose pinning); in any other build they are dropped, never honoured.
    /// - Parameter isDebugBuild: what the app says it is (e.g. `#if DEBUG`); default false.
    public func effective(isDebugBuild: Bool = false) -> PinConfiguration {
        var result = self
        result.debugOverrides = nil
        guard isDebugBuild, let overrides = debugOverrides, overrides.pinningOff else { return result }
        let hosts = overrides.hosts.map(HostName.normalize)
        result.pinSets = pinSets.compactMap { set in
            var set = set
            // A listed host at or below an override leaves the set (the override covers the names
            // below it); an override below a listed apex becomes an exclusion.
            set.hosts.removeAll { listed in
                let listed = HostName.normalize(listed)
                return hosts.contains { listed == $0 || listed.hasSuffix("." + $0) }
            }
            for host in hosts where !set.excludeSubdomains.map(HostName.normalize).contains(host) {
                if set.hosts.contains(where: { host.hasSuffix("." + HostName.normalize($0)) }) {
                    set.excludeSubdomains.append(host)
                }
            }
            return set.hosts.isEmpty ? nil : set
        }
        return result
    }

    /// The extra trust anchors a debug build's client adds (none in any other build).
    public func debugTrustAnchors(isDebugBuild: Bool = false) -> [String] {
        isDebugBuild ? debugOverrides?.trustAnchors ?? [] : []
    }

    static func readDebugOverrides(_ value: JSONValue, reader: inout DocumentReader) -> DebugOverrides? {
        guard
            let fields = reader.object(
                value, at: "debugOverrides", allowed: ["hosts", "pinning", "trustAnchors"], required: ["hosts"])
        else { return nil }
        let hosts = reader.strings(fields["hosts"], at: "debugOverrides.hosts") ?? []
        var pinningOff = false
        if let pinning = fields["pinning"] {
            switch reader.string(pinning, at: "debugOverrides.pinning") {
            case "off": pinningOff = true
            case "on", nil: pinningOff = false
            case let other?:
                reader.report(
                    .invalidValue, at: "debugOverrides.pinning", "expected \"off\" or \"on\", saw \"\(other)\"")
            }
        }
        let anchors = reader.strings(fields["trustAnchors"], at: "debugOverrides.trustAnchors") ?? []
        return DebugOverrides(hosts: hosts, pinningOff: pinningOff, trustAnchors: anchors)
    }

    /// The guard's view: a note in validate (a debug build may carry them), an error at the
    /// release gate (a release build must not ship them at all).
    func debugOverrideProblems(production: Bool) -> [ConfigurationProblem] {
        guard let overrides = debugOverrides else { return [] }
        if production {
            return [
                ConfigurationProblem(
                    .debugOverridesInRelease,
                    path: "debugOverrides",
                    "a release build must not carry debugOverrides (\(overrides.hosts.joined(separator: ", "))); remove the section from the release configuration"
                )
            ]
        }
        return [
            ConfigurationProblem(
                .debugOverridesPresent,
                .note,
                path: "debugOverrides",
                "debugOverrides for \(overrides.hosts.joined(separator: ", ")) apply only in a debug build (effective(isDebugBuild: true)); the release gate refuses them"
            )
        ]
    }
}
