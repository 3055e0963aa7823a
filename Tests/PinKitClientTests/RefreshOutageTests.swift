import Foundation
import PinKit
import PinKitClient
import PinKitLab
import PinKitTestSupport
import PinKitTransport
import Testing

/// Issue 12 §7: a refresh that fails because of the network or the server keeps the user signed
/// in; only a refresh the server rejects (400/401/403), or a second 401, signs the user out.
@Suite("Refresh outages keep the session")
struct RefreshOutageTests {
    /// What the refresh endpoint does during the outage.
    enum Outage: Sendable, CustomTestStringConvertible {
        case status(Int)
        /// The connection closes before any answer: a transport error.
        case drop
        var response: LabResponse {
            switch self {
            case .status(let status): return .json(#"{"title": "unavailable"}"#, status: status)
            case .drop: return LabResponse(dropConnection: true)
            }
        }
        var testDescription: String {
            switch self {
            case .status(let status): return "HTTP \(status)"
            case .drop: return "connection closed"
            }
        }
    }

    /// The scripted server, with the refresh endpoint answering `outage` while it is set.
    final class Switch: Sendable {
        let outage = Locked<Outage?>(nil)
        let refreshAttempts = Locked(0)
        func handler(_ api: AuthServer) -> LabTLSServer.Handler {
            { [self] request in
                if request.target == "/v1/auth/refresh" {
                    refreshAttempts.withLock { $0 += 1 }
                    if let outage = outage.withLock({ $0 }) { return outage.response }
                }
                return api.handle(request)
            }
        }
    }

    static func loggedIn(_ outages: Switch) async throws -> APIClientTests.Harness {
        let h = try APIClientTests.harness(handler: outages.handler)
        try await h.client.login(username: "ada", password: AuthServer.password)
        h.api.expireAccessTokens()
        return h
    }

    @Test(
        "a 5xx or a transport error from the refresh endpoint: an error, tokens kept, no logout, one attempt",
        arguments: [Outage.status(503), .status(500), .status(502), .drop])
    func outage(_ outage: Outage) async throws {
        let outages = Switch()
        let h = try await Self.loggedIn(outages)
        defer {
            h.server.stop()
            h.state.remove()
        }
        let before = await h.credentials.load()
        outages.outage.withLock { $0 = outage }
        do {
            _ = try await h.client.get("/v1/profile", as: Profile.self)
            Issue.record("the request cannot succeed while the refresh endpoint is down")
        } catch {
            switch outage {
            case .status(let status): #expect(error.code == .http && error.status == status, "\(error)")
            case .drop: #expect(error.code == .transport, "\(error)")
            }
        }
        #expect(h.logouts.reasons.withLock { $0 }.isEmpty, "a flaky network never signs the user out")
        #expect(await h.credentials.load() == before, "the tokens are kept")
        #expect(outages.refreshAttempts.withLock { $0 } == 1, "no automatic second refresh within one call")
        #expect(!(try String(contentsOfFile: h.audit.path, encoding: .utf8)).contains("\"type\":\"logout\""))
        // The outage ends: the next call refreshes with the kept token and succeeds.
        outages.outage.withLock { $0 = nil }
        #expect(try await h.client.get("/v1/profile", as: Profile.self).name == "Ada")
        #expect(outages.refreshAttempts.withLock { $0 } == 2)
    }

    @Test("the refresh endpoint rejecting the token (400, 401, 403) signs the user out", arguments: [400, 401, 403])
    func rejected(_ status: Int) async throws {
        let outages = Switch()
        let h = try await Self.loggedIn(outages)
        defer {
            h.server.stop()
            h.state.remove()
        }
        outages.outage.withLock { $0 = .status(status) }
        do {
            _ = try await h.client.get("/v1/profile", as: Profile.self)
            Issue.record("expected unauthenticated")
        } catch {
            #expect(error.code == .unauthenticated, "\(error)")
        }
        #expect(h.logouts.reasons.withLock { $0 }.count == 1)
        #expect(await h.credentials.load() == nil)
        #expect(outages.refreshAttempts.withLock { $0 } == 1)
    }

