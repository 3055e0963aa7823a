public import Foundation
public import PinKit
public import PinKitTransport

/// The client the app talks through: JSON over pinned HTTPS, bearer auth with one
/// re-authentication on 401 and then logout, idempotency keys, server change through a probe
/// session, and the wiring of reports, audit and logging.
///
/// An actor: concurrent requests that meet a 401 together share one refresh, and no request
/// retries more than once, so no path loops.
///
/// Signing out is for a server that *rejects* the session: the refresh endpoint answering 400,
/// 401 or 403, or the request retried with fresh tokens meeting 401 again. A refresh that fails
/// for any other reason (no network, a timeout, a 5xx) throws `transport` or `http` and keeps
/// the tokens: a flaky network never signs a patient out. A refresh is never retried within
/// one call (one that may have reached the server may have rotated the refresh token).
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
        public var logger: RedactingLogger = .disabled
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
    private var refreshing: Task<RefreshOutcome, Never>?
    /// Requests sent with a bearer token so far; orders sends against refresh completions.
    private var sentCount: UInt64 = 0
    /// The last refresh to complete, and `sentCount` when it did: a request sent before then
    /// that meets a 401 takes this outcome instead of starting another refresh.
    private var lastRefresh: (completedAfter: UInt64, outcome: RefreshOutcome)?
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

    private var logger: RedactingLogger { configuration.logger.withCategory("api") }

    // MARK: - Auth

    /// Exchanges a password for tokens. The password is sent once and never kept.
    public func login(username: String, password: String) async throws(APIError) {
        struct Body: Encodable {
            let username: String
            let password: String
        }
        let response = try await postJSON(
            configuration.tokenPath, named: "(token endpoint)", Body(username: username, password: password))
        guard (200..<300).contains(response.status) else {
            if Self.rejectsCredentials(response.status) {
                throw APIError(.unauthenticated, "the server refused the credentials", status: response.status)
            }
            throw APIError(.http, "the token endpoint answered \(response.status)", status: response.status)
        }
        let tokens = try Self.tokens(from: response)
        lastRefresh = nil
        try await configuration.credentials.saveTokens(tokens)
        configuration.auditLog?.record(.login(method: "password"))
        logger.info("logged in")
    }

    /// Clears the tokens, records it and tells the app.
    /// - Throws: ``APIError`` `credential-store-unavailable` when the tokens could not be removed
    ///   (a locked keyring): nothing is recorded and the app is not told it is logged out.
    public func logout(reason: String = "user") async throws(APIError) {
        try await configuration.credentials.clearTokens()
        refreshing = nil
        lastRefresh = nil
        configuration.auditLog?.record(.logout(reason: reason))
        logger.notice("logged out: \(reason)")
        configuration.onLogout(reason)
    }

    struct TokenAnswer: Decodable {
        let accessToken: String
        let refreshToken: String
    }

    /// How a refresh ended. Only `rejected` signs the user out.
    enum RefreshOutcome: Sendable {
        case refreshed(Tokens)
        /// The server refused the refresh token (400, 401, 403): the session is over.
        case rejected(APIError)
        /// No answer, or an answer that is not a verdict on the token (5xx, 429, undecodable):
        /// the tokens are kept and the caller sees the error.
        case failed(APIError)
    }

    /// 400, 401 and 403 are the server's verdict on the credentials; anything else is not.
    static func rejectsCredentials(_ status: Int) -> Bool { [400, 401, 403].contains(status) }

    /// - Parameter route: how logs name the endpoint; the configured path itself may hold a
    ///   tenant or an identifier.
    private func postJSON(
        _ path: String,
        named route: String,
        _ body: some Encodable,
        freshConnection: Bool = false
    ) async throws(APIError) -> HTTPResponse {
        let data: Data
        do {
            data = try encoder.encode(body)
        } catch {
            throw APIError(.encoding, "cannot encode the token request")
        }
        var request = HTTPRequest(
            method: "POST", url: try url(path), headers: ["Content-Type": "application/json"], body: Array(data))
        request.requiresFreshConnection = freshConnection
        return try await perform(request, RequestName(method: "POST", host: request.url.host ?? "", route: route))
    }

    static func tokens(from response: HTTPResponse) throws(APIError) -> Tokens {
        do {
            let answer = try JSONDecoder().decode(TokenAnswer.self, from: Data(response.body))
            return Tokens(accessToken: answer.accessToken, refreshToken: answer.refreshToken)
        } catch {
            throw APIError(.decoding, "the token answer is not {accessToken, refreshToken}")
        }
    }

    /// One refresh attempt, never retried: a request that may have reached the server may have
    /// rotated the refresh token. It goes out on a fresh connection, because libcurl would
    /// silently send it again if a kept-alive connection closed before answering.
    private func refreshOnce() async -> RefreshOutcome {
        let credentials = configuration.credentials
        let stored: Tokens?
        do throws(APIError) {
            stored = try await credentials.loadTokens()
        } catch {
            return .failed(error)  // a keyring that cannot be read is not a rejected refresh
        }
        guard let old = stored else {
            return .rejected(APIError(.unauthenticated, "not logged in"))
        }
        struct Body: Encodable { let refreshToken: String }
        let response: HTTPResponse
        do throws(APIError) {
            response = try await postJSON(
                configuration.refreshPath, named: "(refresh endpoint)", Body(refreshToken: old.refreshToken),
                freshConnection: true)
        } catch {
            return .failed(error)
        }
        guard (200..<300).contains(response.status) else {
            if Self.rejectsCredentials(response.status) {
                return .rejected(
                    APIError(
                        .unauthenticated, "the server refused the refresh token; logged out", status: response.status))
            }
            return .failed(
                APIError(
                    .http, "the refresh endpoint answered \(response.status); still signed in",
                    status: response.status))
        }
        do throws(APIError) {
            let tokens = try Self.tokens(from: response)
            // Saved before the task completes: anyone arriving later sees the new token and
            // never starts a second refresh with a spent refresh token.
            // A keyring that cannot be written is a failed refresh (still signed in), not a rejection.
            try await credentials.saveTokens(tokens)
            return .refreshed(tokens)
        } catch {
            return .failed(error)
        }
    }

    /// The tokens to retry with, for a request sent as number `sentAt` with `staleToken` that
    /// met a 401. Everyone in flight shares one refresh; a request sent before the last refresh
    /// completed takes that refresh's outcome rather than starting another.
    /// - Throws: ``APIError``: `unauthenticated` after a rejected refresh (logged out), or the
    ///   `transport`/`http`/`decoding` error of a failed one (still signed in).
    private func refreshedTokens(after staleToken: String, sentAt: UInt64) async throws(APIError) -> Tokens {
        guard let current = try await configuration.credentials.loadTokens() else {
            throw APIError(.unauthenticated, "not logged in")
        }
        if current.accessToken != staleToken { return current }
        let outcome: RefreshOutcome
        if refreshing == nil, let last = lastRefresh, last.completedAfter >= sentAt {
            outcome = last.outcome
        } else {
            if refreshing == nil { refreshing = Task { await self.refreshOnce() } }
            let task = refreshing!
            outcome = await task.value
            if refreshing == task {
                refreshing = nil
                lastRefresh = (sentCount, outcome)
                switch outcome {
                case .refreshed:
                    configuration.auditLog?.record(.tokenRotated)
                    logger.info("access token refreshed")
                case .rejected(let error):
                    try await logout(reason: "refresh rejected (HTTP \(error.status ?? 0))")
                case .failed(let error):
                    logger.notice("refresh failed (\(error.code)); still signed in, tokens kept")
                }
            }
        }
        switch outcome {
        case .refreshed(let tokens): return tokens
        case .rejected(let error), .failed(let error): throw error
        }
    }

    // MARK: - Requests

    /// Sends a JSON request and decodes the JSON answer.
    ///
    /// Log lines and error messages name a request by method, host, status and `route`, never by
    /// `path`: a concrete path or query carries identifiers (`/v1/patients/48213?name=jane`) that
    /// no redaction rule can recognise.
    /// - Parameters:
    ///   - path: the concrete path and query, relative to the base URL. Sent, never logged.
    ///   - route: a template naming the endpoint in logs and errors, e.g. `/v1/patients/{id}`;
    ///     never the concrete path. Without it requests are named by method and host only.
    ///   - idempotencyKey: the `Idempotency-Key` to send. POST and PATCH always carry one; without
    ///     this argument each call mints a new one, so only the retry after a refresh inside this
    ///     call reuses it. An app that retries a POST itself (after a timeout or a lost answer:
    ///     the request may have reached the server) must pass the same key to every attempt,
    ///     e.g. one from ``makeIdempotencyKey()`` stored with the pending action; other methods
    ///     carry a key only when given one. 1 to 255 visible ASCII characters.
    /// - Throws: ``APIError``: pinning, transport, HTTP status (with the problem body), decoding,
    ///   unauthenticated (after the logout flow ran), invalid request (a path that is not a URL
    ///   reference, an unusable idempotency key; nothing is sent).
    public func send<Response: Decodable & Sendable>(
        _ method: String,
        _ path: String,
        route: String? = nil,
        body: (some Encodable & Sendable)? = Optional<Empty>.none,
        idempotencyKey: String? = nil,
        as type: Response.Type = Response.self
    ) async throws(APIError) -> Response {
        if let idempotencyKey { try Self.checkIdempotencyKey(idempotencyKey) }
        var bytes: [UInt8]?
        if let body {
            do {
                bytes = Array(try encoder.encode(body))
            } catch {
                throw APIError(.encoding, "cannot encode the request body as JSON")
            }
        }
        let name = RequestName(method: method.uppercased(), host: configuration.baseURL.host ?? "", route: route)
        let response = try await authorized(name, path, body: bytes, idempotencyKey: idempotencyKey)
        guard (200..<300).contains(response.status) else {
            throw APIError(
                .http,
                "\(name) answered \(response.status)",
                status: response.status,
                // A problem document's "instance" is often the request path itself.
                problem: APIError.scrub(String(decoding: response.body.prefix(4096), as: UTF8.self), of: response.url)
            )
        }
        if Response.self == Empty.self { return Empty() as! Response }
        do {
            return try decoder.decode(Response.self, from: Data(response.body))
        } catch {
            throw APIError(
                .decoding, "the answer to \(name) is not a \(Response.self) (\(Self.decodingProblem(error)))")
        }
    }

    public func get<Response: Decodable & Sendable>(
        _ path: String,
        route: String? = nil,
        as type: Response.Type = Response.self
    ) async throws(APIError) -> Response {
        try await send("GET", path, route: route, as: type)
    }

    /// A POST; see ``send(_:_:route:body:idempotencyKey:as:)`` for `idempotencyKey`, which an
    /// app-level retry must reuse.
    public func post<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ path: String,
        route: String? = nil,
        body: Body,
        idempotencyKey: String? = nil,
        as type: Response.Type = Response.self
    ) async throws(APIError) -> Response {
        try await send("POST", path, route: route, body: body, idempotencyKey: idempotencyKey, as: type)
    }

    /// A fresh idempotency key (a random UUID, lower case). Store it with a pending action and
    /// pass it to every attempt of that action.
    public static func makeIdempotencyKey() -> String { UUID().uuidString.lowercased() }

    /// Header-safe and bounded: a CR/LF would inject a header, an empty key means nothing.
    static func checkIdempotencyKey(_ key: String) throws(APIError) {
        let bytes = key.utf8
        guard (1...255).contains(bytes.count), bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw APIError(
                .invalidRequest,
                "an idempotency key must be 1 to 255 visible ASCII characters; saw \(bytes.count) bytes")
        }
    }

    /// An empty body or answer.
    public struct Empty: Codable, Sendable { public init() {} }

    /// How logs and errors name a request: method, host and the caller's route template.
    struct RequestName: CustomStringConvertible {
        var method: String
        var host: String
        var route: String?
        var description: String { "\(method) \(host)" + (route.map { " \($0)" } ?? "") }
    }

    /// What went wrong in decoding, without the data: the kind, and for a missing key its name
    /// (which comes from the expected type, not from the answer).
    static func decodingProblem(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing key \"\(key.stringValue)\""
        case DecodingError.typeMismatch: return "a value of the wrong type"
        case DecodingError.valueNotFound: return "a missing value"
        case DecodingError.dataCorrupted: return "not well-formed JSON or an unexpected value"
        default: return "undecodable"
        }
    }

    private func authorized(
        _ name: RequestName,
        _ path: String,
        body: [UInt8]?,
        idempotencyKey: String?
    ) async throws(APIError) -> HTTPResponse {
        guard let tokens = try await configuration.credentials.loadTokens() else {
            throw APIError(.unauthenticated, "not logged in")
        }
        var headers: HTTPHeaders = ["Accept": "application/json"]
        if body != nil { headers.set("Content-Type", "application/json") }
        // Non-idempotent methods carry a key (the caller's, or a new one); the retry after a
        // refresh reuses it.
        if let key = idempotencyKey ?? (["POST", "PATCH"].contains(name.method) ? Self.makeIdempotencyKey() : nil) {
            headers.set("Idempotency-Key", key)
        }
        var request = HTTPRequest(method: name.method, url: try url(path), headers: headers, body: body)
        request.headers.set("Authorization", "Bearer \(tokens.accessToken)")
        sentCount += 1
        let sentAt = sentCount
        let first = try await perform(request, name)
        guard first.status == 401 else { return first }
        logger.info("\(name) answered 401; refreshing once")
        let fresh = try await refreshedTokens(after: tokens.accessToken, sentAt: sentAt)
        request.headers.set("Authorization", "Bearer \(fresh.accessToken)")
        let second = try await perform(request, name)
        if second.status == 401 {
            try await logout(reason: "second 401")
            throw APIError(.unauthenticated, "still unauthorised after re-authentication; logged out", status: 401)
        }
        return second
    }

    /// `path` resolved against the base URL.
    /// - Throws: ``APIError/Code/invalidRequest`` when it is not a URL reference (before, such a
    ///   path silently became a request to the base URL itself).
    private func url(_ path: String) throws(APIError) -> URL {
        guard let url = URL(string: path, relativeTo: configuration.baseURL)?.absoluteURL else {
            throw APIError(.invalidRequest, "the request path is not a URL reference (\(path.utf8.count) bytes)")
        }
        return url
    }

    private func perform(_ request: HTTPRequest, _ name: RequestName) async throws(APIError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await pinned.send(request)
        } catch {
            logger.debug("\(name) failed: \(error.code)")
            throw APIError(error, sending: request.url)
        }
        logger.debug("\(name) -> \(response.status)")
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
                return try UploadAnswer.body(of: response)
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
            throw APIError(error, sending: candidate)
        }
    }

    /// Switches to another server: clears the old server's tokens (tokens belong to a server),
    /// tells the credential store (which persists the new server), and records it.
    /// - Throws: ``APIError`` `credential-store-unavailable`; the server is then not switched.
    public func switchServer(to baseURL: URL) async throws(APIError) {
        try await configuration.credentials.clearTokens()
        do {
            try await configuration.credentials.serverChanged(to: baseURL)
        } catch {
            throw APIError(error)
        }
        let from = configuration.baseURL.host
        configuration.baseURL = baseURL
        configuration.auditLog?.record(.serverChanged(fromHost: from, toHost: baseURL.host ?? ""))
        logger.notice("server changed to \(baseURL.host ?? "no host")")
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
