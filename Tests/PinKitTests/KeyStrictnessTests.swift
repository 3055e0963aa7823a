import Foundation
import PinKitTestSupport
import Testing

@testable import PinKit

/// Issue 14 items 12–13: one file must read the same in PinKit and in every other tool.
@Suite("Key strictness")
struct KeyStrictnessTests {
    static let hosts = "HLPinnedHosts"
    /// Same length as "HLPinnedHosts", so a byte patch keeps a binary plist's offsets valid.
    static let decoy = "HLPinnedHostX"

    static func plist(_ format: PropertyListSerialization.PropertyListFormat) throws -> Data {
        let object: [String: Any] = [
            hosts: ["example.com"], decoy: ["evil.example"],
            "HLPinnedSPKIHashes": [Fixture.intermediate, Fixture.backup],
        ]
        return try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0)
    }

    /// Renames the decoy key to a second "HLPinnedHosts" in the encoded bytes.
    static func duplicated(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        let decoy = Array(Self.decoy.utf8)
        let target = Array(Self.hosts.utf8)
        var index = 0
        while index + decoy.count <= bytes.count {
            if Array(bytes[index..<index + decoy.count]) == decoy {
                bytes.replaceSubrange(index..<index + decoy.count, with: target)
            }
            index += 1
        }
        return Data(bytes)
    }

    @Test("a duplicated key is an error in XML and binary property lists", arguments: [0, 1])
    func duplicatePlistKeys(_ formatIndex: Int) throws {
        let format: PropertyListSerialization.PropertyListFormat = formatIndex == 0 ? .xml : .binary
        let data = Self.duplicated(try Self.plist(format))
        // Without the check, Foundation reads the file and silently keeps one of the two values.
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        let kept = (object as? [String: Any])?[Self.hosts] as? [String]
        #expect(
            kept == ["example.com"] || kept == ["evil.example"], "Foundation picked one: \(String(describing: kept))")
        #expect {
            try PinConfiguration.parse(data)
        } throws: { error in
            let error = error as? PinKitError
            return error?.code == .malformedPropertyList
                && error?.reason.contains("duplicate key \"HLPinnedHosts\"") == true
        }
        // The undamaged file still reads (the decoy is an unknown key there, reported as such).
        #expect {
            try PinConfiguration.parse(try Self.plist(format))
        } throws: { ($0 as? PinKitError)?.problems.contains { $0.code == .unknownKey } == true }
    }

    @Test("damaged binary and XML property lists give an error or a value, never a crash (seeded mutations)")
    func damagedPropertyLists() throws {
        var generator = SeededGenerator(seed: 14)
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let original = [UInt8](try Self.plist(format))
            for _ in 0..<1_500 {
                var bytes = original
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:
                    for _ in 0..<Int.random(in: 1...4, using: &generator) {
                        bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
                            in: 0...255, using: &generator)
                    }
                case 1: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
                default:
                    // The trailer's sizes and offsets are where a careless reader trusts the file.
                    let index = max(0, bytes.count - Int.random(in: 1...32, using: &generator))
                    bytes[index] = UInt8.random(in: 0...255, using: &generator)
                }
                _ = try? PinConfiguration.parse(Data(bytes))
            }
        }
    }

    /// A hand-made bplist00: `objects` at offset 8 on, a one-byte offset table, the trailer.
    static func bplist(_ objects: [[UInt8]]) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        for value in [objects.count, 0, table] { bytes += withUnsafeBytes(of: UInt64(value).bigEndian, Array.init) }
        return Data(bytes)
    }

    @Test("hand-made binary plists: one key object referenced twice is a duplicate; a huge length is an error")
    func handMadeBinary() throws {
        let key: [UInt8] = [0x51, UInt8(ascii: "k")]
        let value: [UInt8] = [0x51, UInt8(ascii: "v")]
        #expect(try PropertyListKeyCheck.duplicateKey(in: Self.bplist([[0xD1, 1, 2], key, value])) == nil)
        #expect(try PropertyListKeyCheck.duplicateKey(in: Self.bplist([[0xD2, 1, 1, 2, 2], key, value])) == "k")
        // A key string whose length is 2^63 - 1: bounds are checked without overflowing.
        let huge: [UInt8] = [0x5F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: PinKitError.self) {
            try PropertyListKeyCheck.duplicateKey(in: Self.bplist([[0xD1, 1, 2], huge, value]))
        }
        let hugeUTF16: [UInt8] = [0x6F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: PinKitError.self) {
            try PropertyListKeyCheck.duplicateKey(in: Self.bplist([[0xD1, 1, 2], hugeUTF16, value]))
        }
        // A dictionary claiming more entries than the file holds.
        #expect(throws: PinKitError.self) {
            try PropertyListKeyCheck.duplicateKey(
                in: Self.bplist([[0xDF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], key]))
        }
    }

    @Test("XML keys written with entities are compared after decoding")
    func xmlEntities() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>HLPinnedHosts</key><array><string>example.com</string></array>
            <!-- <key>HLPinnedHosts</key> in a comment does not count -->
            <key>HLPinned&#72;osts</key><array><string>evil.example</string></array>
            <key>HLPinnedSPKIHashes</key><array><string>\(Fixture.intermediate)</string></array>
            </dict></plist>
            """
        #expect(throws: PinKitError.self) { try PinConfiguration.parse(Data(xml.utf8)) }
        // The same duplicate written as CDATA, with whitespace in the tags, or as two empty keys.
        for variant in [
            xml.replacingOccurrences(of: "<key>HLPinned&#72;osts</key>", with: "<key><![CDATA[HLPinnedHosts]]></key>"),
            xml.replacingOccurrences(of: "<key>HLPinned&#72;osts</key>", with: "<key >HLPinnedHosts</key >"),
        ] {
            #expect("\(variant)") {
                try PinConfiguration.parse(Data(variant.utf8))
            } throws: { ($0 as? PinKitError)?.reason.contains("duplicate key \"HLPinnedHosts\"") == true }
        }
        let withoutDuplicate = xml.replacingOccurrences(
            of: "<key>HLPinned&#72;osts</key><array><string>evil.example</string></array>", with: "")
        #expect(try PinConfiguration.parse(Data(withoutDuplicate.utf8)).pinSets.first?.hosts == ["example.com"])
        let nested = xml.replacingOccurrences(of: "HLPinned&#72;osts", with: "HLPinnedOther")
        #expect {
            try PinConfiguration.parse(Data(nested.utf8))
        } throws: { ($0 as? PinKitError)?.problems.contains { $0.path == "HLPinnedOther" } == true }
    }

    @Test(
        "a key spelled with U+212A KELVIN SIGN is an unknown key, not \"K\"",
        arguments: [
            #"{"HLPinnedHosts": ["example.com"], "HLPinnedSP\#u{212A}IHashes": ["A", "B"]}"#,
            #"{"pinSets": [], "\#u{212A}illSwitch": {"url": "https://x.example"}}"#,
        ])
    func kelvinJSON(_ json: String) throws {
        // Without byte comparison, Swift's String equality says the keys are the known ones.
        #expect("HLPinnedSP\u{212A}IHashes" == "HLPinnedSPKIHashes")
        #expect {
            try PinConfiguration.parse(Data(json.utf8))
        } throws: { error in
            (error as? PinKitError)?.problems.contains { $0.code == .unknownKey } == true
        }
    }

    @Test("JSON values and lookups compare bytes too: the kill switch and the JSONValue API")
    func kelvinEverywhere() throws {
        #expect(JSONValue.string("\u{212A}") != JSONValue.string("K"))
        let object = try JSONParser.parse(#"{"\#u{212A}ey": 1}"#)
        #expect(object["Key"] == nil)
        let payload = KillSwitchFixture.payload().json.serialized()
        let kelvin = payload.replacingOccurrences(of: "\"type\"", with: "\"type\", \"\u{212A}\": 1, \"x\"")
        #expect(throws: PinKitError.self) {
            try KillSwitchDocument.parse(KillSwitchFixture.envelope(payloadJSON: kelvin, entries: []))
        }
    }

    @Test("killSwitch.minimumSerial reads as a bounded whole number")
    func minimumSerial() throws {
        let base =
            #"{"killSwitch": {"url": "https://status.example.net/ks.json", "publicKeys": [], "minimumSerial": VALUE}}"#
        #expect(
            try Fixture.configuration(base.replacingOccurrences(of: "VALUE", with: "41")).killSwitch?.minimumSerial
                == 41)
        for bad in ["-1", "9007199254740992", "1.5", "\"41\""] {
            #expect(throws: PinKitError.self, "\(bad)") {
                try Fixture.configuration(base.replacingOccurrences(of: "VALUE", with: bad))
            }
        }
    }
}
