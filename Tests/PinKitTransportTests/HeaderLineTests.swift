import PinKitTransport
import Testing

/// The header callback's byte-level classification: the same fields the Foundation-trimming
/// parser produced for well-formed heads, and HTTP's whitespace rules for the rest.
@Suite("Response head lines, classified on bytes")
struct HeaderLineTests {
    @Test(
        "lines as libcurl hands them over",
        arguments: [
            ("HTTP/1.1 200 OK\r\n", HeaderLine.statusLine),
            ("HTTP/2 200 \r\n", .statusLine),
            ("\r\n", .end),
            ("\n", .end),
            (" \t\r\n", .end),
            ("Content-Length: 3\r\n", .field(name: "Content-Length", value: "3")),
            ("Server:nginx\r\n", .field(name: "Server", value: "nginx")),
            ("X-Empty:\r\n", .field(name: "X-Empty", value: "")),
            ("X-Tabs:\t a b \t\r\n", .field(name: "X-Tabs", value: "a b")),
            ("Location: https://h/a:b\r\n", .field(name: "Location", value: "https://h/a:b")),
            ("no colon here\r\n", .other),
            // A line of non-HTTP whitespace is not the end of the head, and NBSP belongs to a value.
            ("\u{00A0}\r\n", .other),
            ("X-Nbsp: \u{00A0}v\u{00A0}\r\n", .field(name: "X-Nbsp", value: "\u{00A0}v\u{00A0}")),
        ])
    func classify(_ line: String, _ expected: HeaderLine) {
        #expect(HeaderLine(Array(line.utf8)) == expected)
    }

    @Test("invalid UTF-8 in a value is repaired, never a crash")
    func invalidUTF8() {
        let line: [UInt8] = Array("X-Bad: a".utf8) + [0xFF, 0xC3] + Array("\r\n".utf8)
        #expect(HeaderLine(line) == .field(name: "X-Bad", value: "a\u{FFFD}\u{FFFD}"))
    }
}
