public import Foundation

/// Pin-failure reports kept on disk until the reporting server acknowledges them.
///
/// - Crash-safe: an append-only file, one framed record a line (`v1 <crc32> <json>`). A torn
///   last write, a truncated file or appended garbage loses nothing earlier: reading skips every
///   line whose frame or checksum does not hold. Counts are written as absolute values, so
///   replaying the file is idempotent. Compaction writes a new file and renames it into place.
/// - Deduplicated across restarts: the same host, port, verified-chain keys and known pins within
///   ``Limits/deduplicationWindow`` of the first occurrence raise a count instead of adding a report.
/// - Bounded by count and bytes: the oldest reports are dropped and the number dropped is kept and
///   uploaded too.
/// - Thread-safe: every operation holds one lock, so concurrent writers lose nothing.
public final class PinFailureReportStore: Sendable {
    public struct Limits: Sendable {
        public var maximumReports = 50
        /// Sum of the reports' JSON sizes.
        public var maximumBytes = 256 * 1024
        public var deduplicationWindow: TimeInterval = 24 * 3600
        public init() {}
    }

    /// One stored report with its bookkeeping.
    public struct Entry: Hashable, Sendable {
        public var id: String
        public var report: PinFailureReport
        public var key: String
        public var firstSeen: Date
        public var lastSeen: Date
        /// How many identical failures this entry stands for (1 + suppressed duplicates).
        public var count: Int
        var size: Int
    }

    private struct State {
        var handle: FileHandle
        var entries: [Entry] = [] {
            didSet { liveBytes = entries.reduce(0) { $0 + $1.size } }
        }
        var dropped = 0
        var fileLines = 0
        /// The sum of the live reports' JSON sizes, kept with `entries`.
        var liveBytes = 0
    }

    public let path: String
    public let limits: Limits
    private let state: Locked<State>

    /// Opens (or creates) the store in `directory`, recovering every complete record.
    /// - Throws: ``PinKitError/Code/io`` when the directory or file cannot be created or read.
    public init(directory: String, limits: Limits = Limits()) throws(PinKitError) {
        self.path = (directory as NSString).appendingPathComponent("pin-failure-reports.log")
        self.limits = limits
        do {
            try FileManager.default.createDirectory(
                atPath: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw PinKitError(.io, "cannot create \(directory): \(error)")
        }
        var recovered = State(handle: FileHandle.nullDevice)
        if let data = FileManager.default.contents(atPath: path) {
            Self.replay(data, into: &recovered)
        }
        // Start from a clean file holding exactly the recovered state.
        try Self.rewrite(path: path, state: &recovered)
        state = Locked(recovered)
    }

    /// Reads the store in `directory` without changing it (for `pinctl reports show`).
    /// - Throws: ``PinKitError/Code/io`` when there is no store there.
    public static func snapshot(directory: String) throws(PinKitError) -> (entries: [Entry], dropped: Int) {
        let path = (directory as NSString).appendingPathComponent("pin-failure-reports.log")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PinKitError(.io, "no report store at \(directory) (expected \(path))")
        }
        return recover(from: data)
    }

    /// Every intact record of a store file's bytes, replayed (what opening the store recovers).
    public static func recover(from data: Data) -> (entries: [Entry], dropped: Int) {
        var state = State(handle: FileHandle.nullDevice)
        replay(data, into: &state)
        return (state.entries, state.dropped)
    }

    /// The stored reports, oldest first.
    public var entries: [Entry] { state.withLock { $0.entries } }
    /// Reports dropped to stay within the limits and not yet reported to the server.
    public var droppedCount: Int { state.withLock { $0.dropped } }

    /// Whether ``record(_:)`` would only raise the count of a stored report.
    public func holdsDuplicate(of report: PinFailureReport) -> Bool {
        let key = report.deduplicationKey
        return state.withLock { state in state.entries.contains { isDuplicate($0, key: key, report: report) } }
    }

