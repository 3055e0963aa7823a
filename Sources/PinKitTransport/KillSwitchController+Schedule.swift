import Foundation
public import PinKit

/// The fetch schedule's side of the controller: decisions, outcomes, and the validator's file.
extension KillSwitchController {
    /// The fetch schedule's current state (validator, next fetch, failures).
    public var fetchSchedule: KillSwitchFetchSchedule { schedule.withLock { $0.0 } }

    /// A pinned connection failed pinning: refetch at once (an operator's "off" then reaches a
    /// failing device in one round trip), at most once per `pinFailureRefetchInterval`.
    /// - Returns: the actions of the fetch, or nil when it was rate-limited or one is running.
    @discardableResult
    public func refreshAfterPinFailure() async -> [KillSwitchStateMachine.Action]? {
        let now = configuration.now()
        guard case .fetch = schedule.withLock({ $0.0.pinFailure(now: now) }) else { return nil }
        return await refresh()
    }

    func launchDecision() -> KillSwitchFetchSchedule.Decision {
        let now = configuration.now()
        return schedule.withLock { $0.0.launch(now: now, using: &$0.1) }
    }

    func pollDecision() -> KillSwitchFetchSchedule.Decision {
        let now = configuration.now()
        return schedule.withLock { $0.0.poll(now: now) }
    }

    /// A 200 or 304. The validator is kept only for a document the state machine has processed
    /// (applied, or already known by serial): a rejected one is fetched in full next time.
    func scheduleAnswered(_ response: HTTPResponse, keepValidator: Bool) {
        let now = configuration.now()
        schedule.withLock {
            $0.0.answered(
                status: response.status, etag: keepValidator ? response.headers["ETag"] : nil,
                cacheControl: response.headers["Cache-Control"], now: now, using: &$0.1)
        }
        persistSchedule()
    }

    func scheduleFailed() {
        let now = configuration.now()
        schedule.withLock { $0.0.failed(now: now, using: &$0.1) }
    }

    /// Whether `body` is a document whose serial the state machine has reached.
    func isProcessed(_ body: [UInt8]) -> Bool {
        guard let document = try? KillSwitchDocument.parse(body) else { return false }
        return document.payload.serial <= state.highestSerial
    }

    static func schedulePath(_ statePath: String) -> String { statePath + ".fetch" }

    static func restoredSchedule(_ statePath: String, settings: KillSwitchFetchSchedule.Settings)
        -> KillSwitchFetchSchedule
    {
        let data = FileManager.default.contents(atPath: schedulePath(statePath))
        return KillSwitchFetchSchedule(json: data.flatMap { try? JSONParser.parse($0) }, settings: settings)
    }

    private func persistSchedule() {
        let data = Data(schedule.withLock { $0.0.json }.serialized().utf8)
        let path = Self.schedulePath(configuration.statePath)
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]),
            rename(temporary, path) == 0
        else { return }  // losing the validator only makes the next fetch unconditional
    }
}
