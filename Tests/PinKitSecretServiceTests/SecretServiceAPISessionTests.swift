import Foundation
import PinKit
import PinKitLab
import PinKitTestSupport
import Testing

@Suite("Secret Service API session")
struct SecretServiceAPISessionTests {
    static let pki = try! LabPKI(name: "Keyring Lab")

    struct Session {
        let service: PrivateSecretService
        let server: LabTLSServer
        let api: LabTokenServer
        let logFile: String
        var baseURL: String { server.url(host: "api.example.com") }

        /// Runs `steps` in a fresh helper process (an app run); returns what it wrote.
        func run(_ steps: String) throws -> Shell.Result {
            let config = try service.write(
                "pinkit.json",
                #"{"pinSets": [{"name": "lab", "hosts": ["api.example.com"], "pins": [{"sha256": "\#(SecretServiceAPISessionTests.pki.intermediate.pin.base64)"}, {"sha256": "\#(SecretServiceAPISessionTests.pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}"#
            )
            let caFile = try LabPKI.writeCAFile(
                [SecretServiceAPISessionTests.pki.root.certificate], to: service.file("ca.pem"))
            return try KeyringHelper.run(
                bus: service.address,
                [
                    "api-session", baseURL, "default", caFile, server.resolveEntry(for: "api.example.com"), config,
                    logFile, LabTokenServer.password, steps,
                ])
        }

        /// The files under HOME (the keyring's among them) that hold any issued token, in clear.
        func filesHoldingATokenInClear() -> [String] {
            PrivateSecretService.files(service.filesUnderHome(), holdingAnyOf: api.issued)
        }
    }

    static func withSession(password: String, _ body: (Session) throws -> Void) throws {
        let service = try PrivateSecretService(password: password)
        defer { service.stop() }
        let api = LabTokenServer()
        let server = try LabTLSServer(identity: try pki.leaf(["api.example.com"])) { api.handle($0) }
        defer { server.stop() }
        try body(Session(service: service, server: server, api: api, logFile: service.file("app.log")))
    }

    @Test("the file check finds a token that a plain-file store would have written")
    func checkCanFail() throws {
        // The workaround the Secret Service store replaces: tokens in a JSON file under HOME.
        // gnome-keyring will not create an unencrypted login keyring from --unlock, so the file
        // is written here, with the tokens of a real login, as that store would have.
        try Self.withSession(password: "pinkit test passphrase") { session in
            #expect(try session.run("login").status == 0)
            #expect(session.filesHoldingATokenInClear() == [])
            let tokens = session.api.issued
            let file = try session.service.write(
                "app-tokens.json", #"{"accessToken": "\#(tokens[0])", "refreshToken": "\#(tokens[1])"}"#)
            #expect(session.filesHoldingATokenInClear() == [file])
        }
    }

    @Test("login, refresh, a restart and logout: no token in any file under HOME or in any log")
    func noTokenAtRest() throws {
        try Self.withSession(password: "pinkit test passphrase") { session in
            // One app run logs in and makes two calls; the second meets a 401 and refreshes.
            let first = try session.run("login,get,get")
            #expect(first.status == 0, "\(first.stderr)")
            #expect(session.api.issued.count == 4, "login and one refresh")
            // The tokens are at rest in the keyring now: encrypted, nowhere in clear.
            #expect(!session.service.keyringFiles.isEmpty)
            #expect(session.filesHoldingATokenInClear() == [])
            // A second run (after a restart) is still signed in with the stored pair; access tokens
            // are single-use on this server, so each call refreshes once more. Then it logs out.
            let second = try session.run("get,get,logout")
            #expect(second.status == 0, "\(second.stderr)")
            #expect(session.api.issued.count == 8)
            #expect(session.filesHoldingATokenInClear() == [])
            let logs = first.stdout + first.stderr + second.stdout + second.stderr
            #expect(logs.contains("logged in") && logs.contains("logged out"), "the log sink saw the session")
            #expect(try String(contentsOfFile: session.logFile, encoding: .utf8).contains("refreshed"))
            for token in session.api.issued {
                #expect(!logs.contains(token), "a token reached a log sink")
            }
            // Logged out: a third run is not signed in.
            let third = try session.run("get")
            #expect(third.status == 1)
            #expect(third.stderr.hasPrefix("unauthenticated:"), "\(third.stderr)")
        }
    }

    @Test("with the keyring locked, the API client reports credential-store-unavailable, not a logout")
    func lockedKeyringThroughTheClient() throws {
        try Self.withSession(password: "pinkit test passphrase") { session in
            #expect(try session.run("login").status == 0)
            try session.service.lockLoginCollection()
            let result = try session.run("get")
            #expect(result.status == 1)
            #expect(result.stderr.contains("credential-store-unavailable"), "\(result.stderr)")
            #expect(!result.stderr.contains("logged out"))
        }
    }
}
