import Synchronization

/// The bytes of response bodies a client holds for transfers still running, across all of its
/// connections and HTTP/2 streams. The per-response cap alone multiplies: 100 streams on one
/// HTTP/2 connection times 10 MiB is a gigabyte. Shared by the client's sessions (a replaced
/// session's transfers finish on its own thread), hence atomics.
final class ResponseBudget: Sendable {
    let limit: Int
    private let held = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }

    /// Takes `count` bytes from the budget; false (and nothing taken) when that would pass the limit.
    func reserve(_ count: Int) -> Bool {
        var current = held.load(ordering: .relaxed)
        while true {
            guard current + count <= limit else { return false }
            let (exchanged, original) = held.compareExchange(
                expected: current, desired: current + count, ordering: .relaxed)
            if exchanged {
                peak.max(current + count, ordering: .relaxed)
                return true
            }
            current = original
        }
    }

    /// Gives back what a finished transfer held.
    func release(_ count: Int) { held.subtract(count, ordering: .relaxed) }

    /// The most the client ever held at once (tests).
    var peakBytes: Int { peak.load(ordering: .relaxed) }
}
