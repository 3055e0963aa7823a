public import Foundation

/// When a device fetches the kill-switch document, as a value type whose transitions return
/// decisions: no clock, no network and no randomness of its own (all injected), so a test or
/// the fleet simulator drives it in virtual time.
///
/// - A fetch is conditional: it sends the stored `ETag` as `If-None-Match`; a `304` only renews
///   the freshness of what the device already has (the document and pinning stay as they are).
/// - Freshness is the server's `Cache-Control: max-age`, clamped to
///   ``Settings/minimumInterval``…``Settings/maximumInterval`` (a 60-second max-age meant for a
///   CDN must not make a million devices poll every minute).
/// - At launch it fetches only when the cached answer is older than its freshness; otherwise it
///   waits for the periodic refresh, which is drawn in a jitter band below the freshness so that
///   devices launched together spread out.
/// - A failed fetch changes nothing but the time of the next try: the first retry is drawn in
///   1…2 × ``Settings/failureBase``, each further one in a window twice as long, up to 0.5…1 × the
///   freshness; a failure never makes the device poll faster than ``Settings/failureBase``.
/// - A pin failure asks for an immediate refetch (an operator's "off" then reaches a failing fleet
///   in one round trip), at most once per ``Settings/pinFailureRefetchInterval``.
/// - At most one fetch is in flight.
public struct KillSwitchFetchSchedule: Hashable, Sendable {
    public struct Settings: Hashable, Sendable {
        /// Freshness when the server sends no usable max-age, and the floor of one it sends.
        public var minimumInterval: TimeInterval = 15 * 60
        /// The ceiling of a max-age.
        public var maximumInterval: TimeInterval = 24 * 3600
        /// The periodic refresh is drawn in `(1 - jitterBand)…1` times the freshness.
        public var jitterBand = 0.25
        public var jitter = Jitter.full
        /// The earliest retry after a failed fetch; the retry window doubles per consecutive failure
        /// up to the freshness.
        public var failureBase: TimeInterval = 300
        public var pinFailureRefetchInterval: TimeInterval = 5 * 60

        public init() {}
    }

    public enum Decision: Hashable, Sendable {
        /// Fetch now, conditionally when a tag is given.
        case fetch(ifNoneMatch: String?)
        /// Nothing to do before this time.
        case wait(until: Date)
        /// A fetch is already running; its outcome schedules the next one.
        case inFlight
    }

    public var settings: Settings
    /// The validator of the document the device holds.
    public private(set) var etag: String?
    /// When the server last answered 200 or 304.
    public private(set) var fetchedAt: Date?
    /// The freshness the server gave with that answer (already clamped).
    public private(set) var freshness: TimeInterval?
    public private(set) var nextFetch: Date?
    public private(set) var consecutiveFailures = 0
    public private(set) var isInFlight = false
    public private(set) var lastPinFailureRefetch: Date?

    public init(settings: Settings = Settings()) { self.settings = settings }

    /// The freshness in force: the server's max-age, else the minimum interval.
    public var lifetime: TimeInterval { freshness ?? settings.minimumInterval }

    /// At app launch: fetch only when the cached answer is missing or stale; never blocks.
    public mutating func launch(now: Date, using generator: inout some RandomNumberGenerator) -> Decision {
        isInFlight = false  // nothing survives a process restart
        guard let fetchedAt, fetchedAt <= now, now.timeIntervalSince(fetchedAt) < lifetime else {
            return begin()
        }
        let draw = settings.jitter.draw(1 - settings.jitterBand, 1, using: &generator)
        nextFetch = max(now, fetchedAt.addingTimeInterval(lifetime * draw))
        return .wait(until: nextFetch ?? now)
    }

    /// The periodic check: fetch when due.
    public mutating func poll(now: Date) -> Decision {
        guard !isInFlight else { return .inFlight }
        if let nextFetch, now < nextFetch { return .wait(until: nextFetch) }
        return begin()
    }

