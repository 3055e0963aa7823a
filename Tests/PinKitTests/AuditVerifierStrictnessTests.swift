import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// Issue 14 items 10–11: the forgeries a chain-only verifier called "intact".
@Suite("Audit verifier strictness")
struct AuditVerifierStrictnessTests {
    static func makeLog(_ directory: TemporaryDirectory, entries: Int = 6) throws -> AuditLog {
        let log = try AuditLog(path: directory.file("audit.jsonl"))
        for index in 0..<entries { log.record(.logout(reason: "r\(index)")) }
        return log
    }

    static func text(_ lines: [String]) -> Data { Data((lines.joined(separator: "\n") + "\n").utf8) }

    /// Only the chain's own problems, ignoring whatever the head says: what the old verifier saw.
    static func chainProblems(_ result: AuditLogVerifier.Result, lines: Int) -> [AuditLogVerifier.Problem] {
        result.problems.filter { !$0.message.contains("head") }
    }

    @Test("an entry forged onto the end with a correct prev is caught because the head is behind it")
    func forgedAppend() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try Self.makeLog(directory)
        var lines = try String(contentsOfFile: log.path, encoding: .utf8).split(separator: "\n").map(String.init)
        let forged: JSONValue = [
            "seq": 7, "time": "2026-11-30T00:00:00Z", "type": "kill-switch-changed", "fields": [:],
            "prev": .string(PortableSHA256.hex(Array(lines.last!.utf8))),
        ]
        lines.append(forged.serialized())
        let head = FileManager.default.contents(atPath: log.path + ".head")
        let result = AuditLogVerifier.verify(Self.text(lines), head: head)
        #expect(Self.chainProblems(result, lines: lines.count).isEmpty, "the forged entry chains correctly")
        #expect(result.status == .broken)
        #expect(
            result.problems.map(\.message) == [
                "entries 7…7 come after the head (which records 6): appended by something other than the log's writer"
            ])
    }

    @Test("a missing or garbled head is a problem; removing the last entries together with the head is caught")
    func head() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try Self.makeLog(directory)
        let lines = try String(contentsOfFile: log.path, encoding: .utf8).split(separator: "\n").map(String.init)
        let cut = Array(lines.dropLast(2))
        for head in [nil, Data("{\"seq\":".utf8), Data("garbage".utf8), Data("{\"seq\":\"6\",\"hash\":1}".utf8)] {
            let result = AuditLogVerifier.verify(Self.text(cut), head: head)
            #expect(Self.chainProblems(result, lines: cut.count).isEmpty, "the shortened chain is consistent")
            #expect(result.status == .broken, "\(String(describing: head))")
            #expect(result.problems.count == 1 && result.problems[0].line == cut.count + 1)
        }
    }

    @Test("a hand-written truncation marker replacing the first entries is reported with its count")
    func handMadeMarker() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try Self.makeLog(directory)
        let lines = try String(contentsOfFile: log.path, encoding: .utf8).split(separator: "\n").map(String.init)
        let head = FileManager.default.contents(atPath: log.path + ".head")
        // Replace entries 1…3 by a marker that copies the right anchor but lies about the count.
        func marker(removed: JSONValue?) -> String {
            var members: [(key: String, value: JSONValue)] = [
                ("seq", 3), ("time", "2026-11-30T00:00:00Z"), ("type", "truncated"),
                ("anchor", .string(PortableSHA256.hex(Array(lines[2].utf8)))),
            ]
            if let removed { members.append(("removed", removed)) }
            return JSONValue.object(members).serialized()
        }
        for lie in [JSONValue.int(0), 1, nil, "3"] {
            let forged = [marker(removed: lie)] + lines.dropFirst(3)
            let result = AuditLogVerifier.verify(Self.text(forged), head: head)
            #expect(result.status == .broken, "\(String(describing: lie))")
            #expect(result.problems.first?.message.contains("hand-made") == true)
        }
        // An honest count is consistent (the device cannot tell more; the server's copy can), and
        // the cut is reported: the marker, its line and its count.
        let honest = [marker(removed: 3)] + lines.dropFirst(3)
        let result = AuditLogVerifier.verify(Self.text(honest), head: head)
        #expect(result.status == .intact, "\(result.problems)")
        #expect(result.markers == [AuditLogVerifier.Marker(line: 1, throughSeq: 3, removed: 3)])
        #expect(result.truncated == 3 && result.entries == 3)
    }

    @Test("an empty log is 'empty', not intact; an empty log whose head records entries is broken")
    func empty() throws {
        #expect(AuditLogVerifier.verify(Data(), head: nil).status == .empty)
        #expect(!AuditLogVerifier.verify(Data(), head: nil).isIntact)
        let result = AuditLogVerifier.verify(Data(), head: Data(#"{"seq":6,"hash":"ab"}"#.utf8))
        #expect(result.status == .broken)
        #expect(result.problems.first?.message.contains("entries 1…6 were removed") == true)
    }

    @Test(
        "sequence numbers out of range are problems for the verifier and a fresh chain for the writer, never an overflow",
        arguments: ["9223372036854775807", "9007199254740992", "-9223372036854775808", "0"])
    func sequenceRange(_ seq: String) throws {
        let line = #"{"seq":\#(seq),"time":"t","type":"x","fields":{},"prev":"\#(AuditLog.genesis)"}"#
        let result = AuditLogVerifier.verify(Data((line + "\n").utf8), head: Data(#"{"seq":\#(seq),"hash":"x"}"#.utf8))
        #expect(result.status == .broken)
        #expect(result.problems.first?.message.contains("not an audit entry") == true)
        #expect(result.problems.contains { $0.message.contains("head file is unreadable") } || seq == "0")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try (line + "\n").write(toFile: directory.file("audit.jsonl"), atomically: true, encoding: .utf8)
        let log = try AuditLog(path: directory.file("audit.jsonl"))
        log.record(.tokenRotated)
        let text = try String(contentsOfFile: log.path, encoding: .utf8)
        // The writer continues with a fresh chain (seq 1) that the verifier will flag, instead of trapping.
        #expect(text.contains("\n{\"seq\":1,"), "\(text)")
    }

    @Test("an honest size-limited log, truncated twice, verifies with one marker counting every cut entry")
    func honestTruncation() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try Self.makeLog(directory, entries: 10)
        log.acknowledge(throughSeq: 4)
        log.acknowledge(throughSeq: 7)
        log.record(.tokenRotated)
        let data = try Data(contentsOf: URL(fileURLWithPath: log.path))
        let result = AuditLogVerifier.verify(data, head: FileManager.default.contents(atPath: log.path + ".head"))
        #expect(result.status == .intact, "\(result.problems)")
        #expect(result.markers.map(\.removed) == [7])
        #expect(result.entries == 4)
    }
}
