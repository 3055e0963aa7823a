import Foundation
import Testing

@testable import PinKit

/// `debugOverrides.hosts` are "host names and everything below them". An override of the apex
/// `example.com` left the pinned `api.example.com` pinned in the debug build, so a developer
/// debugging through a proxy for the whole domain was still refused on the one host that
/// matters; release builds are unaffected either way (the section is dropped).
@Suite("debugOverrides cover the names below them")
struct DebugOverridesScopeTests {
    static func configuration(hosts: [String], override: String) throws -> PinConfiguration {
        let pins = [
            try SPKIPin(digest: (0..<32).map { UInt8($0) }), try SPKIPin(digest: (0..<32).map { UInt8(64 + $0) }),
        ]
        return try PinConfiguration.parse(
            JSONValue.object([
                (
                    "pinSets",
                    [
                        [
                            "name": "api", "hosts": .array(hosts.map(JSONValue.string)),
                            "pins": .array(pins.map { ["sha256": .string($0.base64)] }),
                        ]
                    ]
                ),
                ("debugOverrides", ["hosts": [.string(override)], "pinning": "off"]),
            ]))
    }

    @Test(
        "an override of an apex unpins the listed hosts below it in a debug build only",
        arguments: [
            (["api.example.com"], "example.com"), (["api.example.com", "cdn.example.com"], "EXAMPLE.com."),
            (["a.b.example.com"], "b.example.com"),
        ])
    func apexOverride(hosts: [String], override: String) throws {
        let configuration = try Self.configuration(hosts: hosts, override: override)
        let debug = try PinPolicy(configuration.effective(isDebugBuild: true))
        let release = try PinPolicy(configuration.effective())
        for host in hosts {
            #expect(!debug.isPinnedHost(host), "\(host) under an override of \(override)")
            #expect(release.isPinnedHost(host), "a release build ignores the override")
        }
    }

    @Test("an override of an unrelated or look-alike name changes nothing")
    func unrelated() throws {
        for override in ["ample.com", "other.example.org", "xapi.example.com"] {
            let configuration = try Self.configuration(hosts: ["api.example.com"], override: override)
            #expect(try PinPolicy(configuration.effective(isDebugBuild: true)).isPinnedHost("api.example.com"))
        }
    }
}
