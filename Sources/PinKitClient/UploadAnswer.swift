import Foundation
import PinKit
import PinKitTransport

/// How every upload path (pinned reports, the unpinned report path, audit) reads the server's
/// answer: 2xx is the body; 429 and 503 are ``UploadThrottled`` with the server's `Retry-After`,
/// so the upload schedule waits as long as the server asked; anything else is a failure.
enum UploadAnswer {
    static func body(of response: HTTPResponse, now: Date = Date()) throws -> [UInt8] {
        guard (200..<300).contains(response.status) else {
            if response.status == 429 || response.status == 503 {
                let wait = RetryAfter.delay(response.headers["Retry-After"], now: now)
                throw UploadThrottled(status: response.status, retryAfter: wait)
            }
            throw TransportError(.network, "HTTP \(response.status)")
        }
        return response.body
    }
}
