import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import Testing

/// docs/CLI.md is the JSON contract: every example parses, carries schemaVersion 1, and has the
/// shape the command prints today (same keys at the top level and one level down).
@Suite("docs/CLI.md matches pinctl")
struct CLIDocumentationTests {
    /// The JSON examples of docs/CLI.md, by section heading (`pinctl spki`, `Error document`).
    static func examples() throws -> [String: JSONValue] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/CLI.md"), encoding: .utf8)
        var result: [String: JSONValue] = [:]
        var section = ""
        var block: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") || line.hasPrefix("### ") {
                section = line.drop { $0 == "#" || $0 == " " }.replacingOccurrences(of: "`", with: "")
            } else if line == "```json" {
                block = []
            } else if line == "```", let lines = block {
                result[section] = try JSONParser.parse(lines.joined(separator: "\n"))
                block = nil
            } else if block != nil {
                block!.append(String(line))
            }
        }
        return result
    }

    /// Keys at the top level and, for objects and first array elements, one level down.
    static func shape(_ value: JSONValue) -> Set<String> {
        guard case .object(let members) = value else { return [] }
        var keys = Set<String>()
        for (key, member) in members {
            keys.insert(key)
            var inner = member
            if case .array(let elements) = member, let first = elements.first { inner = first }
            if case .object(let nested) = inner { for (name, _) in nested { keys.insert("\(key).\(name)") } }
        }
        return keys
    }

    @Test("every JSON example parses and carries schemaVersion 1")
    func examplesParse() throws {
        let examples = try Self.examples()
        for section in [
            "Error document", "pinctl spki", "pinctl validate", "pinctl check", "pinctl rotation-check",
            "pinctl deadlines", "pinctl init", "pinctl keygen", "pinctl lab", "pinctl reports show",
        ] {
            let example = try #require(examples[section], "no JSON example under \(section)")
            #expect(example["schemaVersion"] == 1, "\(section)")
        }
    }

    @Test("the documented shapes are what the commands print")
    func shapesMatch() throws {
        let examples = try Self.examples()
        let pki = try LabPKI(name: "Docs CA")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let served = try LabPKI.writeCAFile(try pki.leaf(["*.example.com"]).chain, to: directory.file("served.pem"))
        let store = try LabPKI.writeCAFile([pki.root.certificate], to: directory.file("store.pem"))
        let keygen = try PinctlBinary.run(["keygen", "--json", "--type", "ec-p256", "--out", directory.file("keys")])
        let initialized = try PinctlBinary.run([
            "init", "--json", "--chain", served, "--trust-store", store, "--backup-key",
            directory.file("keys/backup.key"),
        ])
        let configuration = directory.file("pinkit.json")
        let proposal = try JSONParser.parse(initialized.stdout)
        try proposal["configuration"]!.serialized().write(toFile: configuration, atomically: true, encoding: .utf8)
        let releases = try directory.write(
            "releases.json",
            #"{"releases": [{"version": "3.2.0", "configuration": "pinkit.json", "installedShare": 0.82}]}"#)
        let next = try directory.write(
            "next.json",
            #"{"pinSets": [{"name": "p", "hosts": ["example.com"], "pins": [{"sha256": "\#(pki.root.pin.base64)"}]}]}"#)
        let runs: [(String, [String])] = [
            ("pinctl spki", ["spki", "--json", "--pem", served]),
            (
                "pinctl validate",
                [
                    "validate", "--json", "--production", configuration,
                ]
            ),
            (
                "pinctl rotation-check",
                [
                    "rotation-check", "--json", "--releases", releases, "--chain", served, "--trust-store", store,
                    "--host", "api.example.com", "--next", next,
                ]
            ),
            ("pinctl deadlines", ["deadlines", "--json", "--config", configuration, "--trust-store", store]),
            ("Error document", ["validate", "--json", directory.path]),
        ]
        var outputs = ["pinctl keygen": keygen.stdout, "pinctl init": initialized.stdout]
        for (section, arguments) in runs { outputs[section] = try PinctlBinary.run(arguments).stdout }
        for (section, output) in outputs {
            let actual = try JSONParser.parse(output)
            let documented = try #require(examples[section])
            // Same top-level keys; one level down wherever the real output has something there
            // (an empty list has no element to compare).
            let actualShape = Self.shape(actual)
            let documentedShape = Self.shape(documented)
            #expect(
                actualShape.filter { !$0.contains(".") } == documentedShape.filter { !$0.contains(".") }, "\(section)")
            let filled = Set(
                actualShape.compactMap { $0.split(separator: ".").count == 2 ? $0.split(separator: ".")[0] : nil })
            #expect(
                actualShape.filter { $0.contains(".") }
                    == documentedShape.filter { $0.contains(".") && filled.contains($0.split(separator: ".")[0]) },
                "\(section)")
        }
    }
}
