import Foundation
import PinKit

/// The time series of one run, in fixed virtual-time bins, for the whole (scaled-up) fleet.
struct FleetSeries {
    struct Bin {
        var killSwitchFetches = 0
        var notModified = 0
        var documents = 0
        var checkIns = 0
        var reportUploads = 0
        var failures = 0
        var throttled = 0
        var acceptedRecords = 0
        var lostRecords = 0
        var devicesWithQueue = 0
        var queuedRecords = 0
        var devicesOff = 0
        var liveRequests = 0
        var liveErrors = 0

        var requests: Int { killSwitchFetches + checkIns + reportUploads }
    }

    let binSeconds: Double
    var bins: [Bin]

    init(duration: Double, binSeconds: Double) {
        self.binSeconds = binSeconds
        bins = Array(repeating: Bin(), count: Int((duration / binSeconds).rounded(.up)))
    }

    func index(_ time: Double) -> Int { min(bins.count - 1, max(0, Int(time / binSeconds))) }

    subscript(time: Double) -> Bin {
        get { bins[index(time)] }
        set { bins[index(time)] = newValue }
    }

    func json(scale: Double) -> JSONValue {
        func column(_ name: String, _ value: (Bin) -> Double) -> (String, JSONValue) {
            (name, .array(bins.map { .number(String(format: "%.3f", value($0) * scale)) }))
        }
        let perSecond = 1 / binSeconds
        return .object([
            ("binSeconds", .int(Int(binSeconds))),
            ("time", .array(bins.indices.map { .int(Int(Double($0) * binSeconds)) })),
            column("requestsPerSecond") { Double($0.requests) * perSecond },
            column("killSwitchPerSecond") { Double($0.killSwitchFetches) * perSecond },
            column("checkInsPerSecond") { Double($0.checkIns) * perSecond },
            column("reportUploadsPerSecond") { Double($0.reportUploads) * perSecond },
            (
                "notModifiedRatio",
                .array(
                    bins.map {
                        .number(
                            String(
                                format: "%.4f",
                                $0.killSwitchFetches == 0 ? 0 : Double($0.notModified) / Double($0.killSwitchFetches)))
                    })
            ),
            column("failuresPerSecond") { Double($0.failures) * perSecond },
            column("throttledPerSecond") { Double($0.throttled) * perSecond },
            column("acceptedRecords") { Double($0.acceptedRecords) },
            column("lostRecords") { Double($0.lostRecords) },
            column("devicesWithQueue") { Double($0.devicesWithQueue) },
            column("queuedRecords") { Double($0.queuedRecords) },
            column("devicesWithKillSwitchOff") { Double($0.devicesOff) },
            ("liveRequests", .array(bins.map { .int($0.liveRequests) })),
            ("liveErrors", .array(bins.map { .int($0.liveErrors) })),
        ])
    }
}
