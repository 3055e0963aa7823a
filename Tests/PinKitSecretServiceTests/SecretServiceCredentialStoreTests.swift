import Foundation
import PinKitClient
import PinKitLab
import PinKitSecretService
import PinKitTestSupport
import Testing

/// Runs `pinkit-keyring-demo` (built beside the test runner) on a given session bus. libsecret
/// talks only to its own process's session bus, so every store operation in these tests runs in
/// a helper process started with the private bus's address; the test process never joins a bus.
enum KeyringHelper {
    static var path: String {
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("pinkit-keyring-demo").path),
            folder.path != "/"
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("pinkit-keyring-demo").path
    }

    /// `Shell.run` starts programs through /usr/bin/env, so a leading NAME=VALUE sets the bus.
    /// In the ASan run the helper is ASan-built too; its exit leaves libcurl's and OpenSSL's
    /// process-global state allocated (the app run ends mid-life, as an app does), which
    /// LeakSanitizer reports nondeterministically, so leak checking is off for this child only.
    /// The test process itself, where PinKit owns every OpenSSL pointer, keeps it on.
    static func run(bus address: String, _ arguments: [String]) throws -> Shell.Result {
        try Shell.run(["DBUS_SESSION_BUS_ADDRESS=\(address)", "ASAN_OPTIONS=detect_leaks=0", path] + arguments)
    }

    static func run(_ service: PrivateSecretService, _ arguments: String...) throws -> Shell.Result {
        try run(bus: service.address, arguments)
    }
}

/// Each test gets its own D-Bus session and gnome-keyring (see `PrivateSecretService`): nothing
/// touches the user's keyring, and the tests share no state.
@Suite("Secret Service credential store")
struct SecretServiceCredentialStoreTests {
    static let server = "https://api.example.com/v1"
    static let other = "https://health.self-hosted.example.net:8443"

    static func withService(keyring: Bool = true, _ body: (PrivateSecretService) throws -> Void) throws {
        let service = try PrivateSecretService(keyring: keyring)
        defer { service.stop() }
        try body(service)
    }

    /// Runs the helper and expects exit 0; returns its standard output.
    @discardableResult
    static func ok(_ service: PrivateSecretService, _ arguments: String...) throws -> String {
        let result = try KeyringHelper.run(bus: service.address, arguments)
        #expect(result.status == 0, "\(arguments[0]): \(result.stderr)")
        return result.stdout
    }

    @Test("what one process saves, a later process loads")
    func survivesARestart() throws {
        try Self.withService { service in
            #expect(try Self.ok(service, "load", Self.server, "default") == "none\n")
            try Self.ok(service, "save", Self.server, "default", "access-1 é", "refresh-1")
            #expect(try Self.ok(service, "load", Self.server, "default") == "access-1 é\nrefresh-1\n")
            #expect(try Self.ok(service, "count", Self.server, "default") == "1\n")
        }
    }

    @Test("a switched server survives a restart")
    func serverURLSurvivesARestart() throws {
        try Self.withService { service in
            #expect(try Self.ok(service, "restore", Self.server, "default") == Self.server + "\n", "nothing saved")
            try Self.ok(service, "switch", Self.server, "default", Self.other)
            #expect(try Self.ok(service, "restore", Self.server, "default") == Self.other + "\n")
            #expect(try Self.ok(service, "restore", Self.server, "second") == Self.server + "\n", "per account")
        }
    }

    @Test("clear removes the pair, and clearing again is not an error")
    func clearIsIdempotent() throws {
        try Self.withService { service in
            try Self.ok(service, "clear", Self.server, "default")
            try Self.ok(service, "save", Self.server, "default", "a1", "r1")
            try Self.ok(service, "clear", Self.server, "default")
            #expect(try Self.ok(service, "load", Self.server, "default") == "none\n")
            #expect(try Self.ok(service, "count", Self.server, "default") == "0\n")
            try Self.ok(service, "clear", Self.server, "default")
        }
    }

