import Foundation
import Testing

@testable import PinKit

@Suite("Pin policy and evaluation")
struct PinPolicyTests {
    static func policy(_ overrides: [String: String] = [:]) throws -> PinPolicy {
        try PinPolicy(Fixture.configuration(#"{"pinSets": [\#(Fixture.set(overrides))]}"#))
    }

    static let leaf = GuardTests.facts(GuardTests.leafPin, "CN=api.example.com")
    static let intermediate = GuardTests.facts(Fixture.intermediate, "CN=Intermediate")
    static let rogueIntermediate = GuardTests.facts(Fixture.other, "CN=Rogue Intermediate")
    static let root = GuardTests.facts(Fixture.root, "CN=Root")

    @Test("an invalid configuration cannot become a policy; the error lists every error")
    func invalidConfiguration() throws {
        let configuration = try Fixture.configuration(
            #"{"pinSets": [\#(Fixture.set(["hosts": #"["com", "*.x.com"]"#, "pins": #"[{"sha256": "bad"}]"#]))]}"#
        )
        #expect {
            try PinPolicy(configuration)
        } throws: { error in
            guard let error = error as? PinKitError, error.code == .invalidConfiguration else { return false }
            return error.problems.map(\.code) == [.publicSuffixHost, .wildcardHost, .invalidPin, .tooFewPins]
        }
    }

    @Test("a pin in the verified chain matches, at its depth, with its label")
    func matched() throws {
        let policy = try Self.policy([
            "pins":
                #"[{"sha256": "\#(Fixture.root)", "label": "root"}, {"sha256": "\#(Fixture.backup)", "role": "backup"}]"#
        ])
        let result = policy.evaluate(
            host: "API.example.com.", verifiedChain: [Self.leaf, Self.intermediate, Self.root], now: Fixture.now)
        guard case .matched(let match) = result else {
            Issue.record("expected a match, got \(result)")
            return
        }
        #expect(match.depth == 3)
        #expect(match.label == "root")
        #expect(result.allowsConnection)
    }

    @Test("a chain without a pinned key is refused and the failure explains itself")
    func mismatch() throws {
        let policy = try Self.policy()
        let result = policy.evaluate(
            host: "api.example.com", verifiedChain: [Self.leaf, Self.rogueIntermediate], now: Fixture.now)
        guard case .mismatch(let failure) = result else {
            Issue.record("expected a mismatch, got \(result)")
            return
        }
        #expect(!result.allowsConnection)
        #expect(failure.host == "api.example.com")
        #expect(failure.expectedPins.map(\.base64) == [Fixture.intermediate, Fixture.backup])
        #expect(failure.description.contains("CN=Rogue Intermediate"))
        #expect(failure.description.contains(Fixture.other))
        #expect(failure.description.contains(Fixture.intermediate))
    }

    @Test("report-only lets a mismatch through but still reports it")
    func reportOnly() throws {
        let policy = try Self.policy(["mode": "\"report-only\""])
        let result = policy.evaluate(
            host: "api.example.com", verifiedChain: [Self.leaf, Self.rogueIntermediate], now: Fixture.now)
        guard case .mismatch(let failure) = result else {
            Issue.record("expected a mismatch, got \(result)")
            return
        }
        #expect(failure.mode == .reportOnly)
        #expect(result.allowsConnection)
    }

    @Test("an expired pin set is not enforced, and says so")
    func expired() throws {
        let policy = try Self.policy(["expires": "\"2027-01-01T00:00:00Z\""])
        let later = RFC3339.parse("2027-01-02T00:00:00Z")!
        let result = policy.evaluate(
            host: "api.example.com", verifiedChain: [Self.leaf, Self.rogueIntermediate], now: later)
        #expect(result == .pinSetExpired(setName: "s", expired: RFC3339.parse("2027-01-01T00:00:00Z")!))
        let before = policy.evaluate(
            host: "api.example.com", verifiedChain: [Self.leaf, Self.rogueIntermediate], now: Fixture.now)
        #expect(!before.allowsConnection)
    }

    @Test("hosts outside every pin set get system trust, whatever the chain")
    func unpinned() throws {
        let policy = try Self.policy()
        for host in ["selfhosted.example.net", "evilapi.example.com", "api.example.com.evil.net"] {
            #expect(
                policy.evaluate(host: host, verifiedChain: [Self.rogueIntermediate], now: Fixture.now) == .unpinnedHost)
        }
    }

    @Test("the leaf's key matches only when pinned, and an empty chain never matches")
    func edgeChains() throws {
        let policy = try Self.policy()
        #expect(!policy.evaluate(host: "api.example.com", verifiedChain: [], now: Fixture.now).allowsConnection)
        #expect(
            policy.evaluate(host: "api.example.com", verifiedChain: [Self.leaf], now: Fixture.now).allowsConnection
                == false)
    }

    @Test("the chain's keys are computed only when a live pin set applies")
    func keysOnlyWhenNeeded() throws {
        let policy = try Self.policy(["expires": "\"2027-01-01T00:00:00Z\""])
        var calls = 0
        let keys = { () -> [SPKIPin] in
            calls += 1
            return [Self.leaf.spki, Self.intermediate.spki]
        }
        _ = policy.evaluate(host: "selfhosted.example.net", verifiedChainKeys: keys, now: Fixture.now, chain: { [] })
        #expect(calls == 0, "an unpinned host needs no hashing")
        _ = policy.evaluate(
            host: "api.example.com", verifiedChainKeys: keys, now: RFC3339.parse("2027-02-01T00:00:00Z")!, chain: { [] }
        )
        #expect(calls == 0, "an expired set needs no hashing")
        #expect(
            policy.evaluate(host: "api.example.com", verifiedChainKeys: keys, now: Fixture.now, chain: { [] })
                .allowsConnection)
        #expect(calls == 1)
    }
}
