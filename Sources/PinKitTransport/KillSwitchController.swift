public import Foundation
public import PinKit
import PinKitOpenSSL

/// Runs the kill switch: fetches the document over a fresh *unpinned* session at start-up and
/// every refresh interval, feeds it to ``KillSwitchStateMachine``, persists the state
/// atomically, records audit events, and hands the new effective policy to `onPolicyChange`
/// (which must create new pinned sessions, e.g. ``PinnedHTTPClient/replacePolicy(_:)``).
///
/// Fetch failures of every kind (network, TLS, HTTP status, size, garbage, timeout) change
/// nothing and never crash; start-up never waits for the fetch.
public final class KillSwitchController: Sendable {
    public struct Configuration: Sendable {
        public var url: URL
        /// Key id → DER SubjectPublicKeyInfo. Empty: no document is ever honoured.
        public var publicKeys: [String: [UInt8]]
        /// `killSwitch.minimumSerial`: documents at or below it are refused.
        public var minimumSerial: Int64 = 0
        /// Where the state (highest serial, the "off" in force) is kept.
        public var statePath: String
        public var appVersion: String
        public var refreshInterval: Duration = .seconds(15 * 60)
        public var timeout: Duration = .seconds(10)
        public var maximumDocumentSize = 64 * 1024
        public var maximumValidity: TimeInterval = 30 * 86_400
        public var trustStore: PinnedHTTPClient.TrustStore = .system
        public var resolve: [String] = []
        public var now: @Sendable () -> Date = { Date() }
        /// Conditional fetches, max-age, jittered refresh; `minimumInterval` is `refreshInterval`.
        public var fetchSchedule = KillSwitchFetchSchedule.Settings()
        public var generator = SplitMix64.random()

        public init(url: URL, publicKeys: [String: [UInt8]], statePath: String, appVersion: String) {
            self.url = url
            self.publicKeys = publicKeys
            self.statePath = statePath
            self.appVersion = appVersion
        }

        /// From a validated configuration's `killSwitch` section.
        /// - Throws: ``PinKitError/Code/invalidConfiguration`` when there is none or it is unusable.
        public init(_ killSwitch: PinConfiguration.KillSwitch?, statePath: String, appVersion: String)
            throws(PinKitError)
        {
            guard let killSwitch, let url = URL(string: killSwitch.url), url.scheme?.lowercased() == "https" else {
                throw PinKitError(.invalidConfiguration, "the configuration has no usable killSwitch.url")
            }
            guard !killSwitch.publicKeys.isEmpty else {
                throw PinKitError(
                    .invalidConfiguration, "killSwitch has no publicKeys: an unsigned kill switch is never honoured")
            }
            var keys: [String: [UInt8]] = [:]
            for key in killSwitch.publicKeys {
                guard case .success(let der) = Base64.decode(key.spki) else {
                    throw PinKitError(.invalidConfiguration, "killSwitch key \(key.keyId) is not base64")
                }
                keys[key.keyId] = der
            }
            self.init(url: url, publicKeys: keys, statePath: statePath, appVersion: appVersion)
            minimumSerial = killSwitch.minimumSerial ?? 0
        }
    }

    public let configuration: Configuration
    public let basePolicy: PinPolicy
    private let auditLog: AuditLog?
    private let logger: RedactingLogger
    private let onPolicyChange: @Sendable (PinPolicy) -> Void
    private let machine: Locked<KillSwitchStateMachine>
    private let loop = Locked<Task<Void, Never>?>(nil)
    /// When to fetch next and the validator (ETag) of the document last processed.
    let schedule: Locked<(KillSwitchFetchSchedule, SplitMix64)>

    public init(
        configuration: Configuration,
        basePolicy: PinPolicy,
        auditLog: AuditLog? = nil,
        logger: RedactingLogger = .disabled,
        onPolicyChange: @escaping @Sendable (PinPolicy) -> Void
    ) {
        self.configuration = configuration
        self.basePolicy = basePolicy
        self.auditLog = auditLog
        self.logger = logger.withCategory("kill-switch")
        self.onPolicyChange = onPolicyChange
        var restored = KillSwitchStateMachine()
        var fetchSettings = configuration.fetchSchedule
        fetchSettings.minimumInterval = TimeInterval(configuration.refreshInterval.components.seconds)
        var fetchSchedule = KillSwitchFetchSchedule(settings: fetchSettings)
        if let data = FileManager.default.contents(atPath: configuration.statePath) {
            do {
                restored = try KillSwitchStateMachine(json: JSONParser.parse(data))
                // The validator is trusted only next to the state it belongs to.
                fetchSchedule = Self.restoredSchedule(configuration.statePath, settings: fetchSettings)
            } catch {
                // After any error: pinning on.
                self.logger.warning("unreadable kill-switch state, pinning stays on: \(error)")
            }
        }
        machine = Locked(restored)
        schedule = Locked((fetchSchedule, configuration.generator))
    }

