public import Foundation

/// The security audit trail: typed events appended as JSON lines, each carrying the SHA-256 of
/// the previous line, so a removed, reordered or edited entry is detected (``AuditLogVerifier``).
///
/// Line format: `{"seq":N,"time":"…Z","type":"…","fields":{…},"prev":"<hex sha256 of line N-1>"}`;
/// the first entry's `prev` is 64 zeros. A head file (`<path>.head`) keeps the last sequence number
/// and hash, so removing or editing the newest entry is detected too. When the log outgrows its
/// limit, or the server has acknowledged entries, the oldest entries are cut and the file starts
/// with an explicit marker `{"type":"truncated","seq":K,"anchor":"<hash of entry K>","removed":N}`.
///
/// > Warning: the chain is evidence against accidental and naive tampering on the device, not
/// > against an attacker who rewrites the whole file; uploaded entries anchor it on the server.
public final class AuditLog: Sendable {
    public static let genesis = String(repeating: "0", count: 64)
    /// The largest sequence number (2^53 - 1, exact in every JSON tool). A line claiming more
    /// is corrupt: it must never make the writer or the verifier overflow.
    public static let maximumSequence: Int64 = 9_007_199_254_740_991

    public let path: String
    public let maximumBytes: Int
    private let now: @Sendable () -> Date
    private let state: Locked<State>

    private struct State {
        var handle: FileHandle
        var nextSeq: Int64
        var lastHash: String
        var size: Int
    }

