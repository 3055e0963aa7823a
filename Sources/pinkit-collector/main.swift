import Foundation
import PinKitCollector

// The entry point only dispatches: every C callback lives in PinKitCollector, outside this
// file (a closure here would be main-actor isolated and trap on libmicrohttpd's threads).
let usage = """
    pinkit-collector — the server half of PinKit.

    USAGE: pinkit-collector <serve|migrate|purge|export|canary> [options]
    Run `pinkit-collector <command> --help` for a command's options.
    EXIT CODES: 0 success; 1 the check ran and failed; 2 usage error; 3 storage/network error.
    """

let words = Array(CommandLine.arguments.dropFirst())
let helps = [
    "serve": ServeCommand.help, "migrate": MaintenanceCommands.help, "purge": MaintenanceCommands.help,
    "export": MaintenanceCommands.help, "canary": CanaryCommand.help,
]
guard let name = words.first else {
    standardError(usage)
    exit(2)
}
if ["-h", "--help", "help"].contains(name) {
    standardOutput(usage)
    exit(0)
}
guard let help = helps[name] else {
    standardError("pinkit-collector: unknown command '\(name)'\n\n\(usage)")
    exit(2)
}
let rest = Array(words.dropFirst())
if rest.contains("--help") || rest.contains("-h") {
    standardOutput(help)
    exit(0)
}
do {
    switch name {
    case "serve": exit(try ServeCommand(rest).run())
    case "migrate": exit(try MaintenanceCommands.migrate(rest))
    case "purge": exit(try MaintenanceCommands.purge(rest))
    case "canary": exit(try CanaryCommand(rest).run())
    default: exit(try MaintenanceCommands.export(rest))
    }
} catch let error as UsageError {
    standardError("pinkit-collector \(name): \(error.message)\n\(help.split(separator: "\n").first ?? "")")
    exit(2)
} catch let error as CollectorError {
    standardError("pinkit-collector \(name): \(error)")
    exit(error.code == .configuration ? 2 : 3)
} catch {
    standardError("pinkit-collector \(name): \(error)")
    exit(3)
}