    @Test("two servers (and two ports of one host, and two accounts) keep separate items")
    func serversAreSeparate() throws {
        try Self.withService { service in
            let keys = [
                (Self.server, "default"), (Self.other, "default"), ("https://api.example.com:8443/v1", "default"),
                (Self.server, "second"),
            ]
            for (index, key) in keys.enumerated() {
                try Self.ok(service, "save", key.0, key.1, "a\(index)", "r\(index)")
            }
            try Self.ok(service, "clear", Self.server, "default")
            #expect(try Self.ok(service, "load", Self.server, "default") == "none\n")
            for (index, key) in keys.enumerated().dropFirst() {
                #expect(try Self.ok(service, "load", key.0, key.1) == "a\(index)\nr\(index)\n", "\(key)")
            }
            // One server spelt differently is the same key: scheme + host + port.
            #expect(
                try Self.ok(service, "load", "HTTPS://HEALTH.self-hosted.example.net:8443/x", "default") == "a1\nr1\n")
            #expect(try Self.ok(service, "load", "https://api.example.com:443/", "second") == "a3\nr3\n")
        }
    }

    @Test(
        "an item another program wrote under the PinKit schema is credential-store-failed, and clear still removes it",
        arguments: [
            "", "not json", #"{"accessToken": "a"}"#, #"{"accessToken": 1, "refreshToken": "r"}"#, "[]",
            String(repeating: "[", count: 100_000), "{\"accessToken\": \"a\", \"refreshToken\": \"r\"",
        ])
    func foreignItem(_ secret: String) throws {
        try Self.withService { service in
            try Self.ok(service, "save-raw", Self.server, "default", secret)
            let result = try KeyringHelper.run(service, "load", Self.server, "default")
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("credential-store-failed: "), "\(result.stderr)")
            #expect(result.stderr.contains("not a PinKit token pair"))
            try Self.ok(service, "clear", Self.server, "default")
            #expect(try Self.ok(service, "load", Self.server, "default") == "none\n")
        }
    }

    @Test("50 concurrent saves leave exactly one item holding one consistent pair")
    func concurrentSaves() throws {
        try Self.withService { service in
            try Self.ok(service, "concurrent-saves", Self.server, "default", "50")
            let lines = try Self.ok(service, "load", Self.server, "default").split(separator: "\n")
            try #require(lines.count == 2)
            let index = lines[0].dropFirst("access-".count)
            #expect(lines[0].hasPrefix("access-") && Int(index).map { (0..<50).contains($0) } == true)
            #expect(lines[1] == "refresh-\(index)", "a pair from one save, never two halves")
            #expect(try Self.ok(service, "count", Self.server, "default") == "1\n")
        }
    }

    @Test("a locked keyring is a typed error for every call, not an empty store")
    func lockedKeyring() throws {
        try Self.withService { service in
            try Self.ok(service, "save", Self.server, "default", "a1", "r1")
            try service.lockLoginCollection()
            // The item is still there: a store that answered "nothing saved" now would sign the
            // user out silently. Counting reads no secret and needs no unlock.
            #expect(try Self.ok(service, "count", Self.server, "default") == "1\n")
            for call in [
                ["load", Self.server, "default"], ["save", Self.server, "default", "a2", "r2"],
                ["clear", Self.server, "default"], ["switch", Self.server, "default", Self.other],
            ] {
                let result = try KeyringHelper.run(bus: service.address, call)
                #expect(result.status == 1, "\(call[0])")
                #expect(result.stderr.hasPrefix("credential-store-unavailable: "), "\(call[0]): \(result.stderr)")
                #expect(result.stderr.contains("locked") && result.stderr.contains("Unlock the keyring"))
            }
            #expect(try Self.ok(service, "count", Self.server, "default") == "1\n", "nothing was removed")
        }
    }

    @Test("no bus, and a bus without a Secret Service, are typed errors")
    func missingService() throws {
        let nowhere = try TemporaryDirectory()
        defer { nowhere.remove() }
        let noBus = "unix:path=\(nowhere.file("no-such-socket"))"
        Self.expectUnavailable(bus: noBus, mentioning: "cannot connect to the D-Bus session bus")
        try Self.withService(keyring: false) { service in
            Self.expectUnavailable(bus: service.address, mentioning: "nothing serves org.freedesktop.secrets")
        }
    }

    @Test("an account name with a NUL byte is refused before it reaches C (where it would end early)")
    func nulInAccount() async throws {
        // Refused before any D-Bus call, so this runs in the test process without joining a bus.
        let store = SecretServiceCredentialStore(server: URL(string: Self.server)!, account: "a\u{0}b")
        let calls: [@Sendable () async throws -> Void] = [
            { _ = try await store.load() }, { try await store.save(Tokens(accessToken: "a", refreshToken: "r")) },
            { try await store.clear() },
        ]
        for call in calls {
            do {
                try await call()
                Issue.record("a NUL in the account must be refused")
            } catch let error as CredentialStoreError {
                #expect(error.code == .failed && error.reason.contains("NUL"))
            }
        }
    }

    static func expectUnavailable(bus: String, mentioning text: String) {
        for call in [
            ["load", server, "default"], ["save", server, "default", "a", "r"], ["clear", server, "default"],
        ] {
            guard let result = try? KeyringHelper.run(bus: bus, call) else {
                Issue.record("the helper did not run")
                continue
            }
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("credential-store-unavailable: "), "\(result.stderr)")
            #expect(result.stderr.contains(text), "\(result.stderr)")
            #expect(result.stderr.contains("does not fall back to memory or a file"))
        }
    }
}
