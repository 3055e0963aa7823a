import Foundation
import PinKit
import PinKitClient
import Testing

/// A store that works until `failing` is set, then throws credential-store-unavailable, as a
/// keyring locked in the middle of a session does.
actor LockableStore: CredentialStore {
    private var tokens: Tokens?
    private(set) var failing = false
    func setFailing(_ value: Bool) { failing = value }

    private func check() throws(CredentialStoreError) {
        if failing { throw CredentialStoreError(.unavailable, "the keyring is locked", remedy: "Unlock it.") }
    }
    func load() throws(CredentialStoreError) -> Tokens? {
        // Reads keep working: a refresh can start, its save is what fails.
        tokens
    }
    func save(_ tokens: Tokens) throws(CredentialStoreError) {
        try check()
        self.tokens = tokens
    }
    func clear() throws(CredentialStoreError) {
        try check()
        tokens = nil
    }
}

@Suite("API client with a failing credential store")
struct CredentialStoreFailureTests {
    @Test("a refresh whose save fails reports credential-store-unavailable and does not log out")
    func refreshSaveFails() async throws {
        let store = LockableStore()
        let h = try APIClientTests.harness(configure: { $0.credentials = store })
        defer {
            h.server.stop()
            h.state.remove()
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        h.api.expireAccessTokens()
        await store.setFailing(true)
        do {
            _ = try await h.client.get("/v1/profile", as: Profile.self)
            Issue.record("expected credential-store-unavailable")
        } catch {
            #expect(error.code == .credentialStoreUnavailable, "\(error)")
            #expect(error.message.contains("Unlock it"))
        }
        #expect(h.logouts.reasons.withLock { $0 } == [], "the app is not told it is logged out")
        #expect(try await store.load() != nil, "the session is kept")
    }

    @Test("logout and switchServer on a failing store throw and change nothing")
    func logoutAndSwitchFail() async throws {
        let store = LockableStore()
        let h = try APIClientTests.harness(configure: { $0.credentials = store })
        defer {
            h.server.stop()
            h.state.remove()
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        await store.setFailing(true)
        let before = await h.client.configuration.baseURL
        await #expect(throws: APIError.self) { try await h.client.logout() }
        await #expect(throws: APIError.self) {
            try await h.client.switchServer(to: URL(string: "https://other.example.net")!)
        }
        #expect(await h.client.configuration.baseURL == before)
        #expect(h.logouts.reasons.withLock { $0 } == [])
        #expect(!(try String(contentsOfFile: h.audit.path, encoding: .utf8).contains("\"type\":\"logout\"")))
    }
}
