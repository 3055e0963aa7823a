import Foundation
import PinKit

/// `pinctl redact`: the log sanitizer as a filter, for operators who share logs.
struct RedactCommand: Command {
    static let name = "redact"
    static let abstract = "Redact secrets from a log file or standard input, streaming to standard output."
    static let help = """
        USAGE: pinctl redact [FILE]

        Applies PinKit's log sanitizer line by line: URLs (kept as scheme and host), credentials
        in headers and key=value pairs, bearer tokens, email addresses, UUIDs, JWTs and long
        tokens are replaced; labelled pins stay. Reads FILE, or standard input when FILE is
        absent or "-". Streams: memory holds one line at a time. A line longer than 16 MiB is
        cut only after a carriage return, where no rule can match across; a longer line
        without one is held whole, so the output never depends on where a piece ended.

        OPTIONS:
          -h, --help       show this help

        EXIT CODES: 0 done; 2 usage error (including an unreadable file).
        """

    /// 16 MiB; the environment variable `PINCTL_REDACT_PIECE_BYTES` (at least 4096) lowers it so
    /// tests can cross the boundary without 16 MiB inputs.
    static let maximumLine: Int = {
        guard let text = ProcessInfo.processInfo.environment["PINCTL_REDACT_PIECE_BYTES"], let value = Int(text),
            value >= 4096
        else { return 16 << 20 }
        return min(value, 16 << 20)
    }()

    var path: String?

    init(parsing arguments: inout Arguments) throws(UsageError) {
        let rest = try arguments.positionals()
        guard rest.count <= 1 else { throw UsageError("give at most one file") }
        path = rest.first.flatMap { $0 == "-" ? nil : $0 }
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        let input: FileHandle
        if let path {
            try Loading.requireReadable(path)
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw CommandFailure(.usage, "cannot open \(path)")
            }
            input = handle
        } else {
            input = FileHandle.standardInput
        }
        var pending: [UInt8] = []
        // `pending[..<searched]` holds no line feed; `carriageReturn` is the last CR in it. Only new
        // bytes are searched, so a very long line costs linear time, not a rescan per chunk.
        var searched = 0
        var carriageReturn: Int?
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
            while let newline = pending[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                output += LogSanitizer.redact(bytes: pending[lineStart..<newline])
                output.append(UInt8(ascii: "\n"))
                lineStart = newline + 1
                searched = lineStart
                carriageReturn = nil
            }
            if let last = pending[searched...].lastIndex(of: 0x0D) { carriageReturn = last }
            pending.removeFirst(lineStart)
            searched = pending.count
            carriageReturn = carriageReturn.map { $0 - lineStart }
            // No match contains a line break and no rule looks across one, so cutting right after
            // a carriage return gives the same output as redacting the line whole. Anywhere else a
            // secret straddling the cut would survive the first pass.
            if pending.count >= Self.maximumLine, let cut = carriageReturn {
                output += LogSanitizer.redact(bytes: pending[...cut])
                pending.removeFirst(cut + 1)
                searched = pending.count
                carriageReturn = nil
            }
            if output.count >= 1 << 16 { flush() }
        }
        output += LogSanitizer.redact(bytes: pending)
        flush()
        return .success
    }
}
