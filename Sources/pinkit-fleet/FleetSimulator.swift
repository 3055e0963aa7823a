import Foundation
import PinKit
import PinKitOpenSSL
import PinKitTransport

/// Runs one scenario: N devices as the library's schedule state machines in virtual time, one in
/// `liveEvery` of them sending its requests for real to the collector, the rest answered by a
/// model of the same collector (up or down, current document).
final class FleetSimulator {
    struct Options {
        var devices = 1_000_000
        var liveEvery = 1000
        var jitter = Jitter.full
        var seed: UInt64 = 1
        var tick = 60.0
        var binSeconds = 300.0
        /// The fleet's configured refresh interval (the floor under the collector's 60 s max-age).
        var killSwitchInterval = 3600.0
        /// Mean time between a device's API connections (bad-rotation scenario).
        var connectionInterval = 2 * 3600.0
        var appVersion = "4.2.0"
        /// The collector tier's capacity, as a multiple of the fleet's design steady rate
        /// (``designSteadyRate``): what exceeds it within one virtual second is shed with `503` and
        /// `Retry-After: retryAfter`, as an overloaded tier answers. Nil: unlimited.
        var capacity: Double?
        /// The collector's own `Retry-After` on a 503 (CollectorAPI's storage-unavailable answer).
        var retryAfter = 30.0

        /// Requests per second of this fleet in a steady state at the design defaults: every
        /// device refreshes the kill switch once per 0.875 × its interval (the mean of the jitter
        /// band) and checks in daily.
        var designSteadyRate: Double {
            Double(devices) * (1 / (0.875 * killSwitchInterval) + 1 / 86_400)
        }
    }

    struct Summary {
        var steadyRequestsPerSecond = 0.0
        var peakRequestsPerSecond = 0.0
        var recoveryPeakRequestsPerSecond: Double?
        /// The busiest single second and 10-second stretch, in the steady window and after recovery.
        var steadyBusiestSecond = 0.0
        var steadyBusiest10s = 0.0
        var busiestSecond = 0.0
        var recoveryBusiestSecond: Double?
        var recoveryBusiest10s: Double?
        /// Requests shed with 503 by the capacity model, and that capacity (nil: unlimited).
        var shedRequests = 0
        var capacityPerSecond: Int?
        var acceptedRecords = 0
        var lostRecords = 0
        var queuedAtEnd = 0
        var maximumDrainAfterRecovery: Double?
        var liveRequests = 0
        var liveErrors = 0
        var liveErrorsWhileUp = 0
        var liveReportsCreated = 0
        var liveReportsAccepted = 0
        var liveCheckInsAccepted = 0
        var devicesOffAtEnd = 0
        var secondsUntilAllOff: Double?
        var wallSeconds = 0.0
    }

    let scenario: Scenario
    let options: Options
    let collector: CollectorProcess
    let transport: LiveTransport
    let base = Date(timeIntervalSince1970: 1_800_000_000)
    private(set) var series: FleetSeries
    private(set) var summary = Summary()

    private var devices: [SimulatedDevice] = []
    private var killSwitchWheel: [[Int32]]
    private var uploadWheel: [[Int32]]
    private var connectionWheel: [[Int32]]
    /// Each device's next kill-switch, upload and API-connection event, in exact virtual seconds
    /// (-1: none). A wheel slot only finds the events of its minute; each runs at its own time, so
    /// the simulation puts no one-minute grid of its own on the fleet.
    private var killSwitchAt: [Double] = []
    private var uploadAt: [Double] = []
    private var connectionAt: [Double] = []
    /// The tick being run, and the earliest time an event may be scheduled for now (the live
    /// devices' answers arrive after their tick has run, so they schedule from the next one).
    private var currentTick = 0
    private var earliest = 0.0
    /// Requests the collector tier took in each virtual second (capacity model only).
    private var admittedPerSecond: [Int32] = []
    /// In maintenance, the end of the window as a device reads it from the `Retry-After` date.
    private lazy var maintenanceEnd: Double? = {
        guard scenario.answersDuringOutage, let end = scenario.outage?.upperBound else { return nil }
        return RetryAfter.delay(RetryAfter.httpDate(date(end)), now: base)
    }()
    private var documentVersion: Int8 = 0
    private var liveTags: [Int8: String] = [:]
    private var devicesWithQueue = 0
    private var queuedRecords = 0
    private var devicesOff = 0
    private var reportEvent: PinFailureEvent
    private var liveAccepted = Set<String>()
    private var liveAcknowledged = Set<Int>()