    private func isDuplicate(_ entry: Entry, key: String, report: PinFailureReport) -> Bool {
        entry.key == key && report.event.date.timeIntervalSince(entry.firstSeen) < limits.deduplicationWindow
            && report.event.date >= entry.firstSeen
    }

    /// Records a failure, or raises the count of an identical one seen within the window.
    /// - Returns: the entry's id.
    @discardableResult
    public func record(_ report: PinFailureReport) -> String {
        let key = report.deduplicationKey
        return state.withLock { state in
            if let index = state.entries.firstIndex(where: { isDuplicate($0, key: key, report: report) }) {
                state.entries[index].count += 1
                state.entries[index].lastSeen = max(state.entries[index].lastSeen, report.event.date)
                let entry = state.entries[index]
                append(
                    [
                        "op": "seen", "id": .string(entry.id), "count": .int(entry.count),
                        "last": .string(RFC3339.format(entry.lastSeen)),
                    ],
                    to: &state
                )
                return entry.id
            }
            let entry = Entry(
                id: UUID().uuidString.lowercased(),
                report: report,
                key: key,
                firstSeen: report.event.date,
                lastSeen: report.event.date,
                count: 1,
                size: report.json.serialized().utf8.count
            )
            state.entries.append(entry)
            append(Self.addRecord(entry), to: &state)
            enforceLimits(&state)
            return entry.id
        }
    }

    /// Removes the acknowledged reports (unknown ids are ignored) and subtracts the dropped
    /// count the server acknowledged.
    public func acknowledge(ids: [String], droppedReported: Int = 0) {
        state.withLock { state in
            let acknowledged = Set(ids)
            let before = state.entries.count
            state.entries.removeAll { acknowledged.contains($0.id) }
            if state.entries.count != before {
                append(["op": "remove", "ids": .array(ids.map(JSONValue.string))], to: &state)
            }
            if droppedReported > 0 {
                state.dropped = max(0, state.dropped - droppedReported)
                append(["op": "dropped", "total": .int(state.dropped)], to: &state)
            }
            // Flush to stable storage once the server has taken responsibility.
            try? state.handle.synchronize()
        }
    }

    /// The upload document: every stored report with its id and counts, and the dropped count.
    public func uploadDocument() -> (body: [UInt8], ids: [String], dropped: Int) {
        state.withLock { state in
            let reports: [JSONValue] = state.entries.map { entry in
                guard case .object(var members) = entry.report.json else { return .null }
                members.insert(("id", .string(entry.id)), at: 0)
                members.append(("count", .int(entry.count)))
                members.append(("first-seen", .string(RFC3339.format(entry.firstSeen))))
                members.append(("last-seen", .string(RFC3339.format(entry.lastSeen))))
                return .object(members)
            }
            let document: JSONValue = ["reports": .array(reports), "dropped-reports": .int(state.dropped)]
            return (Array(document.serialized().utf8), state.entries.map(\.id), state.dropped)
        }
    }

    // MARK: - Records

    private static func addRecord(_ entry: Entry) -> JSONValue {
        [
            "op": "add", "id": .string(entry.id), "key": .string(entry.key), "count": .int(entry.count),
            "first": .string(RFC3339.format(entry.firstSeen)), "last": .string(RFC3339.format(entry.lastSeen)),
            "report": entry.report.json,
        ]
    }

    static func frame(_ record: JSONValue) -> Data {
        let json = record.serialized()
        let crc = String(CRC32.checksum(json.utf8), radix: 16)
        return Data(("v1 " + String(repeating: "0", count: 8 - crc.count) + crc + " " + json + "\n").utf8)
    }

    private func append(_ record: JSONValue, to state: inout State) {
        do {
            try state.handle.write(contentsOf: Self.frame(record))
            state.fileLines += 1
        } catch {
            return  // a full disk loses this record, never earlier ones
        }
        // Compact when the log holds many more lines than live records.
        if state.fileLines > 4 * (state.entries.count + 8) {
            try? Self.rewrite(path: path, state: &state)
        }
    }

