import PinKitTestSupport
import Testing

@testable import PinKit

/// Rule 1's escaped line break or tab in a URL in running text (the eighteenth session,
/// ``EscapeRun``): the URL goes on after `\t`, `\n` or `\r` when a query parameter follows the run
/// of path bytes after it (a raw Windows path, `?path=C:\temp\x&sig=…`), and ends there otherwise
/// (a header dump, an HTML entity). The scanner and the regular-expression reference agree on it,
/// a second pass changes nothing, and a URL's look-ahead reads each byte a bounded number of times.
@Suite("Log sanitizer: escapes inside a URL's query")
struct LogSanitizerEscapeRunTests {
    @Test("the scanner agrees with the reference on 20,000 lines of raw Windows paths in URLs, and is idempotent")
    func differentialWindowsPaths() async {
        let mismatches = await LogSanitizerTests.agreement(20_000, seed: 0x5EED_0018, engines: true) { corpus, _ in
            corpus.windowsPathLine()
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// The attack: before the fix, every one of these kept the signature after the path
    /// (`GET https://a.io:\temp\x&sig=…`, an escape ended the URL). The same line with the `&`
    /// spelled `&#38;`, which the look-ahead does not take for a parameter, still ends there and
    /// keeps the signature: what each line did without the look-ahead. With it, the query goes.
    @Test("no signature after a raw Windows path survives; without the parameter look-ahead every one does")
    func signatureAfterPathGoes() {
        var corpus = LogCorpus(seed: 0x0057_1A5)
        var failures: [String] = []
        var unprotectedLeaks = 0
        let count = 2_000
        for _ in 0..<count {
            let secret = "S" + corpus.string("0123456789", 10...10)
            let path =
                corpus.pick(["C:", "D:", "\\\\srv", ""]) + "\\" + corpus.pick(["t", "n", "r"])
                + corpus.string("abcdefgh", 0...6) + corpus.pick(["", "\\x", "\\tmp"])
            let open = corpus.pick(["GET ", "(", "<", "fetch "]) + "https://a.io/dl?path=" + path
            let rest =
                corpus.pick(["sig", "s", "X-Amz-Signature", "p"]) + "=" + secret
                + corpus.pick([" 200", ")", ">", "\t", ""])
            let line = open + corpus.pick(["&", "&amp;"]) + rest
            let once = LogSanitizer.redact(line)
            if once.contains(secret) || !once.contains("https://a.io") || LogSanitizer.redact(once) != once,
                failures.count < 5
            {
                failures.append("\(line.debugDescription) → \(once.debugDescription)")
            }
            if LogSanitizer.redact(open + "&#38;" + rest).contains(secret) { unprotectedLeaks += 1 }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(unprotectedLeaks == count, "an escape not followed by a parameter ends the URL, the signature stays")
    }

    @Test(
        "a URL's look-ahead at escapes costs a bounded number of reads per byte",
        arguments: [
            "\\t", "\\tx&", "\\tx&amp;", "\\t&n", "\\tabcdefgh", "\\n/\\r/\\t/", "\\tx&a", "\\tx&amp;amp;",
        ]
    )
    func linear(_ unit: String) {
        // Operation counts at n and 4n, as the linearity suite measures them.
        let small = String(repeating: unit, count: 4_096)
        let large = String(repeating: unit, count: 16_384)
        let a = LogSanitizer.countingRedact(Array(("GET https://a.io/x?p=" + small).utf8)).operations
        let b = LogSanitizer.countingRedact(Array(("GET https://a.io/x?p=" + large).utf8)).operations
        #expect(Double(b) / Double(a) <= 4.5, "\(unit): \(a) → \(b)")
    }
}
