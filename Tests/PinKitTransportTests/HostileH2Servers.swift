import Foundation
import PinKitLab
import PinKitProcessGate
import PinKitTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A reference HTTP/2 server (`nghttpd`, Debian nghttp2-server) serving files under a lab
/// identity on 127.0.0.1, started and stopped by the test that owns it.
final class NghttpdServer: Sendable {
    let port: UInt16
    private let process: Process
    private let directory: TemporaryDirectory

    /// - Parameters:
    ///   - files: path (without the leading slash) → content, under the document root.
    ///   - arguments: extra nghttpd options (`--trailer`, `--max-concurrent-streams`).
    init(identity: LabIdentity, files: [String: [UInt8]], arguments: [String] = []) throws {
        directory = try TemporaryDirectory()
        let key = try directory.write("key.pem", identity.key.privateKeyPEM)
        let chain = try directory.write("chain.pem", identity.chain.map(\.pem).joined())
        let root = directory.file("htdocs")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for (name, content) in files {
            FileManager.default.createFile(atPath: root + "/" + name, contents: Data(content))
        }
        port = try LabLoopback.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["nghttpd", "--address=127.0.0.1", "--htdocs=\(root)"] + arguments + ["\(port)", key, chain]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ProcessGate.run(process)
        try Loopback.waitUntilListening(port, while: { process.isRunning })
    }

    func url(host: String = "api.example.com", path: String = "/") -> String { "https://\(host):\(port)\(path)" }
    func resolveEntry(for host: String) -> String { "\(host):\(port):127.0.0.1" }

    func stop() {
        if process.isRunning {
            // SIGKILL: a child spawned from a test thread may inherit a mask that blocks SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        directory.remove()
    }
}

/// A hostile HTTP/2 server scripted in Python (standard library `ssl` only, frames built by
/// hand): after the client's request it answers with a HEADERS frame without END_HEADERS and
/// then `continuations` CONTINUATION frames of header fields (about 900 bytes each). With
/// `endless` it never ends the block (the CONTINUATION flood, CVE-2024-27316 family);
/// otherwise the last frame ends it and a short body follows (a plain header flood). It
/// reports the frames it managed to send per connection.
final class ContinuationFloodServer: Sendable {
    let port: UInt16
    private let process: Process
    private let directory: TemporaryDirectory
    private let output: Pipe

    static let script = #"""
        import socket, ssl, struct, sys
        port, key, chain, count = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
        endless = sys.argv[5] == "endless"
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(chain, key)
        context.set_alpn_protocols(["h2"])
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(8)
        print("listening", flush=True)
        def frame(kind, flags, stream, payload):
            return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload
        def literal(name, value):
            # HPACK literal header field without indexing, new name (RFC 7541 6.2.2), short strings.
            return b"\x00" + bytes([len(name)]) + name + bytes([len(value)]) + value
        while True:
            raw, _ = listener.accept()
            sent = 0
            try:
                tls = context.wrap_socket(raw, server_side=True)
                tls.settimeout(10)
                data = b""
                while len(data) < 24 + 9:
                    data += tls.recv(65536)
                tls.sendall(frame(4, 0, 0, b""))                       # SETTINGS
                stream = None
                while stream is None:
                    while len(data) >= 24 and data.startswith(b"PRI"):
                        data = data[24:]
                    while len(data) >= 9:
                        length = int.from_bytes(data[0:3], "big")
                        if len(data) < 9 + length:
                            break
                        kind, sid = data[3], int.from_bytes(data[5:9], "big") & 0x7FFFFFFF
                        if kind == 4 and not data[4] & 1:
                            tls.sendall(frame(4, 1, 0, b""))           # SETTINGS ACK
                        if kind == 1:
                            stream = sid
                        data = data[9 + length:]
                    if stream is None:
                        data += tls.recv(65536)
                tls.sendall(frame(1, 0, stream, b"\x88"))              # HEADERS :status 200, no END_HEADERS
                sent = 1
                block = b"".join(literal(b"x-flood-%d" % i, b"v" * 100) for i in range(8))
                for index in range(count):
                    last = index == count - 1 and not endless
                    tls.sendall(frame(9, 4 if last else 0, stream, block))  # CONTINUATION
                    sent += 1
                if not endless:
                    tls.sendall(frame(0, 1, stream, b"ok"))            # DATA, END_STREAM
                    tls.recv(65536)
            except Exception:
                pass
            print("frames", sent, flush=True)
            raw.close()
        """#

    init(identity: LabIdentity, continuations: Int, endless: Bool) throws {
        directory = try TemporaryDirectory()
        let key = try directory.write("key.pem", identity.key.privateKeyPEM)
        let chain = try directory.write("chain.pem", identity.chain.map(\.pem).joined())
        let script = try directory.write("flood.py", Self.script)
        port = try LabLoopback.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", script, "\(port)", key, chain, "\(continuations)", endless ? "endless" : "complete",
        ]
        output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try ProcessGate.run(process)
        try Loopback.waitUntilListening(port, while: { process.isRunning })
    }

    func url(host: String = "api.example.com", path: String = "/") -> String { "https://\(host):\(port)\(path)" }
    func resolveEntry(for host: String) -> String { "\(host):\(port):127.0.0.1" }

    /// How many frames the server sent to the first real client (the readiness probe's
    /// connection sends none), once that connection has ended; then stops the server.
    func framesSentThenStop() -> Int? {
        defer {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            directory.remove()
        }
        var buffered = ""
        let reader = output.fileHandleForReading
        while true {
            let data = reader.availableData
            if data.isEmpty { return nil }
            buffered += String(decoding: data, as: UTF8.self)
            for line in buffered.split(separator: "\n") where line.hasPrefix("frames ") {
                if let count = Int(line.dropFirst("frames ".count)), count > 0 { return count }
            }
        }
    }
}

/// Loopback helpers for servers the tests start as separate processes.
enum Loopback {
    /// Polls until something accepts connections on 127.0.0.1:`port` (a readiness check, not a
    /// timing assertion); throws when the process dies first or after 20 s.
    static func waitUntilListening(_ port: UInt16, while alive: () -> Bool) throws {
        for _ in 0..<400 {
            guard alive() else { throw LabError("the server process exited before listening on \(port)") }
            let connected = LabLoopback.accepts(port: port)
            if connected { return }
            usleep(50_000)
        }
        throw LabError("nothing listens on 127.0.0.1:\(port)")
    }
}
