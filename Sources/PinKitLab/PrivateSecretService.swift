import Foundation
import PinKitProcessGate

/// A private D-Bus session bus and, on it, a `gnome-keyring-daemon` serving the Secret Service,
/// with HOME and the XDG directories in a directory of its own. Nothing touches the user's own
/// session; `stop()` ends both daemons by PID. The Secret Service tests and `pinctl lab` start one.
///
/// It is what `dbus-run-session -- gnome-keyring-daemon --unlock --components=secrets` sets up,
/// with two differences that matter here: the bus's address is read, not inherited, so any
/// number of client processes can be started on it later; and the bus has no service
/// directories, so nothing is ever activated behind the caller's back: a bus started with
/// `keyring: false` has no Secret Service at all.
public final class PrivateSecretService: @unchecked Sendable {
    // @unchecked Sendable: the Process objects are only touched by init and stop(), which the
    // owner calls once, from its own task.

    /// Where the daemons are looked up: their Debian packages install them in /usr/bin.
    public static let searchPath = ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]
    /// The programs needed and the Debian packages (as scripts/setup names them) that bring them.
    static let programs = [("dbus-daemon", "dbus"), ("dbus-send", "dbus"), ("gnome-keyring-daemon", "gnome-keyring")]

    /// The Debian packages to install before one can start: empty when every program is there.
    /// - Parameter directories: where to look for the programs; the standard system ones by default.
    public static func missingPackages(in directories: [String] = searchPath) -> [String] {
        var packages: [String] = []
        for (program, package) in programs where LabProcess.find(program, in: directories) == nil {
            if !packages.contains(package) { packages.append(package) }
        }
        return packages
    }

    /// HOME for the keyring daemon and for every client started with ``environment``.
    public let home: String
    /// The bus address (`unix:path=…`) to hand to the store.
    public let address: String
    /// The bus's and the keyring's sockets (XDG_RUNTIME_DIR): a short directory of its own,
    /// since a socket path longer than 107 bytes cannot be bound and HOME may be deep.
    private let runtime: String
    private let ownsHome: Bool
    private let bus: Process
    private let keyring: Process?

    /// Starts the bus and, unless `keyring` is false, an unlocked gnome-keyring on it.
    /// - Parameters:
    ///   - password: the login keyring's password. Non-empty by default: an empty one makes
    ///     gnome-keyring store the keyring unencrypted.
    ///   - keyring: false for a bus on which nothing serves `org.freedesktop.secrets`.
    ///   - home: the directory to use as HOME (created if missing, left in place by `stop()`);
    ///     nil for a fresh temporary one that `stop()` removes.
    /// - Throws: ``LabError`` naming the packages to install when a program is missing, or
    ///   saying what the daemon printed when it did not come up.
    public init(password: String = "pinkit test passphrase", keyring: Bool = true, home: String? = nil) throws {
        let missing = Self.missingPackages()
        guard missing.isEmpty else {
            throw LabError(
                "install \(missing.joined(separator: " and ")) (Debian packages; scripts/setup installs them)")
        }
        ownsHome = home == nil
        let home = home ?? NSTemporaryDirectory() + "pinkit-keyring-\(UUID().uuidString)"
        self.home = home
        runtime = NSTemporaryDirectory() + "pinkit-run-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime)
        let config = (home as NSString).appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:dir=\(runtime)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/>
          </policy>
        </busconfig>
        """.write(toFile: config, atomically: true, encoding: .utf8)
        bus = Process()
        bus.executableURL = URL(fileURLWithPath: LabProcess.find("dbus-daemon", in: Self.searchPath)!)
        bus.arguments = ["--config-file=\(config)", "--nofork", "--print-address=1"]
        bus.environment = ["PATH": Self.searchPath.joined(separator: ":")]
        let out = Pipe()
        bus.standardOutput = out
        let busLog = (home as NSString).appendingPathComponent("bus.log")
        _ = FileManager.default.createFile(atPath: busLog, contents: nil)
        bus.standardError = FileHandle(forWritingAtPath: busLog)
        try ProcessGate.run(bus)
        // The daemon prints its address once it listens; the first line is all there is.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard address.hasPrefix("unix:") else {
            self.keyring = nil
            stop()
            let log = (try? String(contentsOfFile: busLog, encoding: .utf8)) ?? ""
            throw LabError("dbus-daemon did not print an address: \(log)")
        }
        guard keyring else {
            self.keyring = nil
            return
        }
        // --unlock reads the password up to end of file; from a file, so that no stray copy of a
        // pipe's write end (inherited by a process another thread spawns meanwhile) keeps it waiting.
        let passwordFile = (home as NSString).appendingPathComponent("password")
        try password.write(toFile: passwordFile, atomically: true, encoding: .utf8)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/bin/sh")
        daemon.arguments = [
            "-c", "exec gnome-keyring-daemon --foreground --unlock --components=secrets < \"$0\"", passwordFile,
        ]
        var environment = Self.environment(home: home, runtime: runtime, address: address)
        environment["PATH"] = Self.searchPath.joined(separator: ":")
        daemon.environment = environment
        daemon.standardOutput = FileHandle.nullDevice
        let logFile = (home as NSString).appendingPathComponent("keyring.log")
        _ = FileManager.default.createFile(atPath: logFile, contents: nil)
        daemon.standardError = FileHandle(forWritingAtPath: logFile)
        try ProcessGate.run(daemon)
        self.keyring = daemon
        // Ready when it owns its name: a bounded number of polls, no clock in any decision.
        for _ in 0..<400 {
            if try nameHasOwner("org.freedesktop.secrets") {
                try? FileManager.default.removeItem(atPath: passwordFile)
                return
            }
            guard daemon.isRunning else { break }
            usleep(25_000)
        }
        let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: passwordFile)
        stop()
        throw LabError("gnome-keyring-daemon did not come up on the private bus: \(log)")
    }

    /// HOME, the XDG directories and the bus address for a process that is to use this Secret
    /// Service (and nothing of the caller's session).
    public var environment: [String: String] { Self.environment(home: home, runtime: runtime, address: address) }

    private static func environment(home: String, runtime: String, address: String) -> [String: String] {
        func under(_ name: String) -> String { (home as NSString).appendingPathComponent(name) }
        return [
            "HOME": home, "XDG_DATA_HOME": under(".local/share"), "XDG_CONFIG_HOME": under(".config"),
            "XDG_CACHE_HOME": under(".cache"), "XDG_RUNTIME_DIR": runtime, "DBUS_SESSION_BUS_ADDRESS": address,
        ]
    }

    /// The path of `name` under HOME.
    public func file(_ name: String) -> String { (home as NSString).appendingPathComponent(name) }

    /// Writes `text` to `name` under HOME; returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: file(name), atomically: true, encoding: .utf8)
        return file(name)
    }

    /// Locks the login collection, as a screen lock or `secret-tool lock` would.
    public func lockLoginCollection() throws {
        let result = try dbusSend([
            "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock",
            "array:objpath:/org/freedesktop/secrets/collection/login",
        ])
        guard result.status == 0 else { throw LabError("the keyring did not lock: \(result.stderr)") }
    }

    /// Every regular file under HOME (the keyring files among them).
    public func filesUnderHome() -> [String] { Self.files(under: home) }

    /// Every regular file under `directory`, at any depth (not sockets, links or directories).
    public static func files(under directory: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            let path = (directory as NSString).appendingPathComponent(relative)
            let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            if type == .typeRegular { files.append(path) }
        }
        return files
    }

    /// The `files` whose bytes contain any of `secrets` verbatim (in clear).
    public static func files(_ files: [String], holdingAnyOf secrets: [String]) -> [String] {
        files.filter { path in
            guard let data = FileManager.default.contents(atPath: path) else { return false }
            return secrets.contains { data.range(of: Data($0.utf8)) != nil }
        }
    }

    /// The keyring files gnome-keyring wrote.
    public var keyringFiles: [String] { filesUnderHome().filter { $0.contains("/keyrings/") } }

    private func nameHasOwner(_ name: String) throws -> Bool {
        try dbusSend([
            "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
            "string:\(name)",
        ]).stdout.contains("boolean true")
    }

    private func dbusSend(_ arguments: [String]) throws -> LabProcess.Result {
        try LabProcess.run(
            LabProcess.find("dbus-send", in: Self.searchPath) ?? "/usr/bin/dbus-send",
            ["--bus=\(address)", "--print-reply"] + arguments, environment: [:])
    }

    /// Ends the keyring daemon and the bus (by PID) and removes their sockets; removes HOME if it
    /// was a temporary one.
    public func stop() {
        // SIGKILL: a child of a test runner inherits its blocked-signal mask, SIGTERM included,
        // so SIGTERM would never arrive. They are throwaway daemons with nothing to flush.
        for process in [keyring, bus] {
            guard let process, process.isRunning else { continue }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: runtime)
        if ownsHome { try? FileManager.default.removeItem(atPath: home) }
    }
}
