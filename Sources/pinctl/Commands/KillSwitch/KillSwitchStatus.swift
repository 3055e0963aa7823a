import Foundation
import PinKit

/// `pinctl killswitch status --state FILE`: the last signed serial, and the floor
/// (`killSwitch.minimumSerial`) to ship in the next release so old documents cannot be replayed
/// to fresh installs.
struct KillSwitchStatus: GroupAction {
    static let name = "status"
    static let usage = "pinctl killswitch status --state FILE [--now DATE] [--json]"

    var state: String
    var now: Date

    init(parsing arguments: inout Arguments) throws(UsageError) {
        guard let state = try arguments.value("--state") else { throw UsageError("status needs --state FILE") }
        self.state = state
        now = try KillSwitchOptions.date(&arguments, "--now") ?? Date()
        try KillSwitchOptions.noPositionals(&arguments)
    }

    func run(_ output: ActionOutput) throws(CommandFailure) -> ExitCode {
        let machine = try Loading.killSwitchState(state, forFloor: true)
        let last = machine.highestSerial
        let active = machine.activeOff.flatMap { $0.expiresAt > now ? $0 : nil }
        // An "off" still in force must stay receivable by fresh installs: the floor stops below it.
        let floor = machine.proposedMinimumSerial(now: now)
        var lines = ["last signed serial: \(last)"]
        if let active {
            lines.append(
                "in force: serial \(active.serial) turns pinning off until \(RFC3339.format(active.expiresAt)) (\(TerminalText.escaped(active.reason)))"
            )
        }
        lines.append(
            "next release: \"killSwitch\": {…, \"minimumSerial\": \(floor)}"
                + (active != nil ? "  (below the off in force; raise it to \(last) once that off has expired)" : ""))
        // At the top of the range no document can follow: installs that saw this serial can
        // never accept another, so "next document: --serial 2^53" would be advice sign refuses.
        let exhausted = last >= KillSwitchDocument.maximumSerial
        lines.append(
            exhausted
                ? "NO next document: serial \(last) is the last of the range (2^53 - 1); installs that saw it accept no other kill switch until their state is lost"
                : "next document: --serial \(last + 1) or above")
        output.result(
            [
                "lastSerial": .int(last), "minimumSerial": .int(floor),
                "activeOff": active.map(KillSwitchShow.describe) ?? .null,
                "nextSerial": exhausted ? .null : .int(last + 1),
            ],
            human: lines.joined(separator: "\n"))
        return exhausted ? .checkFailed : .success
    }
}
