import Foundation
import PinKit
import PinKitTestSupport
import Testing

private let start = Date(timeIntervalSince1970: 1_800_000_000)

@Suite("Kill-switch fetch schedule")
struct KillSwitchFetchScheduleTests {
    @Test("conditional fetch: the ETag goes out as If-None-Match, and a 304 changes only the freshness")
    func conditional() {
        var generator = SplitMix64(seed: 1)
        var schedule = KillSwitchFetchSchedule()
        #expect(schedule.launch(now: start, using: &generator) == .fetch(ifNoneMatch: nil))
        schedule.answered(
            status: 200, etag: "\"v1\"", cacheControl: "public, max-age=3600", now: start, using: &generator)
        #expect(schedule.etag == "\"v1\"")
        #expect(schedule.lifetime == 3600)
        let next = try! #require(schedule.nextFetch)
        #expect(next > start.addingTimeInterval(0.75 * 3600 - 1) && next <= start.addingTimeInterval(3600))
        #expect(schedule.poll(now: next.addingTimeInterval(-1)) == .wait(until: next))
        #expect(schedule.poll(now: next) == .fetch(ifNoneMatch: "\"v1\""))
        #expect(schedule.poll(now: next) == .inFlight, "at most one fetch in flight")
        schedule.answered(status: 304, etag: nil, cacheControl: "max-age=7200", now: next, using: &generator)
        #expect(schedule.etag == "\"v1\"", "a 304 keeps the validator")
        #expect(schedule.fetchedAt == next)
        #expect(schedule.lifetime == 7200)
    }

    @Test("at launch a fresh cached answer is not refetched; a stale one is", arguments: [600.0, 3599, 3600, 90_000])
    func launch(age: TimeInterval) {
        var generator = SplitMix64(seed: 2)
        var schedule = KillSwitchFetchSchedule()
        _ = schedule.launch(now: start, using: &generator)
        schedule.answered(status: 200, etag: "\"a\"", cacheControl: "max-age=3600", now: start, using: &generator)
        let decision = schedule.launch(now: start.addingTimeInterval(age), using: &generator)
        if age < 3600 {
            guard case .wait(let until) = decision else {
                Issue.record("fresh for \(age) s, yet \(decision)")
                return
            }
            #expect(until <= start.addingTimeInterval(3600))
        } else {
            #expect(decision == .fetch(ifNoneMatch: "\"a\""))
        }
    }

    @Test(
        "max-age is clamped: a CDN's 60 s does not make devices poll every minute",
        arguments: [("max-age=60", 900.0), ("max-age=999999999", 86_400), ("no-cache", 900), ("max-age=abc", 900)])
    func clamp(header: String, lifetime: TimeInterval) {
        var generator = SplitMix64(seed: 3)
        var schedule = KillSwitchFetchSchedule()
        schedule.answered(status: 200, etag: nil, cacheControl: header, now: start, using: &generator)
        #expect(schedule.lifetime == lifetime)
    }

    @Test("a failed fetch keeps the validator and the document's age, and retries no faster than the base")
    func failure() {
        var generator = SplitMix64(seed: 4)
        var schedule = KillSwitchFetchSchedule()
        schedule.answered(status: 200, etag: "\"x\"", cacheControl: "max-age=3600", now: start, using: &generator)
        var now = start.addingTimeInterval(3600)
        var delays: [TimeInterval] = []
        for _ in 0..<10 {
            #expect(schedule.poll(now: now) == .fetch(ifNoneMatch: "\"x\""))
            schedule.failed(now: now, using: &generator)
            let next = try! #require(schedule.nextFetch)
            delays.append(next.timeIntervalSince(now))
            now = next
        }
        #expect(schedule.etag == "\"x\"" && schedule.fetchedAt == start)
        #expect(delays.allSatisfy { $0 >= 300 && $0 <= 3600 }, "\(delays)")
        #expect(delays.last! >= 1800, "capped near the freshness, not at the base: \(delays)")
    }

    @Test("a pin failure refetches at once, at most once per interval")
    func pinFailure() {
        var generator = SplitMix64(seed: 5)
        var schedule = KillSwitchFetchSchedule()
        schedule.answered(status: 200, etag: "\"e\"", cacheControl: "max-age=3600", now: start, using: &generator)
        #expect(schedule.pinFailure(now: start.addingTimeInterval(10)) == .fetch(ifNoneMatch: "\"e\""))
        schedule.answered(
            status: 304, etag: nil, cacheControl: "max-age=3600", now: start.addingTimeInterval(11), using: &generator)
        #expect(schedule.pinFailure(now: start.addingTimeInterval(60)) == .wait(until: start.addingTimeInterval(310)))
        #expect(schedule.pinFailure(now: start.addingTimeInterval(310)) == .fetch(ifNoneMatch: "\"e\""))
    }

