import Foundation
import Testing

@testable import PinKit

/// An acknowledgement is a recorded, reasoned acceptance of a guard warning: the release gate
/// passes because someone wrote down why. A reason nobody can read (a line break, a soft hyphen,
/// a word joiner and a BOM, an escape sequence) must not buy that pass.
@Suite("Acknowledgement reasons")
struct AcknowledgementReasonTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// Two distinct pins, none declared backup: the guard warns `no-declared-backup`.
    static func configuration(reason: String) throws -> PinConfiguration {
        let pins = [
            try SPKIPin(digest: (0..<32).map { UInt8($0) }), try SPKIPin(digest: (0..<32).map { UInt8(100 + $0) }),
        ]
        return try PinConfiguration.parse(
            JSONValue.object([
                (
                    "pinSets",
                    [
                        [
                            "name": "api", "hosts": ["api.example.com"], "expires": "2027-06-01",
                            "pins": .array(pins.map { ["sha256": .string($0.base64)] }),
                            "acknowledged": [["code": "no-declared-backup", "reason": .string(reason)]],
                        ]
                    ]
                )
            ]))
    }

    @Test(
        "an unreadable reason does not acknowledge a warning",
        arguments: [
            "\n", "\r\n\t", "\u{00AD}", "\u{2060}\u{FEFF}", "\u{200B}\u{200C}\u{200D}", "\u{1B}[2J", "-", "\u{202E}",
        ])
    func unreadable(reason: String) throws {
        let configuration = try Self.configuration(reason: reason)
        // The rule as merged only trimmed spaces: with it, all 8 of these acknowledged the warning
        // and the release gate passed (seen failing first). The same set with a reason in words
        // passes (the test below), so readability is the only thing between these and a release.
        #expect(!PinConfiguration.isReadableReason(reason))
        let problems = configuration.productionProblems(now: Self.now)
        #expect(problems.contains { $0.code == .invalidAcknowledgement && $0.path.hasSuffix(".reason") })
        #expect(!configuration.meetsProductionPinPolicy(now: Self.now))
    }

    @Test("a reason in words, any script, acknowledges the warning", arguments: ["CA change = release", "承認済み", "42"])
    func readable(reason: String) throws {
        let configuration = try Self.configuration(reason: reason)
        let problems = configuration.productionProblems(now: Self.now)
        #expect(problems.map(\.code) == [.acknowledgedWarning])
        #expect(configuration.meetsProductionPinPolicy(now: Self.now))
    }
}
