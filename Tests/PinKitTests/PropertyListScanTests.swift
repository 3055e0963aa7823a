import Foundation
import Testing

@testable import PinKit

/// The duplicate-key scan of XML property lists runs before Foundation reads the file, on
/// bytes nobody has validated yet, so it must be linear in the input and must read key text
/// the way an XML reader does.
@Suite("Property-list key scan")
struct PropertyListScanTests {
    static let head = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>"#

    /// A second `HLPinnedHosts` hidden from the scan: markup inside a key's CDATA section or
    /// comment is text, but a scan that ends the key at the first `</key` sees a `<dict>` there
    /// and files the second key under that phantom dictionary. Foundation keeps the last value,
    /// an empty list: the configuration the operator reviewed pins api.example.com, the one
    /// PinKit read pinned nothing.
    @Test(
        "markup inside a key's CDATA section or comment does not hide a duplicate key",
        arguments: [#"<![CDATA[</key><dict>]]>"#, #"x<!-- </key><dict> -->"#])
    func hiddenDuplicate(key: String) throws {
        let text =
            Self.head
            + #"<key>HLPinnedHosts</key><array><string>api.example.com</string></array>"#
            + "<key>\(key)</key><string>x</string>"
            + #"<key>HLPinnedHosts</key><array/><key>HLPinnedSPKIHashes</key><array/></dict></plist>"#
        #expect(PropertyListKeyCheck.xmlDuplicate(Array(text.utf8)) == "HLPinnedHosts")
        #expect(throws: PinKitError.self) { try PinConfiguration.parse(Data(text.utf8)) }
    }

    /// A hostile document of `n` repetitions.
    static func hostile(_ name: String, _ n: Int) -> String {
        switch name {
        case "unclosed tags": head + String(repeating: "<a", count: n)
        case "tags without a name": head + String(repeating: "< ", count: n) + ">"
        case "CDATA runs in a key":
            head + "<key>" + String(repeating: "<![CDATA[a]]>", count: n) + "</key><string/></dict></plist>"
        case "unclosed keys": head + String(repeating: "<key>k", count: n)
        default: head + "<key>" + String(repeating: "<!--c-->", count: n) + "</key><string/></dict></plist>"
        }
    }

    /// Hostile inputs at n and 4n: the work (bytes looked at) must grow linearly. Counted, not timed.
    @Test(
        "the scan looks at each byte a bounded number of times",
        arguments: [
            "unclosed tags", "tags without a name", "CDATA runs in a key", "unclosed keys", "comments in a key",
        ])
    func linear(name: String) {
        func steps(_ n: Int) -> (steps: Int, bytes: Int) {
            let bytes = Array(Self.hostile(name, n).utf8)
            var steps = 0
            _ = PropertyListKeyCheck.xmlDuplicate(bytes, steps: &steps)
            return (steps, bytes.count)
        }
        let small = steps(2_000)
        let large = steps(8_000)
        #expect(large.steps <= 8 * large.bytes, "\(name): \(large.steps) steps for \(large.bytes) bytes")
        #expect(large.steps <= 5 * small.steps, "\(name): \(small.steps) → \(large.steps) steps for 4× the input")
    }
}
