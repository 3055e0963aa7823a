import Foundation
import PinKit

/// The time series of one run, in fixed virtual-time bins, for the whole (scaled-up) fleet, plus
/// the requests of every virtual second: a herd lasts seconds, and a 5-minute mean hides it.
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
    /// Requests that reached the collector tier in each virtual second (served or shed).
    private(set) var secondCounts: [Int32]

    init(duration: Double, binSeconds: Double) {
        self.binSeconds = binSeconds
        bins = Array(repeating: Bin(), count: Int((duration / binSeconds).rounded(.up)))
        secondCounts = Array(repeating: 0, count: Int(duration.rounded(.up)) + 1)
    }

    /// The second a request at `time` falls in.
    func second(_ time: Double) -> Int { min(secondCounts.count - 1, max(0, Int(time))) }

    mutating func countRequest(at time: Double) { secondCounts[second(time)] += 1 }

    /// The busiest `window`-second stretch (aligned to multiples of `window`) in `range` of
    /// seconds, as requests per second.
    func peakRate(window: Int, in range: Range<Int>) -> Double {
        let range = range.clamped(to: 0..<secondCounts.count)
        var peak = 0
        var start = range.lowerBound - range.lowerBound % window
        while start < range.upperBound {
            let end = min(start + window, secondCounts.count)
            peak = max(peak, secondCounts[max(0, start)..<end].reduce(0) { $0 + Int($1) })
            start += window
        }
        return Double(peak) / Double(window)
    }

    /// The seconds of bin `index`.
    func seconds(ofBin index: Int) -> Range<Int> {
        Int(Double(index) * binSeconds)..<Int(Double(index + 1) * binSeconds)
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
            (
                "busiestSecondRequests",
                .array(bins.indices.map { .int(Int(peakRate(window: 1, in: seconds(ofBin: $0)))) })
            ),
            (
                "busiest10sRequestsPerSecond",
                .array(
                    bins.indices.map { .number(String(format: "%.1f", peakRate(window: 10, in: seconds(ofBin: $0)))) })
            ),
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
            (
                "requestsPer10Seconds",
                .array(
                    stride(from: 0, to: secondCounts.count - 1, by: 10).map { start in
                        .int(secondCounts[start..<min(start + 10, secondCounts.count)].reduce(0) { $0 + Int($1) })
                    })
            ),
            ("liveErrors", .array(bins.map { .int($0.liveErrors) })),
        ])
    }
}
