import Foundation
import Testing

@testable import PinKit

@Suite("Configuration guard")
struct GuardTests {
    static func problems(_ json: String, chain: [CertificateFacts]? = nil) throws -> [ConfigurationProblem] {
        try Fixture.configuration(json).validate(chain: chain, now: Fixture.now, publicSuffixes: Fixture.suffixes)
    }

    static func codesAndPaths(_ json: String, chain: [CertificateFacts]? = nil) throws -> Set<String> {
        Set(try problems(json, chain: chain).filter { $0.severity == .error }.map { "\($0.code) \($0.path)" })
    }

    static func pinSets(_ sets: String...) -> String { #"{"pinSets": [\#(sets.joined(separator: ","))]}"# }

    // One row per rule: the document, and the error codes with paths it must produce.
    @Test(
        "each rule reports its code at its path",
        arguments: [
            (pinSets(Fixture.set()), []),
            (pinSets(Fixture.set(["hosts": "[]"])), ["hashes-without-hosts pinSets[0].hosts"]),
            (pinSets(Fixture.set(["pins": "[]"])), ["hosts-without-hashes pinSets[0].pins"]),
            (
                pinSets(Fixture.set(["pins": #"[{"sha256": "\#(Fixture.intermediate)", "role": "backup"}]"#])),
                ["too-few-pins pinSets[0].pins"]
            ),
            (
                pinSets(
                    Fixture.set([
                        "pins":
                            #"[{"sha256": "\#(Fixture.intermediate)"}, {"sha256": "nope"}, {"sha256": "\#(Fixture.backup)", "role": "backup"}]"#
                    ])),
                ["invalid-pin pinSets[0].pins[1]"]
            ),
            (
                pinSets(
                    Fixture.set([
                        "pins":
                            #"[{"sha256": "\#(Fixture.intermediate)"}, {"sha256": "sha256/\#(Fixture.intermediate)", "role": "backup"}]"#
                    ])),
                ["duplicate-pin pinSets[0].pins[1]", "too-few-pins pinSets[0].pins"]
            ),
            (
                pinSets(
                    Fixture.set([
                        "pins":
                            #"[{"sha256": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}, {"sha256": "\#(Fixture.intermediate)"}, {"sha256": "\#(Fixture.backup)", "role": "backup"}]"#
                    ])),
                ["placeholder-pin pinSets[0].pins[0]"]
            ),
            (
                pinSets(Fixture.set(), Fixture.set(["name": "\"t\"", "hosts": #"["API.example.com."]"#])),
                ["duplicate-host pinSets[1].hosts[0]"]
            ),
            (
                pinSets(Fixture.set(["hosts": #"["api.example.com", "api.example.com"]"#])),
                ["duplicate-host pinSets[0].hosts[1]"]
            ),
            (
                pinSets(Fixture.set(), Fixture.set(["hosts": #"["other.example.com"]"#])),
                ["duplicate-name pinSets[1].name"]
            ),
            (pinSets(Fixture.set(["hosts": #"[""]"#])), ["empty-host pinSets[0].hosts[0]"]),
            (pinSets(Fixture.set(["hosts": #"["a..example.com"]"#])), ["empty-label pinSets[0].hosts[0]"]),
            (pinSets(Fixture.set(["hosts": #"["10.0.0.1"]"#])), ["ip-literal-host pinSets[0].hosts[0]"]),
            (pinSets(Fixture.set(["hosts": #"["[2001:db8::1]"]"#])), ["ip-literal-host pinSets[0].hosts[0]"]),
            (pinSets(Fixture.set(["hosts": #"["*.example.com"]"#])), ["wildcard-host pinSets[0].hosts[0]"]),
            (pinSets(Fixture.set(["hosts": #"["bücher.example"]"#])), ["non-ascii-host pinSets[0].hosts[0]"]),
            (pinSets(Fixture.set(["hosts": #"["com"]"#])), ["public-suffix-host pinSets[0].hosts[0]"]),
            (pinSets(Fixture.set(["hosts": #"["co.uk"]"#])), ["public-suffix-host pinSets[0].hosts[0]"]),
            (pinSets(Fixture.set(["hosts": #"["github.io"]"#])), ["public-suffix-host pinSets[0].hosts[0]"]),
            (pinSets(Fixture.set(["hosts": #"["localhost"]"#])), ["public-suffix-host pinSets[0].hosts[0]"]),
            (
                pinSets(Fixture.set(["expires": #""2026-01-01T00:00:00Z""#])),
                ["expired-pin-set pinSets[0].expires"]
            ),
            (
                pinSets(Fixture.set(["excludeSubdomains": #"["status.example.org"]"#])),
                ["exclude-outside-hosts pinSets[0].excludeSubdomains[0]"]
            ),
            (
                pinSets(Fixture.set(["excludeSubdomains": #"["api.example.com"]"#])),
                ["exclude-covers-listed-host pinSets[0].excludeSubdomains[0]"]
            ),
            (
                #"{"pinSets": [\#(Fixture.set())], "killSwitch": {"url": "https://status.api.example.com/ks.json", "publicKeys": []}}"#,
                ["kill-switch-host-pinned killSwitch.url", "unsigned-kill-switch killSwitch.publicKeys"]
            ),
            (
                #"{"killSwitch": {"url": "http://status.example.net/ks.json", "publicKeys": []}}"#,
                ["insecure-url killSwitch.url", "unsigned-kill-switch killSwitch.publicKeys"]
            ),
            (
                #"{"killSwitch": {"url": "https://status.example.net/ks.json"}}"#,
                ["unsigned-kill-switch killSwitch.publicKeys"]
            ),

            (#"{"reporting": {"url": "not a url"}}"#, ["invalid-url reporting.url"]),
            (
                #"{"HLPinnedSPKIHashes": ["\#(Fixture.intermediate)", "\#(Fixture.backup)"]}"#,
                ["hashes-without-hosts HLPinnedHosts"]
            ),
            (#"{"HLPinnedHosts": ["example.com"]}"#, ["hosts-without-hashes HLPinnedSPKIHashes"]),
            (
                #"{"HLPinnedHosts": ["example.com"], "HLPinnedSPKIHashes": ["\#(Fixture.intermediate)", "bad"]}"#,
                ["invalid-pin HLPinnedSPKIHashes[1]", "too-few-pins HLPinnedSPKIHashes"]
            ),
        ] as [(String, [String])]
    )
    func rule(_ json: String, _ expected: [String]) throws {
        #expect(try Self.codesAndPaths(json) == Set(expected))
    }

    @Test("every problem is reported at once, in document order")
    func everyProblemAtOnce() throws {
        let json = Self.pinSets(
            Fixture.set(["hosts": #"["*.example.com", "com"]"#, "pins": #"[{"sha256": "x"}]"#]),
            Fixture.set(["name": "\"t\"", "hosts": #"["10.0.0.1"]"#, "expires": #""2020-01-01T00:00:00Z""#])
        )
        let problems = try Self.problems(json).filter { $0.severity == .error }
        #expect(
            problems.map(\.code.rawValue) == [
                "wildcard-host", "public-suffix-host", "invalid-pin", "too-few-pins", "ip-literal-host",
                "expired-pin-set",
            ])
        let message = problems.first { $0.code == .publicSuffixHost }?.message ?? ""
        #expect(message.contains("\"com\""))
    }

    @Test("warnings: report-only, no declared backup, expiring soon")
    func warnings() throws {
        let json = """
            {"pinSets": [\(Fixture.set(["mode": "\"report-only\"", "expires": "\"2026-12-10T00:00:00Z\"", "pins": #"[{"sha256": "\#(Fixture.intermediate)"}, {"sha256": "\#(Fixture.backup)"}]"#]))]}
            """
        let configuration = try Fixture.configuration(json)
        let problems = configuration.validate(now: Fixture.now, publicSuffixes: Fixture.suffixes)
        #expect(problems.allSatisfy { $0.severity == .warning })
        #expect(Set(problems.map(\.code)) == [.reportOnlyMode, .noDeclaredBackup, .expiresSoon])
        #expect(configuration.pinConfigurationIsValid(now: Fixture.now, publicSuffixes: Fixture.suffixes))
        #expect(!configuration.meetsProductionPinPolicy(now: Fixture.now, publicSuffixes: Fixture.suffixes))
    }

    @Test("the production gate passes the documented example and the neutral build, the latter with a note")
    func production() throws {
        let example = try Fixture.configuration(Fixture.exampleJSON)
        #expect(example.meetsProductionPinPolicy(now: Fixture.now, publicSuffixes: Fixture.suffixes))
        for neutral in ["{}", #"{"HLPinnedHosts": [], "HLPinnedSPKIHashes": []}"#] {
            let empty = try Fixture.configuration(neutral)
            #expect(empty.pinConfigurationIsValid(now: Fixture.now, publicSuffixes: Fixture.suffixes))
            #expect(empty.meetsProductionPinPolicy(now: Fixture.now, publicSuffixes: Fixture.suffixes), "\(neutral)")
            let problems = empty.productionProblems(now: Fixture.now, publicSuffixes: Fixture.suffixes)
            #expect(problems.map(\.code) == [.noPinSets] && problems.allSatisfy { $0.severity == .note })
        }
        #expect(PinConfiguration.minimumProductionPinCount == 2)
    }

    @Test(
        "an unsigned kill switch is an error; one kill-switch key (or one key listed twice) fails the production gate")
    func killSwitchKeys() throws {
        let unsigned = try Fixture.configuration(
            Self.pinSets(Fixture.set()).dropLast() + #", "killSwitch": {"url": "https://status.example.net/ks.json"}}"#)
        #expect(!unsigned.pinConfigurationIsValid(now: Fixture.now, publicSuffixes: Fixture.suffixes))
        #expect(throws: PinKitError.self) {
            try PinPolicy(unsigned)
        }
        let two = try Fixture.configuration(Fixture.exampleJSON)
        #expect(two.meetsProductionPinPolicy(now: Fixture.now, publicSuffixes: Fixture.suffixes))
        for keep in ["ks-2026", "both-same"] {
            var one = two
            if keep == "ks-2026" {
                one.killSwitch?.publicKeys.removeLast()
            } else {
                let first = one.killSwitch!.publicKeys[0].spki
                one.killSwitch?.publicKeys[1].spki = first
            }
            #expect(
                one.pinConfigurationIsValid(now: Fixture.now, publicSuffixes: Fixture.suffixes), "usable at runtime")
            let problems = one.productionProblems(now: Fixture.now, publicSuffixes: Fixture.suffixes)
            #expect(problems.map(\.code) == [.singleKillSwitchKey], "\(keep)")
            #expect(problems.first?.severity == .error)
        }
    }

    @Test("without a public suffix list the guard still refuses single labels and says the check was reduced")
    func noSuffixList() throws {
        let configuration = try Fixture.configuration(Self.pinSets(Fixture.set(["hosts": #"["com", "co.uk"]"#])))
        let problems = configuration.validate(now: Fixture.now, publicSuffixes: nil)
        #expect(problems.contains { $0.code == .publicSuffixListUnavailable && $0.severity == .warning })
        #expect(problems.filter { $0.code == .publicSuffixHost }.map(\.path) == ["pinSets[0].hosts[0]"])
    }

    // MARK: - Against a chain

    static func facts(_ pin: String, _ subject: String, names: [String] = []) -> CertificateFacts {
        CertificateFacts(
            spki: try! SPKIPin(parsing: pin),
            subject: subject,
            issuer: "",
            notBefore: Fixture.now,
            notAfter: Fixture.now.addingTimeInterval(86_400),
            dnsNames: names
        )
    }

    static let leafPin = Fixture.pin(9)
    static let chain = [
        facts(leafPin, "CN=api.example.com", names: ["api.example.com"]),
        facts(Fixture.intermediate, "CN=Intermediate"),
        facts(Fixture.root, "CN=Root"),
    ]

    @Test("a configuration that matches the chain and has a backup passes")
    func chainGood() throws {
        #expect(try Self.codesAndPaths(Self.pinSets(Fixture.set()), chain: Self.chain).isEmpty)
    }

    @Test("no pin matching the chain would brick today")
    func chainBrick() throws {
        let json = Self.pinSets(
            Fixture.set([
                "pins": #"[{"sha256": "\#(Fixture.other)"}, {"sha256": "\#(Fixture.backup)", "role": "backup"}]"#
            ]))
        let problems = try Self.problems(json, chain: Self.chain)
        let brick = try #require(problems.first { $0.code == .noPinMatchesChain })
        #expect(brick.path == "pinSets[0].pins")
        #expect(brick.message.contains(Fixture.intermediate) && brick.message.contains(Fixture.other))
    }

    @Test("every pin in the chain means no real backup: a warning for CA-level pins (strategy b)")
    func chainNoBackup() throws {
        let json = Self.pinSets(
            Fixture.set([
                "pins": #"[{"sha256": "\#(Fixture.intermediate)"}, {"sha256": "\#(Fixture.root)", "role": "backup"}]"#
            ]))
        let problems = try Self.problems(json, chain: Self.chain).filter { $0.code == .noBackupPin }
        #expect(problems.map(\.severity) == [.warning])
        #expect(problems.first?.path == "pinSets[0].pins")
        #expect(problems.first?.message.contains("not a CA change") == true)
    }

    @Test("a pin on the leaf is refused")
    func chainLeaf() throws {
        let json = Self.pinSets(
            Fixture.set([
                "pins":
                    #"[{"sha256": "\#(Self.leafPin)", "label": "leaf"}, {"sha256": "\#(Fixture.backup)", "role": "backup"}]"#
            ]))
        #expect(try Self.codesAndPaths(json, chain: Self.chain) == ["leaf-pinned pinSets[0].pins[0]"])
    }

    @Test("chain rules apply to the pin set covering the leaf's names only")
    func chainScopedToSet() throws {
        let json = Self.pinSets(
            Fixture.set(),
            Fixture.set([
                "name": "\"other\"", "hosts": #"["example.org"]"#,
                "pins": #"[{"sha256": "\#(Fixture.other)"}, {"sha256": "\#(Fixture.backup)", "role": "backup"}]"#,
            ])
        )
        #expect(try Self.codesAndPaths(json, chain: Self.chain).isEmpty)
    }
}
