import Foundation
import PinKitLab
import PinKitTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// nginx (Debian `nginx`) serving HTTP/1.1 and HTTP/2 over TLS with a lab identity on 127.0.0.1,
/// one process without a master or daemon, started and stopped by the test that owns it.
final class NginxServer: Sendable {
    let port: UInt16
    private let process: Process
    private let directory: TemporaryDirectory

    /// - Parameter files: path (without the leading slash) → content, under the document root.
    init(identity: LabIdentity, files: [String: [UInt8]]) throws {
        directory = try TemporaryDirectory()
        let key = try directory.write("key.pem", identity.key.privateKeyPEM)
        let chain = try directory.write("chain.pem", identity.chain.map(\.pem).joined())
        let root = directory.file("htdocs")
        let prefix = directory.file("nginx")
        for folder in [root, prefix + "/logs"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        for (name, content) in files {
            FileManager.default.createFile(atPath: root + "/" + name, contents: Data(content))
        }
        port = try LabLoopback.freePort()
        let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/logs/error.log;
            events { worker_connections 256; }
            http {
                access_log off;
                client_body_temp_path \(prefix)/body;
                proxy_temp_path \(prefix)/proxy;
                fastcgi_temp_path \(prefix)/fastcgi;
                uwsgi_temp_path \(prefix)/uwsgi;
                scgi_temp_path \(prefix)/scgi;
                server {
                    listen 127.0.0.1:\(port) ssl http2;
                    ssl_certificate \(chain);
                    ssl_certificate_key \(key);
                    root \(root);
                }
            }
            """
        let file = try directory.write("nginx.conf", configuration)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", prefix, "-c", file]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try Loopback.waitUntilListening(port, while: { process.isRunning })
    }

    func url(host: String = "api.example.com", path: String = "/") -> String { "https://\(host):\(port)\(path)" }

    /// Stops (SIGSTOP) and resumes (SIGCONT) the server: while it is stopped the kernel still
    /// accepts TCP connections into the listen queue, but no TLS handshake can finish.
    func pause() { kill(process.processIdentifier, SIGSTOP) }
    func resume() { kill(process.processIdentifier, SIGCONT) }

    func stop() {
        if process.isRunning {
            // SIGKILL: nginx without a master process may not act on SIGTERM at once.
            kill(process.processIdentifier, SIGKILL)
            kill(process.processIdentifier, SIGCONT)
            process.waitUntilExit()
        }
        directory.remove()
    }
}
