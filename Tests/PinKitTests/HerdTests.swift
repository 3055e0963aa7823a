import Foundation
import PinKit
import Testing

private let start = Date(timeIntervalSince1970: 1_800_000_000)

/// A small fleet in virtual time against a collector that takes `capacity` requests per second
/// and sheds the rest with 503 + the same `Retry-After` for everyone (the fleet simulator's
/// `--capacity`). Without jitter the shed devices come back in the same second, are shed again and
/// stay a herd; with jitter they spread and drain.
@Suite("Herd under a capacity limit")
struct HerdTests {
    struct Outcome {
        /// The busiest second after the first one (the initial burst is given, not caused).
        var busiestSecond = 0
        /// Requests shed after the first second.
        var shed = 0
        /// Seconds until every device got through (nil: not within the horizon).
        var drainedAfter: Int?
    }

    static let devices = 1000
    static let capacity = 50
    static let retryAfter = 30.0
    static let horizon = 6 * 3600

    /// Every device sends at second 0; the collector takes `capacity` per second and sheds the rest.
    /// `send` starts device `d`'s request (checking its schedule wants it), `accepted` records a
    /// success, `shed` records the 503 and returns when the device's schedule lets it try again.
    static func run(
        send: (Int, Date) -> Void, accepted: (Int, Date) -> Void, shed: (Int, Date) -> Date
    ) -> Outcome {
        var due = [[Int]](repeating: [], count: horizon + 1)
        due[0] = Array(0..<devices)
        var outcome = Outcome()
        var remaining = devices
        for second in 0..<horizon where !due[second].isEmpty {
            if second > 0 { outcome.busiestSecond = max(outcome.busiestSecond, due[second].count) }
            let now = start.addingTimeInterval(Double(second))
            for (position, device) in due[second].enumerated() {
                send(device, now)
                if position < capacity {
                    accepted(device, now)
                    remaining -= 1
                    continue
                }
                if second > 0 { outcome.shed += 1 }
                let next = Int(shed(device, now).timeIntervalSince(start).rounded(.up))
                if next <= horizon { due[next].append(device) }
            }
            if remaining == 0 {
                outcome.drainedAfter = second
                break
            }
        }
        return outcome
    }

    /// Devices run the library's `UploadSchedule` (429/503 with Retry-After) with `jitter`.
    static func uploads(_ jitter: Jitter) -> Outcome {
        var settings = UploadSchedule.Settings()
        settings.jitter = jitter
        var schedules = [UploadSchedule](repeating: UploadSchedule(settings: settings), count: devices)
        var generators = (0..<devices).map { SplitMix64(seed: UInt64($0) &+ 77) }
        return run(
            send: { device, now in #expect(schedules[device].begin(now: now) == .start) },
            accepted: { device, now in schedules[device].finish(.succeeded, now: now, using: &generators[device]) },
            shed: { device, now in
                schedules[device].finish(.throttled(retryAfter: retryAfter), now: now, using: &generators[device])
                return schedules[device].notBefore!
            })
    }

    @Test("uploads shed together: without jitter the herd returns as one, with jitter it spreads and drains")
    func uploadHerd() {
        let herd = Self.uploads(.disabledForHerdDemonstration)
        // The attack: everyone is told "30 s" at once and, without jitter, comes back in one second.
        #expect(herd.busiestSecond >= Self.devices - Self.capacity, "the whole herd returns together")
        #expect(herd.shed >= 10 * Self.capacity, "and is shed again, round after round")
        #expect(herd.drainedAfter.map { $0 > 3600 } ?? true, "it takes hours: \(String(describing: herd.drainedAfter))")
        let spread = Self.uploads(.full)
        #expect(spread.busiestSecond <= Self.capacity, "no second after the first exceeds the capacity")
        #expect(spread.shed == 0)
        #expect(
            spread.drainedAfter.map { $0 <= Int(Self.retryAfter) + 30 } ?? false, "drained within Retry-After + base")
    }

