import Foundation
import PinKit
import PinKitLab
import PinKitTestSupport
import Testing

/// The lab row "tokens survive a restart, never in a file": a real private gnome-keyring, the
/// demo client in separate processes, and a scan of every file the lab wrote.
@Suite("pinctl lab: the keyring row")
struct LabKeyringRowTests {
    static let scenario = "tokens survive a restart, never in a file"

    static func row(in output: String) throws -> JSONValue {
        let document = try JSONParser.parse(output)
        guard case .array(let rows)? = document["rows"],
            let row = rows.first(where: { $0["scenario"] == .string(scenario) })
        else { throw LabError("no keyring row in \(output)") }
        return row
    }

    @Test("a restarted process is signed in, no file holds a token, and the same scan finds a plain-file store's")
    func keyringRow() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        // A deep directory, as an operator may give: the bus socket must not be placed under it
        // (a socket path over 107 bytes cannot be bound; the row failed that way at first).
        let kept = scratch.file(String(repeating: "a-deep-directory/", count: 4) + "lab")
        let result = try PinctlBinary.run(["lab", "--json", "--keep", kept])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let row = try Self.row(in: result.stdout)
        #expect(row["ok"] == true && row["outcome"] == "as-expected", "\(row.serialized())")
        guard case .string(let happened)? = row["happened"] else { throw LabError("no happened") }
        // The unprotected variant first: tokens a plain-file store wrote are found by the scan.
        #expect(happened.hasSuffix("a plain-file store: found in keyring-home/.config/pinkit-demo/tokens.json"))
        // The protected run: signed in after a restart with one login, and found nowhere.
        #expect(happened.hasPrefix("restarted process: call authorised with 1 login(s); token in 0 of "))
        #expect(happened.contains("(2 keyring file(s) included) and 0 in the logs"), "\(happened)")

        // Check the kept files independently of pinctl's own scan.
        let home = kept + "/keyring-home"
        let keyringFile = home + "/.local/share/keyrings/login.keyring"
        #expect((try? Data(contentsOf: URL(fileURLWithPath: keyringFile)))?.isEmpty == false, "encrypted keyring")
        let plain = try JSONParser.parse(
            try String(contentsOfFile: home + "/.config/pinkit-demo/tokens.json", encoding: .utf8))
        guard case .string(let naiveToken)? = plain["accessToken"] else { throw LabError("no token in the plain file") }
        let files = PrivateSecretService.files(under: kept)
        #expect(
            PrivateSecretService.files(files, holdingAnyOf: [naiveToken]) == [home + "/.config/pinkit-demo/tokens.json"]
        )
        let log = try String(contentsOfFile: home + "/app.log", encoding: .utf8)
        #expect(
            log.components(separatedBy: "\"logged in\"").count == 3,
            "two logins: the keyring run and the plain-file run")
        // The daemons were stopped by PID: no process runs with the kept bus configuration or HOME.
        #expect(Self.processesMentioning(home) == [], "the lab's dbus-daemon or gnome-keyring-daemon still runs")
    }

    /// The PIDs whose command line or environment mentions `path` (bus.conf under it, HOME=path).
    static func processesMentioning(_ path: String) -> [String] {
        let own = String(ProcessInfo.processInfo.processIdentifier)
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { $0.allSatisfy(\.isNumber) }
        return (pids ?? []).filter { pid in
            guard pid != own else { return false }
            return ["cmdline", "environ"].contains { name in
                let data = FileManager.default.contents(atPath: "/proc/\(pid)/\(name)") ?? Data()
                return data.range(of: Data((path + "/bus.conf").utf8)) != nil
                    || data.range(of: Data(("HOME=" + path + "\u{0}").utf8)) != nil
            }
        }
    }

    @Test("the process check sees both daemons while they run, and none after stop()")
    func processCheckCanFail() throws {
        let service = try PrivateSecretService()
        let running = Self.processesMentioning(service.home)
        service.stop()
        #expect(running.count == 2, "dbus-daemon and gnome-keyring-daemon: \(running)")
        #expect(Self.processesMentioning(service.home) == [])
    }

    @Test("without the demo beside pinctl the row is unavailable and says what to build; the lab still passes")
    func unavailableWithoutTheDemo() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        // A pinctl with nothing beside it, as when only `swift build --product pinctl` ran.
        let alone = scratch.file("pinctl")
        try FileManager.default.copyItem(atPath: PinctlBinary.url.path, toPath: alone)
        let result = try Shell.run([alone, "lab", "--json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let row = try Self.row(in: result.stdout)
        #expect(row["ok"] == false && row["outcome"] == "unavailable", "\(row.serialized())")
        #expect(
            row["happened"]
                == "unavailable: build pinkit-keyring-demo beside pinctl (swift build --product pinkit-keyring-demo)")
        let document = try JSONParser.parse(result.stdout)
        #expect(document["passed"] == true && document["unavailable"] == 1)
        // The human table marks it apart and the summary counts it.
        let human = try Shell.run([alone, "lab"])
        #expect(human.stdout.contains("–  " + Self.scenario))
        #expect(human.stdout.contains("scenarios as expected, 1 unavailable here"), "\(human.stdout)")
    }

    @Test("a machine without dbus or gnome-keyring is told which Debian packages to install")
    func missingPackages() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        #expect(PrivateSecretService.missingPackages(in: [scratch.path]) == ["dbus", "gnome-keyring"])
        for program in ["dbus-daemon", "dbus-send"] {
            try scratch.write(program, "#!/bin/sh\n")
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.file(program))
        }
        #expect(PrivateSecretService.missingPackages(in: [scratch.path]) == ["gnome-keyring"])
        #expect(PrivateSecretService.missingPackages() == [], "this machine has both (scripts/setup installs them)")
    }
}
