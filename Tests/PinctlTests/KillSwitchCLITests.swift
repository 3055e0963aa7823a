import Foundation
import PinKit
import PinKitOpenSSL
import PinKitTestSupport
import Testing

/// Issue 14 (CLI side) and issue 16 §3–§4 for `pinctl killswitch`.
@Suite("pinctl killswitch hardening")
struct KillSwitchCLITests {
    /// A configuration pinning api.example.com, with a floor; keys come from files.
    static let configuration = """
        {"pinSets": [{"name": "s", "hosts": ["api.example.com"], "pins": [
            {"sha256": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="},
            {"sha256": "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=", "role": "backup"}]}],
         "killSwitch": {"url": "https://status.example.net/ks.json", "publicKeys": [], "minimumSerial": 40}}
        """

    struct Setup {
        let directory: TemporaryDirectory
        var keys: String { directory.file("keys") }
        var key: String { keys + "/kill-switch.key" }
        var pub: String { keys + "/kill-switch.pub" }
        var config: String { directory.file("pinkit.json") }

        init() throws {
            directory = try TemporaryDirectory()
            _ = try PinctlBinary.run(["killswitch", "keygen", "--out", directory.file("keys")])
            try KillSwitchCLITests.configuration.write(
                toFile: directory.file("pinkit.json"), atomically: true, encoding: .utf8)
        }

        func sign(_ extra: [String], serial: String = "42", out: String = "doc.json") throws -> Shell.Result {
            try PinctlBinary.run(
                [
                    "killswitch", "sign", "--key", key, "--serial", serial, "--pinning", "off", "--for", "1d",
                    "--reason", "INC-1",
                ]
                    + extra + ["--out", directory.file(out)])
        }
    }

