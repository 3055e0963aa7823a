import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import Testing

/// The exit-code contract of README, for every subcommand and every kind of bad file: scripts
/// rely on 1 meaning "the check ran and failed" and 2 meaning "you called me wrong".
@Suite("Exit codes scripts can trust")
struct ExitCodeTests {
    enum Input: String, CaseIterable, Sendable {
        case missing, directory, empty, garbage, unknownFlag
    }

    /// A subcommand line with `@` where the file goes, and the exit code for each input.
    struct Case: Sendable, CustomTestStringConvertible {
        var template: [String]
        var expected: [Input: Int32]
        var testDescription: String { template.joined(separator: " ") }
    }

    /// Missing and directory are usage errors (2) everywhere; empty and garbage content is a
    /// failed check (1) where the file is a document to check, and fine (0) where any text is
    /// valid input (redact) or an empty log is an intact log (audit).
    static let cases: [Case] = [
        Case(template: ["spki", "--pem", "@"], expected: [.empty: 1, .garbage: 1]),
        Case(template: ["validate", "@"], expected: [.empty: 1, .garbage: 1]),
        Case(template: ["validate", "--production", "--json", "@"], expected: [.empty: 1, .garbage: 1]),
        Case(template: ["check", "127.0.0.1:9", "--config", "@"], expected: [.empty: 1, .garbage: 1]),
        Case(template: ["redact", "@"], expected: [.empty: 0, .garbage: 0]),
        Case(template: ["audit", "verify", "@"], expected: [.empty: 1, .garbage: 1]),  // empty: nothing to vouch for
        Case(template: ["audit", "show", "@"], expected: [.empty: 0, .garbage: 1]),
        Case(template: ["reports", "show", "@"], expected: [.empty: 2, .garbage: 2, .directory: 2]),
        Case(template: ["killswitch", "show", "@"], expected: [.empty: 1, .garbage: 1]),
        Case(template: ["rotation-check", "--releases", "@", "--chain", "@"], expected: [.empty: 1, .garbage: 1]),
        Case(template: ["deadlines", "--config", "@"], expected: [.empty: 1, .garbage: 1]),
        Case(template: ["init", "--no-backup", "--chain", "@"], expected: [.empty: 1, .garbage: 1]),
        Case(template: ["killswitch", "verify", "--public-key", "@", "@"], expected: [.empty: 1, .garbage: 1]),
        // Commands whose argument is a directory to create: a missing one is created, an existing
        // directory is used (keygen) or refused (lab: it must be new), a file is a usage error.
        Case(
            template: ["keygen", "--type", "ec-p256", "--out", "@"],
            expected: [.missing: 0, .directory: 0, .empty: 2, .garbage: 2]),
        Case(template: ["lab", "--keep", "@"], expected: [.missing: 0, .empty: 2, .garbage: 2]),
    ]

    func path(for input: Input, in directory: TemporaryDirectory) throws -> String {
        switch input {
        case .missing: return directory.file("does-not-exist")
        case .directory: return directory.path
        case .empty: return try directory.write("empty", "")
        case .garbage, .unknownFlag: return try directory.write("garbage", "garbage \u{1}\n{[\"")
        }
    }

