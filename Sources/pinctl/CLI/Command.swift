import Foundation

/// One `pinctl` subcommand: parse, then validate, then run (swift-argument-parser's shape).
protocol Command {
    static var name: String { get }
    /// One line for `pinctl --help`.
    static var abstract: String { get }
    /// The full `--help` text: usage line, options, exit codes.
    static var help: String { get }

    init(parsing arguments: inout Arguments) throws(UsageError)
    /// Checks that need no I/O beyond the arguments themselves.
    func validate() throws(UsageError)
    func run(_ console: Console) throws(CommandFailure) -> ExitCode
}

extension Command {
    func validate() throws(UsageError) {}
}

/// Where commands write: results on stdout, diagnostics on stderr.
struct Console {
    func out(_ text: String, terminator: String = "\n") { StandardOutput.write((text + terminator).utf8) }
    func err(_ text: String) { StandardOutput.write((text + "\n").utf8, to: 2) }
}
