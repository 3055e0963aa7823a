public import Foundation

/// When a device may upload (reports, audit entries, check-ins), as a value type whose
/// transitions return decisions; clock and randomness are injected.
///
/// - Exponential backoff with full jitter: after the n-th consecutive failure the next attempt
///   is drawn uniformly in `0…min(maximum, base·2ⁿ⁻¹)`, so devices that failed together during an
///   outage come back spread over the whole window instead of together.
/// - A `429` or `503` with `Retry-After` is honoured: the next attempt is never earlier than the
///   server asked, and a jittered wait is added on top so the fleet does not return in step. That
///   wait is drawn over the backoff window or over the asked delay itself, whichever is longer (at
///   most ``Settings/maximum``): a maintenance page that tells every device to come back at one
///   HTTP date sees them return spread over about as long as it held them back, not within the
///   30-second first backoff window (the fleet simulator's `maintenance` scenario measured that
///   burst at 28 times the steady rate in one second).
/// - At most one upload is in flight per client.
/// - A per-installation daily cap on *new* pin-failure reports: beyond it a new report is not
///   queued (it is counted in ``suppressedByCap``); duplicates of queued reports only raise counts,
///   so they never reach the cap.
public struct UploadSchedule: Hashable, Sendable {
    public struct Settings: Hashable, Sendable {
        public var base: TimeInterval = 30
        public var maximum: TimeInterval = 6 * 3600
        public var jitter = Jitter.full
        /// New pin-failure reports queued per installation per (rolling) day.
        public var dailyNewReportCap = 10
        /// A `Retry-After` beyond this is treated as this.
        public var maximumRetryAfter: TimeInterval = 24 * 3600

        public init() {}
    }

    public enum Decision: Hashable, Sendable {
        case start
        case notDue(until: Date)
        case inFlight
    }

    public enum Outcome: Hashable, Sendable {
        case succeeded
        case failed
        /// `429` or `503`, with the `Retry-After` delay when the server gave one.
        case throttled(retryAfter: TimeInterval?)
    }

    public var settings: Settings
    public private(set) var consecutiveFailures = 0
    public private(set) var notBefore: Date?
    public private(set) var isInFlight = false
    /// Start of the current cap window and the new reports admitted in it.
    public private(set) var capWindowStart: Date?
    public private(set) var newReportsInWindow = 0
    /// New reports refused by the daily cap since this schedule was created.
    public private(set) var suppressedByCap = 0

    public init(settings: Settings = Settings()) { self.settings = settings }

    public func isDue(at now: Date) -> Bool { !isInFlight && (notBefore.map { now >= $0 } ?? true) }

    /// Asks to start an upload; `.start` marks it in flight until ``finish(_:now:using:)``.
    public mutating func begin(now: Date) -> Decision {
        guard !isInFlight else { return .inFlight }
        if let notBefore, now < notBefore { return .notDue(until: notBefore) }
        isInFlight = true
        return .start
    }

    /// Records the outcome of the upload in flight and schedules the next attempt.
    public mutating func finish(_ outcome: Outcome, now: Date, using generator: inout some RandomNumberGenerator) {
        isInFlight = false
        switch outcome {
        case .succeeded:
            consecutiveFailures = 0
            notBefore = nil
        case .failed:
            consecutiveFailures += 1
            notBefore = now.addingTimeInterval(backoffDelay(using: &generator))
        case .throttled(let retryAfter):
            consecutiveFailures += 1
            let asked = min(settings.maximumRetryAfter, max(0, retryAfter ?? 0))
            // Without jitter this is the textbook client: exactly what was asked plus the backoff step.
            let window = settings.jitter == .full ? max(backoffCeiling, min(settings.maximum, asked)) : backoffCeiling
            notBefore = now.addingTimeInterval(asked + settings.jitter.draw(0, window, using: &generator))
        }
    }

    /// The full-jitter draw for the current failure count (its upper bound with jitter disabled).
    public func backoffDelay(using generator: inout some RandomNumberGenerator) -> TimeInterval {
        settings.jitter.draw(0, backoffCeiling, using: &generator)
    }

    /// `min(maximum, base·2ⁿ⁻¹)` after n consecutive failures; 0 before any.
    var backoffCeiling: TimeInterval {
        guard consecutiveFailures > 0 else { return 0 }
        let exponent = Double(min(consecutiveFailures - 1, 40))
        return min(settings.maximum, settings.base * pow(2, exponent))
    }

    /// Whether a *new* pin-failure report may be queued now (and counts it when so). Call it only
    /// for a report that is not a duplicate of a queued one.
    public mutating func admitNewReport(now: Date) -> Bool {
        if let start = capWindowStart, start <= now, now.timeIntervalSince(start) < 86_400 {
            guard newReportsInWindow < settings.dailyNewReportCap else {
                suppressedByCap += 1
                return false
            }
        } else {
            capWindowStart = now
            newReportsInWindow = 0
        }
        newReportsInWindow += 1
        return true
    }
}
