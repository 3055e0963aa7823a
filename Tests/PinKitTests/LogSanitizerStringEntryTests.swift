import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// The string entry, which writes the redacted bytes straight into the string's storage, against
/// the bytes entry.
@Suite("Log sanitizer string entry")
struct LogSanitizerStringEntryTests {
    @Test("the string entry gives what the bytes entry gives, short and long lines, changed or not")
    func stringEntryAgrees() {
        var corpus = LogCorpus(seed: 0x5EED_00D1)
        var lines = (0..<3_000).map { _ in corpus.line() }
        lines += ["", "plain words only", "request GET failed ok user sync HealthKit retry"]
        // Past 64 KiB the output goes straight into an array (`changedLong`), both changed and not.
        lines.append((0..<600).map { _ in corpus.line() }.joined(separator: " "))
        lines.append(String(repeating: "plain words only ", count: 5_000))
        var changed = 0
        for line in lines {
            let viaString = LogSanitizer.redact(line)
            let viaBytes = String(decoding: LogSanitizer.redact(bytes: Array(line.utf8)), as: UTF8.self)
            #expect(viaString == viaBytes, "\(line.prefix(200).debugDescription)")
            if viaString != line { changed += 1 }
        }
        // Both kinds of line were seen.
        #expect(changed > 100)
        #expect(changed < lines.count - 3)
    }
}
