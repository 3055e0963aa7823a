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
    }

    struct Summary {
        var steadyRequestsPerSecond = 0.0
        var peakRequestsPerSecond = 0.0
        var recoveryPeakRequestsPerSecond: Double?
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
    private var killSwitchSlot: [Int32] = []
    private var uploadSlot: [Int32] = []
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

    private func tickIndex(_ time: Double) -> Int { max(0, Int((time / options.tick).rounded(.up))) }
    private func seconds(_ date: Date) -> Double { date.timeIntervalSince(base) }
    private func date(_ time: Double) -> Date { base.addingTimeInterval(time) }
    private func isLive(_ device: Int) -> Bool { device % options.liveEvery == 0 }
    private func simulatedTag(_ version: Int8) -> String { "\"simulated-\(version)\"" }

    private func scheduleKillSwitch(_ device: Int, at time: Double) {
        let slot = tickIndex(time)
        killSwitchSlot[device] = Int32(slot)
        if slot < killSwitchWheel.count { killSwitchWheel[slot].append(Int32(device)) }
    }

    private func scheduleUpload(_ device: Int, at time: Double) {
        let slot = tickIndex(time)
        uploadSlot[device] = Int32(slot)
        if slot < uploadWheel.count { uploadWheel[slot].append(Int32(device)) }
    }

    private func scheduleConnection(_ device: Int, after time: Double) {
        let gap = -log(1 - devices[device].draw(0..<1)) * options.connectionInterval
        let slot = tickIndex(time + gap)
        if slot < connectionWheel.count { connectionWheel[slot].append(Int32(device)) }
    }

    /// Devices in a steady state: each fetched the document some time within its interval and
    /// checks in some time within the day.
    private func populate(liveTag: String) {
        var fetch = KillSwitchFetchSchedule.Settings()
        fetch.minimumInterval = options.killSwitchInterval
        fetch.jitter = options.jitter
        var upload = UploadSchedule.Settings()
        upload.jitter = options.jitter
        devices.reserveCapacity(options.devices)
        killSwitchSlot = Array(repeating: -1, count: options.devices)
        uploadSlot = Array(repeating: -1, count: options.devices)
        for index in 0..<options.devices {
            var generator = SplitMix64(seed: options.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
            var killSwitch = KillSwitchFetchSchedule(settings: fetch)
            // Phases spread so that no refresh falls before the start (that would be a herd of our own making).
            let fetchedAt = -Double.random(in: 0..<(0.75 * options.killSwitchInterval), using: &generator)
            killSwitch.answered(
                status: 200, etag: isLive(index) ? liveTag : simulatedTag(0), cacheControl: "public, max-age=60",
                now: date(fetchedAt), using: &generator)
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
        try await publish(serial: 1, pinning: .on, version: 0)
        populate(liveTag: liveTags[0]!)
        let ticks = Int(scenario.duration / options.tick)
        var collectorUp = true
        for tick in 0..<ticks {
            let time = Double(tick) * options.tick
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
            var urgentFetches: [Int] = []
            if scenario.rotation != nil { connections(tick: tick, time: time, urgent: &urgentFetches) }
            var liveCalls: [(LiveTransport.Call, LiveKind)] = []
            killSwitchFetches(tick: tick, time: time, down: down, urgent: urgentFetches, live: &liveCalls)
            uploads(tick: tick, time: time, down: down, live: &liveCalls)
            if !liveCalls.isEmpty {
                let outcomes = await transport.run(liveCalls.map(\.0))
                for ((call, kind), outcome) in zip(liveCalls, outcomes) {
                    applyLive(kind, device: call.device, outcome: outcome, time: time, down: down)
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
                summary.secondsUntilAllOff = time - at
            }
            killSwitchWheel[tick] = []
            uploadWheel[tick] = []
            connectionWheel[tick] = []
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

    private func connections(tick: Int, time: Double, urgent: inout [Int]) {
        guard let rotation = scenario.rotation else { return }
        for entry in connectionWheel[tick] {
            let index = Int(entry)
            scheduleConnection(index, after: time)
            guard time >= rotation.at, devices[index].breaksOnRotation, devices[index].documentVersion == 0 else {
                continue
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
            if case .fetch = devices[index].killSwitch.pinFailure(now: date(time)) { urgent.append(index) }
        }
    }

    private func killSwitchFetches(
        tick: Int, time: Double, down: Bool, urgent: [Int], live: inout [(LiveTransport.Call, LiveKind)]
    ) {
        let now = date(time)
        func fetch(_ index: Int, tag: String?) {
            series[time].killSwitchFetches += 1
            if isLive(index) {
                var headers = LiveTransport.deviceHeaders(index, appVersion: options.appVersion)
                if let tag { headers.set("If-None-Match", tag) }
                live.append(
                    (
                        .init(
                            device: index, request: HTTPRequest(url: collector.url("/v1/kill-switch"), headers: headers)
                        ),
                        .killSwitch
                    ))
                return
            }
            if down {
                series[time].failures += 1
                devices[index].fetchFailed(at: now)
            } else {
                let current = simulatedTag(documentVersion)
                let status = tag == current ? 304 : 200
                devices[index].fetchAnswered(status: status, etag: current, cacheControl: "public, max-age=60", at: now)
                received(index, status: status, time: time)
            }
            scheduleKillSwitch(index, at: seconds(devices[index].killSwitch.nextFetch!))
        }
        for index in urgent {
            fetch(index, tag: devices[index].killSwitch.etag)
        }
        for entry in killSwitchWheel[tick] where killSwitchSlot[Int(entry)] == Int32(tick) {
            let index = Int(entry)
            switch devices[index].killSwitch.poll(now: now) {
            case .fetch(let tag): fetch(index, tag: tag)
            case .wait(let until): scheduleKillSwitch(index, at: seconds(until))
            case .inFlight: break
            }
        }
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

    private func uploads(tick: Int, time: Double, down: Bool, live: inout [(LiveTransport.Call, LiveKind)]) {
        let now = date(time)
        for entry in uploadWheel[tick] where uploadSlot[Int(entry)] == Int32(tick) {
            let index = Int(entry)
            if !devices[index].checkInPending, devices[index].nextCheckIn <= time {
                devices[index].checkInPending = true
                enqueued(index, records: 1, time: time)
            }
            guard devices[index].hasPendingWork else {
                scheduleUpload(index, at: devices[index].nextCheckIn)
                continue
            }
            switch devices[index].uploads.begin(now: now) {
            case .notDue(let until):
                scheduleUpload(index, at: seconds(until))
                continue
            case .inFlight: continue
            case .start: break
            }
            let reports = devices[index].pendingReports > 0
            if reports { series[time].reportUploads += 1 } else { series[time].checkIns += 1 }
            if isLive(index) {
                var headers = LiveTransport.deviceHeaders(index, appVersion: options.appVersion)
                headers.set("Content-Type", "application/json")
                let ids = devices[index].liveReportIDs
                let body = reports ? reportBody(ids) : checkInBody()
                let path = reports ? "/v1/pin-failures" : "/v1/check-in"
                live.append(
                    (
                        .init(
                            device: index,
                            request: HTTPRequest(method: "POST", url: collector.url(path), headers: headers, body: body)
                        ),
                        reports ? .reports(ids) : .checkIn
                    ))
                continue
            }
            finishUpload(index, reports: reports, outcome: down ? .failed : .succeeded, time: time)
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
        case .throttled:
            series[time].failures += 1
            series[time].throttled += 1
        }
        if devices[index].hasPendingWork {
            scheduleUpload(index, at: max(time + options.tick, devices[index].uploads.notBefore.map(seconds) ?? time))
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
        _ kind: LiveKind, device index: Int, outcome: LiveTransport.Outcome, time: Double, down: Bool
    ) {
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
        if let outage = scenario.outage {
            summary.recoveryPeakRequestsPerSecond = series.bins.indices.filter {
                Double($0) * series.binSeconds >= outage.upperBound
            }.map { rates[$0] }.max()
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