    /// What a terminal shows for a line: text after a carriage return overwrites the start.
    static func rendered(_ line: Substring) -> String {
        var screen: [Character] = []
        var column = 0
        var characters = Array(line)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\r" {
                column = 0
            } else if character == "\u{1B}" {
                // Skip a CSI sequence: ESC [ … final byte.
                index += 1
                while index < characters.count, !(characters[index].isLetter && characters[index] != "[") { index += 1 }
            } else {
                if column < screen.count { screen[column] = character } else { screen.append(character) }
                column += 1
            }
            index += 1
        }
        characters = screen
        return String(characters)
    }

    @Test("sign needs --host (inside a pin set, never a public suffix) or --all-hosts, and a sane app-version range")
    func scope() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let refused: [([String], String)] = [
            ([], "--all-hosts"),
            (["--host", "api.example.com"], "--config"),
            (["--host", "com", "--config", setup.config], "public suffix"),
            (["--host", "co.uk", "--config", setup.config], "public suffix"),
            (["--host", "other.example.org", "--config", setup.config], "outside every pin set"),
            (["--all-hosts", "--app-versions", "2.0.0-1.0.0"], "inverted"),
            (["--all-hosts", "--host", "api.example.com"], "exclude each other"),
        ]
        for (extra, message) in refused {
            let result = try setup.sign(extra)
            #expect(result.status == 2, "\(extra): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(extra): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: setup.directory.file("doc.json")), "nothing written")
        }
        #expect(try setup.sign(["--host", "v2.api.example.com", "--config", setup.config]).status == 0)
        #expect(try setup.sign(["--all-hosts"], serial: "43", out: "all.json").status == 0)
        // verify applies the same scope rules to a document signed elsewhere.
        let verify = try PinctlBinary.run([
            "killswitch", "verify", "--public-key", setup.pub, "--config", setup.config, "--json",
            setup.directory.file("doc.json"),
        ])
        #expect(verify.status == 0, "\(verify.stdout)")
    }

    @Test("verify refuses a genuine document whose scope is a public suffix or outside the pin sets")
    func verifyScope() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        // A document for "com", made with the library (the CLI refuses to sign it).
        let key = try PrivateKey(pem: String(contentsOfFile: setup.key, encoding: .utf8))
        let payload = KillSwitchDocument.Payload(
            serial: 50, issuedAt: Date(), expiresAt: Date().addingTimeInterval(3600), pinning: .off,
            scope: .init(hosts: ["com"], minimumAppVersion: "3.0.0", maximumAppVersion: "1.0.0"), reason: "x")
        let document = try KillSwitchDocument.envelope(
            payload: payload,
            signatures: [(VerifyingKey.keyID(spkiDER: key.publicKeyDER), "Ed25519", { try key.sign($0) })])
        let path = try setup.directory.write("com.json", document)
        let result = try PinctlBinary.run(["killswitch", "verify", "--json", "--public-key", setup.pub, path])
        #expect(result.status == 1)
        let json = try JSONParser.parse(result.stdout)
        #expect(json["code"] == "scope")
        guard case .array(let problems)? = json["scopeProblems"] else {
            Issue.record("no scopeProblems")
            return
        }
        #expect(problems.compactMap { $0["code"] } == ["public-suffix-host", "inverted-app-versions"])
    }

    @Test("serials: at most 2^53 - 1, never a reuse, no jump beyond the maximum without --force-serial-jump")
    func serials() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        for serial in ["9223372036854775807", "9007199254740992", "0"] {
            let result = try setup.sign(["--all-hosts"], serial: serial)
            #expect(result.status == 2, "\(serial)")
        }
        let state = setup.directory.file("state.json")
        #expect(try setup.sign(["--all-hosts", "--state", state], serial: "42").status == 0)
        let reuse = try setup.sign(["--all-hosts", "--state", state], serial: "42", out: "again.json")
        #expect(reuse.status == 2 && reuse.stderr.contains("not above 42"), "\(reuse.stderr)")
        let jump = try setup.sign(["--all-hosts", "--state", state], serial: "1043", out: "jump.json")
        #expect(jump.status == 2 && jump.stderr.contains("--force-serial-jump"), "\(jump.stderr)")
        #expect(try setup.sign(["--all-hosts", "--state", state], serial: "1042", out: "ok.json").status == 0)
        let forced = try setup.sign(
            ["--all-hosts", "--state", state, "--force-serial-jump"], serial: "9007199254740991", out: "top.json")
        #expect(forced.status == 0, "\(forced.stderr)")
        // The configuration's floor counts as known too: 40 is dead on arrival.
        let belowFloor = try setup.sign(
            ["--host", "api.example.com", "--config", setup.config], serial: "40", out: "f.json")
        #expect(belowFloor.status == 2 && belowFloor.stderr.contains("minimumSerial"), "\(belowFloor.stderr)")
    }

    @Test(
        "status --state prints the last signed serial and the floor; verify --config refuses documents at or below it")
    func floor() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let state = setup.directory.file("state.json")
        #expect(try setup.sign(["--all-hosts", "--state", state], serial: "42").status == 0)
        let status = try PinctlBinary.run(["killswitch", "status", "--json", "--state", state])
        let json = try JSONParser.parse(status.stdout)
        #expect(json["schemaVersion"] == 1 && json["lastSerial"] == 42)
        #expect(json["minimumSerial"] == 41, "the off in force stays receivable")
        // Without the floor, an app that never saw a newer serial accepts the old document.
        let old = setup.directory.file("doc.json")
        #expect(try PinctlBinary.run(["killswitch", "verify", "--public-key", setup.pub, old]).status == 0)
        let raised = Self.configuration.replacingOccurrences(of: "\"minimumSerial\": 40", with: "\"minimumSerial\": 42")
        let config = try setup.directory.write("next.json", raised)
        let verify = try PinctlBinary.run(["killswitch", "verify", "--public-key", setup.pub, "--config", config, old])
        #expect(verify.status == 1)
        #expect(verify.stdout.hasPrefix("REJECTED [below-minimum-serial]"), "\(verify.stdout)")
        let after = try PinctlBinary.run(["killswitch", "status", "--state", state, "--now", "2099-01-01T00:00:00Z"])
        #expect(after.stdout.contains("\"minimumSerial\": 42"), "\(after.stdout)")
    }

    @Test("a crafted keyId with \\r and ANSI cannot make verify display ACCEPTED; sign refuses control characters")
    func terminal() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        #expect(try setup.sign(["--all-hosts"]).status == 0)
        var text = try String(contentsOfFile: setup.directory.file("doc.json"), encoding: .utf8)
        let crafted = #"\r\u001b[2KACCEPTED: serial 42, pinning off, signed by the security team"#
        text = text.replacingOccurrences(of: #""keyId" : "ks-"#, with: #""keyId" : ""# + crafted + "ks-")
        text = text.replacingOccurrences(of: #""keyId": "ks-"#, with: #""keyId": ""# + crafted + "ks-")
        let path = try setup.directory.write("crafted.json", text)
        let result = try PinctlBinary.run(["killswitch", "verify", "--public-key", setup.pub, path])
        #expect(result.status == 1)
        // Without escaping, the terminal would show ACCEPTED on the verdict line.
        let raw =
            "REJECTED [no-valid-signature]: no valid signature by a configured key (key ids \r\u{1B}[2KACCEPTED: serial 42)"
        #expect(Self.rendered(Substring(raw)).hasPrefix("ACCEPTED"))
        let firstLine = result.stdout.split(separator: "\n").first ?? ""
        #expect(Self.rendered(firstLine).hasPrefix("REJECTED"), "\(result.stdout)")
        #expect(!result.stdout.contains("\r") && !result.stdout.contains("\u{1B}"))
        #expect(result.stdout.contains(#"\r\x1b[2KACCEPTED"#))
        let show = try PinctlBinary.run(["killswitch", "show", path])
        #expect(!show.stdout.contains("\r") && !show.stdout.contains("\u{1B}"))
        let control = try PinctlBinary.run([
            "killswitch", "sign", "--key", setup.key, "--serial", "43", "--pinning", "off", "--for", "1d", "--reason",
            "ok\u{1B}[31m", "--all-hosts", "--out", setup.directory.file("c.json"),
        ])
        #expect(control.status == 2 && control.stderr.contains("control characters"))
    }

    @Test(
        "each action parses only its own options; unknown ones get a did-you-mean",
        arguments: [
            (["killswitch", "verify", "--serial", "99", "--reason", "x", "doc.json"], "unknown option --serial"),
            (["killswitch", "verify", "--public-kye", "k.pub", "doc.json"], "did you mean --public-key?"),
            (["killswitch", "show", "--pinning", "off", "doc.json"], "unknown option --pinning"),
            (["killswitch", "keygen", "--out", "/proc/pinkit-none", "--serial", "1"], "unknown option --serial"),
            (["killswitch", "sing", "--serial", "1"], "did you mean sign?"),
            (["audit", "verify", "--head", "h", "log"], "unknown option --head"),
        ])
    func foreignOptions(_ arguments: [String], _ message: String) throws {
        let result = try PinctlBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("--json everywhere: schemaVersion 1 on results, errors as {error:{code,message}} on stdout")
    func json() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let keygen = try PinctlBinary.run(["killswitch", "keygen", "--json", "--out", setup.directory.file("k2")])
        let sign = try PinctlBinary.run([
            "killswitch", "sign", "--json", "--key", setup.key, "--serial", "42", "--pinning", "off", "--for", "1d",
            "--reason", "r", "--all-hosts", "--out", setup.directory.file("doc.json"),
        ])
        let doc = setup.directory.file("doc.json")
        let results = [
            keygen, sign,
            try PinctlBinary.run(["killswitch", "verify", "--json", "--public-key", setup.pub, doc]),
            try PinctlBinary.run(["killswitch", "show", "--json", doc]),
        ]
        for result in results {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try JSONParser.parse(result.stdout)["schemaVersion"] == 1, "\(result.stdout)")
        }
        let errors = [
            try PinctlBinary.run(["killswitch", "verify", "--json", "--public-key", setup.pub, setup.directory.path]),
            try PinctlBinary.run(["killswitch", "show", "--json", "--bogus", doc]),
            try PinctlBinary.run(["killswitch", "sign", "--json", "--serial", "1"]),
        ]
        for result in errors {
            #expect(result.status == 2)
            let json = try JSONParser.parse(result.stdout)
            #expect(json["error"]?["code"] == "usage" && json["error"]?["message"] != nil, "\(result.stdout)")
        }
    }

    @Test(
        "sign --payload-out + assemble: Ed25519, raw and DER ECDSA made by openssl pkeyutl verify; a bad one writes nothing"
    )
    func externalSignatures() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let directory = setup.directory
        let ec = directory.file("ec")
        _ = try PinctlBinary.run(["killswitch", "keygen", "--type", "ec-p256", "--out", ec])
        let payload = directory.file("payload.bin")
        let made = try PinctlBinary.run([
            "killswitch", "sign", "--payload-out", payload, "--serial", "42", "--pinning", "off", "--for", "1d",
            "--reason", "INC-7", "--all-hosts",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        try Shell.bash(
            """
            openssl pkeyutl -sign -inkey keys/kill-switch.key -rawin -in payload.bin -out ed.sig
            openssl pkeyutl -sign -inkey ec/kill-switch.key -rawin -digest sha256 -in payload.bin -out ec.der
            python3 -c 'import sys; from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature as d; r, s = d(open("ec.der","rb").read()); open("ec.raw","wb").write(r.to_bytes(32,"big") + s.to_bytes(32,"big"))'
            base64 ec.der > ec.b64
            """, directory: directory.url)
        let cases: [(String, String, String)] = [
            ("ed.sig", "ks-ed", setup.pub), ("ec.der", "ks-ec", ec + "/kill-switch.pub"),
            ("ec.raw", "ks-ec", ec + "/kill-switch.pub"), ("ec.b64", "ks-ec", ec + "/kill-switch.pub"),
        ]
        for (index, (signature, id, key)) in cases.enumerated() {
            let out = directory.file("assembled-\(index).json")
            let result = try PinctlBinary.run([
                "killswitch", "assemble", "--payload", payload, "--signature", directory.file(signature), "--key-id",
                id,
                "--public-key", key, "--out", out,
            ])
            #expect(result.status == 0, "\(signature): \(result.stderr)")
            let verify = try PinctlBinary.run(["killswitch", "verify", "--public-key", key, "--key-id", id, out])
            #expect(verify.stdout.hasPrefix("ACCEPTED: serial 42"), "\(signature): \(verify.stdout)")
        }
        // A signature by the wrong key is refused before anything is written.
        let out = directory.file("wrong.json")
        let wrong = try PinctlBinary.run([
            "killswitch", "assemble", "--payload", payload, "--signature", directory.file("ec.der"), "--key-id", "x",
            "--public-key", setup.pub, "--out", out,
        ])
        #expect(wrong.status == 1)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("show lists an unknown-algorithm entry as ignored; verify accepts beside it")
    func forwardCompatibleShow() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        #expect(try setup.sign(["--all-hosts"]).status == 0)
        var document = try JSONParser.parse(String(contentsOfFile: setup.directory.file("doc.json"), encoding: .utf8))
        guard case .object(var members) = document, case .array(var signatures)? = document["signatures"] else {
            Issue.record("no signatures")
            return
        }
        signatures.insert(["keyId": "ks-future", "alg": "ML-DSA-65", "sig": "AAAA"], at: 0)
        members = members.map { $0.key == "signatures" ? ($0.key, .array(signatures)) : $0 }
        document = .object(members)
        let path = try setup.directory.write("future.json", document.serialized())
        let show = try PinctlBinary.run(["killswitch", "show", path])
        #expect(show.stdout.contains("ks-future (ML-DSA-65): ignored: unknown algorithm"), "\(show.stdout)")
        let verify = try PinctlBinary.run(["killswitch", "verify", "--public-key", setup.pub, path])
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("unknown-algorithm"))
    }

    /// The trace of `command` under strace with umask 000: file-creating and mode-changing calls.
    static func trace(_ command: String, in directory: TemporaryDirectory) throws -> [String] {
        let log = directory.file("strace.txt")
        // LeakSanitizer cannot stop the world in a process that strace already traces (CI runs
        // this suite with an ASan-built pinctl too), so leak checking is off for the traced run.
        try Shell.bash(
            "umask 000; ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=open,openat,creat,rename,renameat,renameat2,link,linkat,chmod,fchmod,fchmodat,mkdir,mkdirat -o \(log) sh -c '\(command)'",
            directory: directory.url)
        return try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Every way `path` could have been readable by others at some moment, from the trace.
    static func exposures(of name: String, in trace: [String]) -> [String] {
        var problems: [String] = []
        var created = false
        for line in trace where line.contains("\"") {
            let quoted = line.split(separator: "\"", omittingEmptySubsequences: false)
            let names = stride(from: 1, to: quoted.count, by: 2).map { String(quoted[$0]) }
            if line.contains("rename") || line.contains("link("),
                names.last?.hasSuffix("/" + name) == true || names.last == name
            {
                problems.append("moved into place after being written elsewhere: \(line)")
            }
            guard names.first?.hasSuffix("/" + name) == true || names.first == name else { continue }
            if line.contains("open"), line.contains("O_CREAT") {
                created = true
                if !line.contains("O_EXCL") { problems.append("created without O_EXCL: \(line)") }
                // The mode is the last argument: "…, 0600)" or "…, 0600 <unfinished ...>".
                let last = line.split(separator: ",").last.map { $0.drop { $0 == " " } } ?? ""
                let digits = String(last.prefix { ("0"..."7").contains($0) })
                if let value = Int(digits, radix: 8) {
                    if value & 0o077 != 0 { problems.append("created with group/other bits: \(line)") }
                } else {
                    problems.append("no readable mode: \(line)")
                }
            }
            if line.contains("chmod"), !line.contains("0600") { problems.append("mode changed: \(line)") }
        }
        if !created { problems.append("\(name) was never created by open(O_CREAT): \(trace.count) calls traced") }
        return problems
    }

    @Test("with umask 000, keygen's private keys are 0600 from creation in a 0700 directory (strace)")
    func keyFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pinctl = PinctlBinary.url.path
        let trace = try Self.trace(
            "\(pinctl) killswitch keygen --out ks/new && \(pinctl) keygen --type ec-p256 --out backup", in: directory)
        // The unprotected variant: FileManager.createFile (how the keys were written before, and how
        // the CSR still is) writes a 0666 temporary file and renames it into place.
        #expect(!Self.exposures(of: "backup.csr", in: trace).isEmpty, "the checker sees the unprotected pattern")
        for key in ["kill-switch.key", "backup.key"] {
            #expect(Self.exposures(of: key, in: trace).isEmpty, "\(Self.exposures(of: key, in: trace))")
        }
        for (path, mode) in [
            ("ks/new/kill-switch.key", 0o600), ("ks/new", 0o700), ("backup/backup.key", 0o600), ("backup", 0o700),
        ] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.file(path))
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == mode, "\(path)")
        }
        // A group-writable directory is refused: someone else could swap the key file.
        try FileManager.default.createDirectory(
            atPath: directory.file("shared"), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777]
        )
        _ = chmod(directory.file("shared"), 0o777)
        #expect(try PinctlBinary.run(["killswitch", "keygen", "--out", directory.file("shared")]).status == 2)
    }
}

