public import Foundation
public import PinKit
public import PinKitTransport

/// The device's path to the collector that works *while pinning fails*.
///
/// Pin-failure reports carry only public data (host, chains, pins, app version), so right after
/// a failure they go to the collector over a separate **unpinned** session (system trust only),
/// not only at the next successful pinned connection — which, during a bad rotation, never
/// comes. The same failure triggers an immediate kill-switch refetch, so an operator's "off"
/// reaches a failing fleet in one round trip. Both are rate-limited on the device; reports are
/// deduplicated by the store as before. A light check-in (app version and pin-set fingerprint)
/// is sent at most once per ``Configuration/checkInInterval``.
public final class CollectorUplink: Sendable {
    public struct Configuration: Sendable {
        /// The collector's `POST /v1/pin-failures`.
        public var reportingURL: URL
        /// The collector's `POST /v1/check-in`; nil: no check-in.
        public var checkInURL: URL?
        /// From ``InstallationID/loadOrCreate(path:)``.
        public var installationID: String
        public var appVersion: String
        public var pinSetFingerprint: String?
        public var pinSetExpiry: Date?
        /// At most one immediate report upload per interval (later failures wait for the next).
        public var minimumReportInterval: TimeInterval = 60
        public var checkInInterval: TimeInterval = 86_400
        /// Adjusts the unpinned session (trust store, resolve entries, timeouts).
        public var transport: @Sendable (inout PinnedHTTPClient.Configuration) -> Void = { _ in }
        public var now: @Sendable () -> Date = { Date() }

        public init(reportingURL: URL, installationID: String, appVersion: String) {
            self.reportingURL = reportingURL
            self.installationID = installationID
            self.appVersion = appVersion
        }
    }

    /// "At most once per interval", as a value: tested without a clock or a network.
    struct IntervalGate: Sendable {
        var interval: TimeInterval
        var last: Date?
        mutating func admit(at now: Date) -> Bool {
            if let last, now >= last, now.timeIntervalSince(last) < interval { return false }
            last = now
            return true
        }
    }

    private struct Gates {
        var report: IntervalGate
        var checkIn: IntervalGate
        var pending: [Task<Void, Never>] = []
    }

    public let configuration: Configuration
    private let reporter: PinFailureReporter
    private let killSwitch: KillSwitchController?
    private let session: PinnedHTTPClient
    private let gates: Locked<Gates>

    /// - Throws: ``TransportError`` when the unpinned session cannot start.
    public init(
        _ configuration: Configuration, reporter: PinFailureReporter, killSwitch: KillSwitchController? = nil
    ) throws(TransportError) {
        self.configuration = configuration
        self.reporter = reporter
        self.killSwitch = killSwitch
        var settings = PinnedHTTPClient.Configuration.unpinned()
        configuration.transport(&settings)
        // Whatever the adjustment did, this session never pins: it must work while pinning fails.
        settings.kind = .unpinned
        settings.policy = .systemTrustOnly
        session = try PinnedHTTPClient(settings)
        gates = Locked(
            Gates(
                report: IntervalGate(interval: configuration.minimumReportInterval),
                checkIn: IntervalGate(interval: configuration.checkInInterval)))
    }

    deinit { session.shutdown() }

    /// The headers every upload to the collector carries.
    public var deviceHeaders: [(String, String)] {
        [("X-PinKit-Installation", configuration.installationID), ("X-PinKit-App-Version", configuration.appVersion)]
    }

    /// What one observed pin failure led to.
    public struct FailureActions: Sendable, Equatable {
        public var report: PinFailureReporter.UploadOutcome?
        public var killSwitchRefreshed: Bool
        public init(report: PinFailureReporter.UploadOutcome?, killSwitchRefreshed: Bool) {
            self.report = report
            self.killSwitchRefreshed = killSwitchRefreshed
        }
    }

    /// Call when a pin failure was recorded (``APIClient`` does): uploads the stored reports
    /// over the unpinned session and refetches the kill switch, each when its gate allows.
    @discardableResult
    public func pinFailureObserved() async -> FailureActions {
        let now = configuration.now()
        let sendReport = gates.withLock { $0.report.admit(at: now) }
        var actions = FailureActions(report: nil, killSwitchRefreshed: false)
        if sendReport {
            let session = self.session
            let url = configuration.reportingURL
            let headers = HTTPHeaders([("Content-Type", "application/json")] + deviceHeaders)
            actions.report = await reporter.connectionSucceeded { body in
                let response = try await session.send(
                    HTTPRequest(method: "POST", url: url, headers: headers, body: body))
                // The collector's own rate limit (429 + Retry-After) must slow the device here too:
                // this path fires fleet-wide in exactly the incident it exists for.
                return try UploadAnswer.body(of: response)
            }
        }
        // The controller's own fetch schedule rate-limits failure-triggered refetches (one
        // per pinFailureRefetchInterval, never while a fetch runs): one gate, not two.
        if let killSwitch {
            actions.killSwitchRefreshed = await killSwitch.refreshAfterPinFailure() != nil
        }
        return actions
    }

    /// Runs ``pinFailureObserved()`` in the background (from a transport observer).
    public func schedulePinFailure() {
        let task = Task { _ = await self.pinFailureObserved() }
        gates.withLock { $0.pending = $0.pending.suffix(7) + [task] }
    }

    /// Waits for the work started by ``schedulePinFailure()`` and ``scheduleCheckIn()``.
    public func settle() async {
        let pending = gates.withLock { gates in
            defer { gates.pending = [] }
            return gates.pending
        }
        for task in pending { await task.value }
    }

    /// Sends the daily check-in when due. - Returns: true when the collector took it.
    @discardableResult
    public func checkInIfDue() async -> Bool {
        guard let url = configuration.checkInURL else { return false }
        let now = configuration.now()
        guard gates.withLock({ $0.checkIn.admit(at: now) }) else { return false }
        let body: JSONValue = [
            "appVersion": .string(configuration.appVersion),
            "pinSetFingerprint": .optionalString(configuration.pinSetFingerprint),
            "pinSetExpiry": .optionalString(configuration.pinSetExpiry.map(RFC3339.format)),
        ]
        let request = HTTPRequest(
            method: "POST", url: url, headers: HTTPHeaders([("Content-Type", "application/json")] + deviceHeaders),
            body: Array(body.serialized().utf8))
        guard let response = try? await session.send(request), (200..<300).contains(response.status) else {
            // Not taken: let the next successful request try again.
            gates.withLock { $0.checkIn.last = nil }
            return false
        }
        return true
    }

    /// Runs ``checkInIfDue()`` in the background (after a successful request).
    public func scheduleCheckIn() {
        let task = Task { _ = await self.checkInIfDue() }
        gates.withLock { $0.pending = $0.pending.suffix(7) + [task] }
    }
}
