public import Foundation

/// When the next upload may be tried: exponential back-off with jitter after failures.
/// A value type whose transitions are plain mutations, tested without a network.
public struct UploadBackoff: Hashable, Sendable {
    public var base: TimeInterval = 30
    public var maximum: TimeInterval = 6 * 3600
    public private(set) var consecutiveFailures = 0
    public private(set) var notBefore: Date?

    public init(base: TimeInterval = 30, maximum: TimeInterval = 6 * 3600) {
        self.base = base
        self.maximum = maximum
    }

    public func isDue(at now: Date) -> Bool { notBefore.map { now >= $0 } ?? true }

    public mutating func succeeded() {
        consecutiveFailures = 0
        notBefore = nil
    }

    /// - Parameter jitter: a factor in 0.5...1 (random in production, fixed in tests).
    public mutating func failed(at now: Date, jitter: Double = Double.random(in: 0.5...1)) {
        consecutiveFailures += 1
        let delay = min(maximum, base * pow(2, Double(min(consecutiveFailures - 1, 30))))
        notBefore = now.addingTimeInterval(delay * min(1, max(0.5, jitter)))
    }
}

/// Uploads stored pin-failure reports at the next successful pinned connection.
///
/// The transport is injected (`send`: POST the body to the reporting URL and return the
/// response body of a 2xx, throwing otherwise), so the core needs no network. The server
/// answers `{"accepted": ["<id>", …]}`; only those reports are removed, and everything else
/// stays for the next attempt, across restarts. No default endpoint exists: without a
/// configured reporting URL nothing is ever sent.
public final class PinFailureReporter: Sendable {
    public typealias Send = @Sendable (_ body: [UInt8]) async throws -> [UInt8]

    public let store: PinFailureReportStore
    public let appVersion: String
    /// Backoff with full jitter, Retry-After, one upload in flight, the daily cap on new reports.
    private let schedule: Locked<(UploadSchedule, SplitMix64)>
    private let now: @Sendable () -> Date

    public init(
        store: PinFailureReportStore,
        appVersion: String,
        schedule: UploadSchedule.Settings = UploadSchedule.Settings(),
        generator: SplitMix64 = .random(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.appVersion = appVersion
        self.schedule = Locked((UploadSchedule(settings: schedule), generator))
        self.now = now
    }

    /// Stores a failure (the transport observer's pin-failure hook). A duplicate of a queued
    /// report raises its count; a new one is queued only within the daily cap.
    public func record(_ event: PinFailureEvent) {
        let report = PinFailureReport(event: event, appVersion: appVersion)
        if !store.holdsDuplicate(of: report) {
            guard schedule.withLock({ $0.0.admitNewReport(now: now()) }) else { return }
        }
        store.record(report)
    }

    public var scheduleState: UploadSchedule { schedule.withLock { $0.0 } }

    public enum UploadOutcome: Equatable, Sendable {
        case nothingToSend
        case notDue(until: Date)
        /// Another upload of this reporter is running.
        case inFlight
        case uploaded(accepted: Int, remaining: Int)
        /// Nothing was removed; the schedule backs off. `failure.code` is stable for scripts and
        /// metrics, `failure.message` (redacted) is for people.
        case failed(UploadFailure)
    }

    /// Why an upload failed: a stable code beside a redacted sentence.
    public struct UploadFailure: Hashable, Sendable, CustomStringConvertible {
        public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public var description: String { rawValue }
            /// The server answered 429 or 503 (with its Retry-After, if any).
            public static let throttled = Code(rawValue: "throttled")
            /// The server answered, but not with `{"accepted":[…]}`.
            public static let invalidAnswer = Code(rawValue: "invalid-answer")
            /// The request did not get an answer (transport error, refused, timeout).
            public static let sendFailed = Code(rawValue: "send-failed")
        }
        public var code: Code
        public var message: String
        public init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }
        public var description: String { "\(code): \(message)" }
    }

    /// Call after a successful pinned connection: uploads when anything is stored and the
    /// back-off allows it.
    @discardableResult
    public func connectionSucceeded(send: Send) async -> UploadOutcome {
        let current = now()
        let (body, ids, dropped) = store.uploadDocument()
        guard !ids.isEmpty || dropped > 0 else { return .nothingToSend }
        switch schedule.withLock({ $0.0.begin(now: current) }) {
        case .start: break
        case .notDue(let until): return .notDue(until: until)
        case .inFlight: return .inFlight
        }
        let response: [UInt8]
        do {
            response = try await send(body)
        } catch let throttled as UploadThrottled {
            finish(.throttled(retryAfter: throttled.retryAfter))
            return .failed(
                UploadFailure(
                    .throttled, "HTTP \(throttled.status), retry after \(Int(throttled.retryAfter ?? 0)) s"))
        } catch {
            finish(.failed)
            return .failed(UploadFailure(.sendFailed, LogSanitizer.redact(String(describing: error))))
        }
        do {
            let accepted = try Self.acceptedIDs(response)
            store.acknowledge(ids: accepted.filter(ids.contains), droppedReported: dropped)
            finish(.succeeded)
            return .uploaded(accepted: accepted.count, remaining: store.entries.count)
        } catch {
            finish(.failed)
            return .failed(UploadFailure(.invalidAnswer, LogSanitizer.redact(error.description)))
        }
    }

    private func finish(_ outcome: UploadSchedule.Outcome) {
        let at = now()
        schedule.withLock { $0.0.finish(outcome, now: at, using: &$0.1) }
    }

    static func acceptedIDs(_ response: [UInt8]) throws(PinKitError) -> [String] {
        let value = try JSONParser.parse(response)
        guard case .array(let items)? = value["accepted"] else {
            throw PinKitError(.invalidDocument, "the reporting server's answer has no \"accepted\" array")
        }
        return items.compactMap { item -> String? in
            if case .string(let id) = item { return id } else { return nil }
        }
    }
}
