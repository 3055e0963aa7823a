import Foundation
import PinKit
import PinKitClient
import PinKitLab
import PinKitTestSupport
import PinKitTransport
import Testing

/// Issue 13 §4: an app-level retry of a POST reuses the caller's idempotency key, so a request
/// that reached the server before the answer was lost is not submitted twice.
@Suite("Caller-supplied idempotency keys")
struct IdempotencyKeyTests {
    struct Visit: Codable, Sendable { let steps: Int }

    /// A server that creates one record per idempotency key and answers a repeated key with the
    /// stored answer; while `loseAnswers` is set it creates the record and then drops the connection.
    final class RecordServer: Sendable {
        let created = Locked<[String: Int]>([:])
        let loseAnswers = Locked(false)
        let keysSeen = Locked<[String]>([])

        func handler(_ api: AuthServer) -> LabTLSServer.Handler {
            { [self] request in
                guard request.target == "/v1/visits", request.method == "POST" else { return api.handle(request) }
                let answer = api.handle(request)  // authentication as usual
                guard answer.status == 200 else { return answer }
                let key = request.header("Idempotency-Key") ?? "none"
                keysSeen.withLock { $0.append(key) }
                let isNew = created.withLock { created in
                    defer { created[key, default: 0] += 1 }
                    return created[key] == nil
                }
                if isNew && loseAnswers.withLock({ $0 }) { return LabResponse(dropConnection: true) }
                return answer
            }
        }
        var records: Int { created.withLock { $0.count } }
    }

    static func harness(_ records: RecordServer) throws -> APIClientTests.Harness {
        try APIClientTests.harness(
            handler: records.handler,
            configure: { configuration in
                let base = configuration.transport
                configuration.transport = { settings in
                    base(&settings)
                    // One connection per request: libcurl's own resend of a request on a dead
                    // kept-alive connection stays out of this test.
                    settings.reuseConnections = false
                }
            })
    }

    @Test("an app-level retry after a lost answer: a new key submits twice, the caller's key once")
    func retryAfterLostAnswer() async throws {
        let records = RecordServer()
        let h = try Self.harness(records)
        defer {
            h.server.stop()
            h.state.remove()
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        records.loseAnswers.withLock { $0 = true }
        // Without a key of the caller's: each call mints one, so the retry is a second visit.
        await #expect(throws: APIError.self) {
            try await h.client.post("/v1/visits", body: Visit(steps: 1), as: Profile.self)
        }
        await #expect(throws: APIError.self) {
            try await h.client.post("/v1/visits", body: Visit(steps: 1), as: Profile.self)
        }
        #expect(records.records == 2, "the double submission the caller's key prevents")
        // With one: the retry carries the same key and the server answers it from its record.
        let key = APIClient.makeIdempotencyKey()
        await #expect(throws: APIError.self) {
            try await h.client.post("/v1/visits", body: Visit(steps: 2), idempotencyKey: key, as: Profile.self)
        }
        let retried = try await h.client.post(
            "/v1/visits", body: Visit(steps: 2), idempotencyKey: key, as: Profile.self)
        #expect(retried.name == "Ada")
        #expect(records.records == 3)
        #expect(records.keysSeen.withLock { Array($0.suffix(2)) } == [key, key])
    }

    @Test("the retry after a refresh keeps the caller's key, and PATCH carries it too")
    func refreshKeepsKey() async throws {
        let h = try APIClientTests.harness()
        defer {
            h.server.stop()
            h.state.remove()
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        h.api.expireAccessTokens()
        _ = try await h.client.post(
            "/v1/records", body: Visit(steps: 3), idempotencyKey: "order-7f3a", as: Profile.self)
        _ = try await h.client.send(
            "PATCH", "/v1/records/1", body: Visit(steps: 4), idempotencyKey: "patch-1", as: Profile.self)
        let sent = h.server.requests.filter { $0.target.hasPrefix("/v1/records") }
        #expect(sent.map { $0.header("Idempotency-Key") } == ["order-7f3a", "order-7f3a", "patch-1"])
    }

    @Test(
        "a key that is empty, too long, or not visible ASCII is refused before anything is sent",
        arguments: ["", "two words", "k\r\nX-Injected: 1", "k\u{0}", String(repeating: "k", count: 256), "ключ"])
    func invalidKeys(_ key: String) async throws {
        let h = try APIClientTests.harness()
        defer {
            h.server.stop()
            h.state.remove()
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        // Only the records endpoint counts: the login's audit entry is uploaded in the background
        // after it, and may reach the server at any moment of this test.
        func records() -> Int { h.server.requests.filter { $0.target.hasPrefix("/v1/records") }.count }
        let before = records()
        do {
            _ = try await h.client.post("/v1/records", body: Visit(steps: 1), idempotencyKey: key, as: Profile.self)
            Issue.record("the key must be refused")
        } catch {
            #expect(error.code == .invalidRequest)
            #expect(key.isEmpty || !error.description.contains(key), "the message does not echo the key")
        }
        #expect(records() == before)
        #expect(before == 0)
    }
}
