import PinKitTestSupport
import Testing

@testable import PinKit

/// Rule 2's key words are compared without walking ``LogSanitizer/credentialKeys``: a switch on
/// the last letter (`CredentialRule.keyWordStart(endingAt:from:)`) and a table of the two bytes a
/// key word may end in (`Classes.keyPairs`, which `keyMayEnd(before:bound:)` reads). Both must say
/// what the list says, for every key in every case, after any prefix, and for every other pair.
@Suite("Log sanitizer key words")
struct LogSanitizerKeyWordTests {
    static func keyStart(_ text: String, from start: Int = 0) -> Int? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            CredentialRule(text: SanitizerInput(input: buffer, counter: LogSanitizer.Uncounted()))
                .keyWordStart(endingAt: buffer.count, from: start)
        }
    }

    /// The list's answer: the start of the key that ends the text, at or after `start`.
    static func listStart(_ text: String, from start: Int = 0) -> Int? {
        let lowered = Array(text.lowercased().utf8)
        for key in LogSanitizer.credentialKeys {
            let word = Array(key.utf8)
            let keyStart = lowered.count - word.count
            if keyStart >= start, Array(lowered[keyStart...]) == word {
                // `pass` is a key only where no word's tail: at the bound, after no lower-case
                // letter or `]`, or with its `p` upper case. (No escape in these texts.)
                guard key == "pass", keyStart > start else { return keyStart }
                let original = Array(text.utf8)
                let before = original[keyStart - 1]
                let inWord = (0x61...0x7A).contains(before) || before == UInt8(ascii: "]")
                return !inWord || original[keyStart] == UInt8(ascii: "P") ? keyStart : nil
            }
        }
        return nil
    }

    @Test(
        "pass is a key where it starts a word or a camel-case hump, not inside a word",
        arguments: [
            ("pass", 0), ("DB_PASS", 3), ("smtpPass", 4), ("db.pass", 3), ("db-pass", 3), ("bypass", nil),
            ("compass", nil), ("db2pass", 3), ("BYPASS", 2), ("x\\npass", 3), ("user%26pass", 7), ("q%0apass", 4),
            ("x\\x0apass", 5), ("x\\u000apass", 7), ("x%0gpass", nil), ("[redacted-uuid]pass", nil),
            ("[redacted-uuid]Pass", 15),
        ] as [(String, Int?)]
    )
    func passBoundary(_ text: String, _ start: Int?) {
        #expect(Self.keyStart(text) == start, "\(text)")
        let value = text + "=hunter2"
        #expect(LogSanitizer.redact(value).contains("hunter2") == (start == nil), "\(LogSanitizer.redact(value))")
        #expect(RegexReferenceSanitizer.redact(value) == LogSanitizer.redact(value))
        // A logger's metadata key is read as the same key in text is.
        #expect((LogSanitizer.redact("hunter2", key: text) != "hunter2") == (start != nil))
    }

    @Test("every key is found in upper, lower and mixed case, after a prefix, and only within bounds")
    func everyKeyIsFound() {
        for key in LogSanitizer.credentialKeys {
            let mixed = String(
                key.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element })
            for form in [key, key.uppercased(), mixed] {
                for prefix in ["", "x_", "DB.", "client-"] {
                    let text = prefix + form
                    #expect(Self.keyStart(text) == prefix.utf8.count, "\(text)")
                    #expect(Self.keyStart(text) == Self.listStart(text))
                    // A start past the key's first byte: no key (the list agrees).
                    #expect(Self.keyStart(text, from: prefix.utf8.count + 1) == nil, "\(text)")
                    #expect(Self.listStart(text, from: prefix.utf8.count + 1) == nil)
                }
            }
        }
    }

    @Test("near misses are no key, as the list says")
    func nearMissesAreNoKey() {
        // Each key with one letter changed, cut short, or with its last letter doubled.
        var tried = 0
        for key in LogSanitizer.credentialKeys {
            var variants = [String(key.dropFirst()), String(key.dropLast()), key + String(key.last!)]
            for index in key.indices where key[index].isLetter {
                var changed = key
                changed.replaceSubrange(index...index, with: key[index] == "q" ? "z" : "q")
                variants.append(changed)
            }
            for variant in variants {
                #expect(Self.keyStart(variant) == Self.listStart(variant), "\(variant)")
                tried += 1
            }
        }
        #expect(tried > 150)
    }

    /// The pair table admits exactly the pairs some key word (or a form part's `name`, or `%5D`)
    /// ends in, in any case.
    @Test("the pair table admits exactly the endings of the key words, name and %5D")
    func pairTableAdmitsTheEndings() {
        let endings = Set((LogSanitizer.credentialKeys + ["value", "name", "%5d"]).map { String($0.suffix(2)) })
        let table = LogSanitizer.Classes.table + LogSanitizer.Classes.keyPairs
        var admitted = 0
        for previous in 0...255 {
            for last in 0...255 {
                let admits = table[previous] & table[last] >> 16 != 0
                let lowered = [UInt8(previous), UInt8(last)].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
                let expected = endings.contains(String(decoding: lowered, as: UTF8.self))
                if admits != expected {
                    Issue.record("pair \(previous) \(last): table \(admits), endings \(expected)")
                }
                if admits { admitted += 1 }
            }
        }
        // 14 endings, each in up to four cases ("5d" in two).
        #expect(admitted == 13 * 4 + 2)
    }

    /// `SanitizerInput.matches(_:at:end:)` compares eight bytes at a time (a word with the case bit
    /// folded where the literal has a letter) when the words fit in the input, a byte at a time
    /// otherwise: both must say what a byte-by-byte, case-insensitive comparison says.
    @Test("the word comparison agrees with a byte-by-byte one, for every case, flipped bit and cut")
    func wordComparisonAgreesWithBytes() {
        func check(_ literal: StaticString, _ word: String) -> Int {
            let pattern = Array(word.utf8)
            var variants: [[UInt8]] = []
            for caseBits in 0..<(1 << min(pattern.count, 8)) {
                var cased = pattern
                for index in pattern.indices where index < 8 && caseBits & (1 << index) != 0 && cased[index] >= 0x61 {
                    cased[index] ^= 0x20
                }
                variants.append(cased)
            }
            for index in pattern.indices {
                for flip: UInt8 in [0x20, 0x01, 0x40, 0x80] {
                    var changed = pattern
                    changed[index] ^= flip
                    variants.append(changed)
                }
            }
            var agreed = 0
            for variant in variants {
                // At the start, in the middle, and ending 0 to 9 bytes before the input's end.
                for (before, after) in [(0, 20), (5, 16)] + (0...9).map { (3, $0) } {
                    let line =
                        [UInt8](repeating: 0x78, count: before) + variant + [UInt8](repeating: 0x78, count: after)
                    let expected = variant.indices.allSatisfy { offset in
                        let byte = variant[offset]
                        return (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == pattern[offset]
                    }
                    let found = line.withUnsafeBufferPointer { buffer in
                        SanitizerInput(input: buffer, counter: LogSanitizer.Uncounted())
                            .matches(literal, at: before, end: buffer.count)
                    }
                    if found == expected { agreed += 1 } else { Issue.record("\(word) in \(line)") }
                    // Cut short by `end`: never a match.
                    let cut = line.withUnsafeBufferPointer { buffer in
                        SanitizerInput(input: buffer, counter: LogSanitizer.Uncounted())
                            .matches(literal, at: before, end: before + variant.count - 1)
                    }
                    #expect(!cut)
                }
            }
            return agreed
        }
        var agreed = 0
        agreed += check("authorization", "authorization")
        agreed += check("cookie", "cookie")
        agreed += check("session_id", "session_id")
        agreed += check("api-key", "api-key")
        agreed += check("%5d", "%5d")
        agreed += check("bearer", "bearer")
        agreed += check("x", "x")
        agreed += check("passwd", "passwd")
        #expect(agreed > 4_000)
    }
}
