public import Foundation

/// A throwaway PostgreSQL 15 cluster in a temp dir on a loopback port, started once per test
/// process and stopped at exit. `initdb` refuses root, so as root it runs as the `postgres`
/// user in a directory that user owns.
public final class PostgresCluster: @unchecked Sendable {
    // @unchecked Sendable: immutable after init; `databases` counts under `lock`.
    public static let binaries = "/usr/lib/postgresql/15/bin"
    public let directory: String
    public let port: Int
    private let lock = NSLock()
    private var databases = 0

    nonisolated(unsafe) private static var sharedInstance: PostgresCluster?
    private static let sharedLock = NSLock()

    /// The process-wide cluster (started on first use).
    public static func shared() throws -> PostgresCluster {
        sharedLock.lock()
        defer { sharedLock.unlock() }
        if let sharedInstance { return sharedInstance }
        let cluster = try PostgresCluster()
        sharedInstance = cluster
        atexit { PostgresCluster.stopShared() }
        return cluster
    }

    public static func stopShared() {
        sharedLock.lock()
        defer { sharedLock.unlock() }
        sharedInstance?.stop()
        sharedInstance = nil
    }

    private static var isRoot: Bool { getuid() == 0 }

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// Runs a shell command, as `postgres` when we are root. posix_spawn + waitpid rather than
    /// Foundation's Process, which here never noticed `su` exiting and waited forever.
    private static func run(_ command: String) throws {
        // From /tmp: the postgres user may not be allowed into the caller's directory (a clone under /root).
        let inTemp = "cd /tmp && " + command
        let script = isRoot ? "su postgres -s /bin/sh -c \(quote(inTemp))" : inTemp
        let arguments = ["/bin/sh", "-c", script]
        var pid: pid_t = 0
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ) == 0 else {
            throw Failure(description: "cannot spawn /bin/sh")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw Failure(description: "failed (status \(status)): \(command)") }
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private init() throws {
        var template = Array("/tmp/pinkit-pg.XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw Failure(description: "mkdtemp failed") }
        directory = String(cString: template)
        // A directory the postgres user owns, even when the tests run as root.
        if Self.isRoot {
            guard let user = getpwnam("postgres") else {
                throw Failure(description: "no postgres user: apt-get install postgresql")
            }
            chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        port = try Self.freePort()
        try Self.run(
            "\(Self.binaries)/initdb -D \(directory)/data -A trust -U pinkit --no-sync </dev/null >/dev/null 2>&1")
        // fsync off: this cluster holds throwaway test data; durability is PostgreSQL's own job.
        try Self.run(
            "\(Self.binaries)/pg_ctl -D \(directory)/data -l \(directory)/log -w -o "
                + Self.quote(
                    "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200")
                + " start </dev/null >/dev/null 2>&1")
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A fresh, empty database's URL.
    public func makeDatabase() throws -> String {
        let name = lock.withLock {
            databases += 1
            return "t\(getpid())_\(databases)"
        }
        try Self.run(
            "\(Self.binaries)/createdb -h \(directory) -p \(port) -U pinkit \(name) </dev/null >/dev/null 2>&1")
        return "postgres://pinkit@127.0.0.1:\(port)/\(name)"
    }

    public func stop() {
        try? Self.run("\(Self.binaries)/pg_ctl -D \(directory)/data -m immediate -w stop </dev/null >/dev/null 2>&1")
        try? FileManager.default.removeItem(atPath: directory)
    }
}