    @Test(
        "a refresh that reached the server but lost its answer: kept, then the spent token is refused and that logs out"
    )
    func lostAnswerThenReuse() async throws {
        let outages = Switch()
        let h = try APIClientTests.harness(handler: { api in
            let normal = outages.handler(api)
            return { request in
                // The server rotates the refresh token, then the answer never arrives.
                if request.target == "/v1/auth/refresh", outages.outage.withLock({ $0 }) != nil {
                    outages.refreshAttempts.withLock { $0 += 1 }
                    _ = api.handle(request)
                    return LabResponse(dropConnection: true)
                }
                return normal(request)
            }
        })
        defer {
            h.server.stop()
            h.state.remove()
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        h.api.expireAccessTokens()
        outages.outage.withLock { $0 = .drop }
        await #expect(throws: APIError.self) { try await h.client.get("/v1/profile", as: Profile.self) }
        #expect(h.logouts.reasons.withLock { $0 }.isEmpty)
        outages.outage.withLock { $0 = nil }
        // Reuse detection: the spent refresh token is refused, so now logging out is right.
        do {
            _ = try await h.client.get("/v1/profile", as: Profile.self)
            Issue.record("the spent refresh token must be refused")
        } catch {
            #expect(error.code == .unauthenticated)
        }
        #expect(h.logouts.reasons.withLock { $0 }.count == 1)
        #expect(await h.credentials.load() == nil)
    }

    @Test("30 concurrent requests meet the outage: exactly one refresh attempt, no logout, every one told why")
    func concurrentOutage() async throws {
        let outages = Switch()
        outages.outage.withLock { $0 = .status(503) }
        let unauthorized = DispatchSemaphore(value: 0)
        let count = 30
        let h = try APIClientTests.harness(
            handler: { api in
                let normal = outages.handler(api)
                return { request in
                    if request.target == "/v1/auth/refresh" {
                        // Answer only once every request has met its 401, so all 30 are in flight
                        // while the refresh runs (bounded, so a broken client cannot hang the suite).
                        for _ in 0..<count { _ = unauthorized.wait(timeout: .now() + 60) }
                        return normal(request)
                    }
                    let response = normal(request)
                    if request.target == "/v1/profile" && response.status == 401 { unauthorized.signal() }
                    return response
                }
            },
            configure: { configuration in
                let base = configuration.transport
                configuration.transport = { settings in
                    base(&settings)
                    settings.maximumConnectionsPerHost = count + 2
                }
            }
        )
        defer {
            h.server.stop()
            h.state.remove()
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        let before = await h.credentials.load()
        h.api.expireAccessTokens()
        let client = h.client
        let codes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do throws(APIError) {
                        _ = try await client.get("/v1/profile", as: Profile.self)
                        return "ok"
                    } catch {
                        return "\(error.code) \(error.status ?? 0)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(codes == Array(repeating: "http 503", count: count))
        #expect(outages.refreshAttempts.withLock { $0 } == 1)
        #expect(h.logouts.reasons.withLock { $0 }.isEmpty)
        #expect(await h.credentials.load() == before)
    }

    @Test("libcurl sends a request again when its kept-alive connection closes unanswered; a fresh connection does not")
    func noSilentResend() async throws {
        let attempts = Locked(0)
        let server = try LabTLSServer(identity: try APIClientTests.pki.leaf(["api.example.com"])) { request in
            guard request.target == "/refresh" else { return .text("ok") }
            attempts.withLock { $0 += 1 }
            return LabResponse(dropConnection: true)
        }
        defer { server.stop() }
        var settings = PinnedHTTPClient.Configuration.pinned(try APIClientTests.policy())
        settings.trustStore = .caFile(APIClientTests.caFile)
        settings.resolve = [server.resolveEntry(for: "api.example.com")]
        settings.maximumConnectionsPerHost = 1
        let client = try PinnedHTTPClient(settings)
        func post(fresh: Bool) async -> Int {
            attempts.withLock { $0 = 0 }
            // A first request leaves a kept-alive connection in the pool.
            _ = try? await client.send(HTTPRequest(url: URL(string: server.url(host: "api.example.com", path: "/"))!))
            var request = HTTPRequest(
                method: "POST", url: URL(string: server.url(host: "api.example.com", path: "/refresh"))!, body: [1])
            request.requiresFreshConnection = fresh
            _ = try? await client.send(request)
            return attempts.withLock { $0 }
        }
        #expect(await post(fresh: false) == 2, "the reused connection died, so libcurl sent the POST twice")
        #expect(await post(fresh: true) == 1)
    }
}
