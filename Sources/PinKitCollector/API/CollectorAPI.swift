public import Foundation
public import PinKit
import PinKitOpenSSL

/// The collector's HTTP API as a function from request to response: device uploads, the kill
/// switch, and the token-protected operator endpoints. No sockets here (``HTTPServer`` carries
/// requests in), so every rule is testable directly.
///
/// Every upload is one storage transaction and is answered 200 only after its commit; bad
/// input is a 4xx with an `application/problem+json` body and changes nothing.
public final class CollectorAPI: Sendable {
    public struct Configuration: Sendable {
        /// How long stored rows are kept before `purge` removes them.
        public var retention: TimeInterval = 90 * 86_400
        public var installedBaseWindow: TimeInterval = 30 * 86_400
        /// Per installation, on uploads and check-ins.
        public var installationRate = RateLimiter.Rule(burst: 30, perSecond: 0.5)
        /// Per client address (the forwarded one behind a trusted proxy), on every device request.
        public var addressRate = RateLimiter.Rule(burst: 600, perSecond: 50)
        /// Operators; nil: the operator endpoints answer 404.
        public var operatorTokens: OperatorTokens?
        /// Keys a published kill-switch document must be signed by (key id → DER SPKI). Empty:
        /// publishing is refused (the collector never serves a document it could not verify).
        public var killSwitchPublicKeys: [String: [UInt8]] = [:]
        public var killSwitchVerifier: any KillSwitchSignatureVerifying = OpenSSLSignatureVerifier()
        /// `Cache-Control: max-age` of `GET /v1/kill-switch` (a CDN may sit in front).
        public var killSwitchMaxAge = 60
        /// The release history and trust store behind the console's rotation check and
        /// deadlines (`serve --releases`); nil: those pages say they are not configured.
        public var consoleReleases: ConsoleReleases?
        /// Form POSTs must carry the session's CSRF token; tests switch it off to show the attack.
        var checksCSRF = true
        public init() {}
    }

    public let storage: any CollectorStorage
    public let configuration: Configuration
    let now: @Sendable () -> Date
    private let installationLimiter: RateLimiter
    let addressLimiter: RateLimiter
    /// The console's browser sessions and rotation-check results (in memory).
    let sessions = ConsoleSessions()

    public init(
        storage: any CollectorStorage, configuration: Configuration = Configuration(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.storage = storage
        self.configuration = configuration
        self.now = now
        self.installationLimiter = RateLimiter(configuration.installationRate)
        self.addressLimiter = RateLimiter(configuration.addressRate)
    }

    // MARK: Responses

    static func json(_ status: Int, _ value: JSONValue, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json")] + headers,
            body: Array(value.serialized().utf8))
    }

