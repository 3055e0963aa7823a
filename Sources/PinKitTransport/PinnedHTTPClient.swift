public import Foundation
public import PinKit
import Synchronization

/// An async HTTPS client that pins inside the TLS handshake (libcurl + an OpenSSL
/// certificate-verify callback on the verified chain).
///
/// A client holds one *session*: a connection pool and TLS session cache bound to one
/// immutable policy. ``replacePolicy(_:)`` starts a new session, so no connection or TLS
/// session made under the old policy is ever used under the new one.
public final class PinnedHTTPClient: Sendable {
    /// What a session is for. The host-scoping rule is the same for `pinned` and `probe`: a
    /// self-hosted server gets system trust while the managed cloud stays pinned.
    public enum Kind: String, Sendable {
        /// Production traffic.
        case pinned
        /// The "change server" onboarding check of a candidate server.
        case probe
        /// System trust only, whatever the policy (the kill-switch fetch).
        case unpinned
    }

    public enum TrustStore: Sendable, Hashable {
        /// The system CA bundle: the file libcurl was built with (Debian: ca-certificates.crt).
        case system
        /// Only the certificates in this PEM file.
        case caFile(String)
    }

    public enum HTTPVersion: Sendable { case http2IfAvailable, http1Only }

    public struct Configuration: Sendable {
        public var kind: Kind
        public var policy: PinPolicy
        public var trustStore: TrustStore = .system
        public var connectTimeout: Duration = .seconds(10)
        /// One deadline per ``PinnedHTTPClient/send(_:)``: redirect hops and time waiting for a
        /// connection count against it.
        public var requestTimeout: Duration = .seconds(30)
        /// Larger response bodies fail with `response-too-large`.
        public var maximumResponseSize = 10 * 1024 * 1024
        /// The bodies of all responses in flight on the client, together: the per-response cap
        /// would otherwise multiply by the streams of HTTP/2 connections. Past it, the transfer
        /// whose bytes would cross it fails with `in-flight-limit`.
        public var maximumInFlightResponseBytes = 64 * 1024 * 1024
        /// Off by default. When on, every hop is a new request evaluated under its own host's
        /// policy, `Authorization` and `Cookie` are dropped when the scheme, host or port changes,
        /// and http:// is refused.
        public var followRedirects = false
        public var maximumRedirects = 5
        public var httpVersion: HTTPVersion = .http2IfAvailable
        /// curl `--resolve` entries, `HOST:PORT:ADDRESS`.
        public var resolve: [String] = []
        public var maximumConnectionsPerHost = 8
        /// Keep-alive and TLS session resumption within this session. Off forces a full
        /// handshake per request (benchmarks, `pinctl check`).
        public var reuseConnections = true
        /// Let an intermediate in the trust store act as an anchor (libcurl's default). Off by
        /// default, so the verified chain reaches a self-signed root and root pins match.
        public var allowPartialChain = false
        public var userAgent: String? = "PinKit/0.1"
        /// Receives pin failures and expired-set notices. Called on the client's serial delivery
        /// queue after the handshake, before the ``PinnedHTTPClient/send(_:)`` that carried it
        /// returns or throws; never on the transport thread, so a slow observer (file writes)
        /// delays only its own request.
        public var observer: (@Sendable (PinningEvent) -> Void)?
        /// The clock pin-set expiry is judged by.
        public var now: @Sendable () -> Date = { Date() }
        /// Where the client logs (category `transport`): failures, and each request at debug.
        /// Lines are redacted by the logger; bodies are never logged here.
        public var logger: RedactingLogger = .disabled
        /// Off only for the test that shows what PIPEWAIT is for (concurrent HTTP/2 requests each
        /// opening a connection, and a pin check, of their own); never set it otherwise.
        package var waitForMultiplexingForTesting = true
        /// Where ``TrustStore/system`` reads its certificates (tests); nil: the CA bundle libcurl
        /// was built with.
        package var systemTrustBundleOverrideForTesting: String?
        /// For the test that shows the verify callback fails closed; never set it otherwise.
        package var unsafeDisableCurlPeerVerificationForTesting = false
        /// For the test that shows why renegotiation is refused; never set it otherwise.
        package var unsafeAllowRenegotiationForTesting = false

        public init(kind: Kind = .pinned, policy: PinPolicy) {
            self.kind = kind
            self.policy = kind == .unpinned ? .systemTrustOnly : policy
        }

        /// Production traffic under `policy`.
        public static func pinned(_ policy: PinPolicy) -> Configuration { Configuration(kind: .pinned, policy: policy) }
        /// The "change server" check: same policy, its own session.
        public static func probe(_ policy: PinPolicy) -> Configuration { Configuration(kind: .probe, policy: policy) }
        /// System trust only.
        public static func unpinned() -> Configuration { Configuration(kind: .unpinned, policy: .systemTrustOnly) }
    }

