import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

@Suite("Audit log")
struct AuditLogTests {
    static let events: [AuditEvent] = [
        .login(method: "password"), .syncToggled(enabled: true),
        .healthKitAuthorizationChanged(read: ["steps"], write: []),
        .serverChanged(fromHost: "api.example.com", toHost: "health.example.net"), .biometricLockChanged(enabled: true),
        .tokenRotated, .logout(reason: "user"),
    ]

    static func makeLog(_ directory: TemporaryDirectory) throws -> AuditLog {
        let log = try AuditLog(path: directory.file("audit.jsonl"))
        for event in events { log.record(event) }
        return log
    }

    static func lines(_ log: AuditLog) throws -> [String] {
        try String(contentsOfFile: log.path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    static func verify(_ lines: [String], log: AuditLog, head: Bool = true) -> AuditLogVerifier.Result {
        AuditLogVerifier.verify(
            Data((lines.joined(separator: "\n") + "\n").utf8),
            head: head ? FileManager.default.contents(atPath: log.path + ".head") : nil
        )
    }

    @Test("an untouched log verifies, entry by entry")
    func intact() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try Self.makeLog(directory)
        let result = Self.verify(try Self.lines(log), log: log)
        #expect(result.isIntact, "\(result.problems)")
        #expect(result.entries == Self.events.count)
        let first = try JSONParser.parse(try Self.lines(log)[0])
        #expect(first["prev"] == .string(AuditLog.genesis))
        #expect(first["type"] == "login")
    }

    @Test("an edited entry is detected at its line; without the chain the edit is invisible")
    func edited() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try Self.makeLog(directory)
        var lines = try Self.lines(log)
        lines[2] = lines[2].replacingOccurrences(of: "steps", with: "heart")
        // Without the protection: the edited file is still well-formed JSON lines.
        #expect(lines.allSatisfy { (try? JSONParser.parse($0)) != nil })
        let result = Self.verify(lines, log: log)
        #expect(result.problems.map(\.line) == [3])
        #expect(result.problems.first?.message.contains("entry 3 was edited") == true)
    }

    @Test("a removed entry is detected where it was")
    func removed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try Self.makeLog(directory)
        var lines = try Self.lines(log)
        lines.remove(at: 3)
        let result = Self.verify(lines, log: log)
        #expect(result.problems.map(\.line) == [4])
        #expect(result.problems.first?.message.contains("entry 4 is missing") == true)
    }

    @Test("reordered entries are detected")
    func reordered() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try Self.makeLog(directory)
        var lines = try Self.lines(log)
        lines.swapAt(1, 2)
        let result = Self.verify(lines, log: log)
        #expect(!result.isIntact)
        #expect(result.problems.first?.line == 2)
    }

    @Test("removing or editing the newest entry is caught by the head record")
    func newest() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try Self.makeLog(directory)
        let lines = try Self.lines(log)
        // Without the head, dropping the last line leaves a consistent chain: all the verifier
        // can say then is that the head is missing.
        #expect(
            Self.verify(Array(lines.dropLast()), log: log, head: false).problems.map(\.message) == [
                "the head file is missing, so removal of the newest entries (with the head) cannot be ruled out"
            ])
        #expect(
            Self.verify(Array(lines.dropLast()), log: log).problems.first?.message.contains("removed from the end")
                == true)
        var edited = lines
        edited[edited.count - 1] = edited[edited.count - 1].replacingOccurrences(of: "user", with: "timeout")
        #expect(Self.verify(edited, log: log).problems.first?.message.contains("the newest, was edited") == true)
    }

    @Test("a size limit cuts the oldest entries behind a marker, and the chain still verifies")
    func truncation() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try AuditLog(path: directory.file("audit.jsonl"), maximumBytes: 4096)
        for index in 0..<200 {
            log.record(
                .killSwitchChanged(
                    serial: Int64(index), pinning: "off", reason: "INC-\(index)", hosts: ["api.example.com"],
                    appVersions: nil))
        }
        let lines = try Self.lines(log)
        #expect(lines[0].contains("\"type\":\"truncated\""))
        let size = try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int ?? 0
        #expect(size <= 4096)
        let result = Self.verify(lines, log: log)
        #expect(result.isIntact, "\(result.problems)")
        #expect(result.truncated + result.entries == 200)
    }

    @Test("acknowledged entries are removed for good; new entries continue the chain")
    func acknowledge() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try Self.makeLog(directory)
        let (body, through) = log.uploadDocument()
        #expect(through == Int64(Self.events.count))
        guard case .array(let uploaded)? = try JSONParser.parse(body)["entries"] else {
            Issue.record("no entries")
            return
        }
        #expect(uploaded.count == Self.events.count)
        log.acknowledge(throughSeq: 4)
        log.record(.tokenRotated)
        let reopened = try AuditLog(path: log.path)
        reopened.record(.logout(reason: "expired"))
        let result = Self.verify(try Self.lines(reopened), log: reopened)
        #expect(result.isIntact, "\(result.problems)")
        #expect(result.entries == Self.events.count - 4 + 2)
        #expect(result.truncated == 4)
    }

    @Test("a torn last line from a crash is cut off and noted on reopen")
    func tornLine() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try Self.makeLog(directory)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log.path))
        _ = try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"seq":8,"time":"20"#.utf8))
        try handle.close()
        let reopened = try AuditLog(path: log.path)
        let lines = try Self.lines(reopened)
        #expect(lines.last?.contains("\"type\":\"recovered\"") == true)
        #expect(Self.verify(lines, log: reopened).isIntact)
    }

    @Test("event fields carry no secrets")
    func redacted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try AuditLog(path: directory.file("a.jsonl"))
        log.record(.logout(reason: "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig for bob@example.com"))
        let text = try String(contentsOfFile: log.path, encoding: .utf8)
        #expect(!text.contains("bob@example.com") && !text.contains("eyJhbGci"))
    }
}

@Suite("SHA-256 and CRC-32")
struct HashTests {
    @Test(
        "FIPS 180 vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
        ]
    )
    func vectors(_ input: String, _ digest: String) {
        #expect(PortableSHA256.hex(Array(input.utf8)) == digest)
    }

    @Test("agrees with openssl on random lengths around block boundaries")
    func openssl() throws {
        for length in [1, 55, 56, 57, 63, 64, 65, 119, 120, 1000, 100_000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255) }
            let result = try Shell.run(["openssl", "dgst", "-sha256", "-r"], input: Data(bytes))
            #expect(result.stdout.hasPrefix(PortableSHA256.hex(bytes)), "length \(length)")
        }
        #expect(
            PortableSHA256.hex(Array(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("CRC-32 check value")
    func crc() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}
