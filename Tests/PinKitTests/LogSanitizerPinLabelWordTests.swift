import Testing

@testable import PinKit

/// Rule 6's labels are tried as one masked eight-byte word each (`PinLabel`,
/// `WordRules.labelMatches`, issue 15 §2): the word must say exactly what the byte-by-byte
/// comparison says, at every position of texts made of the labels, with each byte of a label
/// changed, and near the end of the text and of the region (where fewer than eight bytes are left,
/// the bytes are compared one at a time).
@Suite("Log sanitizer pin label words")
struct LogSanitizerPinLabelWordTests {
    /// The labels `labelledPinEnd` tries, as it writes them.
    static let labels: [StaticString] = [
        "/", "//", "=", "=\"", "=\\\"", "='", ":", ": ", "\":\"", "\": \"", "\" : \"", "\\\":\\\"", "\\\": \\\"",
        "\\/", "\\/\\/", "':'", "': '",
    ]

    static func bytes(_ label: StaticString) -> [UInt8] {
        Array(UnsafeBufferPointer(start: label.utf8Start, count: label.utf8CodeUnitCount))
    }

    /// Texts in which labels and near misses sit at every offset: each label, each label with one
    /// byte changed (to its neighbour in value, or to the next label's first byte), all joined.
    static var texts: [[UInt8]] {
        var pieces: [[UInt8]] = []
        for label in labels {
            let original = bytes(label)
            pieces.append(original)
            for offset in original.indices {
                var changed = original
                changed[offset] &+= 1
                pieces.append(changed)
                changed[offset] = UInt8(ascii: "\\")
                pieces.append(changed)
            }
        }
        let joined = pieces.flatMap { $0 + [UInt8(ascii: "x")] }
        // Short texts too, so that every label also meets the end of the input within eight bytes.
        return [joined] + pieces + pieces.map { [UInt8(ascii: "s")] + $0 }
    }

    @Test("each label's word holds its bytes, little-endian, and its length")
    func words() {
        for label in Self.labels {
            let word = PinLabel(stringLiteral: label)
            let expected = Self.bytes(label)
            #expect(word.length == expected.count)
            for (offset, byte) in expected.enumerated() {
                #expect(UInt8(truncatingIfNeeded: word.word >> (8 * offset)) == byte, "\(label) byte \(offset)")
            }
            #expect(word.word >> (8 * word.length) == 0 || word.length == 8)
        }
    }

    @Test("a label matches by its word exactly where the byte-by-byte comparison says")
    func matchesAgreeWithBytes() {
        var compared = 0
        var matched = 0
        for text in Self.texts {
            text.withUnsafeBufferPointer { buffer in
                let rules = WordRules(text: SanitizerInput(input: buffer, counter: LogSanitizer.Uncounted()))
                for label in Self.labels {
                    let word = PinLabel(stringLiteral: label)
                    for index in 0..<text.count {
                        // Region ends up to nine bytes on (a label is at most eight), and the input's end.
                        for end in Set(index...min(index + 9, text.count)).union([text.count]) {
                            let byBytes = rules.text.exactly(label, at: index, end: end)
                            #expect(
                                rules.labelMatches(word, at: index, end) == byBytes, "\(label) at \(index) to \(end)")
                            compared += 1
                            if byBytes { matched += 1 }
                        }
                    }
                }
            }
        }
        // The comparison met both answers, many times.
        #expect(matched > 1_000)
        #expect(compared > 100_000)
    }
}
