import Foundation

/// The `pinctl` entry point: dispatches to a subcommand and maps failures to exit codes.
enum Pinctl {
    static let version = "0.1.0"
    static var commands: [any Command.Type] {
        [
            SpkiCommand.self, ValidateCommand.self, CheckCommand.self, RedactCommand.self, AuditCommand.self,
            ReportsCommand.self, KillSwitchCommand.self, RotationCheckCommand.self, KeygenCommand.self,
            DeadlinesCommand.self, InitCommand.self, LabCommand.self,
        ]
    }

    static var help: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let list = commands.map {
            "  \($0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0))\($0.abstract)"
        }
        return """
            pinctl \(version) — TLS certificate pinning that cannot brick the app.

            USAGE: pinctl <command> [options]

            COMMANDS:
            \(list.joined(separator: "\n"))

            Run `pinctl <command> --help` for a command's options.
            EXIT CODES: 0 success; 1 the check ran and failed; 2 usage error; 3 network/TLS error.
            """
    }

    static func main(_ words: [String]) -> ExitCode {
        let console = Console()
        guard let name = words.first else {
            console.err(help)
            return .usage
        }
        if ["-h", "--help", "help"].contains(name) {
            if name == "help", words.count > 1 {
                guard let command = commands.first(where: { $0.name == words[1] }) else {
                    console.err("pinctl: unknown command '\(TerminalText.escaped(words[1]))'\n\n\(help)")
                    return .usage
                }
                console.out(command.help)
            } else {
                console.out(help)
            }
            return .success
        }
        if name == "--version" {
            console.out(version)
            return .success
        }
        var rest = Array(words.dropFirst())
        var found = commands.first(where: { $0.name == name })
        // `killswitch publish` is its own type (it talks to the collector).
        if name == "killswitch", rest.first == "publish" {
            (found, rest) = (KillSwitchPublishCommand.self, Array(rest.dropFirst()))
        }
        guard let command = found else {
            console.err("pinctl: unknown command '\(TerminalText.escaped(name))'\n\n\(help)")
            return .usage
        }
        let json = rest.prefix { $0 != "--" }.contains("--json")
        if rest.contains("--help") || rest.contains("-h") {
            console.out(command.help)
            return .success
        }
        do {
            var arguments = Arguments(rest)
            let instance = try command.init(parsing: &arguments)
            try instance.validate()
            return try instance.run(console)
        } catch let error as UsageError {
            if json { console.out(CommandFailure.jsonError(code: "usage", message: error.message)) }
            console.err(
                "pinctl \(name): \(escapedLines(error.message))\n\(command.help.split(separator: "\n").first ?? "")")
            return .usage
        } catch let failure as CommandFailure {
            if json { console.out(CommandFailure.jsonError(code: failure.reasonCode, message: failure.message)) }
            console.err("pinctl \(name): \(escapedLines(failure.message))")
            return failure.code
        } catch {
            if json { console.out(CommandFailure.jsonError(code: "check-failed", message: "\(error)")) }
            console.err("pinctl \(name): \(escapedLines("\(error)"))")
            return .checkFailed
        }
    }
}
