import Foundation
import PinKit
import PinKitProcessGate

/// `pinkit-fleet`: options, one run per scenario and jitter setting, files and the summary.
struct FleetCommand {
    static let help = """
        USAGE: pinkit-fleet [--devices N] [--live-every K] [--scenario steady|outage|maintenance|kill-switch|bad-rotation|all]
                            [--jitter full|none|both] [--output DIR] [--collector PATH] [--database postgres://…]
                            [--seed N] [--capacity X] [--png]
        Simulates N devices (the library's own kill-switch and upload schedules, virtual time) against a
        real pinkit-collector on loopback; one device in K sends its requests for real. Writes
        DIR/<scenario>[-no-jitter].json and .svg (and .png with --png, through headless
        Chromium when installed) and prints a JSON summary. --capacity X models a collector tier
        that takes X times the fleet's design steady rate per virtual second and sheds the rest
        with 503 and Retry-After: 30 (default: unlimited). Exit 0 when every goal holds,
        1 when one does not, 2 on a usage error, 3 when the collector cannot be run.
        """

    var options = FleetSimulator.Options()
    var scenarios = Scenario.Kind.allCases
    var jitters: [Jitter] = [.full]
    var output = "fleet-output"
    var collectorPath: String
    var databaseURL: String?
    var png = false

