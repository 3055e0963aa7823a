import Foundation

// The simulator's entry point; everything else lives in nonisolated types.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(FleetCommand.help)
    exit(0)
}
let command: FleetCommand
do {
    command = try FleetCommand(arguments)
} catch {
    FileHandle.standardError.write(Data("pinkit-fleet: \(error)\n\(FleetCommand.help)\n".utf8))
    exit(2)
}
do {
    exit(try await command.run())
} catch {
    FileHandle.standardError.write(Data("pinkit-fleet: \(error)\n".utf8))
    exit(3)
}