@Suite("pinctl audit hardening")
struct AuditCLITests {
    @Test("empty log: 'empty' and exit 1; a directory: usage error 2; a missing head: broken")
    func emptyAndDirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let empty = try directory.write("empty.jsonl", "")
        let result = try PinctlBinary.run(["audit", "verify", empty])
        #expect(result.status == 1)
        #expect(result.stdout.contains("empty — no entries and no head"), "\(result.stdout)")
        let json = try JSONParser.parse(try PinctlBinary.run(["audit", "verify", "--json", empty]).stdout)
        #expect(json["status"] == "empty" && json["intact"] == false && json["schemaVersion"] == 1)
        for action in ["verify", "show"] {
            let dir = try PinctlBinary.run(["audit", action, directory.path])
            #expect(dir.status == 2, "\(action): \(dir.stderr)")
            let dirJSON = try PinctlBinary.run(["audit", action, "--json", directory.path])
            let error = try JSONParser.parse(dirJSON.stdout)
            #expect(dirJSON.status == 2 && error["error"]?["code"] == "usage")
        }
        let log = try AuditLog(path: directory.file("audit.jsonl"))
        log.record(.logout(reason: "user"))
        try FileManager.default.removeItem(atPath: log.path + ".head")
        let headless = try PinctlBinary.run(["audit", "verify", log.path])
        #expect(headless.status == 1 && headless.stdout.contains("head file is missing"), "\(headless.stdout)")
    }

    @Test("truncation markers are reported with their counts; fields are shown with control characters escaped")
    func markersAndEscaping() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try AuditLog(path: directory.file("audit.jsonl"))
        for index in 0..<5 { log.record(.logout(reason: "r\(index)\r\u{1B}[2Kforged")) }
        log.acknowledge(throughSeq: 3)
        let verify = try PinctlBinary.run(["audit", "verify", log.path])
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("truncation marker: entries 1…3 (3 entries)"), "\(verify.stdout)")
        let json = try JSONParser.parse(try PinctlBinary.run(["audit", "verify", "--json", log.path]).stdout)
        #expect(json["markers"] == [["line": 1, "throughSeq": 3, "removed": 3]])
        let show = try PinctlBinary.run(["audit", "show", log.path])
        #expect(!show.stdout.contains("\u{1B}") && !show.stdout.contains("\r"), "\(show.stdout)")
    }
}

