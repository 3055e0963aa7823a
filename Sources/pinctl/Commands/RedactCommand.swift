import Foundation
import PinKit

/// `pinctl redact`: the log sanitizer as a filter, for operators who share logs.
struct RedactCommand: Command {
    static let name = "redact"
    static let abstract = "Redact secrets from a log file or standard input, streaming to standard output."
    static let help = """
        USAGE: pinctl redact [FILE]

        Applies PinKit's log sanitizer line by line: bearer tokens, URLs (kept as scheme and
        host), email addresses, UUIDs, JWTs and long tokens are replaced. Reads FILE, or
        standard input when FILE is absent or "-". Streams: memory holds one line at a time
        (a line longer than 16 MiB is redacted in 16 MiB pieces).

        OPTIONS:
          -h, --help       show this help

        EXIT CODES: 0 done; 2 usage error (including an unreadable file).
        """

    static let maximumLine = 16 << 20

    var path: String?

    init(parsing arguments: inout Arguments) throws(UsageError) {
        let rest = try arguments.positionals()
        guard rest.count <= 1 else { throw UsageError("give at most one file") }
        path = rest.first.flatMap { $0 == "-" ? nil : $0 }
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        let input: FileHandle
        if let path {
            try requireReadable(path)
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw CommandFailure(.usage, "cannot open \(path)")
            }
            input = handle
        } else {
            input = FileHandle.standardInput
        }
        var pending: [UInt8] = []
        var output: [UInt8] = []
        func flush() {
            StandardOutput.write(output)
            output.removeAll(keepingCapacity: true)
        }
        while true {
            let chunk = input.readData(ofLength: 1 << 16)
            if chunk.isEmpty { break }
            pending.append(contentsOf: chunk)
            var lineStart = 0
            while let newline = pending[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
                output += LogSanitizer.redact(bytes: pending[lineStart..<newline])
                output.append(UInt8(ascii: "\n"))
                lineStart = newline + 1
            }
            pending.removeFirst(lineStart)
            if pending.count >= Self.maximumLine {
                output += LogSanitizer.redact(bytes: pending)
                pending.removeAll(keepingCapacity: true)
            }
            if output.count >= 1 << 16 { flush() }
        }
        output += LogSanitizer.redact(bytes: pending)
        flush()
        return .success
    }
}
