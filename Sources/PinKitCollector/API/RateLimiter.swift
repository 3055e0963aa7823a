public import Foundation
import PinKit

/// Token buckets keyed by installation or client address, in memory only (an address is
/// never written anywhere). Each node limits on its own: N nodes admit up to N times the rate.
public final class RateLimiter: Sendable {
    public struct Rule: Sendable, Hashable {
        /// Requests allowed in a burst.
        public var burst: Double
        /// Requests per second refilled.
        public var perSecond: Double
        public init(burst: Double, perSecond: Double) {
            self.burst = burst
            self.perSecond = perSecond
        }
    }

    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    public let rule: Rule
    /// Buckets kept at most; beyond that the fullest (idle) ones are forgotten.
    public let maximumKeys: Int
    private let buckets: Locked<[String: Bucket]>

    public init(_ rule: Rule, maximumKeys: Int = 100_000) {
        self.rule = rule
        self.maximumKeys = maximumKeys
        self.buckets = Locked([:])
    }

    /// Takes one token for `key`. - Returns: nil when allowed, else the seconds until a token is back.
    public func take(_ key: String, now: Date) -> Int? {
        buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: rule.burst, updated: now)
            let elapsed = max(0, now.timeIntervalSince(bucket.updated))
            bucket.tokens = min(rule.burst, bucket.tokens + elapsed * rule.perSecond)
            bucket.updated = now
            defer {
                buckets[key] = bucket
                if buckets.count > maximumKeys { evict(&buckets, now: now) }
            }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            guard rule.perSecond > 0 else { return 3600 }
            return max(1, Int(((1 - bucket.tokens) / rule.perSecond).rounded(.up)))
        }
    }

    private func evict(_ buckets: inout [String: Bucket], now: Date) {
        // A bucket that has refilled to full carries no information: drop those first.
        let full = buckets.filter {
            min(rule.burst, $0.value.tokens + now.timeIntervalSince($0.value.updated) * rule.perSecond) >= rule.burst
        }
        for key in full.keys { buckets[key] = nil }
        while buckets.count > maximumKeys, let key = buckets.keys.first { buckets[key] = nil }
    }
}