    /// The same for kill-switch fetches, whose schedule takes no Retry-After: a shed fetch is a failure.
    static func fetches(_ jitter: Jitter) -> Outcome {
        var settings = KillSwitchFetchSchedule.Settings()
        settings.jitter = jitter
        var schedules = [KillSwitchFetchSchedule](
            repeating: KillSwitchFetchSchedule(settings: settings), count: devices)
        var generators = (0..<devices).map { SplitMix64(seed: UInt64($0) &+ 99) }
        return run(
            send: { device, now in #expect(schedules[device].poll(now: now) == .fetch(ifNoneMatch: nil)) },
            accepted: { device, now in
                schedules[device].answered(
                    status: 200, etag: "\"v\"", cacheControl: "max-age=3600", now: now, using: &generators[device])
            },
            shed: { device, now in
                schedules[device].failed(now: now, using: &generators[device])
                return schedules[device].nextFetch!
            })
    }

    @Test("kill-switch fetches shed together: without jitter they retry in one second, with jitter they spread")
    func fetchHerd() {
        let herd = Self.fetches(.disabledForHerdDemonstration)
        #expect(herd.busiestSecond >= Self.devices - Self.capacity)
        #expect(herd.shed >= 10 * Self.capacity)
        let spread = Self.fetches(.full)
        // 950 retries drawn over 300…600 s: about 3 a second; 20 is far from a herd.
        #expect(spread.busiestSecond <= 20, "\(spread.busiestSecond)")
        #expect(spread.shed == 0)
        #expect(spread.drainedAfter.map { $0 <= 600 } ?? false)
    }
}

/// Planned maintenance: every device that tries during the window is answered 503 with the
/// window's end as an HTTP `Retry-After` date, so every one of them is told the same instant.
@Suite("Herd at a shared Retry-After date")
struct SharedRetryAfterDateTests {
    static let window = 6 * 3600.0

    /// The busiest second after the window's end, for 1,000 devices that each tried once during it.
    static func busiestSecondAfterEnd(_ jitter: Jitter) -> (busiest: Int, spreadSeconds: Double) {
        var settings = UploadSchedule.Settings()
        settings.jitter = jitter
        var generator = SplitMix64(seed: 2026)
        var counts: [Int: Int] = [:]
        var latest = 0.0
        for device in 0..<1000 {
            // Devices try at their own times during the window (their first failure).
            let tried = window * Double(device) / 1000
            var schedule = UploadSchedule(settings: settings)
            let now = start.addingTimeInterval(tried)
            #expect(schedule.begin(now: now) == .start)
            let end = start.addingTimeInterval(window)
            let header = RetryAfter.httpDate(end)
            schedule.finish(.throttled(retryAfter: RetryAfter.delay(header, now: now)), now: now, using: &generator)
            let back = schedule.notBefore!.timeIntervalSince(end)
            #expect(back >= 0, "never before the date the server gave")
            counts[Int(back), default: 0] += 1
            latest = max(latest, back)
        }
        return (counts.values.max() ?? 0, latest)
    }

    @Test("without jitter the whole fleet returns in one second; with it, spread over about the time it waited")
    func sharedDate() {
        let herd = Self.busiestSecondAfterEnd(.disabledForHerdDemonstration)
        // No jitter: back at the date plus the first backoff step, every device in the same second.
        #expect(herd.busiest == 1000, "the herd: \(herd)")
        let spread = Self.busiestSecondAfterEnd(.full)
        // Drawn only over the 30-second first backoff window, 1,000 devices would give ~33 a second;
        // over the delay each one was asked to wait, they come back over hours.
        #expect(spread.busiest <= 10, "busiest second \(spread.busiest)")
        #expect(spread.spreadSeconds > 3600 && spread.spreadSeconds <= Self.window, "spread \(spread.spreadSeconds) s")
    }
}
