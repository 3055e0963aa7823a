internal import COpenSSL
import PinKit

/// OpenSSL reports failures on a thread-local queue. Clear it before a call and drain all of it
/// after a failure, so that one failure's detail never leaks into the next one's message.
enum OpenSSLErrorQueue {
    static func clear() { ERR_clear_error() }

    /// Every queued error as text, oldest first, and an empty queue afterwards.
    static func drain() -> [String] {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages
    }

    /// A ``PinKitError`` for a failed OpenSSL call, with the drained queue as detail.
    static func error(_ code: PinKitError.Code, _ what: String) -> PinKitError {
        let detail = drain()
        return PinKitError(code, detail.isEmpty ? what : "\(what) (\(detail.joined(separator: "; ")))")
    }
}
