import Foundation
import Testing

@testable import PinKit

@Suite("Configuration reading")
struct ConfigurationReadingTests {
    @Test("the documented example reads with every field and default")
    func example() throws {
        let configuration = try Fixture.configuration(Fixture.exampleJSON)
        #expect(configuration.pinSets.count == 1)
        let set = configuration.pinSets[0]
        #expect(set.name == "managed-cloud")
        #expect(set.hosts == ["api.example.com"])
        #expect(set.includeSubdomains)
        #expect(set.excludeSubdomains == ["status.api.example.com"])
        #expect(set.pins.map(\.role) == [.active, .active, .backup])
        #expect(set.pins[0].label == "GTS WE1 intermediate")
        #expect(set.expires == RFC3339.parse("2028-06-01T00:00:00Z"))
        #expect(set.mode == .enforce)
        #expect(configuration.killSwitch?.url == "https://pinning-status.example.net/v1/kill-switch.json")
        #expect(configuration.killSwitch?.publicKeys.first?.keyId == "ks-2026")
        #expect(configuration.reporting?.url == "https://api.example.com/v1/pin-failures")
        #expect(configuration.validate(now: Fixture.now, publicSuffixes: Fixture.suffixes).isEmpty)
    }

    @Test("defaults: includeSubdomains true, mode enforce, role active")
    func defaults() throws {
        let configuration = try Fixture.configuration(#"{"pinSets": [\#(Fixture.set())]}"#)
        #expect(configuration.pinSets[0].includeSubdomains)
        #expect(configuration.pinSets[0].mode == .enforce)
        #expect(configuration.pinSets[0].pins[0].role == .active)
    }

    @Test("no configuration at all is valid: system trust only", arguments: ["{}", #"{"pinSets": []}"#])
    func empty(_ json: String) throws {
        let configuration = try Fixture.configuration(json)
        #expect(configuration.pinSets.isEmpty)
        #expect(configuration.pinConfigurationIsValid(now: Fixture.now, publicSuffixes: Fixture.suffixes))
        #expect(
            !(try PinPolicy(configuration)).isPinnedHost(
                "example.com"))
    }

    @Test("the flat HLPinnedHosts + HLPinnedSPKIHashes keys, as JSON")
    func flatJSON() throws {
        let json = """
            {"HLPinnedHosts": ["example.com", "example.org"],
             "HLPinnedSPKIHashes": ["\(Fixture.intermediate)", "sha256/\(Fixture.backup)"]}
            """
        let configuration = try Fixture.configuration(json)
        #expect(configuration.isFlatForm)
        #expect(configuration.pinSets.count == 1)
        #expect(configuration.pinSets[0].hosts == ["example.com", "example.org"])
        #expect(configuration.pinSets[0].includeSubdomains)
        let policy = try PinPolicy(configuration)
        #expect(policy.isPinnedHost("api.example.org"))
        #expect(!policy.isPinnedHost("example.net"))
    }

    @Test("the flat keys as XML and binary property lists")
    func flatPropertyList() throws {
        let object: [String: Any] = [
            "HLPinnedHosts": ["example.com"], "HLPinnedSPKIHashes": [Fixture.intermediate, Fixture.backup],
        ]
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let data = try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0)
            let configuration = try PinConfiguration.parse(data)
            #expect(configuration.pinSets.first?.hosts == ["example.com"])
            #expect(configuration.pinSets.first?.pins.map(\.sha256) == [Fixture.intermediate, Fixture.backup])
        }
    }

    @Test("a property list boolean reads as a boolean, an integer does not")
    func propertyListTypes() throws {
        let good: [String: Any] = [
            "pinSets": [
                [
                    "name": "s", "hosts": ["example.com"], "includeSubdomains": false,
                    "pins": [["sha256": Fixture.intermediate], ["sha256": Fixture.backup]],
                ]
            ]
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: good, format: .xml, options: 0)
        #expect(try PinConfiguration.parse(data).pinSets[0].includeSubdomains == false)
        var bad = good
        bad["pinSets"] = [["name": "s", "hosts": ["example.com"], "includeSubdomains": 1, "pins": []]]
        let badData = try PropertyListSerialization.data(fromPropertyList: bad, format: .xml, options: 0)
        #expect {
            try PinConfiguration.parse(badData)
        } throws: { error in
            (error as? PinKitError)?.problems.contains { $0.path == "pinSets[0].includeSubdomains" } == true
        }
    }

    @Test("a garbled property list is a clear error")
    func garbledPropertyList() {
        #expect {
            try PinConfiguration.parse(Data("<?xml version=\"1.0\"?><plist><dict><key>x</dict>".utf8))
        } throws: { ($0 as? PinKitError)?.code == .malformedPropertyList }
    }

    // Every structural problem at once, each with its path.
    @Test("structural problems are all reported with paths")
    func structuralProblems() {
        let json = """
            {"pinSets": [{"name": "s", "hosts": "example.com", "includeSubdomain": true,
                          "pins": [{"sha256": 5}, {"sha": "x"}, {"sha256": "\(Fixture.backup)", "role": "spare"}],
                          "expires": "next year", "mode": "audit"}],
             "killswitch": {}, "reporting": {"url": 1}}
            """
        #expect {
            try Fixture.configuration(json)
        } throws: { error in
            guard let error = error as? PinKitError, error.code == .invalidDocument else { return false }
            let found = Set(error.problems.map { "\($0.code) \($0.path)" })
            let expected: Set<String> = [
                "unknown-key pinSets[0].includeSubdomain", "wrong-type pinSets[0].hosts",
                "wrong-type pinSets[0].pins[0].sha256", "unknown-key pinSets[0].pins[1].sha",
                "missing-key pinSets[0].pins[1].sha256", "invalid-value pinSets[0].pins[2].role",
                "invalid-value pinSets[0].expires", "invalid-value pinSets[0].mode", "unknown-key killswitch",
                "wrong-type reporting.url",
            ]
            #expect(found == expected)
            let hint = error.problems.first { $0.path == "pinSets[0].includeSubdomain" }?.message ?? ""
            #expect(hint.contains("did you mean \"includeSubdomains\""))
            return true
        }
    }

    @Test("mixing the flat keys with the full schema is refused")
    func mixedForms() {
        let json = #"{"HLPinnedHosts": ["example.com"], "pinSets": []}"#
        #expect {
            try Fixture.configuration(json)
        } throws: { ($0 as? PinKitError)?.problems.first?.code == .mixedForms }
    }

    @Test("malformed JSON names line and column")
    func malformed() {
        #expect {
            try Fixture.configuration("{\n  \"pinSets\": [\n    {\"name\": \"s\",}\n  ]\n}")
        } throws: { error in
            guard let error = error as? PinKitError else { return false }
            return error.code == .malformedJSON && error.reason.contains("line 3, column 18")
        }
    }
}
