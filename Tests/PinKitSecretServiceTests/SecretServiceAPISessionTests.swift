import Foundation
import PinKit
import PinKitLab
import PinKitTestSupport
import Testing

/// An API server whose access tokens are good for one request each, so every second request
/// meets a 401 and the client refreshes: a full session rotates tokens without a test hook.
final class OneShotTokenServer: Sendable {
    static let password = "correct horse 9"
    /// Every token issued, access and refresh: the strings that must never reach a file.
    let issued = Locked<[String]>([])
    private let live = Locked<(access: Set<String>, refresh: Set<String>)>(([], []))

    private func newPair() -> LabResponse {
        // Short and random: no redaction rule matches them, so finding one proves it was written.
        let access = "at\(UInt32.random(in: 100_000...999_999))x"
        let refresh = "rt\(UInt32.random(in: 100_000...999_999))y"
        issued.withLock { $0 += [access, refresh] }
        live.withLock {
            $0.access.insert(access)
            $0.refresh.insert(refresh)
        }
        return .json(#"{"accessToken": "\#(access)", "refreshToken": "\#(refresh)"}"#)
    }

    func handle(_ request: LabRequest) -> LabResponse {
        let body = (try? JSONParser.parse(request.body)) ?? .null
        switch (request.method, request.target) {
        case ("POST", "/v1/auth/token"):
            guard body["password"] == .string(Self.password) else { return .json(#"{"title": "no"}"#, status: 401) }
            return newPair()
        case ("POST", "/v1/auth/refresh"):
            guard case .string(let token)? = body["refreshToken"], live.withLock({ $0.refresh.remove(token) }) != nil
            else { return .json(#"{"title": "refresh refused"}"#, status: 401) }
            return newPair()
        default:
            let token = request.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
            guard live.withLock({ $0.access.remove(token) }) != nil else {
                return .json(#"{"title": "unauthorized"}"#, status: 401)
            }
            return .json(#"{"name": "Ada"}"#)
        }
    }
}

@Suite("Secret Service API session")
struct SecretServiceAPISessionTests {
    static let pki = try! LabPKI(name: "Keyring Lab")

    struct Session {
        let service: PrivateSecretService
        let server: LabTLSServer
        let api: OneShotTokenServer
        let logFile: String
        var baseURL: String { server.url(host: "api.example.com") }

        /// Runs `steps` in a fresh helper process (an app run); returns what it wrote.
        func run(_ steps: String) throws -> Shell.Result {
            let config = try service.home.write(
                "pinkit.json",
                #"{"pinSets": [{"name": "lab", "hosts": ["api.example.com"], "pins": [{"sha256": "\#(SecretServiceAPISessionTests.pki.intermediate.pin.base64)"}, {"sha256": "\#(SecretServiceAPISessionTests.pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}"#
            )
            let caFile = try LabPKI.writeCAFile(
                [SecretServiceAPISessionTests.pki.root.certificate], to: service.home.file("ca.pem"))
            return try KeyringHelper.run(
                bus: service.address,
                [
                    "api-session", baseURL, "default", caFile, server.resolveEntry(for: "api.example.com"), config,
                    logFile, OneShotTokenServer.password, steps,
                ])
        }

        /// The files under HOME (the keyring's among them) that hold any issued token, in clear.
        func filesHoldingATokenInClear() -> [String] {
            let tokens = api.issued.withLock { $0 }
            return service.filesUnderHome().filter { path in
                guard let data = FileManager.default.contents(atPath: path) else { return false }
                return tokens.contains { data.range(of: Data($0.utf8)) != nil }
            }
        }
    }

    static func withSession(password: String, _ body: (Session) throws -> Void) throws {
        let service = try PrivateSecretService(password: password)
        defer { service.stop() }
        let api = OneShotTokenServer()
        let server = try LabTLSServer(identity: try pki.leaf(["api.example.com"])) { api.handle($0) }
        defer { server.stop() }
        try body(Session(service: service, server: server, api: api, logFile: service.home.file("app.log")))
    }

    @Test("the file check finds a token that a plain-file store would have written")
    func checkCanFail() throws {
        // The workaround the Secret Service store replaces: tokens in a JSON file under HOME.
        // gnome-keyring will not create an unencrypted login keyring from --unlock, so the file
        // is written here, with the tokens of a real login, as that store would have.
        try Self.withSession(password: "pinkit test passphrase") { session in
            #expect(try session.run("login").status == 0)
            #expect(session.filesHoldingATokenInClear() == [])
            let tokens = session.api.issued.withLock { $0 }
            let file = try session.service.home.write(
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
            #expect(session.api.issued.withLock { $0.count } == 4, "login and one refresh")
            // The tokens are at rest in the keyring now: encrypted, nowhere in clear.
            #expect(!session.service.keyringFiles.isEmpty)
            #expect(session.filesHoldingATokenInClear() == [])
            // A second run (after a restart) is still signed in with the stored pair; access tokens
            // are single-use on this server, so each call refreshes once more. Then it logs out.
            let second = try session.run("get,get,logout")
            #expect(second.status == 0, "\(second.stderr)")
            #expect(session.api.issued.withLock { $0.count } == 8)
            #expect(session.filesHoldingATokenInClear() == [])
            let logs = first.stdout + first.stderr + second.stdout + second.stderr
            #expect(logs.contains("logged in") && logs.contains("logged out"), "the log sink saw the session")
            #expect(try String(contentsOfFile: session.logFile, encoding: .utf8).contains("refreshed"))
            for token in session.api.issued.withLock({ $0 }) {
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