    init(scenario: Scenario, options: Options, collector: CollectorProcess, transport: LiveTransport) throws {
        self.scenario = scenario
        self.options = options
        self.collector = collector
        self.transport = transport
        series = FleetSeries(duration: scenario.duration, binSeconds: options.binSeconds)
        let ticks = Int(scenario.duration / options.tick) + 2
        killSwitchWheel = Array(repeating: [], count: ticks)
        uploadWheel = Array(repeating: [], count: ticks)
        connectionWheel = Array(repeating: [], count: ticks)
        let served = collector.identity.chain
        reportEvent = PinFailureEvent(
            date: base, hostname: "api.fleet.test", port: 443, notedHostname: "api.fleet.test", setName: "api",
            includeSubdomains: true, effectiveExpirationDate: base.addingTimeInterval(300 * 86_400), mode: .enforce,
            servedCertificateChain: served.map(\.pem), validatedCertificateChain: served.map(\.pem),
            knownPins: [collector.pki.backupKey.spkiPin.base64], validatedChainPins: served.map(\.spkiSHA256),
            reason: "pin mismatch")
    }

    private func tickIndex(_ time: Double) -> Int { max(0, Int((time / options.tick).rounded(.down))) }
    private func seconds(_ date: Date) -> Double { date.timeIntervalSince(base) }
    private func date(_ time: Double) -> Date { base.addingTimeInterval(time) }
    private func isLive(_ device: Int) -> Bool { device % options.liveEvery == 0 }
    private func simulatedTag(_ version: Int8) -> String { "\"simulated-\(version)\"" }

    private func scheduleKillSwitch(_ device: Int, at time: Double) {
        let time = max(time, earliest)
        killSwitchAt[device] = time
        let slot = tickIndex(time)
        if slot < killSwitchWheel.count { killSwitchWheel[slot].append(Int32(device)) }
    }

    private func scheduleUpload(_ device: Int, at time: Double) {
        let time = max(time, earliest)
        uploadAt[device] = time
        let slot = tickIndex(time)
        if slot < uploadWheel.count { uploadWheel[slot].append(Int32(device)) }
    }

    private func scheduleConnection(_ device: Int, after time: Double) {
        let gap = -log(1 - devices[device].draw(0..<1)) * options.connectionInterval
        let time = max(time + gap, earliest)
        connectionAt[device] = time
        let slot = tickIndex(time)
        if slot < connectionWheel.count { connectionWheel[slot].append(Int32(device)) }
    }

    /// The devices whose event of `wheel` falls in the current tick, each once, with its time;
    /// events the handler schedules into this same tick are run too.
    private func drain(
        _ wheel: ReferenceWritableKeyPath<FleetSimulator, [[Int32]]>,
        _ times: ReferenceWritableKeyPath<FleetSimulator, [Double]>, _ handle: (Int, Double) -> Void
    ) {
        var cursor = 0
        while cursor < self[keyPath: wheel][currentTick].count {
            let index = Int(self[keyPath: wheel][currentTick][cursor])
            cursor += 1
            let time = self[keyPath: times][index]
            // Superseded by a later schedule, or already run.
            guard time >= 0, tickIndex(time) == currentTick else { continue }
            self[keyPath: times][index] = -1
            handle(index, time)
        }
        self[keyPath: wheel][currentTick] = []
    }

    /// `time` as a date, or the date a schedule asked for when the two differ only by the
    /// rounding of the seconds ↔ Date conversion (so a due event is never found "not yet due").
    private func eventDate(_ time: Double, due: Date?) -> Date {
        let date = date(time)
        guard let due, due > date, due.timeIntervalSince(date) < 0.001 else { return date }
        return due
    }

