import Foundation
import Testing

@testable import PinKit

/// Inputs the fuzzers found; each stays as a regression test (and as a seed in Fuzz/Corpus).
@Suite("Fuzzing regressions")
struct FuzzRegressionTests {
    /// The FuzzSanitizer invariants: idempotent, and a seeded bearer token and UUID never survive.
    @Test(
        "sanitizer inputs found by FuzzSanitizer",
        arguments: [
            (
                "an empty-host URL before an IPv6-looking bracket stays idempotent (FuzzSanitizer)",
                "YmUpYXJlciBiZWExaHR0cCIn//9iZWFyZXIgYmVhcmVyIHggaHR0cHM6Ly86Ly9bOjoxXTo0NGFodHRwczovL3VzZXI6cHdATk5OTk5OTk5OOs8AAAAAAAAAhISEWzovJgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAL2H/////////////////KS4K"
            ),
            (
                "a host ending in punctuation stays idempotent (FuzzSanitizer)",
                "KANHRVQgaHR0cHM6Ly91c2VyOnB3QGFwaS5leGFtZWExaHR0cCInYXBpLmV4YW1lYTFodHRwIif/Yv9iZWFyZXIgYmVhcmVyIHggaHR0cHM6Ly86Ly9yIHggaHR0cHM6Ly9dOjQ0OjowbXBsZS5jb20gaWQg/2L/YmVhcmVyIGJlYXJlciB4IGh0dHBzOi8vOi8vciB4IGh0dHBzOi8vOi8vWzo6MG1wbGUuY29tIGlkIDU1MA=="
            ),
            (
                "a host ending in \"bearer\" stays idempotent once its port is dropped (FuzzSanitizer, CI smoke)",
                "6urq6urq6urq6p/q6urq6urq6urq6urq6mLq6upC6lYAAAAAAAAAL2EpLgovLzovL3IgeCBodHRwczovLzovL1s6OjJtcOxlLmNv6urq6urq6urq6uovLzovL3IgeCBodHRwczovLzovL1s6OjBtcGxlLmNvbSBpIHhlYXJlciBiZWF4IHJlaHR0cHM66urq6urq6urqIGh0dHBzOi8v6urq6mJlYXJlcjovIGJlLw=="
            ),
            (
                "a host is only host characters, so nothing after it can start a bearer match (FuzzSanitizer)",
                "6urqKS4KLy86Ly9yIHggaHR0cHM6Ly86Ly9bOjozbXDsZy5lciBiZWF4IHJlaHR0awAAAAAAYmVhL1s6IGJlYXJlciB4IGh0dHBzOgAA6i8vWzo66urqIGh0dHBzOi8v6urq6ipiZWFyZXI6LyBiZTFdOjQ0My9hKS4vCg=="
            ),
            (
                "an unclosed IPv6 bracket host cannot take a later \"]\" on a second pass (FuzzSanitizer)",
                "Oi8vWy9dXWk="
            ),
            (
                "a host that is \"bearer\" stays a host on a second pass (FuzzSanitizer)",
                "6urqKS4KLy86Ly9yIHggaHR0cHM6twAA/P///wAzbXDsKWcuZXIgYmVhAAAAv2h0kgAAAAAAAAB0awAAAAAAYmVhL1s6IGJlYXJlAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAHIgeCBodHRwczoAAGJldWFyZXIgYmVhcmVyAHggaHR0cHM6Ly9iZWFyZXJhcmVyIHggaHR0cHM6Ly9iZWFyZXIvL3JlciB4Wzg6/+o="
            ),
            (
                "a value in nginx's \\x22 ends where a token took the closing quote's letter: \\[redacted-token] (FuzzSanitizer, the twenty-second session)",
                "MTI3LjAuMC4xIC0gLSBbL0RlYy8yXHgyMjpceDIyYVx4MpUyLFx4MjJwYXNzd29yZFx4MjI6XHgyMmh4MjJhXHgylTIsXHgyMnBhc3N3SkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpvcmRceDIiICJCYXNpYyBZV3hwWTJVNmFIVnVkR1Z5TWc9PSIKQmFCYXNpYyBhdXRoLCBCYXNpYyBBdXRoZWBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgbnRpY2F0aW9uLGBiYXNpYyByZWFsbSwgQmFzaWMgQmVhcmVyIHgxLCBCYXMgaWNiYXNpYyBZVHVudGVyMlx4MjEsXHgyMmF1dGhceDIyOlx4MjJCZWFyZXIgQWJDZEVmMDEyM2doKEpceDIyfSIgImN1cmwvOC41LjAiICJCYXNpYyBZV3hwWTJVNmFIVnVkR1Z5TWc9PSIKQmFCYXNpYyBhdXRoLCBCYXNpYyBBdXRoZWBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgbnRpY2F0aW9uLGBiYXNpYyByZWFsbSwgQmFzaWMgQmVhcjI6XHgyMmh1bnRlcjJceDIxLFx4MjJhdXRoXHgyMjpceDIyQmVhcmVyIEFiQ2RFZjAxMjNnaChKXHgyMn0iICJjdXJsLzguNS4wIiAiQmFzaWMgWVd4cFkyVTZhSFZ1ZEdWeU1nPT0iCkJhQmFzaWMgYXV0aCwgQmFzaWMg+0F1dGhlYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBudGljYXRpb24sYGJhc2ljIHJlYWxtLCBCYXNpYyBCZWFyZXIgeDEsIEJhcyBpY2Jhc2ljIFlUdW50ZXIyXHgyMSxceDIyYXV0aFx4MjI6XHgyMkJlYXJlciBBYkNkRWYwMTIzZ2goSlx4MjJ9IiAiY3VybC84LjUuMCIgIkJhc2ljIFlXeHBZMlU2YUhWdWRHVnlNZz09IgpCYUJhc2ljIGF1dGgsIEJhc2ljIEF1dGhlYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBudGljYXRpb24sYGJhc2ljIHJlYWxtLCBCYXNpYyBCZWFyZXIgeDEsIEJhc2ljIGJhc2ljIFlUcGkK"
            ),
            (
                "an option's value that a token took from its '-' stays no value on a second pass (FuzzSanitizer, the twenty-second session)",
                "ZXhlYzogbXlzcWwgLS1wYXNzd29yZCBodW50ZXIyIC0taG9zdD1kYi5leGFtcGxlLmNvbSAtLXBhc3N3b3JkIC04ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODjSAQAAAAAAADg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4OC11c2VyPW8gLS0tdG9rZW4gYSB4LS1zZWNyZXQgYgpzZW5kOiAnQVVUSCBQTEFJTlsgQUdGc2FXTmxBR2gxYm5SbGNqST1cclxuJyBhMDAxIEFVVEhFTlRJQ0FURSBQTEFJTiBBR0ZzYVdObCBhdXRoIHBsYWluIHRleHQgQVVUSCBMT0dJTiBZV3hw2TJVPSBBVVRIIFBMQUlOID0K"
            ),
        ]
    )
    func sanitizer(_ finding: String, _ base64: String) throws {
        let bytes = try Base64.decode(base64).get()
        let once = LogSanitizer.redact(bytes: bytes)
        let twice = LogSanitizer.redact(bytes: once)
        #expect(
            twice == once,
            "\(finding): \(String(decoding: once, as: UTF8.self).debugDescription) -> \(String(decoding: twice, as: UTF8.self).debugDescription)"
        )
        let half = bytes.count / 2
        let seeded =
            Array(bytes[..<half])
            + Array("\nAuthorization: Bearer zq7SEEDtoken\n0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0\n".utf8)
            + Array(bytes[half...])
        let redacted = String(decoding: LogSanitizer.redact(bytes: seeded), as: UTF8.self)
        #expect(!redacted.contains("zq7SEEDtoken"), "\(finding)")
        #expect(!redacted.contains("0f1e2d3c-4b5a"), "\(finding)")
    }

    @Test("a host with an empty label is pinned, never left unpinned (FuzzHostPatterns)")
    func emptyLabel() throws {
        let json =
            #"{"pinSets": [{"name": "a", "hosts": ["example.com"], "pins": [{"sha256": "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="}, {"sha256": "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=", "role": "backup"}]}]}"#
        let policy = try PinPolicy(PinConfiguration.parse(Data(json.utf8)))
        // Not a valid host name, so it can never be a look-alike; erring toward pinning is safe.
        #expect(policy.isPinnedHost(".example.com"))
        #expect(policy.isPinnedHost("a..example.com"))
        #expect(!policy.isPinnedHost("example.com.."), "two trailing dots: only one is stripped")
    }
}