    /// Opens (or creates) the log. A torn last line from a crash is cut off and noted.
    /// - Throws: ``PinKitError/Code/io`` when the file cannot be created or opened.
    public init(path: String, maximumBytes: Int = 1 << 20, now: @escaping @Sendable () -> Date = { Date() })
        throws(PinKitError)
    {
        self.path = path
        self.maximumBytes = max(4096, maximumBytes)
        self.now = now
        let manager = FileManager.default
        if !manager.fileExists(atPath: path) {
            guard manager.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw PinKitError(.io, "cannot create the audit log \(path)")
            }
        }
        var data = manager.contents(atPath: path) ?? Data()
        var tornBytes = 0
        if let lastNewline = data.lastIndex(of: UInt8(ascii: "\n")), lastNewline != data.count - 1 {
            tornBytes = data.count - lastNewline - 1
            data = data.prefix(lastNewline + 1)
        } else if data.lastIndex(of: UInt8(ascii: "\n")) == nil && !data.isEmpty {
            tornBytes = data.count
            data = Data()
        }
        if tornBytes > 0 {
            guard let handle = FileHandle(forWritingAtPath: path) else { throw PinKitError(.io, "cannot open \(path)") }
            try? handle.truncate(atOffset: UInt64(data.count))
            try? handle.close()
        }
        let (nextSeq, lastHash) = Self.tail(of: data)
        guard let handle = FileHandle(forWritingAtPath: path) else { throw PinKitError(.io, "cannot open \(path)") }
        _ = try? handle.seekToEnd()
        state = Locked(State(handle: handle, nextSeq: nextSeq, lastHash: lastHash, size: data.count))
        if tornBytes > 0 { record(type: "recovered", fields: ["discardedBytes": .int(tornBytes)]) }
    }

    /// The sequence number and hash that the next entry continues from.
    static func tail(of data: Data) -> (nextSeq: Int64, lastHash: String) {
        guard let last = data.split(separator: UInt8(ascii: "\n")).last,
            let value = try? JSONParser.parse(last), case .number(let seqText)? = value["seq"],
            let seq = Int64(seqText),
            (0..<maximumSequence).contains(seq)
        else { return (1, genesis) }
        if value["type"] == "truncated", case .string(let anchor)? = value["anchor"] { return (seq + 1, anchor) }
        return (seq + 1, PortableSHA256.hex(last))
    }

    /// Appends an event.
    public func record(_ event: AuditEvent) { record(type: event.type, fields: event.fields) }

    private func record(type: String, fields: JSONValue) {
        state.withLock { state in
            let entry: JSONValue = [
                "seq": .int(state.nextSeq), "time": .string(RFC3339.format(now())), "type": .string(type),
                "fields": fields, "prev": .string(state.lastHash),
            ]
            let line = entry.serialized()
            do {
                try state.handle.write(contentsOf: Data((line + "\n").utf8))
            } catch {
                return
            }
            state.lastHash = PortableSHA256.hex(Array(line.utf8))
            state.size += line.utf8.count + 1
            writeHead(seq: state.nextSeq, hash: state.lastHash)
            state.nextSeq += 1
            if state.size > maximumBytes { truncate(&state, keepingBytes: maximumBytes / 2, through: nil) }
        }
    }

    private func writeHead(seq: Int64, hash: String) {
        let head: JSONValue = ["seq": .int(seq), "hash": .string(hash)]
        let temporary = path + ".head.tmp"
        if FileManager.default.createFile(atPath: temporary, contents: Data(head.serialized().utf8)) {
            rename(temporary, path + ".head")
        }
    }

    /// Entries up to the newest, for upload: the JSON lines and the last sequence number.
    public func uploadDocument() -> (body: [UInt8], throughSeq: Int64) {
        state.withLock { state in
            let data = FileManager.default.contents(atPath: path) ?? Data()
            let entries = data.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONParser.parse($0) }
            let document: JSONValue = ["entries": .array(entries)]
            return (Array(document.serialized().utf8), state.nextSeq - 1)
        }
    }

    /// Removes entries up to `seq` (acknowledged by the server), leaving a truncation marker.
    public func acknowledge(throughSeq seq: Int64) {
        state.withLock { state in truncate(&state, keepingBytes: Int.max, through: seq) }
    }

    /// Rewrites the file keeping the newest entries (at most `keepingBytes`, and none at or below
    /// `through`), behind a marker that anchors the first kept entry.
    private func truncate(_ state: inout State, keepingBytes: Int, through: Int64?) {
        let data = FileManager.default.contents(atPath: path) ?? Data()
        var lines = data.split(separator: UInt8(ascii: "\n")).map { Data($0) }
        var removed: [Data] = []
        var previousMarker: (seq: Int64, anchor: String, removed: Int)?
        if let first = lines.first, let value = try? JSONParser.parse(first), value["type"] == "truncated",
            case .number(let seqText)? = value["seq"], let seq = Int64(seqText),
            case .string(let anchor)? = value["anchor"]
        {
            let count = { if case .number(let n)? = value["removed"] { return Int(n) ?? 0 } else { return 0 } }()
            previousMarker = (seq, anchor, count)
            lines.removeFirst()
        }
        func seq(of line: Data) -> Int64 {
            if let value = try? JSONParser.parse(line), case .number(let text)? = value["seq"] {
                return Int64(text) ?? 0
            }
            return 0
        }
        while let first = lines.first,
            lines.reduce(0, { $0 + $1.count + 1 }) > keepingBytes || (through.map { seq(of: first) <= $0 } ?? false)
        {
            removed.append(lines.removeFirst())
        }
        guard let lastRemoved = removed.last else { return }
        let marker: JSONValue = [
            "seq": .int(seq(of: lastRemoved)), "time": .string(RFC3339.format(now())), "type": "truncated",
            "anchor": .string(PortableSHA256.hex(lastRemoved)),
            "removed": .int(removed.count + (previousMarker?.removed ?? 0)),
        ]
        var output = Data((marker.serialized() + "\n").utf8)
        for line in lines { output += line + Data([UInt8(ascii: "\n")]) }
        let temporary = path + ".tmp"
        guard
            FileManager.default.createFile(atPath: temporary, contents: output, attributes: [.posixPermissions: 0o600]),
            rename(temporary, path) == 0, let handle = FileHandle(forWritingAtPath: path)
        else { return }
        _ = try? handle.seekToEnd()
        try? state.handle.close()
        state.handle = handle
        state.size = output.count
        if lines.isEmpty { state.lastHash = PortableSHA256.hex(lastRemoved) }
    }
}
