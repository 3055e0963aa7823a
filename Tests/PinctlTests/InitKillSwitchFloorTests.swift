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