    @Test("devices launched together: without jitter they all refresh at one instant, with it they spread")
    func herd() {
        func refreshTimes(_ jitter: Jitter) -> Set<Date> {
            var settings = KillSwitchFetchSchedule.Settings()
            settings.jitter = jitter
            return Set(
                (0..<1000).map { device in
                    var generator = SplitMix64(seed: UInt64(device))
                    var schedule = KillSwitchFetchSchedule(settings: settings)
                    _ = schedule.launch(now: start, using: &generator)
                    schedule.answered(
                        status: 200, etag: "t", cacheControl: "max-age=3600", now: start, using: &generator)
                    return schedule.nextFetch!
                })
        }
        #expect(refreshTimes(.disabledForHerdDemonstration).count == 1, "the herd: one instant for every device")
        let spread = refreshTimes(.full)
        #expect(spread.count == 1000)
        let span = spread.max()!.timeIntervalSince(spread.min()!)
        #expect(span > 0.9 * 0.25 * 3600, "spread over the jitter band: \(span) s")
    }

    @Test("the validator survives a restart; an unreadable file gives an unconditional fetch")
    func persistence() throws {
        var generator = SplitMix64(seed: 6)
        var schedule = KillSwitchFetchSchedule()
        schedule.answered(status: 200, etag: "\"p\"", cacheControl: "max-age=7200", now: start, using: &generator)
        let restored = KillSwitchFetchSchedule(json: try JSONParser.parse(Array(schedule.json.serialized().utf8)))
        #expect(restored.etag == "\"p\"" && restored.fetchedAt == start && restored.lifetime == 7200)
        for garbage in ["[]", #"{"etag": 5}"#, #"{"etag": "\"p\"", "fetchedAt": "yesterday"}"#] {
            var broken = KillSwitchFetchSchedule(json: try JSONParser.parse(Array(garbage.utf8)))
            #expect(broken.etag == nil)
            #expect(broken.launch(now: start, using: &generator) == .fetch(ifNoneMatch: nil))
        }
    }
}

@Suite("Upload schedule")
struct UploadScheduleTests {
    @Test("full jitter: each retry is drawn in 0…min(maximum, base·2ⁿ⁻¹); disabled, it is the ceiling itself")
    func fullJitter() {
        var settings = UploadSchedule.Settings()
        settings.base = 30
        settings.maximum = 600
        var generator = SplitMix64(seed: 9)
        let ceilings: [TimeInterval] = [30, 60, 120, 240, 480, 600, 600]
        var samples: [[TimeInterval]] = Array(repeating: [], count: ceilings.count)
        for _ in 0..<200 {
            var schedule = UploadSchedule(settings: settings)
            var now = start
            for index in ceilings.indices {
                #expect(schedule.begin(now: now) == .start)
                schedule.finish(.failed, now: now, using: &generator)
                let next = schedule.notBefore!
                samples[index].append(next.timeIntervalSince(now))
                now = next
            }
        }
        for (index, ceiling) in ceilings.enumerated() {
            #expect(samples[index].allSatisfy { $0 >= 0 && $0 <= ceiling })
            #expect(samples[index].min()! < 0.1 * ceiling && samples[index].max()! > 0.9 * ceiling)
        }
        settings.jitter = .disabledForHerdDemonstration
        var fixed = UploadSchedule(settings: settings)
        var delays: [TimeInterval] = []
        var now = start
        for _ in ceilings {
            #expect(fixed.begin(now: now) == .start)
            fixed.finish(.failed, now: now, using: &generator)
            delays.append(fixed.notBefore!.timeIntervalSince(now))
            now = fixed.notBefore!
        }
        #expect(delays == ceilings)
    }

    @Test("a 429 or 503 Retry-After is honoured, with a jittered wait on top: the backoff window or the asked delay")
    func retryAfter() {
        var generator = SplitMix64(seed: 10)
        var short = UploadSchedule()
        _ = short.begin(now: start)
        short.finish(.throttled(retryAfter: 10), now: start, using: &generator)
        let soon = short.notBefore!.timeIntervalSince(start)
        #expect(soon >= 10 && soon <= 10 + 30, "a short Retry-After: the first backoff window on top")
        var schedule = UploadSchedule()
        _ = schedule.begin(now: start)
        schedule.finish(.throttled(retryAfter: 600), now: start, using: &generator)
        let notBefore = schedule.notBefore!
        #expect(notBefore >= start.addingTimeInterval(600) && notBefore <= start.addingTimeInterval(1200))
        #expect(schedule.begin(now: start.addingTimeInterval(599)) == .notDue(until: notBefore))
        #expect(schedule.begin(now: notBefore) == .start)
        schedule.finish(.succeeded, now: notBefore, using: &generator)
        #expect(schedule.isDue(at: notBefore) && schedule.consecutiveFailures == 0)
    }

