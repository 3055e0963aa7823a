import Foundation
import PinKit
import PinKitClient
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import PinKitTransport
import Testing

/// A scripted API server: tokens, refresh, a protected resource, idempotency keys.
final class AuthServer: Sendable {
    struct State {
        var accessTokens: Set<String> = []
        var refreshTokens: Set<String> = []
        var issued = 0
        var refreshCount = 0
        var refreshFails = false
        var alwaysUnauthorized = false
        var idempotencyKeys: [String] = []
        var pinReports: [JSONValue] = []
        var auditEntries = 0
    }

    let state = Locked(State())
    static let password = "correct horse 9"

    func newTokens(_ state: inout State) -> String {
        state.issued += 1
        // Short and random: no redaction rule matches them, so finding one proves it was written.
        let access = "at\(state.issued)x\(Int.random(in: 100...999))"
        let refresh = "rt\(state.issued)y\(Int.random(in: 100...999))"
        state.accessTokens.insert(access)
        state.refreshTokens.insert(refresh)
        return #"{"accessToken": "\#(access)", "refreshToken": "\#(refresh)"}"#
    }

    func expireAccessTokens() { state.withLock { $0.accessTokens.removeAll() } }

    func handle(_ request: LabRequest) -> LabResponse {
        state.withLock { state in
            let body = (try? JSONParser.parse(request.body)) ?? .null
            switch (request.method, request.target) {
            case ("POST", "/v1/auth/token"):
                guard body["password"] == .string(Self.password) else {
                    return .json(#"{"title": "bad credentials"}"#, status: 401)
                }
                return .json(newTokens(&state))
            case ("POST", "/v1/auth/refresh"):
                state.refreshCount += 1
                guard !state.refreshFails, case .string(let token)? = body["refreshToken"],
                    state.refreshTokens.remove(token) != nil
                else {
                    return .json(#"{"title": "refresh refused"}"#, status: 401)
                }
                return .json(newTokens(&state))
            case ("POST", "/v1/pin-failures"):
                guard case .array(let reports)? = body["reports"] else { return .text("bad", status: 400) }
                state.pinReports += reports
                let ids = reports.compactMap { report -> JSONValue? in report["id"] }
                return .json(JSONValue.object([("accepted", .array(ids))]).serialized())
            case ("POST", "/v1/audit"):
                guard case .array(let entries)? = body["entries"], let last = entries.last?["seq"] else {
                    return .text("bad", status: 400)
                }
                state.auditEntries += entries.count
                return .json(JSONValue.object([("acceptedThrough", last)]).serialized())
            default:
                let token = request.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "")
                guard !state.alwaysUnauthorized, let token, state.accessTokens.contains(token) else {
                    return .json(#"{"title": "unauthorized"}"#, status: 401)
                }
                if request.method == "POST" {
                    state.idempotencyKeys.append(request.header("Idempotency-Key") ?? "none")
                }
                if request.target == "/v1/fail" {
                    return .json(
                        #"{"type": "about:blank", "title": "nope", "detail": "for bob@example.com"}"#, status: 422)
                }
                return .json(#"{"name": "Ada", "ok": true}"#)
            }
        }
    }
}

struct Profile: Codable, Sendable, Equatable {
    let name: String
    let ok: Bool
}

@Suite("API client")
struct APIClientTests {
    static let pki = try! LabPKI(name: "Client Lab")
    static let rogue = try! LabPKI(name: "Client Rogue CA")
    static let directory = try! TemporaryDirectory()
    static let caFile = try! LabPKI.writeCAFile(
        [pki.root.certificate, rogue.root.certificate], to: directory.file("ca.pem"))

    static func policy() throws -> PinPolicy {
        let json =
            #"{"pinSets": [{"name": "managed-cloud", "hosts": ["api.example.com"], "pins": [{"sha256": "\#(pki.intermediate.pin.base64)"}, {"sha256": "\#(pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}"#
        return try PinPolicy(PinConfiguration.parse(Data(json.utf8)))
    }

    struct Harness {
        let client: APIClient
        let api: AuthServer
        let server: LabTLSServer
        let state: TemporaryDirectory
        let logs: InMemoryLogStore
        let logouts: LogoutRecorder
        let audit: AuditLog
        let credentials: InMemoryCredentialStore
    }

    final class LogoutRecorder: Sendable {
        let reasons = Locked<[String]>([])
    }

    static func harness(
        identity: LabIdentity? = nil,
        extraResolve: [String] = [],
        handler: ((AuthServer) -> LabTLSServer.Handler)? = nil,
        configure: (inout APIClient.Configuration) -> Void = { _ in }
    ) throws -> Harness {
        let api = AuthServer()
        var handle: LabTLSServer.Handler = { api.handle($0) }
        if let handler { handle = handler(api) }
        let server = try LabTLSServer(identity: try identity ?? pki.leaf(["api.example.com"]), handler: handle)
        let state = try TemporaryDirectory()
        let logs = InMemoryLogStore()
        let logger = Logger(
            category: "app",
            configuration: .development(sinks: [.memory(logs), try .jsonLinesFile(path: state.file("app.log"))])
        )
        let audit = try AuditLog(path: state.file("audit.jsonl"))
        let reporter = PinFailureReporter(
            store: try PinFailureReportStore(directory: state.file("reports")), appVersion: "1.0")
        let credentials = InMemoryCredentialStore()
        let logouts = LogoutRecorder()
        var configuration = APIClient.Configuration(
            baseURL: URL(string: server.url(host: "api.example.com"))!,
            policy: try policy(),
            credentials: credentials
        )
        let resolve = [server.resolveEntry(for: "api.example.com")] + extraResolve
        configuration.transport = { settings in
            settings.trustStore = .caFile(caFile)
            settings.resolve = resolve
        }
        configuration.auditLog = audit
        configuration.reporter = reporter
        configuration.reportingURL = URL(string: server.url(host: "api.example.com", path: "/v1/pin-failures"))
        configuration.auditUploadURL = URL(string: server.url(host: "api.example.com", path: "/v1/audit"))
        configuration.logger = logger
        configuration.onLogout = { reason in logouts.reasons.withLock { $0.append(reason) } }
        configure(&configuration)
        return Harness(
            client: try APIClient(configuration), api: api, server: server, state: state, logs: logs, logouts: logouts,
            audit: audit, credentials: credentials
        )
    }

    @Test("401, one refresh, and the request succeeds")
    func refreshThenSuccess() async throws {
        let h = try Self.harness()
        defer {
            h.server.stop()
            h.state.remove()
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        #expect(try await h.client.get("/v1/profile", as: Profile.self) == Profile(name: "Ada", ok: true))
        h.api.expireAccessTokens()
        #expect(try await h.client.get("/v1/profile", as: Profile.self).name == "Ada")
        #expect(h.api.state.withLock { $0.refreshCount } == 1)
        #expect(h.logouts.reasons.withLock { $0 }.isEmpty)
    }

    @Test("401 twice means logout: credentials cleared, audited, the app told")
    func twice401() async throws {
        let h = try Self.harness()
        defer {
            h.server.stop()
            h.state.remove()
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        h.api.state.withLock { $0.alwaysUnauthorized = true }
        do {
            _ = try await h.client.get("/v1/profile", as: Profile.self)
            Issue.record("expected unauthenticated")
        } catch {
            #expect(error.code == .unauthenticated)
        }
        #expect(h.logouts.reasons.withLock { $0 } == ["second 401"])
        #expect(await h.credentials.load() == nil)
        #expect(h.api.state.withLock { $0.refreshCount } == 1, "no loop: one refresh, one retry")
        #expect(try String(contentsOfFile: h.audit.path, encoding: .utf8).contains("\"type\":\"logout\""))
    }

    @Test("a refresh the server refuses means logout")
    func refreshFailure() async throws {
        let h = try Self.harness()
        defer {
            h.server.stop()
            h.state.remove()
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        h.api.state.withLock { $0.refreshFails = true }
        h.api.expireAccessTokens()
        do {
            _ = try await h.client.get("/v1/profile", as: Profile.self)
            Issue.record("expected unauthenticated")
        } catch {
            #expect(error.code == .unauthenticated)
        }
        #expect(h.logouts.reasons.withLock { $0 } == ["refresh rejected (HTTP 401)"])
        #expect(await h.credentials.load() == nil)
    }

    @Test("50 concurrent requests that meet a 401 share exactly one refresh")
    func concurrentRefresh() async throws {
        let h = try Self.harness()
        defer {
            h.server.stop()
            h.state.remove()
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        h.api.expireAccessTokens()
        let client = h.client
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await client.get("/v1/profile", as: Profile.self).name } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names.count == 50 && names.allSatisfy { $0 == "Ada" })
        #expect(h.api.state.withLock { $0.refreshCount } == 1)
    }

    @Test("a POST retried after re-authentication keeps its idempotency key")
    func idempotency() async throws {
        let h = try Self.harness()
        defer {
            h.server.stop()
            h.state.remove()
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        struct Record: Codable, Sendable { let steps: Int }
        _ = try await h.client.post("/v1/records", body: Record(steps: 1), as: Profile.self)
        h.api.expireAccessTokens()
        _ = try await h.client.post("/v1/records", body: Record(steps: 2), as: Profile.self)
        let keys = h.api.state.withLock { $0.idempotencyKeys }
        // The 401'd attempt is not recorded by the server; record two POSTs: the first, and the retry.
        #expect(keys.count == 2)
        #expect(keys[0] != keys[1], "a new request gets a new key")
        #expect(keys.allSatisfy { UUID(uuidString: $0) != nil })
        let requests = h.server.requests.filter { $0.target == "/v1/records" }
        #expect(requests.count == 3)
        #expect(
            requests[1].header("Idempotency-Key") == requests[2].header("Idempotency-Key"), "the retry reuses the key")
    }

    @Test("errors are typed: HTTP status with the problem body (redacted), decoding, not logged in")
    func errors() async throws {
        let h = try Self.harness()
        defer {
            h.server.stop()
            h.state.remove()
        }
        do {
            _ = try await h.client.get("/v1/profile", as: Profile.self)
        } catch {
            #expect(error.code == .unauthenticated)
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        do {
            _ = try await h.client.get("/v1/fail", as: Profile.self)
        } catch {
            #expect(error.code == .http && error.status == 422)
            #expect(error.problem?.contains("nope") == true && error.problem?.contains("bob@") == false)
        }
        struct Other: Decodable, Sendable { let missing: Int }
        do {
            _ = try await h.client.get("/v1/profile", as: Other.self)
        } catch {
            #expect(error.code == .decoding)
        }
    }

    @Test("probe: a self-hosted server under a rogue-but-trusted CA is fine; the managed host under it is refused")
    func probe() async throws {
        let rogueServer = try LabTLSServer(
            identity: try Self.rogue.leaf(["health.self-hosted.example.net"]),
            sni: ["api.example.com": try Self.rogue.leaf(["api.example.com"])]
        )
        defer { rogueServer.stop() }
        let h = try Self.harness(extraResolve: [rogueServer.resolveEntry(for: "health.self-hosted.example.net")])
        defer {
            h.server.stop()
            h.state.remove()
        }
        let selfHosted = URL(string: rogueServer.url(host: "health.self-hosted.example.net", path: "/v1/status"))!
        #expect(try await h.client.probe(selfHosted) == 200)
        // The managed host, served by the same rogue CA through its own port.
        let managed = try Self.harness(identity: try Self.rogue.leaf(["api.example.com"]))
        defer {
            managed.server.stop()
            managed.state.remove()
        }
        do {
            _ = try await managed.client.probe(URL(string: managed.server.url(host: "api.example.com"))!)
            Issue.record("the managed host must stay pinned in the probe session")
        } catch {
            #expect(error.code == .pinning)
        }
        await h.client.switchServer(to: selfHosted)
        #expect(try String(contentsOfFile: h.audit.path, encoding: .utf8).contains("\"type\":\"server-changed\""))
    }

    @Test("pin failures become reports and audit entries, uploaded at the next successful connection")
    func reportsUploaded() async throws {
        let h = try Self.harness(identity: try Self.rogue.leaf(["api.example.com"]))
        defer { h.state.remove() }
        try? await h.client.login(username: "ada", password: AuthServer.password)
        h.server.stop()
        // The same client meets the real server later: the queued report goes out.
        let real = try LabTLSServer(identity: try Self.pki.leaf(["api.example.com"]), handler: { h.api.handle($0) })
        defer { real.stop() }
        // The app's next run reaches the real server, with the same state directory.
        let reporter = PinFailureReporter(
            store: try PinFailureReportStore(directory: h.state.file("reports")), appVersion: "1.0")
        #expect(reporter.store.entries.count == 1)
        #expect(try String(contentsOfFile: h.audit.path, encoding: .utf8).contains("\"type\":\"pin-failure\""))
        var configuration = APIClient.Configuration(
            baseURL: URL(string: real.url(host: "api.example.com"))!, policy: try Self.policy(),
            credentials: InMemoryCredentialStore())
        configuration.transport = { settings in
            settings.trustStore = .caFile(Self.caFile)
            settings.resolve = [real.resolveEntry(for: "api.example.com")]
        }
        configuration.reporter = reporter
        configuration.auditLog = h.audit
        configuration.reportingURL = URL(string: real.url(host: "api.example.com", path: "/v1/pin-failures"))
        configuration.auditUploadURL = URL(string: real.url(host: "api.example.com", path: "/v1/audit"))
        let client = try APIClient(configuration)
        try await client.login(username: "ada", password: AuthServer.password)
        await client.uploadQueued()
        #expect(h.api.state.withLock { $0.pinReports.count } == 1)
        #expect(reporter.store.entries.isEmpty, "acknowledged, so removed")
        #expect(h.api.state.withLock { $0.auditEntries } >= 2)
    }

    @Test("after a full session no token, refresh token or password is in any file written or any log line")
    func noSecretsAtRest() async throws {
        let h = try Self.harness()
        defer {
            h.server.stop()
            h.state.remove()
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        _ = try await h.client.get("/v1/profile", as: Profile.self)
        h.api.expireAccessTokens()
        _ = try await h.client.get("/v1/profile", as: Profile.self)
        h.api.state.withLock { $0.alwaysUnauthorized = true }
        _ = try? await h.client.get("/v1/profile", as: Profile.self)
        await h.client.uploadQueued()
        let secrets =
            h.server.requests.flatMap { request -> [String] in
                var found: [String] = []
                if let body = try? JSONParser.parse(request.body) {
                    for key in ["password", "refreshToken"] {
                        if case .string(let value)? = body[key] { found.append(value) }
                    }
                }
                if let header = request.header("Authorization") {
                    found.append(header.replacingOccurrences(of: "Bearer ", with: ""))
                }
                return found
            } + h.api.state.withLock { Array($0.accessTokens) + Array($0.refreshTokens) } + [AuthServer.password]
        #expect(secrets.count > 5, "the session used several tokens")
        var files: [String] = []
        if let enumerator = FileManager.default.enumerator(atPath: h.state.path) {
            for case let file as String in enumerator { files.append(h.state.file(file)) }
        }
        #expect(files.contains { $0.hasSuffix("audit.jsonl") } && files.contains { $0.hasSuffix("app.log") })
        let contents = files.compactMap { FileManager.default.contents(atPath: $0) }.map {
            String(decoding: $0, as: UTF8.self)
        }
        let logLines = h.logs.records.map(\.text)
        #expect(!logLines.isEmpty)
        for secret in Set(secrets) {
            for (file, text) in zip(files, contents) { #expect(!text.contains(secret), "\(secret) written to \(file)") }
            for line in logLines { #expect(!line.contains(secret), "\(secret) in a log line") }
        }
    }

    @Test("a new effective policy (the kill switch) is honoured by new sessions at once")
    func killSwitchPolicy() async throws {
        let h = try Self.harness(identity: try Self.rogue.leaf(["api.example.com"]))
        defer {
            h.server.stop()
            h.state.remove()
        }
        do {
            try await h.client.login(username: "ada", password: AuthServer.password)
            Issue.record("the rogue chain must be refused while pinning is on")
        } catch {
            #expect(error.code == .pinning)
        }
        let off = try Self.policy().disablingPinning(for: ["api.example.com"])
        try await h.client.applyPolicy(off)
        try await h.client.login(username: "ada", password: AuthServer.password)
        #expect(try await h.client.get("/v1/profile", as: Profile.self).name == "Ada")
        try await h.client.applyPolicy(try Self.policy())
        do {
            _ = try await h.client.get("/v1/profile", as: Profile.self)
            Issue.record("pinning is back on: the kept-alive connection must not carry this request")
        } catch {
            #expect(error.code == .pinning)
        }
    }
}
