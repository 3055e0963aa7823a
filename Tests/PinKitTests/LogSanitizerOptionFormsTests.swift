import PinKitTestSupport
import Testing

@testable import PinKit

/// Credentials labelled by a key and a blank (the sixteenth session): long command-line options
/// and SASL commands. The scanner and the regular-expression reference agree on them, and a second
/// pass changes nothing.
@Suite("Log sanitizer: long options and SASL commands")
struct LogSanitizerOptionFormsTests {
    @Test("the scanner agrees with the reference on 20,000 lines of option and SASL forms, and is idempotent on them")
    func differentialOptionForms() {
        var corpus = LogCorpus(seed: 0x5EED_0016)
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let line = corpus.optionLine()
            let ours = LogSanitizer.redact(line)
            LogSanitizerTests.compare(line, ours, into: &mismatches)
            if LogSanitizer.redact(ours) != ours, mismatches.count < 5 {
                mismatches.append("not idempotent: \(line.debugDescription) → \(ours.debugDescription)")
            }
            // The previous engine (the oracle of the word rules' single pass) agrees too.
            let previous = LogSanitizer.countingRedact(Array(line.utf8), engine: .regionByRegion).output
            if previous != Array(ours.utf8), mismatches.count < 5 {
                mismatches.append("engines differ: \(line.debugDescription)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }
}
