import PinKitTestSupport
import Testing

@testable import PinKit

/// Credentials labelled by a key and a blank (the sixteenth session): long command-line options
/// and SASL commands. The scanner and the regular-expression reference agree on them, and a second
/// pass changes nothing.
@Suite("Log sanitizer: long options and SASL commands")
struct LogSanitizerOptionFormsTests {
    @Test("the scanner agrees with the reference on 20,000 lines of option and SASL forms, and is idempotent on them")
    func differentialOptionForms() async {
        // The previous engine (the oracle of the word rules' single pass) agrees too.
        let mismatches = await LogSanitizerTests.agreement(20_000, seed: 0x5EED_0016, engines: true) { corpus, _ in
            corpus.optionLine()
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }
}
