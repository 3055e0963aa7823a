import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// Runs of backslashes before a quote, the ninth session's rule: JSON escaping applied k times
/// writes a quote as 2^k − 1 backslashes and `"`, a backslash as 2^k, so a `"` string opened by
/// e = 2^k − 1 backslashes closes at a run of e + j(2e + 2) (m = 2j escaped backslashes and the
/// close) and at no other (`\\\"`, a quote inside; `\\\\\"`, an escaped backslash and the close).
/// The generator escapes real JSON documents k times and says what the line must become.
@Suite("Log sanitizer: escaped strings at depths 0–3")
struct LogSanitizerEscapeDepthTests {
    /// The generator's encoders against Python's own (`json.dumps`, applied three times over, and
    /// `repr`): an independent oracle for the lines the other tests use.
    @Test("the generator escapes as Python's json.dumps and repr do")
    func generatorMatchesPython() throws {
        var corpus = LogCorpus(seed: 0xE5CA_9E00)
        let alphabet = Array("\\\"'/[]{}: ax\n\r\t\u{08}\u{0C}\u{01}\u{1F}\u{7F}é€😀")
        let strings = (0..<300).map { _ in corpus.string(String(alphabet), 0...12) }
        let input = try JSONSerialization.data(withJSONObject: strings)
        let python = """
            import json, sys
            out = []
            for s in json.load(sys.stdin):
                e, row = s, []
                for _ in range(3):
                    e = json.dumps(e, ensure_ascii=False)[1:-1]
                    row.append(e)
                out.append(row + [repr(s)])
            print(json.dumps(out))
            """
        let result = try Shell.run(["python3", "-c", python], input: input)
        try #require(result.status == 0, "python3 failed: \(result.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String]])
        try #require(rows.count == strings.count)
        for (text, row) in zip(strings, rows) {
            for depth in 1...3 {
                #expect(LogCorpus.jsonEscaped(text, depth: depth) == row[depth - 1], "\(text.debugDescription)")
            }
            #expect(LogCorpus.pythonRepr(text) == row[3], "\(text.debugDescription)")
        }
    }

    /// The rule itself, against the depths it comes from.
    @Test("a run closes a string opened at depth k exactly when it is a depth-k quote after escaped backslashes")
    func closingRuns() {
        for depth in 1...3 {
            let escapes = (1 << depth) - 1
            for m in 0...4 {
                // m backslashes of the document, then its quote, escaped `depth` times.
                let run = m * (1 << depth) + escapes
                #expect(SanitizerScan.closesEscaped(run: run, escapes: escapes) == (m % 2 == 0), "\(depth) \(m)")
            }
            // A quote of a deeper string (escaped once more) closes nothing at this depth.
            #expect(!SanitizerScan.closesEscaped(run: (1 << (depth + 1)) - 1, escapes: escapes))
        }
    }

    @Test("a JSON document escaped 0–3 times: the value goes, the rest stays, exactly", arguments: 0...3)
    func jsonDocuments(depth: Int) {
        var corpus = LogCorpus(seed: 0xE5CA_9E01 &+ UInt64(depth))
        var longerRuns = 0
        for _ in 0..<300 {
            let (line, redacted) = corpus.escapedJSONCredential(depth: depth)
            // The attack: a run longer than the opening's that still closes (an escaped backslash
            // at the string's end), which the exact-run rule of the eighth session ran past.
            let escapes = (1 << depth) - 1
            if depth > 0, line.contains(String(repeating: "\\", count: 3 * escapes + 2) + "\"") { longerRuns += 1 }
            let once = LogSanitizer.redact(line)
            #expect(once == redacted, "\(line.debugDescription)")
            #expect(LogSanitizer.redact(once) == once, "\(line.debugDescription)")
            #expect(RegexReferenceSanitizer.redact(line) == once, "\(line.debugDescription)")
        }
        // The generator makes the attack often enough for the test to mean something.
        if depth > 0 { #expect(longerRuns >= 30, "\(longerRuns)") }
    }

    @Test("a URL after a run of backslashes and a quote: the same on a second pass, as the reference")
    func urlsAfterRuns() {
        var corpus = LogCorpus(seed: 0xE5CA_9E21)
        for _ in 0..<1500 {
            let line = corpus.escapedURLLine()
            let once = LogSanitizer.redact(line)
            #expect(LogSanitizer.redact(once) == once, "\(line.debugDescription) → \(once.debugDescription)")
            #expect(RegexReferenceSanitizer.redact(line) == once, "\(line.debugDescription)")
        }
    }

    @Test(
        "a Python list escaped 0–2 times: the secret goes, and the rest stays when the strings tell", arguments: 0...2)
    func pythonLists(depth: Int) {
        var corpus = LogCorpus(seed: 0xE5CA_9E11 &+ UInt64(depth))
        var exact = 0
        for _ in 0..<300 {
            let (line, redacted) = corpus.escapedPythonCredential(depth: depth)
            let once = LogSanitizer.redact(line)
            #expect(!once.contains("hunter2"), "\(line.debugDescription)")
            if let redacted {
                exact += 1
                #expect(once == redacted, "\(line.debugDescription)")
            }
            #expect(LogSanitizer.redact(once) == once, "\(line.debugDescription)")
            #expect(RegexReferenceSanitizer.redact(line) == once, "\(line.debugDescription)")
        }
        #expect(exact >= 100, "\(exact)")
    }
}
