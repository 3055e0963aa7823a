import Testing

@testable import PinKit

/// Rule 1's percent-encoded separators are told by eight-byte words and case masks
/// (`URLRule.separatorLength`, issue 15 §2): the words must say exactly what a byte-by-byte,
/// case-insensitive comparison says, for every case of the letters, every byte changed to one a
/// case mask could confuse with it, and every cut near the end of the text.
@Suite("Log sanitizer separator words")
struct LogSanitizerSeparatorWordTests {
    static let forms = ["%3a%2f%2f", "%253a%252f%252f"]

    /// The separator length byte by byte (the definition before the words).
    static func reference(_ bytes: [UInt8], at candidate: Int) -> Int {
        for form in forms {
            let pattern = Array(form.utf8)
            guard candidate + pattern.count <= bytes.count else { continue }
            let matches = pattern.indices.allSatisfy { offset in
                let byte = bytes[candidate + offset]
                let lowered = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                return lowered == pattern[offset]
            }
            if matches { return pattern.count }
        }
        return 0
    }

    static func length(_ bytes: [UInt8], at candidate: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            URLRule(text: SanitizerInput(input: buffer, counter: LogSanitizer.Uncounted()))
                .separatorLength(at: candidate, colon: false, end: buffer.count)
        }
    }

    /// Each form with its letters in every case, then each byte replaced by bytes that differ
    /// from it in the case bit or in one other bit, each cut at every length from three bytes.
    static func variants() -> [[UInt8]] {
        var variants: [[UInt8]] = []
        for form in forms {
            let pattern = Array(form.utf8)
            let letters = pattern.indices.filter { pattern[$0] >= 0x61 }
            for caseBits in 0..<(1 << letters.count) {
                var cased = pattern
                for (bit, index) in letters.enumerated() where caseBits & (1 << bit) != 0 { cased[index] ^= 0x20 }
                variants.append(cased)
            }
            for index in pattern.indices {
                for flip: UInt8 in [0x20, 0x01, 0x02, 0x04, 0x08, 0x10, 0x40, 0x80] {
                    var changed = pattern
                    changed[index] ^= flip
                    variants.append(changed)
                }
            }
        }
        return variants.flatMap { variant in (3...variant.count).map { Array(variant.prefix($0)) } }
    }

    @Test("the words agree with a byte-by-byte comparison, at the end of the text and before more")
    func wordsAgreeWithBytes() {
        var separators = 0
        for variant in Self.variants() {
            for (prefix, suffix) in [("", ""), ("x=", ""), ("", "example.com/"), ("abc", "%2")] {
                let line = Array(prefix.utf8) + variant + Array(suffix.utf8)
                let candidate = prefix.utf8.count
                let expected = Self.reference(line, at: candidate)
                #expect(Self.length(line, at: candidate) == expected, "\(String(decoding: line, as: UTF8.self))")
                if expected > 0 { separators += 1 }
            }
        }
        // The comparison saw real separators, not only rejections: the eight cases of each form's
        // three letters, in each of the four contexts.
        #expect(separators >= 4 * 16)
    }
}
