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
        let logger = Logger(category: "auth", configuration: .production(sinks: [.memory(store)]))
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
        let logger = Logger(category: "transport", configuration: .production(sinks: [.memory(store)]))
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
        let release = Logger(category: "transport", configuration: .production(sinks: [.memory(store)]))
        for level in Logger.Level.allCases {
            release.body("response", Array("{\"email\": \"a@b.com\"}".utf8), level: level)
        }
        #expect(store.records.isEmpty)
        let development = Logger(category: "transport", configuration: .development(sinks: [.memory(store)]))
        development.body("response", Array("{\"email\": \"a@b.com\"}".utf8))
        #expect(store.records.map(\.message) == ["response body (20 bytes): {\"email\": \"[redacted-email]\"}"])
    }

    @Test("the JSON-lines file rotates by size and keeps the newest files")
    func rotation() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("pinkit.log")
        let logger = Logger(
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

    @Test("the disabled logger writes nothing")
    func disabled() {
        #expect(!Logger.disabled.isEnabled(.critical))
    }
}
