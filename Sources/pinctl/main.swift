import Foundation

exit(Pinctl.main(Array(CommandLine.arguments.dropFirst())).rawValue)