/// Issue 16 §3's table for the killswitch and audit actions: every way a file argument can be
/// wrong, with the README's exit codes.
@Suite("pinctl killswitch and audit: bad file arguments")
struct KillSwitchAuditFileTableTests {
    enum Input: String, CaseIterable {
        case missing, directory, empty, garbage, unknownFlag
    }

    /// The command line for `action` with FILE standing for the bad input.
    static let actions: [(name: String, arguments: [String], expected: [Input: Int32])] = [
        ("killswitch verify", ["killswitch", "verify", "--public-key", "PUB", "FILE"], [.empty: 1, .garbage: 1]),
        ("killswitch show", ["killswitch", "show", "FILE"], [.empty: 1, .garbage: 1]),
        ("killswitch status", ["killswitch", "status", "--state", "FILE"], [.empty: 1, .garbage: 1]),
        (
            "killswitch assemble",
            [
                "killswitch", "assemble", "--payload", "FILE", "--signature", "PUB", "--key-id", "k", "--public-key",
                "PUB",
                "--out", "OUT",
            ], [.empty: 1, .garbage: 1]
        ),
        ("audit verify", ["audit", "verify", "FILE"], [.empty: 1, .garbage: 1]),
        ("audit show", ["audit", "show", "FILE"], [.empty: 0, .garbage: 1]),
    ]