    /// A pinned connection failed pinning: refetch at once unless one ran recently.
    public mutating func pinFailure(now: Date) -> Decision {
        guard !isInFlight else { return .inFlight }
        if let last = lastPinFailureRefetch, last <= now,
            now.timeIntervalSince(last) < settings.pinFailureRefetchInterval
        {
            return .wait(until: last.addingTimeInterval(settings.pinFailureRefetchInterval))
        }
        lastPinFailureRefetch = now
        return begin()
    }

    /// The server answered 200 (a document, with `etag`) or 304 (nothing changed).
    public mutating func answered(
        status: Int, etag: String?, cacheControl: String?, now: Date, using generator: inout some RandomNumberGenerator
    ) {
        isInFlight = false
        consecutiveFailures = 0
        if status != 304 { self.etag = etag }
        fetchedAt = now
        freshness = Self.maxAge(cacheControl).map {
            min(settings.maximumInterval, max(settings.minimumInterval, $0))
        }
        let draw = settings.jitter.draw(1 - settings.jitterBand, 1, using: &generator)
        nextFetch = now.addingTimeInterval(lifetime * draw)
    }

    /// The fetch failed (network, TLS, status, garbage): only the time of the next try changes.
    public mutating func failed(now: Date, using generator: inout some RandomNumberGenerator) {
        isInFlight = false
        consecutiveFailures += 1
        let exponent = Double(min(consecutiveFailures - 1, 40))
        // The window starts at twice the base so that its lower half never falls under the floor:
        // with the window at the base, the floor made every first retry exactly failureBase, and
        // devices that failed together (shed in one second by an overloaded collector) retried
        // together (HerdTests).
        let window = min(lifetime, 2 * settings.failureBase * pow(2, exponent))
        let draw = settings.jitter.draw(0.5, 1, using: &generator)
        nextFetch = now.addingTimeInterval(max(settings.failureBase, window * draw))
    }

    /// Forgets the validator, so the next fetch is unconditional (e.g. the stored document was lost).
    public mutating func forgetValidator() {
        etag = nil
        fetchedAt = nil
    }

    private mutating func begin() -> Decision {
        isInFlight = true
        return .fetch(ifNoneMatch: etag)
    }

    /// The `max-age` directive of a `Cache-Control` header, in seconds; nil when absent or unreadable.
    public static func maxAge(_ cacheControl: String?) -> TimeInterval? {
        guard let cacheControl else { return nil }
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            if parts.first == "no-store" || parts.first == "no-cache" { return 0 }
            guard parts.count == 2, parts[0] == "max-age" else { continue }
            let digits = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            guard !digits.isEmpty, digits.count <= 10, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                let seconds = Double(digits)
            else { return nil }
            return seconds
        }
        return nil
    }

    // MARK: Persistence

    /// What survives a restart: the validator, when it was fetched, and its freshness.
    public var json: JSONValue {
        [
            "etag": etag.map(JSONValue.string) ?? .null,
            "fetchedAt": fetchedAt.map { .string(RFC3339.format($0)) } ?? .null,
            "freshness": freshness.map { .int(Int64($0)) } ?? .null,
        ]
    }

    /// Restores a persisted schedule; anything unreadable gives a fresh one (the next fetch is
    /// then unconditional, which is always safe).
    public init(json value: JSONValue?, settings: Settings = Settings()) {
        self.settings = settings
        if case .string(let tag)? = value?["etag"], tag.utf8.count <= 256 { etag = tag }
        if case .string(let text)? = value?["fetchedAt"], let date = RFC3339.parse(text) { fetchedAt = date }
        if case .number(let text)? = value?["freshness"], let seconds = Double(text), seconds >= 0 {
            freshness = min(settings.maximumInterval, max(settings.minimumInterval, seconds))
        }
        if etag == nil || fetchedAt == nil { forgetValidator() }
    }
}
