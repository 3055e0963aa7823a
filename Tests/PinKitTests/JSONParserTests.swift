import PinKitTestSupport
import Testing

@testable import PinKit

@Suite("JSON parser")
struct JSONParserTests {
    @Test("parses every value kind and keeps member order")
    func values() throws {
        let value = try JSONParser.parse(
            #"{"b": [1, -2.5e3, true, false, null], "a": "x\u00e9\ud83d\ude00\n\"", "c": {}}"#)
        guard case .object(let members) = value else {
            Issue.record("expected an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a", "c"])
        #expect(value["b"] == [.number("1"), .number("-2.5e3"), true, false, nil])
        #expect(value["a"] == .string("xé😀\n\""))
        #expect(value["c"] == .object([]))
    }

    @Test(
        "malformed documents name the problem and the position",
        arguments: [
            ("", "unexpected end of input", 1, 1),
            ("{\"a\": 1,}", "expected a string key", 1, 9),
            ("[1, 2,]", "expected a value", 1, 7),
            ("{\"a\": 1, \"a\": 2}", "duplicate key \"a\"", 1, 10),
            ("{\n  \"a\": 01\n}", "leading zeros", 2, 9),
            ("{\n  \"a\": tru\n}", "expected 'true'", 2, 8),
            ("\"abc", "unterminated string", 1, 1),
            ("\"a\tb\"", "control character", 1, 3),
            ("\"\\ud800\"", "lone high surrogate", 1, 2),
            ("\"\\udc00\"", "lone low surrogate", 1, 2),
            ("\"\\x\"", "invalid escape", 1, 2),
            ("{} x", "after the end", 1, 4),
            ("1.", "digit after '.'", 1, 3),
            ("-", "expected a digit", 1, 2),
            ("{\"a\" 1}", "expected ':'", 1, 6),
        ]
    )
    func malformed(_ text: String, _ fragment: String, _ line: Int, _ column: Int) {
        #expect {
            try JSONParser.parse(text)
        } throws: { error in
            guard let error = error as? PinKitError, error.code == .malformedJSON else { return false }
            return error.reason.contains(fragment) && error.reason.hasSuffix("at line \(line), column \(column)")
        }
    }

    @Test("invalid UTF-8 inside a string is rejected")
    func invalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        #expect(throws: PinKitError.self) { try JSONParser.parse(bytes) }
    }

    @Test("deep nesting is refused instead of exhausting the stack")
    func depth() throws {
        let shallow = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        _ = try JSONParser.parse(shallow)
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: PinKitError.self) { try JSONParser.parse(deep) }
    }

    @Test("serialising then parsing gives the same value")
    func roundTrip() throws {
        let value: JSONValue = [
            "s": "quote \" backslash \\ control \u{01} é", "n": .int(-42), "a": [true, nil, .number("1.5e-3")],
            "o": ["nested": [:]],
        ]
        #expect(try JSONParser.parse(value.serialized()) == value)
        #expect(try JSONParser.parse(value.serialized(pretty: true)) == value)
    }

    @Test("random bytes: every input either round-trips or fails as malformed JSON with a position")
    func randomBytes() throws {
        // Seeded, so a failure names an input that reproduces.
        var generator = SeededGenerator(seed: 0x4A53_4F4E)
        let alphabet = Array(#"{}[],:"\ 0123456789.eE+-truefalsn"#.utf8) + [0x00, 0xFF, 0xC3]
        var parsed = 0
        var refused = 0
        for _ in 0..<5_000 {
            let length = Int.random(in: 0..<12, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            do {
                let value = try JSONParser.parse(bytes)
                // Accepted: it means what it says, so writing it out and reading it back is the same value.
                #expect(try JSONParser.parse(value.serialized()) == value, "\(bytes)")
                parsed += 1
            } catch {
                #expect(error.code == .malformedJSON, "\(bytes): \(error)")
                #expect(error.reason.contains("line") && error.reason.contains("column"), "\(bytes): \(error)")
                refused += 1
            }
        }
        // Both outcomes occur, so the checks above ran on each kind.
        #expect(parsed > 0 && refused > 0, "parsed \(parsed), refused \(refused)")
    }
}

@Suite("RFC 3339 dates")
struct RFC3339Tests {
    @Test(
        "valid timestamps",
        arguments: [
            ("1970-01-01T00:00:00Z", 0.0), ("2028-06-01T00:00:00Z", 1_843_430_400),
            ("2000-02-29T12:00:00z", 951_825_600),
            ("2028-06-01T02:00:00+02:00", 1_843_430_400), ("2028-05-31T19:00:00-05:00", 1_843_430_400),
            ("1970-01-01T00:00:00.5Z", 0.5), ("1969-12-31T23:59:59Z", -1),
        ]
    )
    func valid(_ text: String, _ seconds: Double) {
        #expect(RFC3339.parse(text)?.timeIntervalSince1970 == seconds)
    }

    @Test(
        "invalid timestamps",
        arguments: [
            "", "2028-06-01", "2028-06-01T00:00:00", "2028-13-01T00:00:00Z", "2027-02-29T00:00:00Z",
            "2028-06-01T24:00:00Z", "2028-06-01T00:00:00Zjunk", "2028-06-01 00:00:00Z", "2028-06-01T00:00:00.Z",
            "2028-06-01T00:00:00+0200",
        ]
    )
    func invalid(_ text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test("formatting round-trips across eras")
    func roundTrip() {
        for seconds in stride(from: -2_000_000_000, through: 4_000_000_000, by: 37_123_457) {
            let date = RFC3339.parse(RFC3339.format(.init(timeIntervalSince1970: Double(seconds))))
            #expect(date?.timeIntervalSince1970 == Double(seconds))
        }
    }
}
