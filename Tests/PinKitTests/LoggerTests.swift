import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

@Suite("Logger facade")
struct LoggerTests {
    static let secretLine =
        "login alice@example.com with Bearer abc.def token=https://u:pw@api.example.com/v1/x?k=1 id 550e8400-e29b-41d4-a716-446655440000"

    @Test("messages and metadata are redacted before any sink sees them")
    func redaction() {
        let store = InMemoryLogStore()
        let logger = RedactingLogger(category: "auth", configuration: .production(sinks: [.memory(store)]))
        logger.info(
            Self.secretLine, metadata: ["user": "alice@example.com", "request": "550e8400-e29b-41d4-a716-446655440000"])
        let record = store.records[0]
        #expect(record.message == LogSanitizer.redact(Self.secretLine))
        #expect(record.metadata == ["user": "[redacted-email]", "request": "[redacted-uuid]"])
        for secret in ["alice", "abc.def", "pw", "/v1/x", "550e8400"] { #expect(!record.text.contains(secret)) }
        #expect(record.category == "auth")
    }

    @Test("production logs info and above, and never builds a disabled message")
    func levels() {
        let store = InMemoryLogStore()
        let logger = RedactingLogger(category: "transport", configuration: .production(sinks: [.memory(store)]))
        var built = 0
        func message(_ text: String) -> String {
            built += 1
            return text
        }
        logger.trace(message("t"))
        logger.debug(message("d"))
        logger.info(message("i"))
        logger.warning(message("w"))
        logger.error(message("e"))
        #expect(store.records.map(\.message) == ["i", "w", "e"])
        #expect(built == 3)
    }

    @Test("a release configuration refuses bodies at every level; a development one redacts them")
    func bodies() {
        let store = InMemoryLogStore()
        let release = RedactingLogger(category: "transport", configuration: .production(sinks: [.memory(store)]))
        for level in RedactingLogger.Level.allCases {
            release.body("response", Array("{\"email\": \"a@b.com\"}".utf8), level: level)
        }
        #expect(store.records.isEmpty)
        let development = RedactingLogger(category: "transport", configuration: .development(sinks: [.memory(store)]))
        development.body("response", Array("{\"email\": \"a@b.com\"}".utf8))
        #expect(store.records.map(\.message) == ["response body (20 bytes): {\"email\": \"[redacted-email]\"}"])
    }

    @Test("the JSON-lines file rotates by size and keeps the newest files")
    func rotation() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("pinkit.log")
        let logger = RedactingLogger(
            category: "audit",
            configuration: .production(sinks: [try LogSink.jsonLinesFile(path: path, maximumBytes: 2_000, keep: 2)])
        )
        for index in 0..<100 { logger.info("line \(index) for alice@example.com") }
        let manager = FileManager.default
        #expect(
            manager.fileExists(atPath: path) && manager.fileExists(atPath: path + ".1")
                && manager.fileExists(atPath: path + ".2"))
        #expect(!manager.fileExists(atPath: path + ".3"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.utf8.count <= 2_000)
        for line in text.split(separator: "\n") {
            let value = try JSONParser.parse(String(line))
            #expect(value["level"] == "info")
            #expect(value["message"].map { "\($0)" }?.contains("alice") == false)
        }
        #expect(text.contains("line 99 for [redacted-email]"))
        let attributes = try manager.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("the disabled logger writes nothing and never builds a message; levels below the minimum neither")
    func disabled() {
        // Counts how often a message or its metadata is built.
        final class Counter: @unchecked Sendable {
            // @unchecked Sendable: used on one thread within this test only.
            var built = 0
            func message() -> String {
                built += 1
                return "token abc for alice@example.com"
            }
        }
        func logEveryLevel(_ logger: RedactingLogger, _ counter: Counter) {
            logger.trace(counter.message(), metadata: ["k": counter.message()])
            logger.debug(counter.message())
            logger.info(counter.message())
            logger.error(counter.message())
            logger.critical(counter.message())
        }
        // The control: an enabled logger builds and writes every line, so the counts below can fail.
        let store = InMemoryLogStore()
        let enabled = Counter()
        logEveryLevel(
            RedactingLogger(
                category: "c", configuration: LogConfiguration(minimumLevel: .trace, sinks: [.memory(store)])),
            enabled)
        #expect(enabled.built == 6 && store.records.count == 5)

        let nothing = Counter()
        logEveryLevel(.disabled, nothing)
        #expect(nothing.built == 0)
        #expect(!RedactingLogger.disabled.isEnabled(.critical))

        // A sink behind a minimum level: below it nothing is built or written.
        let quiet = InMemoryLogStore()
        let below = Counter()
        let production = RedactingLogger(category: "c", configuration: .production(sinks: [.memory(quiet)]))
        production.trace(below.message())
        production.debug(below.message(), metadata: ["k": below.message()])
        #expect(below.built == 0)
        #expect(quiet.records.isEmpty)
    }

    @Test(
        "a metadata value under a credential key goes whole; under any other key it is redacted as text",
        arguments: [
            ("password", "hunter2", "[redacted-secret]"), ("X-Auth-Token", "abc def", "[redacted-secret]"),
            ("db_password", "p w", "[redacted-secret]"), ("Set-Cookie", "a=1; b=2", "[redacted-secret]"),
            ("API_KEY", "k", "[redacted-secret]"), ("password", "", ""),
            ("tokenExpiry", "2026-12-01", "2026-12-01"), ("passwordHint", "the cat", "the cat"),
            ("user", "alice@example.com", "[redacted-email]"),
        ]
    )
    func credentialKeys(_ key: String, _ value: String, _ expected: String) {
        // Without the key in view (as the logger did before): the value alone passes for text.
        if expected == "[redacted-secret]" { #expect(LogSanitizer.redact(value) != expected) }
        #expect(LogSanitizer.redact(value, key: key) == expected)
        let store = InMemoryLogStore()
        RedactingLogger(category: "t", configuration: .production(sinks: [.memory(store)]))
            .info("m", metadata: [key: value])
        #expect(store.records.first?.metadata[key] == expected)
    }
}
