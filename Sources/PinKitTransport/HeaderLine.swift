/// One line of a response head as libcurl hands it to the header callback, classified on its
/// bytes.
///
/// Why bytes: the callback runs for every header line of every response on the engine thread,
/// and the Foundation `trimmingCharacters(in:)` it used before (an NSString round trip per line)
/// was the largest Swift cost of a fresh-connection request (profiled with perf against nginx).
/// Only HTTP's own whitespace is trimmed (SP, HTAB, and the line's CR LF; RFC 9110 section 5.6.3):
/// other Unicode spaces are part of a value, and a line of them is not the end of the head.
package enum HeaderLine: Equatable {
    /// `HTTP/...`: a new response head starts (after a 1xx, or a proxy's answer).
    case statusLine
    /// The blank line that ends a head.
    case end
    /// `name: value`, the value without surrounding whitespace. Invalid UTF-8 is repaired.
    case field(name: String, value: String)
    /// Anything else (no colon): ignored, as before.
    case other

    package init(_ line: UnsafeBufferPointer<UInt8>) {
        var start = line.startIndex
        var end = line.endIndex
        while start < end, Self.isWhitespace(line[start]) { start += 1 }
        while end > start, Self.isWhitespace(line[end - 1]) { end -= 1 }
        guard start < end else {
            self = .end
            return
        }
        let trimmed = UnsafeBufferPointer(rebasing: line[start..<end])
        if trimmed.starts(with: Self.httpPrefix) {
            self = .statusLine
            return
        }
        guard let colon = trimmed.firstIndex(of: UInt8(ascii: ":")) else {
            self = .other
            return
        }
        var valueStart = colon + 1
        while valueStart < trimmed.endIndex, Self.isWhitespace(trimmed[valueStart]) { valueStart += 1 }
        self = .field(
            name: String(decoding: UnsafeBufferPointer(rebasing: trimmed[..<colon]), as: UTF8.self),
            value: String(decoding: UnsafeBufferPointer(rebasing: trimmed[valueStart...]), as: UTF8.self)
        )
    }

    private static let httpPrefix = Array("HTTP/".utf8)

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}

extension HeaderLine {
    /// Classifies `line` (tests).
    package init(_ line: some Collection<UInt8>) {
        self = Array(line).withUnsafeBufferPointer { HeaderLine($0) }
    }
}