    private let state: Locked<(configuration: Configuration, engine: CurlEngine)>
    private let nextID = Atomic<UInt64>(1)
    private let counters = HandshakeCounters()
    private let budget: ResponseBudget
    /// Where the observer runs: serial, so events of one client arrive in order.
    private let delivery = DispatchQueue(label: "PinKit observer delivery")

    /// The most response-body bytes this client held at once for running transfers (tests).
    package var peakInFlightResponseBytes: Int { budget.peakBytes }

    /// How many times the verify callback ran for this client's connections (renegotiation tests).
    package var handshakeVerifications: Int { counters.verifications }

    /// How many transfers the current session has handed to libcurl (tests).
    package var transfersStarted: Int { state.withLock { $0.engine }.transfersAdded }

    /// How many TLS connections this client opened (its SSL_CTX callback ran).
    package var tlsConnectionsOpened: Int { counters.connections }

    /// - Throws: ``TransportError`` when libcurl cannot be initialised.
    public init(_ configuration: Configuration) throws(TransportError) {
        let engine = try CurlEngine(
            maximumConnectionsPerHost: configuration.maximumConnectionsPerHost,
            shareTLSSessions: configuration.reuseConnections
        )
        state = Locked((configuration, engine))
        budget = ResponseBudget(limit: configuration.maximumInFlightResponseBytes)
    }

    deinit { state.withLock { $0.engine.shutdown() } }

    public var configuration: Configuration { state.withLock { $0.configuration } }

    /// Starts a new session under `policy`: requests from now on use new connections and new
    /// TLS sessions; requests already running finish on the old session, which then closes.
    public func replacePolicy(_ policy: PinPolicy) throws(TransportError) {
        var configuration = self.configuration
        configuration.policy = configuration.kind == .unpinned ? .systemTrustOnly : policy
        let engine = try CurlEngine(
            maximumConnectionsPerHost: configuration.maximumConnectionsPerHost,
            shareTLSSessions: configuration.reuseConnections
        )
        let old = state.withLock { state in
            defer { state = (configuration, engine) }
            return state.engine
        }
        old.shutdownWhenIdle()
    }

    /// For the test that shows why sessions are policy-scoped: swaps the policy but keeps the
    /// old connection pool and TLS sessions. Never call it otherwise.
    package func unsafeReplacePolicyKeepingConnectionsForTesting(_ policy: PinPolicy) {
        state.withLock { $0.configuration.policy = policy }
    }

    /// Fails running requests with `shut-down` and frees the session.
    public func shutdown() { state.withLock { $0.engine }.shutdown() }