    @Test("every subcommand × {missing file, directory, empty file, garbage, unknown flag}", arguments: cases)
    func matrix(_ testCase: Case) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for input in Input.allCases {
            let file = try path(for: input, in: directory)
            var arguments = testCase.template.map { $0 == "@" ? file : $0 }
            if input == .unknownFlag { arguments.append("--no-such-flag") }
            let expected = testCase.expected[input] ?? ([.empty, .garbage].contains(input) ? 1 : 2)
            let result = try PinctlBinary.run(arguments)
            #expect(result.status == expected, "\(input): \(arguments) → \(result.status) \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Backtrace"), "\(input)")
        }
    }

    @Test(
        "the operator-neutral build passes the release gate with a note",
        arguments: [
            "{}", #"{"HLPinnedHosts": [], "HLPinnedSPKIHashes": []}"#,
        ])
    func neutralBuild(_ text: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("neutral.json", text)
        let human = try PinctlBinary.run(["validate", "--production", file])
        #expect(human.status == 0, "\(human.stdout)")
        #expect(human.stdout.contains("note [no-pin-sets]"))
        let json = try PinctlBinary.run(["validate", "--production", "--json", file])
        let document = try JSONParser.parse(json.stdout)
        #expect(json.status == 0)
        #expect(document["valid"] == true && document["noteCount"] == 1 && document["warningCount"] == 0)
    }

    @Test("help for an unknown command, no command, and an unknown command are usage errors")
    func helpAndUnknown() throws {
        #expect(try PinctlBinary.run(["help", "nonexist"]).status == 2)
        #expect(try PinctlBinary.run([]).status == 2)
        #expect(try PinctlBinary.run(["frobnicate"]).status == 2)
        #expect(try PinctlBinary.run(["help", "validate"]).status == 0)
    }

    @Test("an unknown option is a usage error that names the closest option the command takes")
    func didYouMean() throws {
        let misspelt = try PinctlBinary.run(["validate", "--prodution", "x.json"])
        #expect(misspelt.status == 2)
        #expect(misspelt.stderr.contains("unknown option --prodution (did you mean --production?)"))
        let foreign = try PinctlBinary.run(["spki", "--frobnicate"])
        #expect(foreign.status == 2)
        #expect(foreign.stderr.contains("this command takes --ca-file, --config, --json, --pem"))
    }

    @Test("a release configuration that does not exist is a usage error, not a failed check")
    func missingReleaseConfiguration() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let releases = try directory.write(
            "releases.json", #"{"releases": [{"version": "1.0", "configuration": "gone.json", "installedShare": 1}]}"#)
        let chain = try directory.write("chain.pem", try String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt"))
        let result = try PinctlBinary.run(["rotation-check", "--releases", releases, "--chain", chain])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("missing-file"))
    }

    @Test("with --json, a failure is one JSON error document on stdout with the exit code's name")
    func jsonErrors() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cases: [([String], Int32, String)] = [
            (["validate", "--json", directory.path], 2, "usage"),
            (["validate", "--json", "--bogus", "x.json"], 2, "usage"),
            (["spki", "--json", "--pem", try directory.write("g", "garbage")], 1, "check-failed"),
            (["rotation-check", "--json", "--releases", directory.file("none")], 2, "usage"),
        ]
        for (arguments, status, code) in cases {
            let result = try PinctlBinary.run(arguments)
            #expect(result.status == status, "\(arguments)")
            let document = try JSONParser.parse(result.stdout)
            #expect(document["schemaVersion"] == 1)
            #expect(document["error"]?["code"] == .string(code), "\(arguments): \(result.stdout)")
            #expect(document["error"]?["message"] != nil)
        }
    }

    @Test("a closed pipe ends pinctl quietly: no signal death, no backtrace, the real exit code")
    func brokenPipe() throws {
        // 4 MiB through redact while `head -c 1` closes the pipe after one byte: the pipe buffer
        // (64 KiB) fills, so pinctl's later writes meet EPIPE every time (SIGPIPE death is 141).
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let big = try directory.write(
            "big.log", String(repeating: "GET https://api.example.com/v1/x ok\n", count: 120_000))
        let result = try Shell.run([
            "bash", "-c", "set -o pipefail; \"$0\" redact \"$1\" | head -c 1 >/dev/null", PinctlBinary.url.path, big,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("Backtrace") && !result.stderr.contains("Fatal"), "\(result.stderr)")
        // The issue's own reproduction.
        let lab = try Shell.run(["bash", "-c", "set -o pipefail; \"$0\" lab | head -1", PinctlBinary.url.path])
        #expect(lab.status == 0, "\(lab.stderr)")
        #expect(!lab.stderr.contains("Backtrace"), "\(lab.stderr)")
    }
}

/// Strings from certificates and files reach the terminal escaped: a crafted subject cannot
/// clear the screen or rewrite a line to show a verdict pinctl did not give.
@Suite("Terminal-safe output")
struct TerminalSafetyTests {
    @Test("a pin label with ESC, CR and BEL is printed escaped by spki, rotation-check and deadlines")
    func fileStrings() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pki = try LabPKI(name: "Terminal")
        // Subjects are already escaped by OpenSSL's RFC 2253 printer (\1B); labels come raw from a file.
        let chain = try LabPKI.writeCAFile(try pki.leaf(["api.example.com"]).chain, to: directory.file("chain.pem"))
        let store = try LabPKI.writeCAFile([pki.root.certificate], to: directory.file("store.pem"))
        let label = #"evil\u001b[2J\rSAFE\u0007"#
        let config = try directory.write(
            "c.json",
            #"{"pinSets": [{"name": "p", "hosts": ["api.example.com"], "pins": [{"sha256": "\#(pki.intermediate.pin.base64)", "label": "\#(label)"}, {"sha256": "\#(pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}"#
        )
        let releases = try directory.write(
            "releases.json", #"{"releases": [{"version": "1", "configuration": "c.json", "installedShare": 1}]}"#)
        for arguments in [
            ["spki", "--pem", chain, "--config", config],
            ["rotation-check", "--releases", releases, "--chain", chain, "--trust-store", store],
            ["deadlines", "--config", config, "--chain", chain, "--trust-store", store],
        ] {
            let result = try PinctlBinary.run(arguments)
            let output = result.stdout + result.stderr
            #expect(!output.contains("\u{1b}") && !output.contains("\r") && !output.contains("\u{7}"), "\(arguments)")
            #expect(output.contains(#"evil\x1b[2J\rSAFE\x07"#), "\(arguments): \(output)")
        }
    }

    @Test("a host with control characters in a configuration is printed escaped by validate")
    func configurationHost() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try directory.write(
            "c.json", #"{"pinSets": [{"name": "p", "hosts": ["a\u001b[2Jb.example.com\r"], "pins": []}]}"#)
        let result = try PinctlBinary.run(["validate", config])
        #expect(result.status == 1)
        #expect(!result.stdout.contains("\u{1b}") && !result.stdout.contains("\r"))
        #expect(result.stdout.contains(#"a\x1b[2Jb.example.com\r"#), "\(result.stdout)")
    }
}
