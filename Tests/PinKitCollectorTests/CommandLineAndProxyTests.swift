import Foundation
import PinKit
import PinKitCollector
import PinKitTestSupport
import Testing

@Suite("Collector client addresses behind a proxy")
struct TrustedProxyTests {
    @Test("X-Forwarded-For counts only from a trusted proxy; otherwise a forged header changes nothing")
    func forwardedFor() throws {
        var configuration = CollectorHarness.permissive()
        configuration.addressRate = RateLimiter.Rule(burst: 2, perSecond: 0.001)
        // No trusted proxy: every request counts against the real peer (127.0.0.1), whatever it claims.
        let direct = try CollectorHarness(configuration: configuration)
        defer { direct.stop() }
        let statuses = try (0..<3).map { index in
            try direct.get("/v1/kill-switch", headers: ["X-Forwarded-For": "203.0.113.\(index)"]).status
        }
        #expect(statuses == [404, 404, 429])
        // Behind a trusted proxy (loopback here), each forwarded client has its own bucket.
        let proxied = try CollectorHarness(
            configuration: configuration, trustedProxies: [try CIDR(parsing: "127.0.0.0/8")])
        defer { proxied.stop() }
        let forwarded = try (0..<3).map { index in
            try proxied.get("/v1/kill-switch", headers: ["X-Forwarded-For": "203.0.113.\(index)"]).status
        }
        #expect(forwarded == [404, 404, 404])
        // The client-controlled left part of the header cannot pick the bucket: the right-most
        // untrusted hop counts.
        let spoofed = try (0..<3).map { index in
            try proxied.get("/v1/kill-switch", headers: ["X-Forwarded-For": "198.51.100.\(index), 192.0.2.7"]).status
        }
        #expect(spoofed == [404, 404, 429])
    }

    static let networks: [(String, String, Bool)] = [
        ("10.0.0.0/8", "10.20.30.40", true), ("10.0.0.0/8", "11.0.0.1", false), ("fd00::/8", "fd12::1", true),
        ("fd00::/8", "fe80::1", false), ("192.168.1.0/24", "192.168.1.255", true), ("0.0.0.0/0", "8.8.8.8", true),
        ("10.0.0.0/8", "::ffff:10.0.0.1", false),
    ]

    @Test("CIDR matching on prefix bits, IPv4 and IPv6 kept apart", arguments: networks)
    func cidr(network: String, address: String, inside: Bool) throws {
        #expect(try CIDR(parsing: network).contains(address) == inside)
    }

    @Test(
        "bad networks are configuration errors", arguments: ["10.0.0.0/33", "fd00::/129", "not-an-ip/8", "10.0.0.0/x"])
    func badCIDR(text: String) {
        #expect(throws: CollectorError.self) { try CIDR(parsing: text) }
    }
}

@Suite("pinkit-collector command line")
struct CollectorCommandLineTests {
    func run(_ arguments: [String]) throws -> Shell.Result { try Shell.run([CollectorProcess.binary] + arguments) }

    @Test("usage errors exit 2 with a message")
    func usage() throws {
        for arguments in [
            [], ["frobnicate"], ["serve"], ["serve", "--data", "/tmp/x", "--tls-cert", "a"],
            ["serve", "--data", "/tmp/x", "--listen", "nope"], ["purge", "--data", "/tmp/x", "--retention-days", "-1"],
            ["serve", "--data", "/tmp/x", "--trusted-proxy", "10.0.0.0/99"],
        ] {
            let result = try run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.isEmpty)
        }
        #expect(try run(["serve", "--help"]).stdout.contains("--plain-http"))
    }

    @Test("migrate, purge and export work on a data directory")
    func maintenance() throws {
        let directory = CollectorFixtures.temporaryDirectory()
        #expect(try JSONParser.parse(run(["migrate", "--data", directory]).stdout) == ["applied": [1, 2]])
        #expect(try JSONParser.parse(run(["migrate", "--data", directory]).stdout) == ["applied": []])
        let storage = try SQLCollectorStorage.open(dataDirectory: directory, databaseURL: nil)
        let old = Date().addingTimeInterval(-200 * 86_400)
        _ = try storage.storeReports(
            [
                StoredReport(
                    id: "report-old-1", hostname: "h", port: 443, appVersion: "1", mode: "enforce", failureReason: "",
                    pinSet: "", servedKeys: [], count: 1, firstSeen: old, lastSeen: old, document: "{}")
            ], dropped: 0, installation: nil, appVersion: nil, now: old)
        _ = try storage.storeReports(
            [
                StoredReport(
                    id: "report-new-1", hostname: "h", port: 443, appVersion: "1", mode: "enforce", failureReason: "",
                    pinSet: "", servedKeys: [], count: 1, firstSeen: Date(), lastSeen: Date(), document: "{}")
            ], dropped: 0, installation: nil, appVersion: nil, now: Date())
        storage.close()
        let purge = try run(["purge", "--data", directory])
        #expect(try JSONParser.parse(purge.stdout)["reports"] == 1, "\(purge.stderr)")
        let export = try JSONParser.parse(run(["export", "--data", directory]).stdout)
        #expect(export["reportIDs"] == ["report-new-1"])
    }
}
