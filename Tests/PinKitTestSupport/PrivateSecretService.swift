import Foundation

/// A private D-Bus session bus and, on it, a `gnome-keyring-daemon` serving the Secret Service,
/// with HOME and the XDG directories in a temporary directory. Nothing touches the user's own
/// session; `stop()` ends both daemons by PID.
///
/// The bus has no service directories, so nothing is ever activated behind a test's back: a bus
/// started with `keyring: false` has no Secret Service at all.
public final class PrivateSecretService: @unchecked Sendable {
    // @unchecked Sendable: the Process objects are only touched by init and stop(), which a test
    // calls once, from its own task.
    public let home: TemporaryDirectory
    /// The bus address (`unix:path=…`) to hand to the store.
    public let address: String
    private let bus: Process
    private let keyring: Process?

    /// - Parameters:
    ///   - password: the login keyring's password. Non-empty by default: an empty one makes
    ///     gnome-keyring store the keyring unencrypted.
    ///   - keyring: false for a bus on which nothing serves `org.freedesktop.secrets`.
    public init(password: String = "pinkit test passphrase", keyring: Bool = true) throws {
        home = try TemporaryDirectory()
        let runtime = home.url.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        let config = try home.write(
            "bus.conf",
            """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(runtime.path)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/>
              </policy>
            </busconfig>
            """)
        bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        bus.arguments = ["dbus-daemon", "--config-file=\(config)", "--nofork", "--print-address=1"]
        bus.environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        let out = Pipe()
        bus.standardOutput = out
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        // The daemon prints its address once it listens; the first line is all there is.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard address.hasPrefix("unix:") else {
            bus.terminate()
            bus.waitUntilExit()
            home.remove()
            throw Shell.ShellError(message: "dbus-daemon did not print an address")
        }
        guard keyring else {
            self.keyring = nil
            return
        }
        // --unlock reads the password up to end of file; from a file, so that no stray copy of a
        // pipe's write end (inherited by a process another test spawns meanwhile) keeps it waiting.
        let passwordFile = try home.write("password", password)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/bin/sh")
        daemon.arguments = [
            "-c", "exec gnome-keyring-daemon --foreground --unlock --components=secrets < \"$0\"", passwordFile,
        ]
        daemon.environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_DATA_HOME": home.file(".local/share"),
            "XDG_CONFIG_HOME": home.file(".config"), "XDG_CACHE_HOME": home.file(".cache"),
            "XDG_RUNTIME_DIR": runtime.path, "DBUS_SESSION_BUS_ADDRESS": address,
        ]
        daemon.standardOutput = FileHandle.nullDevice
        FileManager.default.createFile(atPath: home.file("keyring.log"), contents: nil)
        daemon.standardError = FileHandle(forWritingAtPath: home.file("keyring.log"))
        try daemon.run()
        self.keyring = daemon
        // Ready when it owns its name: a bounded number of polls, no clock in any assertion.
        for _ in 0..<400 {
            if try nameHasOwner("org.freedesktop.secrets") {
                try? FileManager.default.removeItem(atPath: passwordFile)
                return
            }
            guard daemon.isRunning else { break }
            usleep(25_000)
        }
        let log = (try? String(contentsOfFile: home.file("keyring.log"), encoding: .utf8)) ?? ""
        stop()
        throw Shell.ShellError(message: "gnome-keyring-daemon did not come up on the private bus: \(log)")
    }

    /// Locks the login collection, as a screen lock or `secret-tool lock` would.
    public func lockLoginCollection() throws {
        try Shell.bash(
            "dbus-send --bus='\(address)' --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets "
                + "org.freedesktop.Secret.Service.Lock array:objpath:/org/freedesktop/secrets/collection/login >/dev/null"
        )
    }

    /// Every regular file under HOME (the keyring files among them).
    public func filesUnderHome() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: home.path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            let path = home.file(relative)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files
    }

    /// The keyring files gnome-keyring wrote.
    public var keyringFiles: [String] { filesUnderHome().filter { $0.contains("/keyrings/") } }

    private func nameHasOwner(_ name: String) throws -> Bool {
        let result = try Shell.run([
            "dbus-send", "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus.NameHasOwner", "string:\(name)",
        ])
        return result.stdout.contains("boolean true")
    }

    /// Ends the keyring daemon and the bus (by PID) and removes the directory.
    public func stop() {
        // SIGKILL: a child of the test runner inherits its blocked-signal mask, SIGTERM included,
        // so SIGTERM would never arrive. They are throwaway daemons with nothing to flush.
        for process in [keyring, bus] {
            guard let process, process.isRunning else { continue }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        home.remove()
    }
}
