import Foundation

/// Text escaped the way a log line that carries JSON (or a printed Python value) in a string
/// writes it, escaped up to three times, and what the sanitizer must make of it: the ninth
/// session's oracle for runs of backslashes (`LogSanitizerEscapeDepthTests`, and the hunt's lines).
extension LogCorpus {
    /// JSON's escaping of a string's characters, as Python's `json.dumps(text, ensure_ascii=False)`
    /// writes them between the quotes.
    public static func jsonEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    out += "\\u00" + String(scalar.value, radix: 16).leftPadded(to: 2)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// `text` put through ``jsonEscaped(_:)`` `depth` times (text in a JSON string in a JSON string…).
    public static func jsonEscaped(_ text: String, depth: Int) -> String {
        (0..<depth).reduce(text) { escaped, _ in jsonEscaped(escaped) }
    }

    /// Python's `repr` of a string (`'…'`, or `"…"` when it holds `'` and no `"`).
    public static func pythonRepr(_ text: String) -> String {
        let quote: Character = text.contains("'") && !text.contains("\"") ? "\"" : "'"
        var out = String(quote)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if Character(scalar) == quote {
                    out += "\\" + String(quote)
                } else if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\x" + String(scalar.value, radix: 16).leftPadded(to: 2)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + String(quote)
    }

    /// What strings in the escaped forms are made of: the bytes that decide where a string or a
    /// structure ends.
    static let escapeAlphabet = ["\\", "\\", "\"", "'", "[", "]", "{", "}", ":", ",", " ", "a", "x", "\n"]

    mutating func escapeProbe(_ lengths: ClosedRange<Int>) -> String {
        (0..<Int.random(in: lengths, using: &generator)).map { _ in pick(Self.escapeAlphabet) }.joined()
    }

    /// A JSON document holding `"token"` with a string or a structure (nested up to three levels,
    /// strings of backslashes, quotes and brackets, the secret `hunter2` inside), escaped `depth`
    /// times, and the document with the value `[redacted-secret]` (a structure's content), escaped
    /// the same: what redaction must give, exactly.
    public mutating func escapedJSONCredential(depth: Int) -> (line: String, redacted: String) {
        func string() -> String { "\"" + Self.jsonEscaped(escapeProbe(0...8)) + "\"" }
        func value(_ levels: Int) -> String {
            guard levels > 0, chance(50) else { return chance(70) ? string() : pick(["1", "true", "null"]) }
            let members = (0..<Int.random(in: 0...3, using: &generator)).map { _ in value(levels - 1) }
            return chance(50)
                ? "[" + members.joined(separator: ", ") + "]"
                : "{" + members.map { string() + ": " + $0 }.joined(separator: ", ") + "}"
        }
        let secret = "\"" + Self.jsonEscaped(escapeProbe(0...6) + "hunter2" + escapeProbe(0...6)) + "\""
        let raw: String
        let redacted: String
        if chance(40) {
            raw = "{\"token\": " + secret + ", \"host\": \"example.com\"}"
            redacted = "{\"token\": \"[redacted-secret]\", \"host\": \"example.com\"}"
        } else {
            let members = (0..<Int.random(in: 0...2, using: &generator)).map { _ in value(2) } + [secret]
            let (open, close) = pick([("[", "]"), ("{", "}")])
            let inner =
                open == "["
                ? members.shuffled(using: &generator).joined(separator: ", ")
                : members.map { string() + ": " + $0 }.joined(separator: ", ")
            raw = "{\"token\": " + open + inner + close + ", \"host\": \"example.com\"}"
            redacted = "{\"token\": " + open + "[redacted-secret]" + close + ", \"host\": \"example.com\"}"
        }
        return (Self.jsonEscaped(raw, depth: depth), Self.jsonEscaped(redacted, depth: depth))
    }

    /// A Python list printed after `token=` (strings as `repr` writes them, `hunter2` among them),
    /// escaped `depth` times, and what redaction must give when no string of it holds a backslash
    /// before a `'` (nil otherwise: then the list may take the rest of the line, as a `'` after an
    /// even run of backslashes does not tell a plain string's end from a quote in an escaped one).
    public mutating func escapedPythonCredential(depth: Int) -> (line: String, redacted: String?) {
        let strings = (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.pythonRepr(escapeProbe(0...8)) }
        let secret = Self.pythonRepr(escapeProbe(0...4) + "hunter2" + escapeProbe(0...4))
        let members = (strings + [secret]).shuffled(using: &generator)
        let raw = "token=[" + members.joined(separator: ", ") + "] host=example.com"
        let ambiguous = members.contains { $0.contains("\\'") }
        let redacted = "token=[[redacted-secret]] host=example.com"
        return (Self.jsonEscaped(raw, depth: depth), ambiguous ? nil : Self.jsonEscaped(redacted, depth: depth))
    }
}

extension LogCorpus {
    /// URLs after runs of 0–17 backslashes and a quote, with runs in their bodies, hostless URLs
    /// whose bodies end in backslashes, and JSON-escaped URLs: where rule 1 decides a URL's string
    /// by the run before its quote.
    public mutating func escapedURLLine() -> String {
        (0..<Int.random(in: 2...8, using: &generator)).map { _ in
            pick([
                String(repeating: "\\", count: Int.random(in: 0...17, using: &generator)) + "\"",
                pick(["://", "https://h.example/p", "https:\\/\\/h.example\\/p", "x", "[redacted-url]", " ", "'"]),
                "\"://" + String(repeating: "\\", count: Int.random(in: 1...6, using: &generator)),
            ])
        }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