    private func enforceLimits(_ state: inout State) {
        var dropped: [String] = []
        let excess = state.entries.count - limits.maximumReports
        var bytes = state.liveBytes
        var cut = 0
        while cut < state.entries.count, cut < excess || bytes > limits.maximumBytes {
            bytes -= state.entries[cut].size
            dropped.append(state.entries[cut].id)
            cut += 1
        }
        if cut > 0 { state.entries.removeFirst(cut) }
        guard !dropped.isEmpty else { return }
        state.dropped += dropped.count
        append(["op": "remove", "ids": .array(dropped.map(JSONValue.string))], to: &state)
        append(["op": "dropped", "total": .int(state.dropped)], to: &state)
    }

    /// Applies every intact record of `data` in order; anything else is skipped.
    private static func replay(_ data: Data, into state: inout State) {
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            guard let record = decodeFrame(line), let op = record["op"] else { continue }
            switch op {
            case "add":
                guard case .string(let id)? = record["id"], case .string(let key)? = record["key"],
                    case .number(let countText)? = record["count"], let count = Int(countText),
                    case .string(let firstText)? = record["first"], let first = RFC3339.parse(firstText),
                    case .string(let lastText)? = record["last"], let last = RFC3339.parse(lastText),
                    count >= 1, first <= last,
                    let reportValue = record["report"], let report = try? PinFailureReport(json: reportValue),
                    !state.entries.contains(where: { $0.id == id })
                else { continue }
                let size = report.json.serialized().utf8.count
                state.entries.append(
                    Entry(id: id, report: report, key: key, firstSeen: first, lastSeen: last, count: count, size: size)
                )
            case "seen":
                guard case .string(let id)? = record["id"], case .number(let countText)? = record["count"],
                    let count = Int(countText), count >= 1, case .string(let lastText)? = record["last"],
                    let last = RFC3339.parse(lastText), let index = state.entries.firstIndex(where: { $0.id == id })
                else { continue }
                state.entries[index].count = max(state.entries[index].count, count)
                state.entries[index].lastSeen = max(state.entries[index].lastSeen, last)
            case "remove":
                guard case .array(let values)? = record["ids"] else { continue }
                let ids = Set(
                    values.compactMap { value -> String? in
                        if case .string(let id) = value { return id } else { return nil }
                    })
                state.entries.removeAll { ids.contains($0.id) }
            case "dropped":
                guard case .number(let text)? = record["total"], let total = Int(text), total >= 0 else { continue }
                state.dropped = total
            default:
                continue
            }
        }
    }

    /// The record in a `v1 <crc32> <json>` line, or nil when the frame or checksum does not hold.
    static func decodeFrame(_ line: Data.SubSequence) -> JSONValue? {
        let bytes = Array(line)
        guard bytes.count > 12, bytes.starts(with: Array("v1 ".utf8)), bytes[11] == UInt8(ascii: " "),
            let crc = UInt32(String(decoding: bytes[3..<11], as: UTF8.self), radix: 16)
        else { return nil }
        let json = bytes[12...]
        guard CRC32.checksum(json) == crc else { return nil }
        return try? JSONParser.parse(json)
    }

    /// Writes the state to a new file, syncs it, and renames it over `path`.
    private static func rewrite(path: String, state: inout State) throws(PinKitError) {
        var data = Data()
        for entry in state.entries { data += frame(addRecord(entry)) }
        if state.dropped > 0 { data += frame(["op": "dropped", "total": .int(state.dropped)]) }
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]),
            let tmpHandle = FileHandle(forWritingAtPath: temporary)
        else { throw PinKitError(.io, "cannot write \(temporary)") }
        try? tmpHandle.synchronize()
        try? tmpHandle.close()
        guard rename(temporary, path) == 0, let handle = FileHandle(forWritingAtPath: path) else {
            throw PinKitError(.io, "cannot replace \(path)")
        }
        _ = try? handle.seekToEnd()
        try? state.handle.close()
        state.handle = handle
        state.fileLines = state.entries.count + (state.dropped > 0 ? 1 : 0)
    }
}