    /// The state machine's current state.
    public var state: KillSwitchStateMachine { machine.withLock { $0 } }

    /// The policy new pinned sessions must use now.
    public var effectivePolicy: PinPolicy {
        let now = configuration.now()
        return machine.withLock { $0.effectivePolicy(basePolicy, appVersion: configuration.appVersion, now: now) }
    }

    /// Fetches once and applies the result (and any lapse of an "off"). Never throws.
    @discardableResult
    public func refresh() async -> [KillSwitchStateMachine.Action] {
        var actions = machine.withLock { $0.tick(now: configuration.now()) }
        switch await fetch() {
        case .success(let response) where response.status == 304:
            scheduleAnswered(response, keepValidator: true)
        case .success(let response):
            let settings = settings()
            let now = configuration.now()
            actions += machine.withLock { $0.receive(response.body, settings: settings, now: now) }
            scheduleAnswered(response, keepValidator: isProcessed(response.body))
        case .failure(let error):
            logger.notice("kill-switch fetch failed, state unchanged: \(error)")
            actions.append(.ignored("fetch-failed: \(error.code)"))
            scheduleFailed()
        }
        apply(actions)
        return actions
    }

    /// In the background until ``stop()``: fetches at once when the cached answer is stale (never
    /// blocking start-up), then whenever ``KillSwitchFetchSchedule`` says so.
    public func start() {
        let task = Task { [self] in
            var decision = launchDecision()
            while !Task.isCancelled {
                if case .fetch = decision { await refresh() }
                decision = pollDecision()
                if case .wait(let until) = decision {
                    let seconds = min(86_400, max(1, until.timeIntervalSince(configuration.now())))
                    try? await Task.sleep(for: .seconds(seconds))
                    decision = pollDecision()
                }
            }
        }
        loop.withLock {
            $0?.cancel()
            $0 = task
        }
    }

    public func stop() {
        loop.withLock {
            $0?.cancel()
            $0 = nil
        }
    }

    private func settings() -> KillSwitchStateMachine.Settings {
        var settings = KillSwitchStateMachine.Settings(
            publicKeys: configuration.publicKeys, verifier: OpenSSLSignatureVerifier())
        settings.maximumValidity = configuration.maximumValidity
        settings.minimumSerial = configuration.minimumSerial
        return settings
    }

    /// A fresh unpinned session per fetch: it shares no connection or TLS session with anything.
    private func fetch() async -> Result<HTTPResponse, TransportError> {
        var settings = PinnedHTTPClient.Configuration.unpinned()
        settings.trustStore = configuration.trustStore
        settings.resolve = configuration.resolve
        settings.connectTimeout = configuration.timeout
        settings.requestTimeout = configuration.timeout
        settings.maximumResponseSize = configuration.maximumDocumentSize
        settings.reuseConnections = false
        do throws(TransportError) {
            let client = try PinnedHTTPClient(settings)
            defer { client.shutdown() }
            var headers: HTTPHeaders = ["Accept": "application/json"]
            if let tag = schedule.withLock({ $0.0.etag }) { headers.set("If-None-Match", tag) }
            let response = try await client.send(HTTPRequest(url: configuration.url, headers: headers))
            // A 304 is expected only after a conditional request; anything else has its own code.
            guard response.status == 200 || (response.status == 304 && headers["If-None-Match"] != nil) else {
                return .failure(Self.statusError(response.status, url: configuration.url))
            }
            return .success(response)
        } catch {
            return .failure(error)
        }
    }

    /// A status other than 200, named for what it is: the fetch reached the server, so it is not
    /// a network failure.
    static func statusError(_ status: Int, url: URL) -> TransportError {
        let host = url.host ?? ""
        var error: TransportError
        switch status {
        case 304:
            error = TransportError(
                .notModified, "\(host) answered 304 Not Modified to an unconditional kill-switch fetch", host: host)
        case 300...399:
            error = TransportError(
                .unexpectedRedirect,
                "\(host) answered \(status), a redirect; the kill-switch fetch follows none (the document URL is fixed)",
                host: host)
        default:
            error = TransportError(
                .unexpectedStatus, "\(host) answered HTTP \(status) where the kill-switch document (200) was expected",
                host: host)
        }
        error.wasSent = true
        return error
    }

    private func apply(_ actions: [KillSwitchStateMachine.Action]) {
        for action in actions {
            switch action {
            case .persist: persist()
            case .audit(let event): auditLog?.record(event)
            case .policyChanged:
                let policy = effectivePolicy
                logger.warning("kill switch changed the effective pinning policy; pinned sessions are rebuilt")
                onPolicyChange(policy)
            case .ignored(let reason): logger.info("kill-switch document changed nothing: \(reason)")
            }
        }
    }

    private func persist() {
        let data = Data(machine.withLock { $0.json }.serialized().utf8)
        let temporary = configuration.statePath + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]),
            rename(temporary, configuration.statePath) == 0
        else {
            logger.error("cannot persist the kill-switch state at \(configuration.statePath)")
            return
        }
    }
}