    @Test("at most one upload in flight")
    func inFlight() {
        var generator = SplitMix64(seed: 11)
        var schedule = UploadSchedule()
        #expect(schedule.begin(now: start) == .start)
        #expect(schedule.begin(now: start) == .inFlight)
        schedule.finish(.succeeded, now: start, using: &generator)
        #expect(schedule.begin(now: start) == .start)
    }

    @Test("the daily cap on new reports: refused beyond it, open again a day later")
    func dailyCap() {
        var settings = UploadSchedule.Settings()
        settings.dailyNewReportCap = 3
        var schedule = UploadSchedule(settings: settings)
        let admitted = (0..<5).map { schedule.admitNewReport(now: start.addingTimeInterval(Double($0) * 60)) }
        #expect(admitted == [true, true, true, false, false])
        #expect(schedule.suppressedByCap == 2)
        let beforeADay = schedule.admitNewReport(now: start.addingTimeInterval(86_399))
        let aDayLater = schedule.admitNewReport(now: start.addingTimeInterval(86_400))
        #expect(!beforeADay && aDayLater)
    }

    @Test(
        "Retry-After: delay-seconds, an HTTP date, garbage",
        arguments: [
            ("120", 120.0), ("  7 ", 7), ("soon", nil), ("-5", nil),
            ("99999999999", 86_400), ("", nil),
        ] as [(String, TimeInterval?)])
    func retryAfterHeader(header: String, expected: TimeInterval?) {
        #expect(RetryAfter.delay(header, now: start) == expected)
    }

    @Test("Retry-After as an HTTP date is the time left until it")
    func retryAfterDate() {
        let now = RFC3339.parse("2027-01-15T08:00:00Z")!
        #expect(RetryAfter.delay("Fri, 15 Jan 2027 08:00:10 GMT", now: now) == 10)
        #expect(RetryAfter.delay("Fri, 15 Jan 2027 07:00:00 GMT", now: now) == 0)
        // RFC 9110's own example of an IMF-fixdate, written back in the same form.
        #expect(RetryAfter.httpDate(Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}

@Suite("Reporter scheduling")
struct ReporterSchedulingTests {
    @Test("the daily cap stops new reports, duplicates still raise counts; without a cap every report is queued")
    func cap() throws {
        for cap in [1000, 2] {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            var settings = UploadSchedule.Settings()
            settings.dailyNewReportCap = cap
            let store = try PinFailureReportStore(directory: directory.path)
            let reporter = PinFailureReporter(
                store: store, appVersion: "1.0.0", schedule: settings, generator: SplitMix64(seed: 1),
                now: { Fixture.now })
            for index in 0..<5 { reporter.record(failureEvent(host: "h\(index).example.com")) }
            for _ in 0..<3 { reporter.record(failureEvent(host: "h0.example.com")) }
            #expect(store.entries.count == min(cap, 5))
            #expect(store.entries.first { $0.report.event.hostname == "h0.example.com" }?.count == 4)
            #expect(reporter.scheduleState.suppressedByCap == (cap == 2 ? 3 : 0))
        }
    }

    @Test("a 429 with Retry-After holds the next upload back; a second upload while one runs is refused")
    func throttledAndInFlight() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = TestClock(Fixture.now)
        let store = try PinFailureReportStore(directory: directory.path)
        let reporter = PinFailureReporter(
            store: store, appVersion: "1.0.0", generator: SplitMix64(seed: 2), now: { clock.now })
        reporter.record(failureEvent())
        let throttled = await reporter.connectionSucceeded { _ in
            throw UploadThrottled(status: 429, retryAfter: 900)
        }
        guard case .failed = throttled else {
            Issue.record("expected a failure, got \(throttled)")
            return
        }
        clock.advance(by: 899)
        guard case .notDue(let until) = await reporter.connectionSucceeded(send: { _ in [] }) else {
            Issue.record("Retry-After not honoured")
            return
        }
        #expect(until >= Fixture.now.addingTimeInterval(900))
        clock.advance(by: until.timeIntervalSince(clock.now))
        let gate = Gate()
        let first = Task {
            await reporter.connectionSucceeded { body in
                await gate.wait()
                return Array(#"{"accepted": []}"#.utf8)
            }
        }
        await gate.waitUntilWaiting()
        #expect(await reporter.connectionSucceeded(send: { _ in [] }) == .inFlight)
        await gate.open()
        guard case .uploaded = await first.value else {
            Issue.record("the first upload did not finish")
            return
        }
    }
}

/// Holds one async call until the test opens it.
private actor Gate {
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var watchers: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { continuation in
            waiters.append(continuation)
            for watcher in watchers { watcher.resume() }
            watchers.removeAll()
        }
    }

    func waitUntilWaiting() async {
        guard waiters.isEmpty else { return }
        await withCheckedContinuation { watchers.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}
