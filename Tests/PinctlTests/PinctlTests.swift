import Foundation
import PinKit
import PinKitTestSupport
import Testing

@Suite("pinctl")
struct PinctlTests {
    static let pki: CLIPKI = try! CLIPKI()

    static func configuration(pins: [String], hosts: String = #"["api.example.com"]"#) throws -> String {
        let entries = pins.enumerated().map { index, pin in
            #"{"sha256": "\#(pin)", "label": "pin \#(index)"\#(index == pins.count - 1 ? #", "role": "backup""# : "")}"#
        }
        let json =
            #"{"pinSets": [{"name": "cloud", "hosts": \#(hosts), "pins": [\#(entries.joined(separator: ", "))]}]}"#
        return try pki.directory.write("config-\(UUID().uuidString).json", json)
    }

    static func json(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    @Test(
        "--help works for pinctl and every command",
        arguments: [
            [], ["spki"], ["validate"], ["check"], ["redact"], ["audit"], ["reports"], ["killswitch"],
            ["rotation-check"],
            ["keygen"], ["deadlines"], ["init"], ["lab"],
        ]
    )
    func help(_ command: [String]) throws {
        let result = try PinctlBinary.run(command + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: pinctl"))
        #expect(result.stdout.contains("EXIT CODES"))
    }

    @Test(
        "usage errors exit 2 and say what is wrong",
        arguments: [
            (["frobnicate"], "unknown command"),
            ([], "USAGE"),
            (["spki"], "--pem"),
            (["spki", "--pem"], "--pem needs a value"),
            (["spki", "--pem", "/nonexistent.pem"], "cannot read /nonexistent.pem"),
            (["spki", "--jsn", "--pem", "x"], "unknown option --jsn"),
            (["spki", "--json=yes", "--pem", "x"], "--json takes no value"),
            (["validate"], "give the configuration file"),
            (["validate", "a.json", "b.json"], "exactly one"),
            (["validate", "--now", "tomorrow", "a.json"], "--now expects an RFC 3339 date"),
            (["validate", "/nonexistent.json"], "cannot read"),
        ]
    )
    func usage(_ arguments: [String], _ fragment: String) throws {
        let result = try PinctlBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(fragment), "stderr: \(result.stderr)")
    }

    @Test("spki --json lists the chain with openssl's pins and marks what the configuration pins")
    func spkiJSON() throws {
        let pins = try Self.pki.pins()
        let config = try Self.configuration(pins: [pins.intermediate, pins.backup])
        let result = try PinctlBinary.run(["spki", "--json", "--config", config, "--pem", Self.pki.chainPath])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try Self.json(result.stdout)
        guard case .array(let rows)? = document["certificates"] else {
            Issue.record("no certificates array in \(result.stdout)")
            return
        }
        #expect(rows.count == 3)
        #expect(rows.map { $0["index"] } == [.int(1), .int(2), .int(3)])
        #expect(rows.map { $0["spkiSHA256"] } == [.string(pins.leaf), .string(pins.intermediate), .string(pins.root)])
        #expect(rows[0]["subject"] == "CN=api.example.com")
        #expect(rows[1]["issuer"] == "CN=Test Root,O=PinKit Test")
        #expect(rows[1]["keyType"] == "EC")
        for key in ["notBefore", "notAfter"] {
            guard case .string(let text)? = rows[0][key] else {
                Issue.record("\(key) missing")
                continue
            }
            #expect(RFC3339.parse(text) != nil)
        }
        #expect(rows[0]["pinnedBy"] == .array([]))
        #expect(rows[1]["pinnedBy"] == [["pinSet": "cloud", "label": "pin 0", "role": "active"]])
    }

    @Test("spki without --config prints pinnedBy null, and human text names every field")
    func spkiText() throws {
        let json = try Self.json(try PinctlBinary.run(["spki", "--json", "--pem", Self.pki.leafPath]).stdout)
        guard case .array(let rows)? = json["certificates"], let first = rows.first else {
            Issue.record("no certificates in the output")
            return
        }
        #expect(first["pinnedBy"] == .null)
        let text = try PinctlBinary.run(["spki", "--pem", Self.pki.leafPath, Self.pki.rootPath])
        #expect(text.status == 0)
        for fragment in [
            "[0 leaf] CN=api.example.com", "[0 root] CN=Test Root,O=PinKit Test", "do not pin:  the leaf",
            "SPKI SHA-256:", "EC P-384", "notAfter:",
        ] {
            #expect(text.stdout.contains(fragment), "missing \(fragment)")
        }
    }

    @Test("spki on a file with no certificate exits 1 with the reason")
    func spkiGarbage() throws {
        let path = try Self.pki.directory.write(
            "garbage.pem", "-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n")
        let result = try PinctlBinary.run(["spki", "--pem", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not base64"))
    }

    @Test("validate: a good configuration exits 0, with the chain too")
    func validateGood() throws {
        let pins = try Self.pki.pins()
        let config = try Self.configuration(pins: [pins.intermediate, pins.root, pins.backup])
        let result = try PinctlBinary.run(["validate", "--chain", Self.pki.chainPath, config])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("OK"))
        let production = try PinctlBinary.run([
            "validate", "--production", "--json", "--chain", Self.pki.chainPath, config,
        ])
        #expect(production.status == 0, "\(production.stdout)")
        #expect(try Self.json(production.stdout)["valid"] == true)
    }

    @Test("validate: every problem is printed and the exit code is 1")
    func validateProblems() throws {
        let pins = try Self.pki.pins()
        let config = try Self.configuration(
            pins: [pins.leaf, "sha256/nope", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="],
            hosts: #"["*.example.com", "co.uk"]"#)
        let result = try PinctlBinary.run(["validate", "--json", "--chain", Self.pki.chainPath, config])
        #expect(result.status == 1)
        let document = try Self.json(result.stdout)
        #expect(document["valid"] == false)
        guard case .array(let problems)? = document["problems"] else {
            Issue.record("no problems array")
            return
        }
        let found = Set(
            problems.compactMap { problem -> String? in
                guard case .string(let code)? = problem["code"], case .string(let path)? = problem["path"] else {
                    return nil
                }
                return "\(code) \(path)"
            })
        for expected in [
            "wildcard-host pinSets[0].hosts[0]", "public-suffix-host pinSets[0].hosts[1]",
            "invalid-pin pinSets[0].pins[1]",
            "placeholder-pin pinSets[0].pins[2]", "too-few-pins pinSets[0].pins", "leaf-pinned pinSets[0].pins[0]",
        ] {
            #expect(found.contains(expected), "missing \(expected) in \(found)")
        }
        #expect(problems.allSatisfy { $0["message"] != nil && $0["severity"] != nil })
    }

    @Test("validate: a configuration that would brick today fails against the chain")
    func validateBrick() throws {
        let pins = try Self.pki.pins()
        let other = try CLIPKI()
        defer { other.directory.remove() }
        let config = try Self.configuration(pins: [pins.intermediate, pins.backup])
        let result = try PinctlBinary.run(["validate", "--chain", other.chainPath, config])
        #expect(result.status == 1)
        #expect(result.stdout.contains("no-pin-matches-chain"))
        #expect(result.stdout.contains("would brick today"))
    }

    @Test("validate: warnings pass the normal check and fail --production")
    func validateProduction() throws {
        let pins = try Self.pki.pins()
        let path = try Self.pki.directory.write(
            "warn.json",
            #"{"pinSets": [{"name": "c", "hosts": ["api.example.com"], "mode": "report-only", "pins": [{"sha256": "\#(pins.intermediate)"}, {"sha256": "\#(pins.backup)", "role": "backup"}]}]}"#
        )
        #expect(try PinctlBinary.run(["validate", path]).status == 0)
        let production = try PinctlBinary.run(["validate", "--production", path])
        #expect(production.status == 1)
        #expect(production.stdout.contains("report-only-mode"))
    }

    @Test("validate: expiry is judged at --now")
    func validateNow() throws {
        let pins = try Self.pki.pins()
        let path = try Self.pki.directory.write(
            "expiring.json",
            #"{"pinSets": [{"name": "c", "hosts": ["api.example.com"], "expires": "2030-01-01T00:00:00Z", "pins": [{"sha256": "\#(pins.intermediate)"}, {"sha256": "\#(pins.backup)", "role": "backup"}]}]}"#
        )
        #expect(try PinctlBinary.run(["validate", "--now", "2029-01-01T00:00:00Z", path]).status == 0)
        let later = try PinctlBinary.run(["validate", "--now", "2030-06-01T00:00:00Z", path])
        #expect(later.status == 1)
        #expect(later.stdout.contains("expired-pin-set"))
    }

    @Test("validate: malformed JSON exits 1 with the parse position")
    func validateMalformed() throws {
        let path = try Self.pki.directory.write("broken.json", "{\n  \"pinSets\": [\n    {\"name\": \"c\",,}\n  ]\n}\n")
        let result = try PinctlBinary.run(["validate", path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("malformed-json"))
        #expect(result.stdout.contains("line 3, column 18"))
    }

    @Test("validate: the flat keys in a property list are accepted")
    func validatePlist() throws {
        let pins = try Self.pki.pins()
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
              <key>HLPinnedHosts</key><array><string>api.example.com</string></array>
              <key>HLPinnedSPKIHashes</key><array><string>\(pins.intermediate)</string><string>\(pins.backup)</string></array>
            </dict></plist>
            """
        let path = try Self.pki.directory.write("Info.plist", plist)
        let result = try PinctlBinary.run(["validate", "--chain", Self.pki.chainPath, path])
        #expect(result.status == 0, "\(result.stdout)")
    }
}

@Suite("pinctl redact")
struct RedactCommandTests {
    @Test("redacts standard input and files line by line, keeping invalid bytes and line ends")
    func redact() throws {
        let text =
            "GET https://u:p@api.example.com/v1/x?t=1 for bob@example.com\nBearer abc\n\u{FF}plain\nno newline at end"
        var input = Data(text.utf8)
        input[input.firstIndex(of: 0xC3)!] = 0xFF  // an invalid UTF-8 byte
        let result = try PinctlBinary.run(["redact"], input: input)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "GET https://api.example.com for [redacted-email]")
        #expect(lines[1] == "[redacted-bearer]")
        #expect(lines[3] == "no newline at end")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("app.log", "id 550e8400-e29b-41d4-a716-446655440000\n")
        let fromFile = try PinctlBinary.run(["redact", path])
        #expect(fromFile.stdout == "id [redacted-uuid]\n")
        #expect(try PinctlBinary.run(["redact", "/nonexistent.log"]).status == 2)
    }
}

@Suite("pinctl audit and reports")
struct AuditReportsCommandTests {
    @Test("audit verify passes an intact log and names the line of an edit; show lists entries")
    func audit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try AuditLog(path: directory.file("audit.jsonl"))
        log.record(.login(method: "password"))
        log.record(.syncToggled(enabled: true))
        log.record(.logout(reason: "user"))
        let ok = try PinctlBinary.run(["audit", "verify", log.path])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("intact — 3 entries"))
        let shown = try PinctlBinary.run(["audit", "show", log.path])
        #expect(shown.stdout.contains("sync-toggled"))
        var text = try String(contentsOfFile: log.path, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"enabled\":true", with: "\"enabled\":false")
        try text.write(toFile: log.path, atomically: true, encoding: .utf8)
        let broken = try PinctlBinary.run(["audit", "verify", "--json", log.path])
        #expect(broken.status == 1)
        let document = try JSONParser.parse(broken.stdout)
        #expect(document["intact"] == false)
        guard case .array(let problems)? = document["problems"] else {
            Issue.record("no problems")
            return
        }
        #expect(problems.first?["line"] == .int(2))
        #expect(try PinctlBinary.run(["audit", "frobnicate", log.path]).status == 2)
    }

    @Test("reports show reads the store without changing it")
    func reports() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try PinFailureReportStore(directory: directory.path)
        let event = PinFailureEvent(
            date: Date(timeIntervalSince1970: 1_800_000_000), hostname: "api.example.com", port: 443,
            notedHostname: "api.example.com", setName: "cloud", includeSubdomains: true, effectiveExpirationDate: nil,
            mode: .enforce, servedCertificateChain: [], validatedCertificateChain: [], knownPins: [],
            validatedChainPins: [], reason: "pin mismatch for api.example.com"
        )
        store.record(PinFailureReport(event: event, appVersion: "1.0"))
        store.record(PinFailureReport(event: event, appVersion: "1.0"))
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        let result = try PinctlBinary.run(["reports", "show", "--json", directory.path])
        #expect(result.status == 0)
        let document = try JSONParser.parse(result.stdout)
        guard case .array(let reports)? = document["reports"] else {
            Issue.record("no reports")
            return
        }
        #expect(reports.count == 1)
        #expect(reports[0]["count"] == .int(2))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == before)
        #expect(try PinctlBinary.run(["reports", "show", directory.file("nothing-here")]).status == 2)
    }
}

@Suite("pinctl killswitch")
struct KillSwitchCommandTests {
    @Test("keygen, sign, verify and show; a tampered or replayed document is rejected")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keys = directory.file("keys")
        let keygen = try PinctlBinary.run(["killswitch", "keygen", "--json", "--out", keys])
        #expect(keygen.status == 0, "\(keygen.stderr)")
        let entry = try JSONParser.parse(keygen.stdout)
        guard case .string(let keyID)? = entry["keyId"] else {
            Issue.record("no keyId")
            return
        }
        let mode =
            try FileManager.default.attributesOfItem(atPath: keys + "/kill-switch.key")[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        #expect(!keygen.stdout.contains("PRIVATE"))
        #expect(try PinctlBinary.run(["killswitch", "keygen", "--out", keys]).status == 2, "refuses to overwrite")

        let document = directory.file("off.json")
        let config = try directory.write(
            "pinkit.json", #"{"pinSets": [{"name": "s", "hosts": ["example.com"], "pins": [{"sha256": "x"}]}]}"#)
        let sign = try PinctlBinary.run([
            "killswitch", "sign", "--key", keys + "/kill-switch.key", "--serial", "42", "--pinning", "off", "--for",
            "7d",
            "--reason", "INC-123", "--host", "api.example.com", "--app-versions", "1.2.0-1.4.9", "--config", config,
            "--out", document,
        ])
        #expect(sign.status == 0, "\(sign.stderr)")
        let verify = try PinctlBinary.run(["killswitch", "verify", "--public-key", keys + "/kill-switch.pub", document])
        #expect(verify.status == 0)
        #expect(verify.stdout.contains("ACCEPTED: serial 42, pinning off"))
        #expect(verify.stdout.contains(keyID))
        let show = try PinctlBinary.run(["killswitch", "show", document])
        #expect(show.stdout.contains("api.example.com") && show.stdout.contains("1.2.0 - 1.4.9"))

        let replay = try PinctlBinary.run([
            "killswitch", "verify", "--after-serial", "42", "--public-key", keys + "/kill-switch.pub", document,
        ])
        #expect(replay.status == 1)
        #expect(replay.stdout.contains("a replay"))
        let later = try PinctlBinary.run([
            "killswitch", "verify", "--now", "2099-01-01T00:00:00Z", "--public-key", keys + "/kill-switch.pub",
            document,
        ])
        #expect(later.status == 1)
        #expect(later.stdout.contains("expired"))

        // Another key's public half does not verify this document.
        let other = directory.file("other")
        _ = try PinctlBinary.run(["killswitch", "keygen", "--type", "ec-p256", "--out", other])
        let wrong = try PinctlBinary.run([
            "killswitch", "verify", "--key-id", keyID, "--public-key", other + "/kill-switch.pub", document,
        ])
        #expect(wrong.status == 1)
        #expect(wrong.stdout.contains("no valid signature"))

        // An added field is refused outright.
        var text = try String(contentsOfFile: document, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "\"signatures\"", with: "\"baseURL\": \"https://evil.example\", \"signatures\"")
        try text.write(toFile: document, atomically: true, encoding: .utf8)
        let tampered = try PinctlBinary.run([
            "killswitch", "verify", "--public-key", keys + "/kill-switch.pub", document,
        ])
        #expect(tampered.status == 1)
        #expect(tampered.stdout.contains("unknown key \"baseURL\""))
    }

    @Test(
        "usage errors",
        arguments: [
            ["killswitch"], ["killswitch", "sign", "--serial", "1"],
            [
                "killswitch", "sign", "--key", "k", "--serial", "0", "--pinning", "off", "--for", "1d", "--reason", "r",
                "--out", "o",
            ],
            [
                "killswitch", "sign", "--key", "k", "--serial", "1", "--pinning", "maybe", "--for", "1d", "--reason",
                "r", "--out", "o",
            ],
            ["killswitch", "verify", "doc.json"],
            [
                "killswitch", "sign", "--key", "k", "--serial", "1", "--pinning", "off", "--for", "7x", "--reason", "r",
                "--out", "o",
            ],
        ])
    func usage(_ arguments: [String]) throws {
        #expect(try PinctlBinary.run(arguments).status == 2, "\(arguments)")
    }
}

@Suite("pinctl lab")
struct LabCommandTests {
    @Test("the lab runs every scenario as expected on loopback")
    func lab() throws {
        let result = try PinctlBinary.run(["lab", "--json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let document = try JSONParser.parse(result.stdout)
        #expect(document["passed"] == true)
        guard case .array(let rows)? = document["rows"] else {
            Issue.record("no rows")
            return
        }
        #expect(rows.count >= 19)
        #expect(document["unavailable"] == 0, "every row runs here, the keyring row included")
        #expect(rows.contains { $0["scenario"] == "tokens survive a restart, never in a file" })
        #expect(rows.contains { $0["scenario"] == "pin set expired before launch" })
        #expect(rows.contains { $0["scenario"] == "kill-switch drill (second key)" })
        for row in rows { #expect(row["ok"] == true, "\(row.serialized())") }
    }
}