    enum Admission {
        case refused
        /// Answered 503 with this `Retry-After` (parsed by the library, as a device would).
        case shed(retryAfter: TimeInterval?)
        case taken
    }

    /// One request reaching the collector tier at `time`: counted in its second; refused while
    /// the collector is down, or answered 503 until the window's end in maintenance; shed when
    /// the capacity model's second is full.
    private func admit(at time: Double) -> Admission {
        series.countRequest(at: time)
        if scenario.isDown(at: time) {
            guard let end = maintenanceEnd else { return .refused }
            series[time].throttled += 1
            // What RetryAfter.delay gives for that date at `time` (parsed once: it is one date).
            return .shed(retryAfter: max(0, end - time))
        }
        guard let capacity = summary.capacityPerSecond else { return .taken }
        let second = series.second(time)
        guard admittedPerSecond[second] < capacity else {
            summary.shedRequests += 1
            series[time].throttled += 1
            return .shed(retryAfter: options.retryAfter)
        }
        admittedPerSecond[second] += 1
        return .taken
    }

    /// Devices in a steady state: each fetched the document some time within its interval and
    /// checks in some time within the day.
    ///
    /// The time since the last fetch (the age) is drawn from the refresh process's equilibrium: an
    /// age drawn uniformly in the interval is kept only when the device's own refresh draw exceeds
    /// it, which gives the stationary age density P(refresh > age) / E[refresh] and the right wait
    /// for what is left. Without jitter that is a uniform phase; with it, the same stationary
    /// mixture a long-running fleet has. Neither mode starts bunched by the set-up.
    private func populate(liveTag: String) {
        var fetch = KillSwitchFetchSchedule.Settings()
        fetch.minimumInterval = options.killSwitchInterval
        fetch.jitter = options.jitter
        var upload = UploadSchedule.Settings()
        upload.jitter = options.jitter
        devices.reserveCapacity(options.devices)
        killSwitchAt = Array(repeating: -1, count: options.devices)
        uploadAt = Array(repeating: -1, count: options.devices)
        connectionAt = Array(repeating: -1, count: scenario.rotation == nil ? 0 : options.devices)
        for index in 0..<options.devices {
            var generator = SplitMix64(seed: options.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
            var killSwitch: KillSwitchFetchSchedule
            repeat {
                killSwitch = KillSwitchFetchSchedule(settings: fetch)
                let age = Double.random(in: 0..<options.killSwitchInterval, using: &generator)
                killSwitch.answered(
                    status: 200, etag: isLive(index) ? liveTag : simulatedTag(0), cacheControl: "public, max-age=60",
                    now: date(-age), using: &generator)
            } while seconds(killSwitch.nextFetch!) <= 0
            let checkIn = Double.random(in: 0..<86_400, using: &generator)
            var device = SimulatedDevice(
                killSwitch: killSwitch, uploads: UploadSchedule(settings: upload), generator: generator,
                nextCheckIn: checkIn)
            if let rotation = scenario.rotation {
                device.breaksOnRotation = device.draw(0..<1) < rotation.share
            }
            devices.append(device)
            scheduleKillSwitch(index, at: seconds(killSwitch.nextFetch!))
            scheduleUpload(index, at: checkIn)
            if scenario.rotation != nil { scheduleConnection(index, after: 0) }
        }
    }

    func run() async throws -> Summary {
        let started = Date()
        if let capacity = options.capacity {
            summary.capacityPerSecond = max(1, Int((capacity * options.designSteadyRate).rounded()))
            admittedPerSecond = Array(repeating: 0, count: series.secondCounts.count)
        }
        try await publish(serial: 1, pinning: .on, version: 0)
        populate(liveTag: liveTags[0]!)
        let ticks = Int(scenario.duration / options.tick)
        var collectorUp = true
        for tick in 0..<ticks {
            let time = Double(tick) * options.tick
            currentTick = tick
            earliest = time
            // Outage boundaries fall on whole minutes, so the real collector's state holds for the tick.
            let down = scenario.isDown(at: time)
            if down && collectorUp {
                collector.stop()
                collectorUp = false
            } else if !down && !collectorUp {
                try collector.start()
                collectorUp = true
            }
            if let at = scenario.killSwitchAt, time >= at, documentVersion == 0 {
                try await publish(serial: 2, pinning: .off, version: 1)
            }
            var live: [LiveRequest] = []
            if scenario.rotation != nil { connections(live: &live) }
            drain(\.killSwitchWheel, \.killSwitchAt) { index, at in
                let now = eventDate(at, due: devices[index].killSwitch.nextFetch)
                switch devices[index].killSwitch.poll(now: now) {
                case .fetch(let tag): fetch(index, tag: tag, at: at, live: &live)
                case .wait(let until): scheduleKillSwitch(index, at: seconds(until))
                case .inFlight: break
                }
            }
            drain(\.uploadWheel, \.uploadAt) { index, at in upload(index, at: at, live: &live) }
            if !live.isEmpty {
                earliest = time + options.tick
                let outcomes = await transport.run(live.map(\.call))
                for (request, outcome) in zip(live, outcomes) {
                    applyLive(request.kind, device: request.call.device, outcome: outcome, time: request.time)
                }
            }
            var bin = series[time]
            bin.devicesWithQueue = max(bin.devicesWithQueue, devicesWithQueue)
            bin.queuedRecords = max(bin.queuedRecords, queuedRecords)
            bin.devicesOff = devicesOff
            series[time] = bin
            if documentVersion == 1, devicesOff == devices.count, summary.secondsUntilAllOff == nil,
                let at = scenario.killSwitchAt
            {
                summary.secondsUntilAllOff = time + options.tick - at
            }
        }
        if !collectorUp { try collector.start() }
        summarize()
        summary.wallSeconds = Date().timeIntervalSince(started)
        return summary
    }

    // MARK: Events

    enum LiveKind {
        case killSwitch, checkIn
        case reports([String])
    }

    /// A live device's request, sent when its tick has run; `time` is when the device sent it.
    struct LiveRequest {
        var call: LiveTransport.Call
        var kind: LiveKind
        var time: Double
    }

    private func connections(live: inout [LiveRequest]) {
        guard let rotation = scenario.rotation else { return }
        drain(\.connectionWheel, \.connectionAt) { index, time in
            scheduleConnection(index, after: time)
            guard time >= rotation.at, devices[index].breaksOnRotation, devices[index].documentVersion == 0 else {
                return
            }
            // A pin failure: a report (a duplicate only raises the queued one's count) ...
            if devices[index].pendingReports == 0 {
                if devices[index].uploads.admitNewReport(now: date(time)) {
                    devices[index].pendingReports = 1
                    if isLive(index) {
                        devices[index].liveReportIDs.append(UUID().uuidString.lowercased())
                        summary.liveReportsCreated += 1
                    }
                    enqueued(index, records: 1, time: time)
                    scheduleUpload(index, at: time)
                }
            }
            // ... and an immediate kill-switch refetch, rate-limited.
            if case .fetch(let tag) = devices[index].killSwitch.pinFailure(now: date(time)) {
                fetch(index, tag: tag, at: time, live: &live)
            }
        }
    }

    private func fetch(_ index: Int, tag: String?, at time: Double, live: inout [LiveRequest]) {
        let now = date(time)
        series[time].killSwitchFetches += 1
        let admission = admit(at: time)
        switch admission {
        case .taken where isLive(index), .refused where isLive(index):
            // A live device really tries, also against the stopped collector (the refusal is real);
            // a 503 (capacity, maintenance) is the model's answer, since no collector gives it here.
            var headers = LiveTransport.deviceHeaders(index, appVersion: options.appVersion)
            if let tag { headers.set("If-None-Match", tag) }
            let request = HTTPRequest(url: collector.url("/v1/kill-switch"), headers: headers)
            live.append(LiveRequest(call: .init(device: index, request: request), kind: .killSwitch, time: time))
            return
        case .taken:
            let current = simulatedTag(documentVersion)
            let status = tag == current ? 304 : 200
            devices[index].fetchAnswered(status: status, etag: current, cacheControl: "public, max-age=60", at: now)
            received(index, status: status, time: time)
        case .refused, .shed:
            // The fetch schedule treats every failure alike (it takes no Retry-After).
            series[time].failures += 1
            devices[index].fetchFailed(at: now)
        }
        scheduleKillSwitch(index, at: seconds(devices[index].killSwitch.nextFetch!))
    }

    private func received(_ index: Int, status: Int, time: Double) {
        if status == 304 {
            series[time].notModified += 1
            return
        }
        series[time].documents += 1
        if devices[index].documentVersion != documentVersion {
            if documentVersion == 1 { devicesOff += 1 }
            devices[index].documentVersion = documentVersion
        }
    }

    private func upload(_ index: Int, at time: Double, live: inout [LiveRequest]) {
        if !devices[index].checkInPending, devices[index].nextCheckIn <= time {
            devices[index].checkInPending = true
            enqueued(index, records: 1, time: time)
        }
        guard devices[index].hasPendingWork else {
            scheduleUpload(index, at: devices[index].nextCheckIn)
            return
        }
        switch devices[index].uploads.begin(now: eventDate(time, due: devices[index].uploads.notBefore)) {
        case .notDue(let until):
            scheduleUpload(index, at: seconds(until))
            return
        case .inFlight: return
        case .start: break
        }
        let reports = devices[index].pendingReports > 0
        if reports { series[time].reportUploads += 1 } else { series[time].checkIns += 1 }
        switch admit(at: time) {
        case .shed(let retryAfter):
            finishUpload(index, reports: reports, outcome: .throttled(retryAfter: retryAfter), time: time)
        case .taken where isLive(index), .refused where isLive(index):
            var headers = LiveTransport.deviceHeaders(index, appVersion: options.appVersion)
            headers.set("Content-Type", "application/json")
            let ids = devices[index].liveReportIDs
            let body = reports ? reportBody(ids) : checkInBody()
            let path = reports ? "/v1/pin-failures" : "/v1/check-in"
            let request = HTTPRequest(method: "POST", url: collector.url(path), headers: headers, body: body)
            live.append(
                LiveRequest(
                    call: .init(device: index, request: request), kind: reports ? .reports(ids) : .checkIn, time: time))
        case .taken: finishUpload(index, reports: reports, outcome: .succeeded, time: time)
        case .refused: finishUpload(index, reports: reports, outcome: .failed, time: time)
        }
    }

    private func finishUpload(_ index: Int, reports: Bool, outcome: UploadSchedule.Outcome, time: Double) {
        let now = date(time)
        devices[index].uploadFinished(outcome, at: now)
        switch outcome {
        case .succeeded:
            if reports {
                let records = Int(devices[index].pendingReports)
                devices[index].pendingReports = 0
                drained(index, records: records, time: time)
            } else {
                devices[index].checkInPending = false
                let spread = options.jitter == .full ? devices[index].draw(0..<3600) : 0
                devices[index].nextCheckIn = time + 86_400 + spread
                drained(index, records: 1, time: time)
            }
        case .failed: series[time].failures += 1
        case .throttled: series[time].failures += 1
        }
        if devices[index].hasPendingWork {
            scheduleUpload(index, at: max(time, devices[index].uploads.notBefore.map(seconds) ?? time))
        } else {
            scheduleUpload(index, at: devices[index].nextCheckIn)
        }
    }

    private func enqueued(_ index: Int, records: Int, time: Double) {
        if devices[index].pendingSince == nil {
            devices[index].pendingSince = time
            devicesWithQueue += 1
        }
        queuedRecords += records
    }

    private func drained(_ index: Int, records: Int, time: Double) {
        queuedRecords -= records
        series[time].acceptedRecords += records
        summary.acceptedRecords += records
        guard !devices[index].hasPendingWork, let since = devices[index].pendingSince else { return }
        devices[index].pendingSince = nil
        devicesWithQueue -= 1
        if let outage = scenario.outage, since < outage.upperBound {
            summary.maximumDrainAfterRecovery = max(
                summary.maximumDrainAfterRecovery ?? 0, time - outage.upperBound)
        }
    }

    // MARK: Live devices

    private func applyLive(
        _ kind: LiveKind, device index: Int, outcome: LiveTransport.Outcome, time: Double
    ) {
        let down = scenario.isDown(at: time)
        series[time].liveRequests += 1
        if case .failed = outcome, !down { summary.liveErrorsWhileUp += 1 }
        if case .answered(let status, _, _) = outcome, !down, !(200...304).contains(status) {
            summary.liveErrorsWhileUp += 1
        }
        summary.liveRequests += 1
        let now = date(time)
        switch (kind, outcome) {
        case (.killSwitch, .answered(let status, let headers, _)) where status == 200 || status == 304:
            devices[index].fetchAnswered(
                status: status, etag: headers["ETag"], cacheControl: headers["Cache-Control"], at: now)
            received(index, status: status, time: time)
            scheduleKillSwitch(index, at: seconds(devices[index].killSwitch.nextFetch!))
        case (.killSwitch, _):
            series[time].liveErrors += 1
            series[time].failures += 1
            devices[index].fetchFailed(at: now)
            scheduleKillSwitch(index, at: seconds(devices[index].killSwitch.nextFetch!))
        case (.checkIn, .answered(200, _, _)):
            summary.liveCheckInsAccepted += 1
            liveAcknowledged.insert(index)
            finishUpload(index, reports: false, outcome: .succeeded, time: time)
        case (.reports(let ids), .answered(200, _, let body)):
            let accepted = Set(
                (try? JSONParser.parse(body)["accepted"]).flatMap { value -> [String]? in
                    guard case .array(let items) = value else { return nil }
                    return items.compactMap { if case .string(let id) = $0 { id } else { nil } }
                } ?? [])
            let sent = Set(ids)
            liveAccepted.formUnion(accepted.intersection(sent))
            liveAcknowledged.insert(index)
            devices[index].liveReportIDs.removeAll { accepted.contains($0) }
            if devices[index].liveReportIDs.isEmpty {
                finishUpload(index, reports: true, outcome: .succeeded, time: time)
            } else {
                finishUpload(index, reports: true, outcome: .failed, time: time)
            }
        case (_, .answered(let status, let headers, _)) where status == 429 || status == 503:
            series[time].liveErrors += 1
            let wait = RetryAfter.delay(headers["Retry-After"], now: now)
            finishUpload(index, reports: isReports(kind), outcome: .throttled(retryAfter: wait), time: time)
        default:
            series[time].liveErrors += 1
            finishUpload(index, reports: isReports(kind), outcome: .failed, time: time)
        }
    }

    private func isReports(_ kind: LiveKind) -> Bool {
        if case .reports = kind { return true }
        return false
    }

    private func checkInBody() -> [UInt8] {
        Array(#"{"appVersion":"\#(options.appVersion)","pinSetFingerprint":"fleet-pin-set-1"}"#.utf8)
    }

    private func reportBody(_ ids: [String]) -> [UInt8] {
        let reports: [JSONValue] = ids.map { id in
            guard case .object(var members) = PinFailureReport(event: reportEvent, appVersion: options.appVersion).json
            else { return .null }
            members.insert(("id", .string(id)), at: 0)
            members.append(("count", .int(1)))
            members.append(("first-seen", .string(RFC3339.format(base))))
            members.append(("last-seen", .string(RFC3339.format(base))))
            return .object(members)
        }
        let document: JSONValue = ["reports": .array(reports), "dropped-reports": .int(0)]
        return Array(document.serialized().utf8)
    }

    /// Publishes a document on the real collector and remembers its ETag.
    private func publish(serial: Int64, pinning: KillSwitchDocument.Pinning, version: Int8) async throws {
        let body = try collector.document(serial: serial, pinning: pinning, reason: "fleet \(scenario.kind.rawValue)")
        var headers: HTTPHeaders = ["Authorization": "Bearer \(collector.operatorToken)"]
        headers.set("Content-Type", "application/json")
        let url = collector.url("/v1/kill-switch")
        let published = await transport.run([
            .init(device: 0, request: HTTPRequest(method: "POST", url: url, headers: headers, body: body))
        ])
        let fetched = await transport.run([
            .init(
                device: 0, request: HTTPRequest(url: url, headers: LiveTransport.deviceHeaders(0, appVersion: "4.2.0")))
        ])
        guard case .answered(200, _, _)? = published.first, case .answered(200, let answer, _)? = fetched.first,
            let tag = answer["ETag"]
        else { throw FleetError("publishing the kill-switch document (serial \(serial)) failed") }
        liveTags[version] = tag
        documentVersion = version
    }

    /// What the collector holds, asked over its operator API after the run: every acknowledged
    /// report and every installation that was acknowledged must be there (the outage restarted it).
    func verifyStored() async -> (reports: Int, installations: Int)? {
        var headers: HTTPHeaders = ["Authorization": "Bearer \(collector.operatorToken)"]
        headers.set("Accept", "application/json")
        let outcomes = await transport.run([
            .init(
                device: 0,
                request: HTTPRequest(
                    url: collector.url("/v1/pin-failures/summary?since=2000-01-01T00:00:00Z"), headers: headers)),
            .init(device: 0, request: HTTPRequest(url: collector.url("/v1/installed-base"), headers: headers)),
        ])
        guard case .answered(200, _, let summaryBody) = outcomes[0], case .answered(200, _, let baseBody) = outcomes[1],
            case .array(let groups)? = try? JSONParser.parse(summaryBody)["groups"],
            case .array(let versions)? = try? JSONParser.parse(baseBody)["versions"]
        else { return nil }
        func total(_ items: [JSONValue], _ key: String) -> Int {
            items.map { item in
                if case .number(let text)? = item[key] { Int(text) ?? 0 } else { 0 }
            }.reduce(0, +)
        }
        return (total(groups, "reports"), total(versions, "installations"))
    }

    /// Live installations the collector acknowledged at least one upload from.
    var acknowledgedLiveInstallations: Int { liveAcknowledged.count }

    private func summarize() {
        let perSecond = 1 / series.binSeconds
        let rates = series.bins.map { Double($0.requests) * perSecond }
        let steadyEnd =
            scenario.outage?.lowerBound ?? scenario.killSwitchAt ?? scenario.rotation?.at ?? scenario.duration
        let steady = series.bins.indices.filter {
            let start = Double($0) * series.binSeconds
            return start >= 3600 && start + series.binSeconds <= steadyEnd
        }
        summary.steadyRequestsPerSecond =
            steady.isEmpty ? 0 : steady.map { rates[$0] }.reduce(0, +) / Double(steady.count)
        summary.peakRequestsPerSecond = rates.max() ?? 0
        let end = Int(scenario.duration)
        let steadySeconds = 3600..<max(3600, Int(steadyEnd))
        summary.steadyBusiestSecond = series.peakRate(window: 1, in: steadySeconds)
        summary.steadyBusiest10s = series.peakRate(window: 10, in: steadySeconds)
        summary.busiestSecond = series.peakRate(window: 1, in: 0..<end)
        if let outage = scenario.outage {
            summary.recoveryPeakRequestsPerSecond = series.bins.indices.filter {
                Double($0) * series.binSeconds >= outage.upperBound
            }.map { rates[$0] }.max()
            let recovery = Int(outage.upperBound)..<end
            summary.recoveryBusiestSecond = series.peakRate(window: 1, in: recovery)
            summary.recoveryBusiest10s = series.peakRate(window: 10, in: recovery)
        }
        summary.queuedAtEnd = queuedRecords
        summary.lostRecords =
            summary.liveReportsCreated - liveAccepted.count
            - devices.indices.filter(isLive).map { devices[$0].liveReportIDs.count }.reduce(0, +)
        summary.liveReportsAccepted = liveAccepted.count
        summary.devicesOffAtEnd = devicesOff
        summary.liveErrors = series.bins.map(\.liveErrors).reduce(0, +)
    }
}
