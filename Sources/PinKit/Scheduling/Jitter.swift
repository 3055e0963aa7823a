/// How a delay is spread over time so that devices failing together do not retry together.
public enum Jitter: String, Hashable, Sendable {
    /// Full jitter: a uniform draw in `0...delay` (for backoff) or in the configured band (for
    /// periodic refreshes).
    case full
    /// No jitter at all: every device that failed at the same moment retries at the same moment.
    /// > Warning: Only for showing the thundering herd in the fleet simulator.
    case disabledForHerdDemonstration = "none"

    /// A draw in `low...high` (or `high` when jitter is disabled).
    func draw(_ low: Double, _ high: Double, using generator: inout some RandomNumberGenerator) -> Double {
        guard self == .full, high > low else { return high }
        return Double.random(in: low...high, using: &generator)
    }
}
