import Foundation
import PinKit

/// `pinctl killswitch ACTION`: operate the signed kill switch. Each action is its own type.
struct KillSwitchCommand: Command {
    static let name = "killswitch"
    static let abstract = "Make kill-switch keys; sign, assemble, verify and show documents; print the serial floor."
    /// The actions, in help order. Adding one is one line here.
    static var actions: [ActionEntry] {
        [
            KillSwitchKeygen.entry, KillSwitchSign.entry, KillSwitchAssemble.entry, KillSwitchVerify.entry,
            KillSwitchShow.entry, KillSwitchStatus.entry,
        ]
    }

    static var help: String {
        """
        USAGE: \(ActionGroup.usage(actions))

        keygen writes DIR/kill-switch.key (0600 from creation, in a 0700 directory, never printed)
        and DIR/kill-switch.pub, and prints the configuration entry {"keyId","spki"}. Configure at
        least two keys, held by different people: one signature from any of them suffices.
        sign writes a signed document (or, with --payload-out, the exact bytes for a KMS or HSM
        to sign; assemble then builds the document from that signature: raw or DER ECDSA, or
        Ed25519). A document can only turn pinning off (or back on) for its hosts and app versions
        until it expires (at most 30 days after it is issued). sign needs --host (repeatable, each
        inside a pin set of --config) or an explicit --all-hosts; serials run from 1 to 2^53 - 1
        and may not jump more than \(KillSwitchDocument.maximumSerialJump) past the last known serial without
        --force-serial-jump. --state FILE records the last signed serial.
        verify says whether an app would accept DOC, and why not; show prints it with each
        signature entry's status; status prints the last signed serial and the
        killSwitch.minimumSerial to ship in the next release.

        OPTIONS:
          --json           print one JSON document ("schemaVersion": 1); errors as {"error":{"code","message"}}
          -h, --help       show this help

        EXIT CODES: 0 done / accepted; 1 DOC would not be accepted (bad signature, expired,
        malformed, replayed or below-floor serial, scope outside the configuration); 2 usage error
        (including refusing to overwrite a file).
        """
    }

    let group: ActionGroup

    init(parsing arguments: inout Arguments) throws(UsageError) {
        group = ActionGroup(command: Self.name, actions: Self.actions, parsing: &arguments)
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode { try group.run(console) }

    /// `7d`, `12h`, `30m` (also used by `deadlines`).
    static func duration(_ text: String) -> TimeInterval? { KillSwitchOptions.duration(text) }
}

/// Option parsers the kill-switch actions share.
enum KillSwitchOptions {
    static func date(_ arguments: inout Arguments, _ name: String) throws(UsageError) -> Date? {
        guard let text = try arguments.value(name) else { return nil }
        guard let date = RFC3339.parse(text) else { throw UsageError("\(name) expects an RFC 3339 date, saw \(text)") }
        return date
    }

    static func serial(_ arguments: inout Arguments, _ name: String, allowZero: Bool = false) throws(UsageError)
        -> Int64?
    {
        guard let text = try arguments.value(name) else { return nil }
        guard let value = Int64(text), value >= (allowZero ? 0 : 1), value <= KillSwitchDocument.maximumSerial else {
            throw UsageError(
                "\(name) expects a whole number from \(allowZero ? 0 : 1) to \(KillSwitchDocument.maximumSerial) (2^53 - 1), saw \(text)"
            )
        }
        return value
    }

    static func duration(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let value = Double(text.dropLast()), value > 0, value.isFinite else { return nil }
        switch unit {
        case "d": return value * 86_400
        case "h": return value * 3600
        case "m": return value * 60
        default: return nil
        }
    }

    /// One positional argument, the document.
    static func document(_ arguments: inout Arguments, action: String) throws(UsageError) -> String {
        let rest = try arguments.positionals()
        guard rest.count == 1 else {
            throw UsageError(rest.isEmpty ? "\(action) needs DOC" : "unexpected argument \(rest[1])")
        }
        return rest[0]
    }

    static func noPositionals(_ arguments: inout Arguments) throws(UsageError) {
        if let extra = try arguments.positionals().first { throw UsageError("unexpected argument \(extra)") }
    }
}
