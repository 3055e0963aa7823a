import Foundation
import Testing

@testable import PinKit

/// Issue 12 §2: an exclusion equal to, or above, a host that a pin set lists explicitly.
@Suite("Guard: a host both listed and excluded")
struct ExclusionGuardTests {
    static let rogueChain = [PinPolicyTests.leaf, PinPolicyTests.rogueIntermediate]

    // (document, the host that must stay pinned, the error's path)
    static let cases: [(String, String, String)] = [
        // The issue's case: listed, and excluded below another listed apex of the same set.
        (
            GuardTests.pinSets(
                Fixture.set([
                    "hosts": #"["example.com", "api.example.com"]"#, "excludeSubdomains": #"["api.example.com"]"#,
                ])),
            "api.example.com", "pinSets[0].excludeSubdomains[0]"
        ),
        // An exclusion above a listed host of the same set.
        (
            GuardTests.pinSets(
                Fixture.set([
                    "hosts": #"["example.com", "v1.api.example.com"]"#,
                    "excludeSubdomains": #"["status.example.com", "api.example.com"]"#,
                ])),
            "v1.api.example.com", "pinSets[0].excludeSubdomains[1]"
        ),
        // Equal after normalisation (case, trailing dot).
        (
            GuardTests.pinSets(
                Fixture.set([
                    "hosts": #"["example.com", "api.example.com"]"#, "excludeSubdomains": #"["API.Example.com."]"#,
                ])),
            "api.example.com", "pinSets[0].excludeSubdomains[0]"
        ),
        // One set's exclusion equal to another set's host: which one wins depended on their order.
        (
            GuardTests.pinSets(
                Fixture.set(["name": "\"cdn\"", "hosts": #"["cdn.example.com"]"#]),
                Fixture.set(["hosts": #"["example.com"]"#, "excludeSubdomains": #"["cdn.example.com"]"#])
            ),
            "cdn.example.com", "pinSets[1].excludeSubdomains[0]"
        ),
    ]

    /// The rows where the old rules unpinned the listed host (an exclusion above a more specific
    /// listed host loses to it, so that row is an ambiguity the guard refuses, not a bypass).
    static let bypasses = [cases[0], cases[2], cases[3]]

    @Test("without the rule the listed host is silently unpinned and a rogue chain passes", arguments: bypasses)
    func attackWithoutTheRule(_ json: String, _ host: String, _ path: String) throws {
        let configuration = try Fixture.configuration(json)
        // Every other rule passes: only the new code stands between this document and a policy.
        let others = configuration.validate(now: Fixture.now, publicSuffixes: Fixture.suffixes)
            .filter { $0.severity == .error && $0.code.rawValue != "exclude-covers-listed-host" }
        #expect(others.isEmpty, "\(others)")
        let unguarded = PinPolicy(unvalidated: configuration)
        #expect(unguarded.evaluate(host: host, verifiedChain: Self.rogueChain, now: Fixture.now) == .unpinnedHost)
    }

    @Test("with the rule it is an error with its own code at the exclusion, and no policy is built", arguments: cases)
    func refused(_ json: String, _ host: String, _ path: String) throws {
        let configuration = try Fixture.configuration(json)
        let problems = configuration.validate(now: Fixture.now, publicSuffixes: Fixture.suffixes)
            .filter { $0.severity == .error }
        #expect(problems.map { "\($0.code) \($0.path)" } == ["exclude-covers-listed-host \(path)"])
        #expect(problems.first?.message.contains(host) == true)
        #expect(configuration.loadingProblems().map(\.code) == [.excludeCoversListedHost])
        #expect(throws: PinKitError.self) { try PinPolicy(configuration) }
    }

    @Test("exclusions strictly below every listed host stay valid and keep their meaning")
    func validExclusions() throws {
        let configuration = try Fixture.configuration(
            GuardTests.pinSets(
                Fixture.set([
                    "hosts": #"["example.com", "api.example.com"]"#,
                    "excludeSubdomains": #"["status.example.com", "status.api.example.com"]"#,
                ])))
        #expect(configuration.validate(now: Fixture.now, publicSuffixes: Fixture.suffixes).isEmpty)
        let policy = try PinPolicy(configuration)
        #expect(policy.isPinnedHost("api.example.com") && policy.isPinnedHost("v2.api.example.com"))
        #expect(!policy.isPinnedHost("status.api.example.com") && !policy.isPinnedHost("a.status.example.com"))
    }

}
