import Foundation
import PinKit

/// One simulated installation: the library's own schedules plus a few counters. About 300 bytes,
/// so a million fit in memory.
struct SimulatedDevice {
    var killSwitch: KillSwitchFetchSchedule
    var uploads: UploadSchedule
    var generator: SplitMix64
    /// Virtual time of the next daily check-in.
    var nextCheckIn: Double
    var checkInPending = false
    /// New pin-failure reports queued (not yet accepted), and whether the queued one may still
    /// absorb duplicates.
    var pendingReports: Int32 = 0
    /// Virtual time since which work has been pending (nil: the queue is empty).
    var pendingSince: Double?
    /// The kill-switch document version the device holds (0 = the initial "on").
    var documentVersion: Int8 = 0
    /// Whether this device is one of the share a bad rotation breaks.
    var breaksOnRotation = false
    /// Report ids queued by a live device (real uploads); empty for simulated ones.
    var liveReportIDs: [String] = []

    var hasPendingWork: Bool { checkInPending || pendingReports > 0 }
}

extension SimulatedDevice {
    mutating func fetchFailed(at now: Date) { killSwitch.failed(now: now, using: &generator) }

    mutating func fetchAnswered(status: Int, etag: String?, cacheControl: String?, at now: Date) {
        killSwitch.answered(status: status, etag: etag, cacheControl: cacheControl, now: now, using: &generator)
    }

    mutating func uploadFinished(_ outcome: UploadSchedule.Outcome, at now: Date) {
        uploads.finish(outcome, now: now, using: &generator)
    }

    mutating func draw(_ range: Range<Double>) -> Double { Double.random(in: range, using: &generator) }
}
