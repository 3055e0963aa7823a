@testable import PinKit

/// What every hostile-review file (`LogSanitizerReview2Tests` … `LogSanitizerReview7Tests`) asks of
/// the sanitizer, in one place: one pass over a line, and whether a known secret survived it.
enum SanitizerReview {
    /// One pass of the logger's entry, as a log line would take it.
    static func redact(_ text: String) -> String { LogSanitizer.redact(text) }

    /// Whether `secret` survives one pass over `input`.
    static func leaks(_ input: String, _ secret: String) -> Bool { redact(input).contains(secret) }
}
