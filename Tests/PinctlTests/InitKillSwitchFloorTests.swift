import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import Testing

/// Issue 14.5: `pinctl init` proposes `killSwitch.minimumSerial` from a kill-switch state, the
/// same value `killswitch status` prints, so a release never ships without its floor because an
/// operator forgot to copy it by hand.
@Suite("init proposes the kill-switch floor")
struct InitKillSwitchFloorTests {
    @Test("init --kill-switch-state proposes the floor killswitch status proposes, with an off in force and after it")
    func floorFromState() throws {
        let setup = try KillSwitchCLITests.Setup()
        defer { setup.directory.remove() }
        let state = setup.directory.file("state.json")
        #expect(try setup.sign(["--all-hosts", "--state", state], serial: "42").status == 0)
        let pki = try LabPKI(name: "Floor Lab")
        let served = try LabPKI.writeCAFile(
            try pki.leaf(["api.example.com"]).chain, to: setup.directory.file("served.pem"))
        let store = try LabPKI.writeCAFile([pki.root.certificate], to: setup.directory.file("store.pem"))

        // An off in force stays receivable (41); once it lapsed the floor is the last serial (42).
        for (now, expected) in [(Date(), 41), (Date(timeIntervalSinceNow: 3 * 86_400), 42)] {
            let when = RFC3339.format(now)
            let status = try JSONParser.parse(
                try PinctlBinary.run(["killswitch", "status", "--json", "--state", state, "--now", when]).stdout)
            let made = try PinctlBinary.run([
                "init", "--json", "--chain", served, "--trust-store", store, "--no-backup", "--now", when,
                "--kill-switch-state", state,
            ])
            #expect(made.status == 0, "\(made.stderr)")
            let proposal = try JSONParser.parse(made.stdout)["summary"]?["killSwitch"]
            #expect(proposal?["lastSerial"] == 42)
            #expect(status["minimumSerial"] == .int(expected))
            #expect(proposal?["minimumSerial"] == .int(expected), "\(made.stdout)")
            let human = try PinctlBinary.run([
                "init", "--chain", served, "--trust-store", store, "--no-backup", "--now", when,
                "--kill-switch-state", state,
            ])
            #expect(human.stderr.contains("\"minimumSerial\": \(expected)"), "\(human.stderr)")
        }
        // Without the option nothing is proposed; a state that is not one is a failed check.
        let plain = try PinctlBinary.run([
            "init", "--json", "--chain", served, "--trust-store", store, "--no-backup",
        ])
        #expect(try JSONParser.parse(plain.stdout)["summary"]?["killSwitch"] == .null)
        let garbage = try setup.directory.write("garbage.json", "{\"highestSerial\": \"x\"}")
        let refused = try PinctlBinary.run([
            "init", "--chain", served, "--trust-store", store, "--no-backup", "--kill-switch-state", garbage,
        ])
        #expect(refused.status == 1, "\(refused.stderr)")
        let missing = try PinctlBinary.run([
            "init", "--chain", served, "--trust-store", store, "--no-backup", "--kill-switch-state",
            setup.directory.file("absent.json"),
        ])
        #expect(missing.status == 2, "\(missing.stderr)")
    }
}

/// The floor a release ships is proposed from the operator's own state, never from a document
/// whose signature nothing checked: a forged document (the kill-switch URL is fetched unpinned)
/// with serial 2^53 − 1 made `killswitch status` propose that floor (exit 0), which would leave
/// the release unable to accept any kill switch.
@Suite("The kill-switch floor comes from verified state")
struct KillSwitchFloorSourceTests {
    @Test("status and init refuse an unchecked document as the state that proposes the floor")
    func forgedDocument() throws {
        let setup = try KillSwitchCLITests.Setup()
        defer { setup.directory.remove() }
        #expect(try setup.sign(["--all-hosts"], serial: "42").status == 0)
        let now = Date()
        let payload =
            #"{"type":"pinning-kill-switch","serial":9007199254740991,"issuedAt":"\#(RFC3339.format(now))","expiresAt":"\#(RFC3339.format(now + 86_400))","pinning":"on","scope":{},"reason":"x"}"#
        let forged = try setup.directory.write(
            "forged.json",
            KillSwitchDocument.envelope(
                payloadBytes: Array(payload.utf8),
                signatures: [.init(keyId: "ks-a", algorithm: "Ed25519", bytes: [UInt8](repeating: 7, count: 64))]))
        // The same document is refused by verify: its signature no longer matches.
        #expect(try PinctlBinary.run(["killswitch", "verify", "--public-key", setup.pub, forged]).status == 1)

        let status = try PinctlBinary.run(["killswitch", "status", "--json", "--state", forged])
        #expect(status.status == 1, "\(status.stdout)")
        #expect(!status.stdout.contains("\"minimumSerial\""), "\(status.stdout)")
        let pki = try LabPKI(name: "Floor Source Lab")
        let served = try LabPKI.writeCAFile(
            try pki.leaf(["api.example.com"]).chain, to: setup.directory.file("served.pem"))
        let store = try LabPKI.writeCAFile([pki.root.certificate], to: setup.directory.file("store.pem"))
        let initialized = try PinctlBinary.run([
            "init", "--chain", served, "--trust-store", store, "--no-backup", "--kill-switch-state", forged,
        ])
        #expect(initialized.status == 1, "\(initialized.stderr)")
        #expect(initialized.stdout.isEmpty, "nothing is proposed")
    }

    @Test("status at the top of the serial range says no document can follow and exits 1")
    func exhausted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for (serial, status, next) in [(9_007_199_254_740_991, Int32(1), JSONValue.null), (41, 0, .int(42))] {
            let state = try directory.write(
                "state-\(serial).json", #"{"highestSerial": \#(serial), "activeOff": null}"#)
            let result = try PinctlBinary.run(["killswitch", "status", "--json", "--state", state])
            #expect(result.status == status, "\(result.stdout)")
            #expect(try JSONParser.parse(result.stdout)["nextSerial"] == next)
        }
        let human = try PinctlBinary.run([
            "killswitch", "status", "--state", directory.file("state-9007199254740991.json"),
        ])
        #expect(!human.stdout.contains("--serial 9007199254740992"), "\(human.stdout)")
    }
}
