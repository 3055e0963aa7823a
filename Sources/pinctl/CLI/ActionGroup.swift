import Foundation
import PinKit

/// One action of a command group (`pinctl killswitch sign`): its own type, parsing only its own
/// options (swift-argument-parser's shape), so another action's option is an unknown option.
protocol GroupAction {
    static var name: String { get }
    /// The usage line(s), for the group's `--help`.
    static var usage: String { get }
    init(parsing arguments: inout Arguments) throws(UsageError)
    /// Checks that need no I/O beyond the arguments themselves.
    func validate() throws(UsageError)
    func run(_ output: ActionOutput) throws(CommandFailure) -> ExitCode
}

extension GroupAction {
    func validate() throws(UsageError) {}

    /// This action as an entry of a group's list.
    static var entry: ActionEntry {
        ActionEntry(name: name, usage: usage) { (arguments: inout Arguments) throws(UsageError) -> any GroupAction in
            let action = try Self(parsing: &arguments)
            try action.validate()
            return action
        }
    }
}

/// A group's action: its name, usage, and how to parse it. (Closures rather than existential
/// metatypes: Swift 6.3's SILGen crashes on `init(parsing: inout …)` through an opened metatype.)
struct ActionEntry {
    var name: String
    var usage: String
    var parse: (inout Arguments) throws(UsageError) -> any GroupAction
}

/// Where an action's result goes: one JSON document with `"schemaVersion": 1` under `--json`,
/// human text otherwise (with every file-, certificate- or network-borne string escaped by
/// `TerminalText.escaped`).
struct ActionOutput {
    static let schemaVersion = 1
    let console: Console
    let json: Bool

    /// Prints the result: `document` (given a schemaVersion) under --json, `human` otherwise.
    func result(_ document: JSONValue, human: @autoclosure () -> String) {
        if json {
            guard case .object(let members) = document else { return }
            console.out(
                JSONValue.object([("schemaVersion", .int(Self.schemaVersion))] + members).serialized(pretty: true))
        } else {
            console.out(human())
        }
    }

    /// `{"schemaVersion":1,"error":{"code","message"}}` on stdout.
    func error(code: ExitCode, message: String) {
        let name: String =
            switch code {
            case .success: "none"
            case .checkFailed: "check-failed"
            case .usage: "usage"
            case .network: "network"
            }
        result(["error": ["code": .string(name), "message": .string(message)]], human: "")
    }
}

/// Dispatches `pinctl GROUP ACTION [options]` to the action's own type. Adding an action is one
/// line in the group's `actions` list.
struct ActionGroup {
    let command: String
    let actions: [ActionEntry]
    private let json: Bool
    private let parsed: Result<any GroupAction, UsageError>
    /// The action named on the command line, when it is one of `actions` (for its usage line).
    private var named: ActionEntry?

    init(command: String, actions: [ActionEntry], parsing arguments: inout Arguments) {
        self.command = command
        self.actions = actions
        let json = (try? arguments.flag("--json")) ?? false
        do throws(UsageError) {
            parsed = .success(try Self.parse(actions, &arguments, named: &named))
        } catch {
            parsed = .failure(error)
        }
        self.json = json
    }

    private static func parse(_ actions: [ActionEntry], _ arguments: inout Arguments, named: inout ActionEntry?)
        throws(UsageError) -> any GroupAction
    {
        let names = actions.map(\.name)
        guard let word = arguments.leadingWord() else {
            throw UsageError("expected an action: \(names.joined(separator: ", "))")
        }
        guard let entry = actions.first(where: { $0.name == word }) else {
            let hint = DocumentReader.closest(to: word, in: names).map { " (did you mean \($0)?)" } ?? ""
            throw UsageError(
                "unknown action \(TerminalText.escaped(word))\(hint); expected \(names.joined(separator: ", "))")
        }
        named = entry
        return try entry.parse(&arguments)
    }

    /// The usage lines of every action, for the group's help.
    static func usage(_ actions: [ActionEntry]) -> String {
        // Aligned under "USAGE: ", which the group's help puts before the first line.
        actions.map { $0.usage }.joined(separator: "\n").split(separator: "\n").joined(separator: "\n       ")
    }

    /// Runs the action. Under --json every failure is a JSON error on stdout, with the same exit code.
    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        let output = ActionOutput(console: console, json: json)
        do throws(CommandFailure) {
            switch parsed {
            case .failure(let error):
                let usage = (named ?? actions.first).map { "\nUSAGE: " + Self.usage([$0]) } ?? ""
                throw CommandFailure(.usage, error.message + (json ? "" : usage))
            case .success(let action):
                return try action.run(output)
            }
        } catch {
            guard json else { throw error }
            output.error(code: error.code, message: error.message)
            return error.code
        }
    }
}
