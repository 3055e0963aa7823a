import Foundation
import PinKit
import PinKitTestSupport
import Testing

/// Runs the built `pinkit-fleet` against a real `pinkit-collector` with a small fleet.
@Suite("Fleet simulator")
struct FleetSimulatorTests {
    static func binary(_ name: String) -> String {
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent(name).path
    }

    func run(_ arguments: [String]) throws -> (Shell.Result, JSONValue?, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let result = try Shell.run(
            [Self.binary("pinkit-fleet"), "--output", directory.path, "--collector", Self.binary("pinkit-collector")]
                + arguments)
        return (result, try? JSONParser.parse(Array(result.stdout.utf8)), directory)
    }

    static func int(_ value: JSONValue?) -> Int? {
        if case .number(let text)? = value { return Int(Double(text) ?? -1) }
        return nil
    }

    @Test("an outage: the collector is stopped and restarted, nothing acknowledged is lost, queues drain")
    func outage() throws {
        let (result, summary, directory) = try run(["--devices", "2000", "--live-every", "40", "--scenario", "outage"])
        defer { directory.remove() }
        #expect(result.status == 0, "\(result.stderr)")
        guard case .array(let runs)? = summary?["runs"], let run = runs.first else {
            Issue.record("no summary: \(result.stdout)")
            return
        }
        #expect(Self.int(run["lostRecords"]) == 0)
        #expect(Self.int(run["queuedRecordsAtEnd"]) == 0)
        #expect(Self.int(run["liveErrorsWhileCollectorUp"]) == 0)
        #expect((Self.int(run["liveErrors"]) ?? 0) > 0, "the outage was real: live requests were refused")
        let acknowledged = Self.int(run["liveInstallationsAcknowledged"])
        #expect(acknowledged != nil && acknowledged! > 0)
        #expect(Self.int(run["collectorInstallations"]) == acknowledged, "the restarted collector kept every one")
        #expect(run["recoveryPeakAtMost2x"] == .bool(true) && run["drainedWithinBound"] == .bool(true))
        let series = try JSONParser.parse(
            Array(try Data(contentsOf: URL(fileURLWithPath: directory.file("outage.json")))))
        guard case .array(let rates)? = series["requestsPerSecond"] else {
            Issue.record("no time series")
            return
        }
        #expect(rates.count == 18 * 12)
        let svg = try String(contentsOfFile: directory.file("outage.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n") && svg.contains("<title>"))
    }

    static func number(_ value: JSONValue?) -> Double? {
        if case .number(let text)? = value { return Double(text) }
        return nil
    }

    @Test("maintenance answered with one Retry-After date: the herd without jitter, spread with it")
    func maintenanceHerd() throws {
        let (result, summary, directory) = try run([
            "--devices", "2000", "--live-every", "40", "--scenario", "maintenance", "--jitter", "both",
        ])
        defer { directory.remove() }
        #expect(result.status == 0, "\(result.stderr)")
        guard case .array(let runs)? = summary?["runs"], runs.count == 2 else {
            Issue.record("no summary: \(result.stdout)")
            return
        }
        let (jittered, herd) = (runs[0], runs[1])
        #expect(jittered["jitter"] == .string("full") && herd["jitter"] == .string("none"))
        for run in runs {
            #expect(Self.int(run["lostRecords"]) == 0 && Self.int(run["queuedRecordsAtEnd"]) == 0)
        }
        // Without jitter every device held back returns in the same second as the date.
        let herdSecond = Self.number(herd["recoveryBusiestSecondOverSteady"]) ?? 0
        let herdFiveMinutes = Self.number(herd["recoveryPeakOverSteady"]) ?? 0
        #expect(herdSecond > 100 && herdFiveMinutes > 2, "\(herdSecond), \(herdFiveMinutes)")
        let series = try JSONParser.parse(
            Array(try Data(contentsOf: URL(fileURLWithPath: directory.file("maintenance-no-jitter.json")))))
        guard case .array(let tens)? = series["requestsPer10Seconds"] else {
            Issue.record("no 10-second series")
            return
        }
        let counts = tens.map { Self.int($0) ?? 0 }
        let busiest = counts.indices.max { counts[$0] < counts[$1] }!
        #expect(busiest * 10 == 10 * 3600 + 30, "at the date plus the first backoff step: \(busiest * 10) s")
        // With jitter: the 5-minute goal holds and the busiest second is a small fraction of the herd's.
        #expect(jittered["recoveryPeakAtMost2x"] == .bool(true) && jittered["drainedWithinBound"] == .bool(true))
        let jitteredSecond = Self.number(jittered["recoveryBusiestSecondOverSteady"]) ?? .infinity
        #expect(jitteredSecond * 20 < herdSecond, "\(jitteredSecond) vs \(herdSecond)")
    }

    @Test("a bad rotation: failing devices report over the real collector, the kill switch reaches every device")
    func badRotation() throws {
        let (result, summary, directory) = try run([
            "--devices", "1000", "--live-every", "20", "--scenario", "bad-rotation",
        ])
        defer { directory.remove() }
        #expect(result.status == 0, "\(result.stderr)")
        guard case .array(let runs)? = summary?["runs"], let run = runs.first else {
            Issue.record("no summary: \(result.stdout)")
            return
        }
        let acknowledged = Self.int(run["liveReportsAcknowledged"]) ?? 0
        #expect(acknowledged > 0)
        #expect(Self.int(run["collectorStoredReports"]) == acknowledged)
        #expect(Self.int(run["liveReportsCreated"]) == acknowledged)
        #expect(Self.int(run["devicesWithKillSwitchOffAtEnd"]) == 1000)
        let seconds = Self.int(run["secondsUntilAllDevicesOff"]) ?? .max
        #expect(seconds <= 3600 + 60, "every device has the off within one refresh interval (and a tick)")
    }

    @Test("bad arguments are a usage error", arguments: [["--devices", "ten"], ["--scenario", "nope"], ["--bogus"]])
    func usage(arguments: [String]) throws {
        let (result, _, directory) = try run(arguments)
        defer { directory.remove() }
        #expect(result.status == 2)
        #expect(result.stderr.contains("pinkit-fleet:"))
    }
}
