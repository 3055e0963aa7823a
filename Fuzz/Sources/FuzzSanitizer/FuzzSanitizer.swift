import FuzzSupport
import PinKit

/// The log sanitizer: idempotent, and a seeded bearer token and UUID never survive.
@_cdecl("FuzzSanitizer_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzz(data ?? UnsafePointer(bitPattern: 1)!, size) }
}

func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let once = LogSanitizer.redact(bytes: bytes)
    precondition(LogSanitizer.redact(bytes: once) == once, "redaction is not idempotent")
    let secret = Array("zq7SEEDtoken".utf8)
    let uuid = Array("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0".utf8)
    let half = size / 2
    let seeded =
        Array(bytes[..<half]) + Array("\nAuthorization: Bearer ".utf8) + secret + [10] + uuid + [10]
        + Array(bytes[half...])
    let redacted = LogSanitizer.redact(bytes: seeded)
    precondition(!contains(redacted, secret), "a seeded bearer token survived")
    precondition(!contains(redacted, uuid), "a seeded UUID survived")
    return 0
}

func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
        if Array(haystack[start..<start + needle.count]) == needle { return true }
    }
    return false
}
