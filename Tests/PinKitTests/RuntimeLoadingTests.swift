import Foundation
import Testing

@testable import PinKit

/// Invariant 9: the ship-time gate may refuse a configuration for what the clock or the machine
/// says; runtime loading never does, so an app whose set expired (or whose machine's public
/// suffix list disagrees with the build machine's) still gets a client.
@Suite("Runtime loading versus the ship-time gate")
struct RuntimeLoadingTests {
    static let yesterday = Date().addingTimeInterval(-86_400)

    static func expiredConfiguration() throws -> PinConfiguration {
        try Fixture.configuration(
            #"{"pinSets": [\#(Fixture.set(["expires": "\"\(RFC3339.format(yesterday))\""]))]}"#)
    }

    @Test("a set that expired yesterday: the ship-time gate refuses it, runtime loading builds a policy")
    func expiredYesterday() throws {
        let configuration = try Self.expiredConfiguration()
        // The ship-time gate is the one the old runtime ran: it refuses the set, which bricked every launch.
        let gate = configuration.validate(publicSuffixes: Fixture.suffixes)
        #expect(gate.contains { $0.code == .expiredPinSet && $0.severity == .error })
        #expect(!configuration.meetsProductionPinPolicy(publicSuffixes: Fixture.suffixes))
        #expect(configuration.loadingProblems().isEmpty, "nothing about the clock stops runtime loading")
        let policy = try PinPolicy(configuration)
        #expect(policy.isPinnedHost("api.example.com"))
        // Decided per handshake: expired now (system trust + an event), enforced on a clock before the date.
        let rogue = [PinPolicyTests.leaf, PinPolicyTests.rogueIntermediate]
        #expect(
            policy.evaluate(host: "api.example.com", verifiedChain: rogue)
                == .pinSetExpired(setName: "s", expired: try #require(configuration.pinSets[0].expires)))
        let before = policy.evaluate(
            host: "api.example.com", verifiedChain: rogue, now: Self.yesterday.addingTimeInterval(-60))
        #expect(!before.allowsConnection)
    }

    @Test("loading reads no clock: a set that expires in an hour builds at every clock, before and after")
    func anyClock() throws {
        let soon = Date().addingTimeInterval(3_600)
        let configuration = try Fixture.configuration(
            #"{"pinSets": [\#(Fixture.set(["expires": "\"\(RFC3339.format(soon))\""]))]}"#)
        #expect(configuration.validate(publicSuffixes: Fixture.suffixes).contains { $0.code == .expiresSoon })
        let policy = try PinPolicy(configuration)
        for clock in [Date.distantPast, Date(), soon, Date.distantFuture] {
            let result = policy.evaluate(
                host: "api.example.com", verifiedChain: [PinPolicyTests.leaf, PinPolicyTests.intermediate], now: clock)
            #expect(result.allowsConnection)
        }
    }

    @Test("loading reads no public suffix list: the build machine's list and the device's may differ")
    func noMachineList() throws {
        // github.io is in the private section of the list: a newer list on a device can add a name
        // the build machine's list did not have. The gate says so; the device must not lose its client.
        let configuration = try Fixture.configuration(
            #"{"pinSets": [\#(Fixture.set(["hosts": #"["github.io"]"#]))]}"#)
        #expect(configuration.validate(publicSuffixes: Fixture.suffixes).contains { $0.code == .publicSuffixHost })
        #expect(
            !configuration.validate(publicSuffixes: nil).contains { $0.severity == .error },
            "without the list the gate only warns: the outcome depends on the machine"
        )
        #expect(configuration.loadingProblems().isEmpty)
        #expect(try PinPolicy(configuration).isPinnedHost("pages.github.io"))
    }

    @Test("rules about the document alone still stop runtime loading, with every problem listed")
    func structuralErrorsStillThrow() throws {
        let configuration = try Fixture.configuration(
            #"{"pinSets": [\#(Fixture.set(["hosts": #"["com"]"#, "pins": #"[{"sha256": "bad"}]"#, "expires": "\"2000-01-01T00:00:00Z\""]))]}"#
        )
        #expect(configuration.loadingProblems().map(\.code) == [.publicSuffixHost, .invalidPin, .tooFewPins])
        #expect {
            try PinPolicy(configuration)
        } throws: { error in
            guard let error = error as? PinKitError, error.code == .invalidConfiguration else { return false }
            return error.problems.map(\.code) == [.publicSuffixHost, .invalidPin, .tooFewPins]
        }
    }
}