    @Test("missing file, directory, empty file, garbage, unknown flag", arguments: Input.allCases)
    func table(_ input: Input) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pub = directory.file("k/kill-switch.pub")
        _ = try PinctlBinary.run(["killswitch", "keygen", "--out", directory.file("k")])
        let file: String
        switch input {
        case .missing: file = directory.file("nope.json")
        case .directory: file = directory.path
        case .empty: file = try directory.write("empty", "")
        case .garbage, .unknownFlag: file = try directory.write("garbage", "\u{1B}[2J{{{ not json \r\n\u{0}")
        }
        for action in Self.actions {
            var arguments = action.arguments.map {
                $0 == "FILE" ? file : $0 == "PUB" ? pub : $0 == "OUT" ? directory.file("out-\(input)") : $0
            }
            if input == .unknownFlag { arguments.insert("--frobnicate", at: 2) }
            let expected = action.expected[input] ?? 2
            let result = try PinctlBinary.run(arguments)
            #expect(result.status == expected, "\(action.name) \(input): \(result.stdout)\(result.stderr)")
            #expect(!result.stdout.contains("\u{1B}") && !result.stderr.contains("\u{1B}"), "\(action.name) \(input)")
            let json = try PinctlBinary.run(Array(arguments.prefix(2)) + ["--json"] + Array(arguments.dropFirst(2)))
            #expect(json.status == expected, "\(action.name) \(input) --json")
            #expect(
                (try? JSONParser.parse(json.stdout))?["schemaVersion"] == 1, "\(action.name) \(input): \(json.stdout)")
        }
    }
}
