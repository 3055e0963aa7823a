public import Foundation
public import PinKit
public import PinKitTransport

/// The client the app talks through: JSON over pinned HTTPS, bearer auth with one
/// re-authentication on 401 and then logout, idempotency keys, server change through a probe
/// session, and the wiring of reports, audit and logging.
///
/// An actor: concurrent requests that meet a 401 together share one refresh, and no request
/// retries more than once, so no path loops.
public actor APIClient {
    public struct Configuration: Sendable {
        public var baseURL: URL
        public var policy: PinPolicy
        public var credentials: any CredentialStore
        /// Adjusts each session's transport settings (trust store, timeouts, resolve entries).
        public var transport: @Sendable (inout PinnedHTTPClient.Configuration) -> Void = { _ in }
        public var tokenPath = "/v1/auth/token"
        public var refreshPath = "/v1/auth/refresh"
        public var auditLog: AuditLog?
        public var reporter: PinFailureReporter?
        /// Where reports go (`{"reports":[…]}` → `{"accepted":[…]}`). Nil: reports are kept, never sent.
        public var reportingURL: URL?
        /// Where audit entries go (`{"entries":[…]}` → `{"acceptedThrough":N}`). Nil: kept, never sent.
        public var auditUploadURL: URL?
        /// The unpinned report path, the failure-triggered kill-switch refetch and the daily
        /// check-in (see ``CollectorUplink``). Nil: reports wait for the next pinned success.
        public var uplink: CollectorUplink?
        public var logger: Logger = .disabled
        /// Called after a logout, with the reason.
        public var onLogout: @Sendable (String) -> Void = { _ in }

        public init(baseURL: URL, policy: PinPolicy, credentials: any CredentialStore) {
            self.baseURL = baseURL
            self.policy = policy
            self.credentials = credentials
        }
    }

    public private(set) var configuration: Configuration
    private let pinned: PinnedHTTPClient
    private let probeSession: PinnedHTTPClient
    private var refreshing: Task<Result<Tokens, APIError>, Never>?
    private var uploadTask: Task<Void, Never>?
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    /// Creates the production and probe sessions; they never share a connection or TLS session.
    /// - Throws: ``APIError`` when the transport cannot start.
    public init(_ configuration: Configuration) throws(APIError) {
        self.configuration = configuration
        let reporter = configuration.reporter
        let audit = configuration.auditLog
        let uplink = configuration.uplink
        let observer: @Sendable (PinningEvent) -> Void = { event in
            switch event {
            case .pinFailure(let failure):
                reporter?.record(failure)
                uplink?.schedulePinFailure()
                audit?.record(
                    .pinFailure(
                        host: failure.hostname, port: failure.port, setName: failure.setName,
                        mode: failure.mode.rawValue))
            case .pinSetExpired(let host, _, let setName, _, _):
                audit?.record(.pinSetExpired(setName: setName, host: host))
            }
        }
        func session(_ kind: PinnedHTTPClient.Kind) throws(APIError) -> PinnedHTTPClient {
            var settings = PinnedHTTPClient.Configuration(kind: kind, policy: configuration.policy)
            settings.observer = observer
            settings.logger = configuration.logger.withCategory("transport")
            configuration.transport(&settings)
            do {
                return try PinnedHTTPClient(settings)
            } catch {
                throw APIError(error)
            }
        }
        pinned = try session(.pinned)
        probeSession = try session(.probe)
        encoder.outputFormatting = [.sortedKeys]
    }

    private var logger: Logger { configuration.logger.withCategory("api") }

    // MARK: - Auth

    /// Exchanges a password for tokens. The password is sent once and never kept.
    public func login(username: String, password: String) async throws(APIError) {
        struct Body: Encodable {
            let username: String
            let password: String
        }
        let tokens: TokenAnswer = try await exchange(
            configuration.tokenPath, Body(username: username, password: password))
        await configuration.credentials.save(Tokens(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken))
        configuration.auditLog?.record(.login(method: "password"))
        logger.info("logged in")
    }

    /// Clears the tokens, records it and tells the app.
    public func logout(reason: String = "user") async {
        await configuration.credentials.clear()
        refreshing = nil
        configuration.auditLog?.record(.logout(reason: reason))
        logger.notice("logged out: \(reason)")
        configuration.onLogout(reason)
    }

    struct TokenAnswer: Decodable {
        let accessToken: String
        let refreshToken: String
    }

    private func exchange<Body: Encodable>(_ path: String, _ body: Body) async throws(APIError) -> TokenAnswer {
        let data: Data
        do {
            data = try encoder.encode(body)
        } catch {
            throw APIError(.encoding, "cannot encode the token request")
        }
        let response = try await perform(
            HTTPRequest(
                method: "POST", url: url(path), headers: ["Content-Type": "application/json"], body: Array(data)))
        guard (200..<300).contains(response.status) else {
            throw APIError(.unauthenticated, "the token exchange failed", status: response.status)
        }
        do {
            return try decoder.decode(TokenAnswer.self, from: Data(response.body))
        } catch {
            throw APIError(.decoding, "the token answer is not {accessToken, refreshToken}")
        }
    }

    /// One refresh for everyone who met a 401 with `staleToken`; nil means logged out.
    private func refreshedTokens(after staleToken: String) async -> Tokens? {
        if let current = await configuration.credentials.load(), current.accessToken != staleToken { return current }
        if refreshing == nil {
            let credentials = configuration.credentials
            refreshing = Task { () -> Result<Tokens, APIError> in
                guard let old = await credentials.load() else {
                    return .failure(APIError(.unauthenticated, "not logged in"))
                }
                do throws(APIError) {
                    struct Body: Encodable { let refreshToken: String }
                    let answer = try await self.exchange(
                        self.configuration.refreshPath, Body(refreshToken: old.refreshToken))
                    let tokens = Tokens(accessToken: answer.accessToken, refreshToken: answer.refreshToken)
                    // Saved before the task completes: anyone arriving later sees the new token
                    // and never starts a second refresh with a spent refresh token.
                    await credentials.save(tokens)
                    return .success(tokens)
                } catch {
                    return .failure(error)
                }
            }
        }
        let task = refreshing!
        let result = await task.value
        if refreshing == task {
            refreshing = nil
            switch result {
            case .success:
                configuration.auditLog?.record(.tokenRotated)
                logger.info("access token refreshed")
            case .failure(let error):
                await logout(reason: "refresh failed: \(error.code)")
            }
        }
        if case .success(let tokens) = result { return tokens }
        return nil
    }

    // MARK: - Requests

    /// Sends a JSON request and decodes the JSON answer.
    /// - Throws: ``APIError``: pinning, transport, HTTP status (with the problem body), decoding,
    ///   unauthenticated (after the logout flow ran).
    public func send<Response: Decodable & Sendable>(
        _ method: String,
        _ path: String,
        body: (some Encodable & Sendable)? = Optional<Empty>.none,
        as type: Response.Type = Response.self
    ) async throws(APIError) -> Response {
        var bytes: [UInt8]?
        if let body {
            do {
                bytes = Array(try encoder.encode(body))
            } catch {
                throw APIError(.encoding, "cannot encode the request body as JSON")
            }
        }
        let response = try await authorized(method.uppercased(), path, body: bytes)
        guard (200..<300).contains(response.status) else {
            throw APIError(
                .http,
                "\(method.uppercased()) \(path) answered \(response.status)",
                status: response.status,
                problem: LogSanitizer.redact(String(decoding: response.body.prefix(4096), as: UTF8.self))
            )
        }
        if Response.self == Empty.self { return Empty() as! Response }
        do {
            return try decoder.decode(Response.self, from: Data(response.body))
        } catch {
            throw APIError(
                .decoding, "the answer to \(method.uppercased()) \(path) is not a \(Response.self): \(error)")
        }
    }

    public func get<Response: Decodable & Sendable>(_ path: String, as type: Response.Type = Response.self)
        async throws(APIError) -> Response
    {
        try await send("GET", path, as: type)
    }

    public func post<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ path: String,
        body: Body,
        as type: Response.Type = Response.self
    ) async throws(APIError) -> Response {
        try await send("POST", path, body: body, as: type)
    }

    /// An empty body or answer.
    public struct Empty: Codable, Sendable { public init() {} }

    private func authorized(_ method: String, _ path: String, body: [UInt8]?) async throws(APIError) -> HTTPResponse {
        guard let tokens = await configuration.credentials.load() else {
            throw APIError(.unauthenticated, "not logged in")
        }
        var headers: HTTPHeaders = ["Accept": "application/json"]
        if body != nil { headers.set("Content-Type", "application/json") }
        // Non-idempotent methods carry a key; the retry after a refresh reuses it.
        if method == "POST" || method == "PATCH" { headers.set("Idempotency-Key", UUID().uuidString.lowercased()) }
        var request = HTTPRequest(method: method, url: url(path), headers: headers, body: body)
        request.headers.set("Authorization", "Bearer \(tokens.accessToken)")
        let first = try await perform(request)
        guard first.status == 401 else { return first }
        logger.info("\(method) \(path) answered 401; refreshing once")
        guard let fresh = await refreshedTokens(after: tokens.accessToken) else {
            throw APIError(.unauthenticated, "re-authentication failed; logged out", status: 401)
        }
        request.headers.set("Authorization", "Bearer \(fresh.accessToken)")
        let second = try await perform(request)
        if second.status == 401 {
            await logout(reason: "second 401")
            throw APIError(.unauthenticated, "still unauthorised after re-authentication; logged out", status: 401)
        }
        return second
    }

    private func url(_ path: String) -> URL {
        URL(string: path, relativeTo: configuration.baseURL)?.absoluteURL ?? configuration.baseURL
    }

    private func perform(_ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await pinned.send(request)
        } catch {
            throw APIError(error)
        }
        logger.debug("\(request.method) \(request.url.absoluteString) -> \(response.status)")
        if uploadTask == nil { Task { await self.uploadQueued() } }
        configuration.uplink?.scheduleCheckIn()
        return response
    }

    // MARK: - Uploads at the next successful connection

    /// Uploads queued reports and audit entries through the pinned session. One upload at a
    /// time: a call during a running upload waits for it.
    public func uploadQueued() async {
        if let running = uploadTask {
            await running.value
            return
        }
        let task = Task { await self.performUploads() }
        uploadTask = task
        await task.value
        uploadTask = nil
    }

    private func performUploads() async {
        let client = pinned
        let json = HTTPHeaders([("Content-Type", "application/json")] + (configuration.uplink?.deviceHeaders ?? []))
        if let reporter = configuration.reporter, let url = configuration.reportingURL {
            await reporter.connectionSucceeded { body in
                let response = try await client.send(
                    HTTPRequest(method: "POST", url: url, headers: json, body: body))
                guard (200..<300).contains(response.status) else {
                    throw TransportError(.network, "HTTP \(response.status)")
                }
                return response.body
            }
        }
        if let audit = configuration.auditLog, let url = configuration.auditUploadURL {
            let (body, through) = audit.uploadDocument()
            guard through > 0,
                let response = try? await client.send(
                    HTTPRequest(method: "POST", url: url, headers: json, body: body)),
                (200..<300).contains(response.status), let answer = try? JSONParser.parse(response.body),
                case .number(let text)? = answer["acceptedThrough"], let accepted = Int64(text)
            else { return }
            audit.acknowledge(throughSeq: min(accepted, through))
        }
    }

    // MARK: - Server change and policy

    /// Checks a candidate server through the probe session: same host scoping (a self-hosted
    /// server gets system trust, the managed cloud stays pinned), separate TLS state.
    /// - Returns: the HTTP status of `candidate`.
    public func probe(_ candidate: URL) async throws(APIError) -> Int {
        do {
            return try await probeSession.send(HTTPRequest(url: candidate)).status
        } catch {
            throw APIError(error)
        }
    }

    /// Switches to another server: records it, and signs out (tokens belong to a server).
    public func switchServer(to baseURL: URL) async {
        let from = configuration.baseURL.host
        configuration.baseURL = baseURL
        configuration.auditLog?.record(.serverChanged(fromHost: from, toHost: baseURL.host ?? ""))
        logger.notice("server changed to \(baseURL.absoluteString)")
        await configuration.credentials.clear()
    }

    /// Applies a new effective policy (the kill switch): new sessions, so no old connection or
    /// TLS session keeps the old one.
    public func applyPolicy(_ policy: PinPolicy) throws(APIError) {
        do {
            try pinned.replacePolicy(policy)
            try probeSession.replacePolicy(policy)
        } catch {
            throw APIError(error)
        }
    }
}
