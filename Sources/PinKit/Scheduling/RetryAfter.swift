public import Foundation

/// The `Retry-After` header of a 429 or 503 (RFC 9110 §10.2.3): delay-seconds or an HTTP date.
public enum RetryAfter {
    /// The delay the header asks for, clamped to `0...maximum`; nil when absent or unreadable.
    public static func delay(_ header: String?, now: Date, maximum: TimeInterval = 24 * 3600) -> TimeInterval? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let seconds = Double(text.prefix(12)) else { return nil }
            return min(maximum, seconds)
        }
        guard let date = imfFixdate().date(from: text) else { return nil }
        return min(maximum, max(0, date.timeIntervalSince(now)))
    }

    /// `date` as an HTTP date (IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`), the form a server or
    /// a load balancer's maintenance page sends.
    public static func httpDate(_ date: Date) -> String { imfFixdate().string(from: date) }

    private static func imfFixdate() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}

/// What a send closure throws when the server asked the client to slow down (429 or 503):
/// the upload schedule then waits at least `retryAfter` before the next attempt.
public struct UploadThrottled: Error, Hashable, Sendable {
    public var status: Int
    public var retryAfter: TimeInterval?

    public init(status: Int, retryAfter: TimeInterval?) {
        self.status = status
        self.retryAfter = retryAfter
    }
}
