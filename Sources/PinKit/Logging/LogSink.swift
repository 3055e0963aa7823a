import Foundation

/// Where redacted records go. Deliberately opaque: there is no public way to write to a sink
/// except through ``RedactingLogger``, so nothing reaches a sink unredacted.
public struct LogSink: Sendable {
    private let backend: any LogBackend

    private init(_ backend: any LogBackend) { self.backend = backend }

    func write(_ record: LogRecord) { backend.write(record) }

    /// Text lines on standard error.
    public static let standardError = LogSink(StandardErrorBackend())

    /// JSON lines appended to `path`; when the file would exceed `maximumBytes` it is renamed to
    /// `path.1` (older files shift up to `path.<keep>`, the oldest is deleted) and a new file starts.
    /// - Throws: ``PinKitError/Code/io`` when the file cannot be opened.
    public static func jsonLinesFile(path: String, maximumBytes: Int = 1 << 20, keep: Int = 3) throws(PinKitError)
        -> LogSink
    {
        LogSink(try RotatingFileBackend(path: path, maximumBytes: maximumBytes, keep: keep))
    }

    /// Records kept in memory, for tests and diagnostics screens.
    public static func memory(_ store: InMemoryLogStore) -> LogSink { LogSink(store) }
}

protocol LogBackend: Sendable {
    func write(_ record: LogRecord)
}

/// Redacted records held in memory.
public final class InMemoryLogStore: LogBackend, Sendable {
    private let storage = Locked<[LogRecord]>([])
    public init() {}
    public var records: [LogRecord] { storage.withLock { $0 } }
    func write(_ record: LogRecord) { storage.withLock { $0.append(record) } }
}

private struct StandardErrorBackend: LogBackend {
    func write(_ record: LogRecord) { FileHandle.standardError.write(Data((record.text + "\n").utf8)) }
}

private final class RotatingFileBackend: LogBackend, Sendable {
    private let path: String
    private let maximumBytes: Int
    private let keep: Int
    private let state: Locked<(handle: FileHandle, size: Int)>

    init(path: String, maximumBytes: Int, keep: Int) throws(PinKitError) {
        self.path = path
        self.maximumBytes = max(1024, maximumBytes)
        self.keep = max(1, keep)
        state = Locked(try Self.open(path))
    }

    private static func open(_ path: String) throws(PinKitError) -> (handle: FileHandle, size: Int) {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            else { throw PinKitError(.io, "cannot create the log file \(path)") }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw PinKitError(.io, "cannot open the log file \(path)")
        }
        let size = Int((try? handle.seekToEnd()) ?? 0)
        return (handle, size)
    }

    func write(_ record: LogRecord) {
        let line = Data((record.json.serialized() + "\n").utf8)
        state.withLock { state in
            if state.size > 0 && state.size + line.count > maximumBytes {
                try? state.handle.close()
                rotate()
                if let reopened = try? Self.open(path) { state = reopened }
            }
            do {
                try state.handle.write(contentsOf: line)
                state.size += line.count
            } catch {
                // A full disk must not take the app down; the record is lost.
            }
        }
    }

    private func rotate() {
        let manager = FileManager.default
        try? manager.removeItem(atPath: "\(path).\(keep)")
        for index in stride(from: keep - 1, through: 1, by: -1) {
            try? manager.moveItem(atPath: "\(path).\(index)", toPath: "\(path).\(index + 1)")
        }
        try? manager.moveItem(atPath: path, toPath: "\(path).1")
    }
}