    /// Sends `request`; any HTTP status is a response. Redirects are followed only when the
    /// configuration says so.
    ///
    /// One deadline covers the whole call: `request.timeout` (or the configuration's
    /// `requestTimeout`) counts from here, across every redirect hop and any time spent waiting
    /// for a connection behind `maximumConnectionsPerHost`.
    ///
    /// Pinning events of the handshakes are delivered to the observer (on the client's delivery
    /// queue) before this returns or throws; never on the transport thread.
    /// - Throws: ``TransportError``: pin mismatch, invalid chain, network, cancellation, size.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let started = ContinuousClock.now
        let deadline = started + (request.timeout ?? configuration.requestTimeout)
        var current = request
        var hops = 0
        var sentBefore = false
        while true {
            let result: TransferResult
            let url: URL
            do throws(TransportError) {
                (result, url) = try await perform(current, connectOnly: false, started: started, deadline: deadline)
            } catch {
                var error = error
                // An earlier hop reached a server: the caller must treat the send() as sent.
                error.wasSent = error.wasSent || sentBefore
                throw error
            }
            let response = HTTPResponse(
                status: result.status,
                headers: result.headers,
                body: result.body,
                url: url,
                httpVersion: result.httpVersion,
                pinning: result.pinning
            )
            guard configuration.followRedirects, [301, 302, 303, 307, 308].contains(response.status),
                let location = response.headers["Location"]
            else { return response }
            sentBefore = true
            hops += 1
            guard hops <= configuration.maximumRedirects else {
                var error = TransportError(
                    .tooManyRedirects, "more than \(configuration.maximumRedirects) redirects", host: url.host ?? "")
                error.wasSent = true
                throw error
            }
            guard let next = URL(string: location, relativeTo: url)?.absoluteURL else {
                var error = TransportError(
                    .invalidRequest, "unusable redirect Location (\(location.utf8.count) bytes)", host: url.host ?? "")
                error.wasSent = true
                throw error
            }
            current = Self.redirected(current, to: next, status: response.status)
        }
    }

    /// Connects and handshakes with `host` (no HTTP), returning the chains and the pin decision.
    /// - Throws: ``TransportError`` as ``send(_:)`` does.
    public func handshake(host: String, port: Int = 443) async throws(TransportError) -> HandshakeReport {
        guard let url = URL(string: "https://\(host.contains(":") ? "[\(host)]" : host):\(port)/") else {
            throw TransportError(.invalidRequest, "not a usable host: \(host)", host: host)
        }
        let started = ContinuousClock.now
        let (result, _) = try await perform(
            HTTPRequest(url: url), connectOnly: true, captureChains: true, started: started,
            deadline: started + configuration.requestTimeout)
        return HandshakeReport(
            host: HostName.normalize(host),
            port: port,
            servedChain: result.servedChain,
            servedChainPEM: result.servedChainPEM,
            verifiedChain: result.verifiedChain,
            pinning: result.pinning ?? .unpinnedHost
        )
    }

    private func perform(
        _ request: HTTPRequest,
        connectOnly: Bool,
        captureChains: Bool = false,
        started: ContinuousClock.Instant,
        deadline: ContinuousClock.Instant,
        retried: Bool = false
    ) async throws(TransportError) -> (TransferResult, URL) {
        let (configuration, engine) = state.withLock { ($0.configuration, $0.engine) }
        let url = request.url
        guard url.scheme?.lowercased() == "https", let rawHost = url.host, !rawHost.isEmpty else {
            // Scheme and host only: a path or query is the caller's data, never a message's.
            throw TransportError(
                .invalidRequest,
                "only https URLs with a host are allowed, saw scheme \(url.scheme ?? "none") and host \(url.host ?? "none")"
            )
        }
        let host = HostName.normalize(rawHost.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
        let port = url.port ?? 443
        let handshake = HandshakeSettings(
            policy: configuration.policy,
            host: host,
            port: port,
            now: configuration.now,
            captureChains: captureChains,
            counters: counters,
            allowRenegotiation: configuration.unsafeAllowRenegotiationForTesting
        )
        let transfer = Transfer(
            id: nextID.add(1, ordering: .relaxed).oldValue,
            request: request,
            host: host,
            port: port,
            handshake: handshake,
            settings: configuration,
            connectOnly: connectOnly,
            budget: budget,
            started: started,
            deadline: deadline
        )
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.continuation = continuation
                engine.submit(transfer)
            }
        } onCancel: {
            engine.cancel(transfer.id)
        }
        // The handshake decided and recorded; the app hears about it now, on the client's own
        // delivery queue, and this request waits for it: a slow observer (file writes, fsync)
        // delays this request only, never the session's other transfers, and never holds a
        // thread of the cooperative pool or the transport thread.
        if let observer = configuration.observer, !outcome.events.isEmpty {
            let events = outcome.events
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                delivery.async {
                    for event in events { observer(event.event()) }
                    continuation.resume()
                }
            }
        }
        let result = outcome.result
        // A request that raced ``replacePolicy(_:)`` onto the closing session goes to the new one.
        if case .failure(let error) = result, error.code == .shutDown, !retried,
            state.withLock({ $0.engine !== engine })
        {
            return try await perform(
                request, connectOnly: connectOnly, captureChains: captureChains, started: started, deadline: deadline,
                retried: true)
        }
        let logger = configuration.logger
        switch result {
        case .success(let transfer):
            logger.debug(
                "\(request.method) \(host):\(port) -> \(transfer.status)",
                metadata: ["session": configuration.kind.rawValue])
        case .failure(let error) where error.code == .pinMismatch:
            logger.error(
                "pinning refused \(host):\(port): \(error.reason)", metadata: ["session": configuration.kind.rawValue])
        case .failure(let error):
            logger.warning(
                "\(request.method) \(host):\(port) failed: \(error)",
                metadata: ["session": configuration.kind.rawValue])
        }
        return (try result.get(), url)
    }

    static func redirected(_ request: HTTPRequest, to next: URL, status: Int) -> HTTPRequest {
        var copy = request
        copy.url = next
        if status == 303 || ((status == 301 || status == 302) && request.method == "POST") {
            copy.method = "GET"
            copy.body = nil
        }
        if origin(of: next) != origin(of: request.url) {
            // Credentials are for the origin they were given to: another port of the same host
            // is another server (curl's rule since CVE-2022-27776).
            copy.headers.set("Authorization", nil)
            copy.headers.set("Cookie", nil)
        }
        return copy
    }

    /// Scheme, normalised host and effective port: what credentials are scoped to.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "http" ? 80 : 443)
        let host = HostName.normalize((url.host ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
        return "\(scheme)://\(host):\(port)"
    }
}

/// The outcome of ``PinnedHTTPClient/handshake(host:port:)``.
public struct HandshakeReport: Sendable {
    public var host: String
    public var port: Int
    /// As the server sent it, leaf first.
    public var servedChain: [CertificateFacts]
    /// The same, as PEM.
    public var servedChainPEM: [String]
    /// As OpenSSL built and verified it, leaf first.
    public var verifiedChain: [CertificateFacts]
    public var pinning: PinEvaluation
}