    init(_ arguments: [String]) throws {
        collectorPath = ((CommandLine.arguments[0] as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("pinkit-collector")
        var words = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = words.popFirst() else { throw FleetError("\(flag) needs a value") }
            return next
        }
        while let word = words.popFirst() {
            switch word {
            case "--devices":
                guard let value = Int(try value(word)), (1_000...20_000_000).contains(value) else {
                    throw FleetError("--devices expects 1000…20000000")
                }
                options.devices = value
            case "--live-every":
                guard let value = Int(try value(word)), value >= 1 else { throw FleetError("--live-every expects ≥ 1") }
                options.liveEvery = value
            case "--scenario":
                let name = try value(word)
                if name != "all" {
                    guard let kind = Scenario.Kind(rawValue: name) else { throw FleetError("unknown scenario \(name)") }
                    scenarios = [kind]
                }
            case "--jitter":
                switch try value(word) {
                case "full": jitters = [.full]
                case "none": jitters = [.disabledForHerdDemonstration]
                case "both": jitters = [.full, .disabledForHerdDemonstration]
                default: throw FleetError("--jitter expects full, none or both")
                }
            case "--output": output = try value(word)
            case "--collector": collectorPath = try value(word)
            case "--database": databaseURL = try value(word)
            case "--png": png = true
            case "--capacity":
                guard let value = Double(try value(word)), value.isFinite, (0.1...1000).contains(value) else {
                    throw FleetError("--capacity expects a multiple of the steady rate in 0.1…1000")
                }
                options.capacity = value
            case "--seed":
                guard let value = UInt64(try value(word)) else { throw FleetError("--seed expects a number") }
                options.seed = value
            default: throw FleetError("unknown argument \(word)")
            }
        }
    }

    func run() async throws -> Int32 {
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        var results: [JSONValue] = []
        var allHold = true
        for kind in scenarios {
            for jitter in jitters {
                var options = self.options
                options.jitter = jitter
                let (result, holds) = try await runOne(Scenario.make(kind), options: options)
                results.append(result)
                allHold = allHold && holds
            }
        }
        let document: JSONValue = [
            "devices": .int(options.devices), "liveEvery": .int(options.liveEvery),
            "scaleFactor": .int(options.liveEvery),
            "note": .string(
                "every device runs the library schedules in virtual time; one in liveEvery sends its requests to the real collector, so the collector sees the fleet's traffic divided by scaleFactor, compressed in time"
            ),
            "runs": .array(results),
        ]
        print(document.serialized())
        return allHold ? 0 : 1
    }

    private func runOne(_ scenario: Scenario, options: FleetSimulator.Options) async throws -> (JSONValue, Bool) {
        let name = scenario.kind.rawValue + (options.jitter == .full ? "" : "-no-jitter")
        let directory = NSTemporaryDirectory() + "pinkit-fleet-\(getpid())-\(name)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let collector = try CollectorProcess(executable: collectorPath, directory: directory, databaseURL: databaseURL)
        try collector.start()
        defer { collector.stop() }
        let transport = try LiveTransport(collector: collector)
        defer { transport.shutdown() }
        let simulator = try FleetSimulator(
            scenario: scenario, options: options, collector: collector, transport: transport)
        let summary = try await simulator.run()
        let stored = await simulator.verifyStored()
        let series = simulator.series
        try Data(series.json(scale: 1).serialized().utf8).write(
            to: URL(fileURLWithPath: (output as NSString).appendingPathComponent(name + ".json")))
        let perSecond = 1 / series.binSeconds
        var markers: [(Double, String)] = []
        if let at = scenario.killSwitchAt { markers.append((at, "kill switch published")) }
        if let rotation = scenario.rotation { markers.append((rotation.at, "bad rotation")) }
        let svg = SVGPlot.render(
            title: "pinkit-fleet \(name): \(options.devices) devices, 1 in \(options.liveEvery) live",
            binSeconds: series.binSeconds,
            top: [
                .init(
                    label: "all requests/s", color: "#1f4e9c",
                    values: series.bins.map { Double($0.requests) * perSecond }),
                .init(
                    label: "kill switch/s", color: "#2a8a3e",
                    values: series.bins.map { Double($0.killSwitchFetches) * perSecond }),
                .init(
                    label: "check-ins/s", color: "#b35c00", values: series.bins.map { Double($0.checkIns) * perSecond }),
                .init(
                    label: "report uploads/s", color: "#9c1f4e",
                    values: series.bins.map { Double($0.reportUploads) * perSecond }),
                .init(
                    label: "busiest second", color: "#9a9a9a",
                    values: series.bins.indices.map { series.peakRate(window: 1, in: series.seconds(ofBin: $0)) }),
            ], topUnit: "requests per second",
            bottom: [
                .init(
                    label: "devices with a queue", color: "#6a3d9a",
                    values: series.bins.map { Double($0.devicesWithQueue) }),
                .init(
                    label: "devices with the off", color: "#2a8a3e", values: series.bins.map { Double($0.devicesOff) }),
            ], bottomUnit: "devices", shaded: scenario.outage, markers: markers)
        let svgPath = (output as NSString).appendingPathComponent(name + ".svg")
        try svg.write(toFile: svgPath, atomically: true, encoding: .utf8)
        if png { Self.rasterize(svgPath) }

        // A queue may wait out the backoff ceiling, plus a Retry-After and a tick when it was shed.
        let bound =
            UploadSchedule.Settings().maximum + options.tick + (options.capacity == nil ? 0 : options.retryAfter)
        var goals: [(String, JSONValue)] = []
        var holds =
            summary.lostRecords == 0 && summary.liveErrorsWhileUp == 0
            && stored.map { $0.reports == summary.liveReportsAccepted } ?? false
        if let peak = summary.recoveryPeakRequestsPerSecond, options.jitter == .full {
            let ratio = peak / max(1e-9, summary.steadyRequestsPerSecond)
            let drained = (summary.maximumDrainAfterRecovery ?? 0) <= bound
            holds = holds && ratio <= 2 && drained
            goals = [
                ("recoveryPeakOverSteady", .number(String(format: "%.3f", ratio))),
                ("recoveryPeakAtMost2x", .bool(ratio <= 2)),
                ("drainBoundSeconds", .int(Int(bound))), ("drainedWithinBound", .bool(drained)),
            ]
        } else if let peak = summary.recoveryPeakRequestsPerSecond {
            goals = [
                (
                    "recoveryPeakOverSteady",
                    .number(String(format: "%.3f", peak / max(1e-9, summary.steadyRequestsPerSecond)))
                )
            ]
        }
        func number(_ value: Double?) -> JSONValue { value.map { .number(String(format: "%.2f", $0)) } ?? .null }
        func overSteady(_ value: Double?) -> JSONValue {
            value.map { .number(String(format: "%.3f", $0 / max(1e-9, summary.steadyRequestsPerSecond))) } ?? .null
        }
        // Herd measures at one-second and ten-second resolution, over the steady mean; the steady
        // window's own busiest second is the noise floor they compare with.
        goals += [
            ("steadyBusiestSecondOverSteady", overSteady(summary.steadyBusiestSecond)),
            ("steadyBusiest10sOverSteady", overSteady(summary.steadyBusiest10s)),
            ("busiestSecondOverSteady", overSteady(summary.busiestSecond)),
            ("recoveryBusiestSecondOverSteady", overSteady(summary.recoveryBusiestSecond)),
            ("recoveryBusiest10sOverSteady", overSteady(summary.recoveryBusiest10s)),
        ]
        let result: JSONValue = .object(
            [
                ("scenario", .string(scenario.kind.rawValue)), ("jitter", .string(options.jitter.rawValue)),
                ("steadyRequestsPerSecond", number(summary.steadyRequestsPerSecond)),
                ("peakRequestsPerSecond", number(summary.peakRequestsPerSecond)),
                ("busiestSecondRequests", number(summary.busiestSecond)),
                ("capacityRequestsPerSecond", summary.capacityPerSecond.map { .int($0) } ?? .null),
                ("shedRequests", .int(summary.shedRequests)),
                ("recoveryPeakRequestsPerSecond", number(summary.recoveryPeakRequestsPerSecond)),
                ("maximumDrainAfterRecoverySeconds", number(summary.maximumDrainAfterRecovery)),
                ("acceptedRecords", .int(summary.acceptedRecords)), ("queuedRecordsAtEnd", .int(summary.queuedAtEnd)),
                ("lostRecords", .int(summary.lostRecords)),
                ("devicesWithKillSwitchOffAtEnd", .int(summary.devicesOffAtEnd)),
                ("secondsUntilAllDevicesOff", number(summary.secondsUntilAllOff)),
                ("liveRequests", .int(summary.liveRequests)), ("liveErrors", .int(summary.liveErrors)),
                ("liveErrorsWhileCollectorUp", .int(summary.liveErrorsWhileUp)),
                ("liveReportsCreated", .int(summary.liveReportsCreated)),
                ("liveReportsAcknowledged", .int(summary.liveReportsAccepted)),
                ("collectorStoredReports", stored.map { .int($0.reports) } ?? .null),
                ("liveInstallationsAcknowledged", .int(simulator.acknowledgedLiveInstallations)),
                ("collectorInstallations", stored.map { .int($0.installations) } ?? .null),
                ("wallSeconds", number(summary.wallSeconds)),
                ("goalsHold", .bool(holds)),
            ] + goals)
        return (result, holds)
    }

    /// A PNG beside the SVG through headless Chromium, when installed (no converter is assumed).
    static func rasterize(_ svgPath: String) {
        guard
            let browser = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: browser)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--window-size=960,640",
            "--screenshot=" + (svgPath as NSString).deletingPathExtension + ".png",
            URL(fileURLWithPath: svgPath).absoluteString,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? ProcessGate.run(process)
        process.waitUntilExit()
    }
}
