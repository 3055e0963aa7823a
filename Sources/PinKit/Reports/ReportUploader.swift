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
    private let backoff: Locked<UploadBackoff>
    private let now: @Sendable () -> Date

    public init(
        store: PinFailureReportStore,
        appVersion: String,
        backoff: UploadBackoff = UploadBackoff(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.appVersion = appVersion
        self.backoff = Locked(backoff)
        self.now = now
    }

    /// Stores a failure (the transport observer's pin-failure hook).
    public func record(_ event: PinFailureEvent) {
        store.record(PinFailureReport(event: event, appVersion: appVersion))
    }

    public var backoffState: UploadBackoff { backoff.withLock { $0 } }

    public enum UploadOutcome: Equatable, Sendable {
        case nothingToSend
        case notDue(until: Date)
        case uploaded(accepted: Int, remaining: Int)
        case failed(String)
    }

    /// Call after a successful pinned connection: uploads when anything is stored and the
    /// back-off allows it.
    @discardableResult
    public func connectionSucceeded(send: Send) async -> UploadOutcome {
        let current = now()
        let state = backoff.withLock { $0 }
        guard state.isDue(at: current) else { return .notDue(until: state.notBefore ?? current) }
        let (body, ids, dropped) = store.uploadDocument()
        guard !ids.isEmpty || dropped > 0 else { return .nothingToSend }
        do {
            let response = try await send(body)
            let accepted = try Self.acceptedIDs(response)
            store.acknowledge(ids: accepted.filter(ids.contains), droppedReported: dropped)
            backoff.withLock { $0.succeeded() }
            return .uploaded(accepted: accepted.count, remaining: store.entries.count)
        } catch {
            backoff.withLock { $0.failed(at: current) }
            return .failed(LogSanitizer.redact(String(describing: error)))
        }
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