    /// An RFC 9457 problem document: a stable code for scripts and a sentence for people.
    static func problem(_ status: Int, _ code: String, _ detail: String, headers: [(String, String)] = [])
        -> HTTPResponse
    {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/problem+json")] + headers,
            body: Array(
                ([
                    "type": .string("urn:pinkit:collector:\(code)"), "status": .int(status), "code": .string(code),
                    "detail": .string(LogSanitizer.redact(detail)),
                ] as JSONValue).serialized().utf8))
    }

    /// One upload's validation and transaction: a bad body is a 400 problem, a storage failure a
    /// 503 (nothing acknowledged, the device retries), anything else a 500.
    private static func ingest(_ work: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try work()
        } catch let invalid as UploadValidation.Invalid {
            return problem(400, invalid.code, invalid.detail)
        } catch let error as CollectorError {
            return storageFailure(error)
        } catch {
            return problem(500, "internal", "unexpected error")
        }
    }

    static func storageFailure(_ error: CollectorError) -> HTTPResponse {
        // Nothing was acknowledged: the device keeps its data and retries.
        problem(503, "storage-unavailable", "the upload was not stored; retry later", headers: [("Retry-After", "30")])
    }

    /// The entries of an audit upload body as the collector validates and hashes them.
    /// - Throws: ``CollectorError/Code/invalidUpload`` with the problem.
    public static func validatedAuditEntries(_ body: [UInt8]) throws(CollectorError) -> [AuditUploadEntry] {
        do {
            return try UploadValidation.auditEntries(body)
        } catch {
            throw CollectorError(.invalidUpload, "\(error.code): \(error.detail)")
        }
    }

    // MARK: Routing

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path
        if path == "/" { return console(request) }
        if let response = consoleForms(request) { return response }
        let routes: [(String, [String: (HTTPRequest) -> HTTPResponse])] = [
            ("/v1/pin-failures", ["POST": pinFailures]),
            ("/v1/audit", ["POST": audit]),
            ("/v1/check-in", ["POST": checkIn]),
            ("/v1/kill-switch", ["GET": killSwitch, "HEAD": killSwitch, "POST": publishKillSwitch]),
            ("/v1/installed-base", ["GET": installedBase]),
            ("/v1/pin-failures/summary", ["GET": failureSummary]),
            ("/v1/audit/anomalies", ["GET": anomalies]),
            ("/v1/kill-switch/publications", ["GET": publications]),
            ("/v1/canary", ["GET": canary]),
            ("/healthz", ["GET": { _ in Self.json(200, ["status": "ok"]) }]),
        ]
        guard let methods = routes.first(where: { $0.0 == path })?.1 else {
            return Self.problem(404, "not-found", "no such endpoint")
        }
        guard let handler = methods[request.method] else {
            return Self.problem(
                405, "method-not-allowed", "\(request.method) is not allowed here",
                headers: [("Allow", methods.keys.sorted().joined(separator: ", "))])
        }
        if request.bodyTooLarge { return Self.problem(413, "body-too-large", "the body is over the limit") }
        return handler(request)
    }

    // MARK: Device API

    /// Rate limits and the installation headers of an upload.
    private func admit(_ request: HTTPRequest, requireInstallation: Bool) -> Result<(String?, String?), HTTPResponse> {
        let at = now()
        if let wait = addressLimiter.take("a:" + request.clientAddress, now: at) {
            return .failure(
                Self.problem(429, "rate-limited", "too many requests", headers: [("Retry-After", String(wait))]))
        }
        let installation = request.header(CollectorHeaders.installation)
        let version = request.header(CollectorHeaders.appVersion)
        if let installation, !UploadValidation.isInstallationID(installation) {
            return .failure(
                Self.problem(
                    400, "invalid-installation", "\(CollectorHeaders.installation): expected 8–64 of [A-Za-z0-9-]"))
        }
        if let version, !UploadValidation.isAppVersion(version) {
            return .failure(Self.problem(400, "invalid-app-version", "\(CollectorHeaders.appVersion): not a version"))
        }
        if requireInstallation, installation == nil || version == nil {
            return .failure(
                Self.problem(
                    400, "missing-installation",
                    "\(CollectorHeaders.installation) and \(CollectorHeaders.appVersion) headers are required"))
        }
        if let installation, let wait = installationLimiter.take("i:" + installation, now: at) {
            return .failure(
                Self.problem(429, "rate-limited", "too many uploads", headers: [("Retry-After", String(wait))]))
        }
        return .success((installation, version))
    }

    private func pinFailures(_ request: HTTPRequest) -> HTTPResponse {
        let installation: String?
        let version: String?
        switch admit(request, requireInstallation: false) {
        case .failure(let response): return response
        case .success(let admitted): (installation, version) = admitted
        }
        return Self.ingest {
            let (reports, dropped) = try UploadValidation.reports(request.body)
            let accepted = try storage.storeReports(
                reports, dropped: dropped, installation: installation, appVersion: version, now: now())
            return Self.json(200, ["accepted": .array(accepted.map(JSONValue.string))])
        }
    }

    private func audit(_ request: HTTPRequest) -> HTTPResponse {
        let installation: String
        let version: String
        switch admit(request, requireInstallation: true) {
        case .failure(let response): return response
        case .success(let admitted):
            guard let id = admitted.0, let app = admitted.1 else {
                return Self.problem(
                    400, "missing-installation", "the \(CollectorHeaders.installation) header is required")
            }
            (installation, version) = (id, app)
        }
        return Self.ingest {
            let entries = try UploadValidation.auditEntries(request.body)
            let outcome = try storage.appendAudit(
                installation: installation, appVersion: version, entries: entries, now: now())
            return Self.json(200, ["acceptedThrough": .int(outcome.acceptedThrough)])
        }
    }

    private func checkIn(_ request: HTTPRequest) -> HTTPResponse {
        let installation: String
        switch admit(request, requireInstallation: false) {
        case .failure(let response): return response
        case .success(let admitted):
            guard let id = admitted.0 else {
                return Self.problem(
                    400, "missing-installation", "the \(CollectorHeaders.installation) header is required")
            }
            installation = id
        }
        return Self.ingest {
            let checkIn = try UploadValidation.checkIn(request.body, installation: installation)
            try storage.checkIn(checkIn, now: now())
            return Self.json(200, ["status": "ok"])
        }
    }

    /// The current document, cacheable: `ETag` over its bytes, `If-None-Match` → 304.
    private func killSwitch(_ request: HTTPRequest) -> HTTPResponse {
        if let wait = addressLimiter.take("a:" + request.clientAddress, now: now()) {
            return Self.problem(429, "rate-limited", "too many requests", headers: [("Retry-After", String(wait))])
        }
        let current: KillSwitchPublication?
        do {
            current = try storage.currentKillSwitch()
        } catch {
            return Self.storageFailure(error)
        }
        guard let current else { return Self.problem(404, "no-kill-switch", "no kill-switch document is published") }
        let tag = "\"" + String(PortableSHA256.hex(Array(current.document.utf8)).prefix(32)) + "\""
        let headers = [("ETag", tag), ("Cache-Control", "public, max-age=\(configuration.killSwitchMaxAge)")]
        if let match = request.header("if-none-match"),
            match.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == tag || $0.trimmingCharacters(in: .whitespaces) == "*"
            })
        {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "application/json")] + headers,
            body: request.method == "HEAD" ? [] : Array(current.document.utf8))
    }

    // MARK: Operator API

    func authorize(_ request: HTTPRequest) -> Result<String, HTTPResponse> {
        guard let tokens = configuration.operatorTokens else {
            return .failure(Self.problem(404, "not-found", "the operator API is not enabled (--operator-token-file)"))
        }
        // Operators share the per-address bucket, so guessing tokens is throttled like any flood.
        if let wait = addressLimiter.take("a:" + request.clientAddress, now: now()) {
            return .failure(
                Self.problem(429, "rate-limited", "too many requests", headers: [("Retry-After", String(wait))]))
        }
        guard let name = tokens.operatorName(authorization: request.header("authorization")) else {
            return .failure(
                Self.problem(
                    401, "unauthorized", "a valid operator bearer token is required",
                    headers: [("WWW-Authenticate", "Bearer")]))
        }
        return .success(name)
    }

    private func since(_ request: HTTPRequest, default interval: TimeInterval) -> Result<Date, HTTPResponse> {
        guard let text = request.query["since"] else { return .success(now().addingTimeInterval(-interval)) }
        if let date = RFC3339.parse(text) { return .success(date) }
        if text.hasSuffix("d"), let days = Int(text.dropLast()), (0...3650).contains(days) {
            return .success(now().addingTimeInterval(-Double(days) * 86_400))
        }
        return .failure(
            Self.problem(400, "invalid-since", "since: expected an RFC 3339 date or a day count such as 7d"))
    }

    private func operatorQuery(_ request: HTTPRequest, _ body: () throws(CollectorError) -> JSONValue) -> HTTPResponse {
        if case .failure(let response) = authorize(request) { return response }
        do {
            return Self.json(200, try body())
        } catch {
            return Self.storageFailure(error)
        }
    }

    private func installedBase(_ request: HTTPRequest) -> HTTPResponse {
        operatorQuery(request) { () throws(CollectorError) -> JSONValue in
            let window = configuration.installedBaseWindow
            let versions = try storage.installedBase(window: window, now: now())
            return [
                "window": .string("\(Int(window / 86_400))d"), "generatedAt": .string(RFC3339.format(now())),
                "versions": .array(
                    versions.map { version in
                        [
                            "version": .string(version.version), "installations": .int(version.installations),
                            "share": .number(String(format: "%.6f", version.share)),
                            "pinSetFingerprints": .array(version.pinSetFingerprints.map(JSONValue.string)),
                        ]
                    }),
            ]
        }
    }

    private func failureSummary(_ request: HTTPRequest) -> HTTPResponse {
        let from: Date
        switch since(request, default: 7 * 86_400) {
        case .failure(let response): return response
        case .success(let date): from = date
        }
        return operatorQuery(request) { () throws(CollectorError) -> JSONValue in
            let groups = try storage.pinFailureSummary(since: from)
            return [
                "since": .string(RFC3339.format(from)),
                "groups": .array(
                    groups.map { group in
                        [
                            "hostname": .string(group.hostname), "pinSet": .string(group.pinSet),
                            "appVersion": .string(group.appVersion),
                            "servedKeys": .array(group.servedKeys.map(JSONValue.string)),
                            "reports": .int(group.reports), "occurrences": .int(group.occurrences),
                            "installations": .int(group.installations),
                            "firstSeen": .string(RFC3339.format(group.firstSeen)),
                            "lastSeen": .string(RFC3339.format(group.lastSeen)),
                            // One new key across many installations is a rotation; one alone, a local proxy.
                            "likelyCause": .string(
                                group.installations > 1 ? "server-side-change" : "local-interception"),
                        ]
                    }),
            ]
        }
    }

    private func anomalies(_ request: HTTPRequest) -> HTTPResponse {
        let from: Date
        switch since(request, default: configuration.retention) {
        case .failure(let response): return response
        case .success(let date): from = date
        }
        return operatorQuery(request) { () throws(CollectorError) -> JSONValue in
            let anomalies = try storage.auditAnomalies(since: from)
            return [
                "anomalies": .array(
                    anomalies.map { anomaly in
                        [
                            "installation": .string(anomaly.installationID), "seq": .int(anomaly.seq),
                            "kind": .string(anomaly.kind.rawValue), "chainBroken": true,
                            "expectedHash": .string(anomaly.expectedHash), "seenHash": .string(anomaly.seenHash),
                            "appVersion": .string(anomaly.appVersion),
                            "detectedAt": .string(RFC3339.format(anomaly.detectedAt)),
                        ]
                    })
            ]
        }
    }

    /// The canary's latest verdict per host (recorded by `pinkit-collector canary --data`).
    private func canary(_ request: HTTPRequest) -> HTTPResponse {
        operatorQuery(request) { () throws(CollectorError) -> JSONValue in
            let results = try storage.canaryResults()
            return [
                "bricksALiveRelease": .bool(results.contains { !$0.brickedReleases.isEmpty }),
                "hosts": .array(
                    results.map { result in
                        [
                            "host": .string(result.host), "port": .int(result.port),
                            "checkedAt": .string(RFC3339.format(result.checkedAt)),
                            "brickedReleases": .array(result.brickedReleases.map(JSONValue.string)),
                            "chainKeys": .array(result.chainKeys.map(JSONValue.string)),
                            "warnings": .array(result.warnings.map(JSONValue.string)),
                        ]
                    }),
            ]
        }
    }

    private func publications(_ request: HTTPRequest) -> HTTPResponse {
        operatorQuery(request) { () throws(CollectorError) -> JSONValue in
            [
                "publications": .array(
                    try storage.killSwitchPublications().map { publication in
                        [
                            "serial": .int(publication.serial),
                            "publishedAt": .string(RFC3339.format(publication.publishedAt)),
                            "operator": .string(publication.operatorName), "reason": .string(publication.reason),
                            "pinning": .string(publication.pinning),
                            "expiresAt": .string(RFC3339.format(publication.expiresAt)),
                        ]
                    })
            ]
        }
    }

    /// Verifies the uploaded envelope against the configured keys (the collector never signs),
    /// then records who, when, serial and reason, and serves it.
    private func publishKillSwitch(_ request: HTTPRequest) -> HTTPResponse {
        let operatorName: String
        switch authorize(request) {
        case .failure(let response): return response
        case .success(let name): operatorName = name
        }
        guard !configuration.killSwitchPublicKeys.isEmpty else {
            return Self.problem(
                409, "no-verification-keys",
                "the collector has no kill-switch public key configured (--kill-switch-key)")
        }
        let document: KillSwitchDocument
        do {
            document = try KillSwitchDocument.parse(request.body)
        } catch {
            let detail = error.problems.first.map { "\($0.path): \($0.message)" } ?? error.reason
            return Self.problem(400, "invalid-kill-switch", detail)
        }
        let settings = KillSwitchStateMachine.Settings(
            publicKeys: configuration.killSwitchPublicKeys, verifier: configuration.killSwitchVerifier)
        if let reason = KillSwitchStateMachine().rejection(of: document, settings: settings, now: now()) {
            return Self.problem(422, "kill-switch-rejected", reason)
        }
        let payload = document.payload
        let publication = KillSwitchPublication(
            serial: payload.serial, publishedAt: now(), operatorName: operatorName,
            reason: LogSanitizer.redact(payload.reason), pinning: payload.pinning.rawValue,
            expiresAt: payload.expiresAt, document: String(decoding: request.body, as: UTF8.self))
        do {
            try storage.publishKillSwitch(publication)
        } catch let error where error.code == .conflict {
            return Self.problem(409, "stale-serial", error.reason)
        } catch {
            return Self.storageFailure(error)
        }
        return Self.json(
            200,
            [
                "serial": .int(payload.serial), "pinning": .string(payload.pinning.rawValue),
                "operator": .string(operatorName), "publishedAt": .string(RFC3339.format(publication.publishedAt)),
            ])
    }
}
