import Foundation
import PinKit
import Testing

/// The configuration forms a team meets outside the JSON schema: an app's real Info.plist, a
/// TrustKit/Android-style date-only expiry, and the README's read-then-validate sample.
@Suite("Configuration as operators write it")
struct OperatorConfigurationTests {
    static func plist(_ entries: String) -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>com.example.health</string>
            <key>CFBundleShortVersionString</key><string>3.2.0</string>
            <key>UIRequiredDeviceCapabilities</key><array><string>armv7</string></array>
            \(entries)
            </dict></plist>
            """.utf8)
    }

    @Test("a real Info.plist is read for its HL* keys; the app's other keys are ignored")
    func infoPlist() throws {
        let hosts = "<key>HLPinnedHosts</key><array><string>api.example.com</string></array>"
        let hashes =
            "<key>HLPinnedSPKIHashes</key><array><string>\(Fixture.intermediate)</string><string>\(Fixture.backup)</string></array>"
        let configuration = try PinConfiguration.parse(Self.plist(hosts + hashes))
        #expect(configuration.pinSets.first?.hosts == ["api.example.com"])
        #expect(configuration.pinSets.first?.pins.count == 2)
        // Without pinning keys, the Info.plist is the neutral build.
        #expect(try PinConfiguration.parse(Self.plist("")).pinSets.isEmpty)
        // A misspelt HL key is still an error: it must never silently disable pinning.
        #expect {
            try PinConfiguration.parse(
                Self.plist(hosts.replacingOccurrences(of: "HLPinnedHosts", with: "HLPinnedHost")))
        } throws: { ($0 as? PinKitError)?.problems.contains { $0.code == .unknownKey } == true }
        // JSON keeps its strictness: an unknown key is an error there.
        #expect(throws: PinKitError.self) {
            try PinConfiguration.parse(Data(#"{"CFBundleIdentifier": "x", "pinSets": []}"#.utf8))
        }
    }

    @Test("expires as a date only is midnight UTC of that day; a bad date names both forms")
    func dateOnlyExpires() throws {
        func set(_ expires: String) -> String {
            Fixture.set(["expires": "\"\(expires)\""])
        }
        let configuration = try Fixture.configuration(#"{"pinSets": [\#(set("2027-06-01"))]}"#)
        #expect(configuration.pinSets[0].expires == RFC3339.parse("2027-06-01T00:00:00Z"))
        for bad in ["2027-6-1", "2027-02-30", "2027-06-01T", "01/06/2027"] {
            #expect {
                try Fixture.configuration(#"{"pinSets": [\#(set(bad))]}"#)
            } throws: {
                ($0 as? PinKitError)?.problems.contains { $0.message.contains("2028-06-01 or an RFC 3339") } == true
            }
        }
    }

    @Test("load throws schema problems with their paths, so the README's catch sees what validate() cannot")
    func loadThenValidate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pinkit-\(UUID().uuidString).json")
        try #"{"pinSets": [{"name": "p", "hosts": ["api.example.com"], "pinz": []}]}"#.write(
            to: directory, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            _ = try PinConfiguration.load(contentsOf: directory.path)
            Issue.record("a schema error must throw")
        } catch {
            #expect(error.problems.map(\.path).contains("pinSets[0].pinz"))
        }
    }

    @Test("debugOverrides: honoured only when the app says it is a debug build, refused by the release gate")
    func debugOverrides() throws {
        let json = #"""
            {"pinSets": [\#(Fixture.set())],
             "debugOverrides": {"hosts": ["api.example.com"], "pinning": "off", "trustAnchors": ["charles-ca.pem"]}}
            """#
        let configuration = try Fixture.configuration(json)
        let host = try #require(configuration.pinSets.first?.hosts.first)
        // The override does what a developer wants in a debug build: the proxy's chain is accepted.
        let debug = try PinPolicy(
            configuration.effective(isDebugBuild: true))
        #expect(!debug.isPinnedHost(host), "debug build: pinning off for the override's host")
        #expect(configuration.debugTrustAnchors(isDebugBuild: true) == ["charles-ca.pem"])
        // Which is exactly what a release build must never do: there the section is ignored.
        let release = try PinPolicy(configuration.effective())
        #expect(release.isPinnedHost(host))
        #expect(try PinPolicy(configuration).isPinnedHost(host))
        #expect(configuration.debugTrustAnchors().isEmpty)
        // The guard: a note for a debug configuration, an error at the release gate.
        let problems = configuration.validate(now: Fixture.now, publicSuffixes: Fixture.suffixes)
        #expect(problems.contains { $0.code == .debugOverridesPresent && $0.severity == .note })
        let gate = configuration.productionProblems(now: Fixture.now, publicSuffixes: Fixture.suffixes)
        #expect(gate.contains { $0.code == .debugOverridesInRelease && $0.severity == .error })
        #expect(!configuration.meetsProductionPinPolicy(now: Fixture.now, publicSuffixes: Fixture.suffixes))
        // A name below a pinned apex becomes an exclusion; the apex stays pinned.
        let below = try Fixture.configuration(
            #"{"pinSets": [\#(Fixture.set())], "debugOverrides": {"hosts": ["dev.\#(host)"], "pinning": "off"}}"#)
        let partial = try PinPolicy(
            below.effective(isDebugBuild: true))
        #expect(partial.isPinnedHost(host) && !partial.isPinnedHost("dev.\(host)"))
        #expect(throws: PinKitError.self) {
            try Fixture.configuration(#"{"debugOverrides": {"hosts": ["x.example.com"], "pinning": "of"}}"#)
        }
    }
}
