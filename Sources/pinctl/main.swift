import Foundation

StandardOutput.ignoreBrokenPipeSignal()
exit(Pinctl.main(Array(CommandLine.arguments.dropFirst())).rawValue)
