import Foundation
import PinKit
import PinKitProcessGate

#if canImport(Glibc)
    import Glibc
#endif

/// nginx (Debian `nginx`) serving HTTP/1.1 and HTTP/2 over TLS with a lab identity on 127.0.0.1:
/// one process without a master or daemon, in a directory of the caller's, started and stopped
/// by whoever owns it (the HTTP/2 tests and the reference-server benchmark).
public final class LabNginx: @unchecked Sendable {
    // @unchecked Sendable: `process` is only started by init and signalled by its own PID.
    public let port: UInt16
    private let process: Process

    /// What the server does beyond serving `files`.
    public struct Options: Sendable {
        /// nginx ends an HTTP/2 connection after 1,000 requests by default (GOAWAY), which shows up
        /// as several connections in a long run; nil keeps nginx's default.
        public var keepaliveRequests: Int?
        /// Off: every connection is a full handshake (no session cache, no tickets).
        public var sessionResumption: Bool
        /// Answers `GET /` with "ok" from the configuration, without touching a file.
        public var okAtRoot: Bool

        public init(keepaliveRequests: Int? = nil, sessionResumption: Bool = true, okAtRoot: Bool = false) {
            self.keepaliveRequests = keepaliveRequests
            self.sessionResumption = sessionResumption
            self.okAtRoot = okAtRoot
        }
    }

    /// Starts nginx and returns once it accepts connections.
    /// - Parameters:
    ///   - directory: an existing directory the server may fill (configuration, key, logs).
    ///   - files: path (without the leading slash) → content, under the document root.
    /// - Throws: ``LabError`` when nginx cannot be started or does not listen within 5 seconds.
    public init(identity: LabIdentity, directory: String, files: [String: [UInt8]] = [:], options: Options = Options())
        throws
    {
        let prefix = directory + "/nginx"
        let root = prefix + "/htdocs"
        for folder in [root, prefix + "/logs"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        for (name, content) in files {
            FileManager.default.createFile(atPath: root + "/" + name, contents: Data(content))
        }
        try identity.key.privateKeyPEM.write(toFile: prefix + "/key.pem", atomically: true, encoding: .utf8)
        try identity.chain.map(\.pem).joined().write(toFile: prefix + "/chain.pem", atomically: true, encoding: .utf8)
        let port = try LabLoopback.freePort()
        var server = [
            "listen 127.0.0.1:\(port) ssl http2;", "ssl_certificate \(prefix)/chain.pem;",
            "ssl_certificate_key \(prefix)/key.pem;", "root \(root);",
        ]
        if !options.sessionResumption { server += ["ssl_session_cache off;", "ssl_session_tickets off;"] }
        if options.okAtRoot { server.append(#"location = / { return 200 "ok\n"; }"#) }
        var http = ["access_log off;"]
        if let requests = options.keepaliveRequests { http.append("keepalive_requests \(requests);") }
        http += ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map { "\($0)_temp_path \(prefix)/\($0);" }
        let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/logs/error.log;
            events { worker_connections 1024; }
            http {
                \(http.joined(separator: "\n    "))
                server {
                    \(server.joined(separator: "\n        "))
                }
            }

            """
        try configuration.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", prefix, "-c", prefix + "/nginx.conf"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try ProcessGate.run(process) } catch { throw LabError("cannot start /usr/sbin/nginx: \(error)") }
        self.port = port
        self.process = process
        for _ in 0..<200 where process.isRunning {
            if LabLoopback.accepts(port: port) { return }
            usleep(25_000)
        }
        stop()
        throw LabError("nginx did not listen on 127.0.0.1:\(port) (its log: \(prefix)/logs/error.log)")
    }

    public func url(host: String = "api.example.com", path: String = "/") -> String { "https://\(host):\(port)\(path)" }

    /// Stops (SIGSTOP) and resumes (SIGCONT) the server: while it is stopped the kernel still
    /// accepts TCP connections into the listen queue, but no TLS handshake can finish.
    public func pause() { kill(process.processIdentifier, SIGSTOP) }
    public func resume() { kill(process.processIdentifier, SIGCONT) }

    /// Ends the server (SIGKILL: nginx without a master process may not act on SIGTERM at once).
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        kill(process.processIdentifier, SIGCONT)
        process.waitUntilExit()
    }
}
