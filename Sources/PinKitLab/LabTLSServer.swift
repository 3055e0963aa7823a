internal import COpenSSL
internal import CPinKitShims
import Foundation
import PinKit
import PinKitOpenSSL

#if canImport(Glibc)
    import Glibc
#endif

/// A TLS protocol version the lab server can be held to.
public enum LabTLSVersion: Sendable {
    /// TLS 1.2 only.
    case tls12
    /// TLS 1.3 only.
    case tls13
}

/// A TLS 1.2/1.3 server on a loopback port that serves a chosen chain (and others per SNI
/// name) and answers HTTP/1.1 requests with a scripted handler.
///
/// One thread per connection: simple and adequate for tests and the lab, never for production.
/// Binds only to 127.0.0.1.
public final class LabTLSServer: @unchecked Sendable {
    // @unchecked Sendable: `contexts` and `defaultContext` are immutable after init; OpenSSL
    // allows one SSL_CTX to serve many connections concurrently. Mutable state is behind locks.
    public typealias Handler = @Sendable (LabRequest) -> LabResponse

    /// How the server misbehaves at the TLS layer (hostile-server tests).
    public struct Behaviour: Sendable {
        /// Holds the server to one protocol version (`.tls12` makes renegotiation possible).
        public var maximumVersion: LabTLSVersion?
        /// After each response on a kept-alive TLS 1.2 connection, send a HelloRequest (ask the
        /// client to renegotiate) before reading the next request.
        public var requestRenegotiation = false

        public init(maximumVersion: LabTLSVersion? = nil, requestRenegotiation: Bool = false) {
            self.maximumVersion = maximumVersion
            self.requestRenegotiation = requestRenegotiation
        }
    }

    /// What the server has seen, for assertions.
    public struct Statistics: Sendable, Equatable {
        public var connections = 0
        /// Handshakes completed; `resumedHandshakes` of them resumed an earlier TLS session.
        public var handshakes = 0
        public var resumedHandshakes = 0
        public var failedHandshakes = 0
        public var requests = 0
        /// HelloRequests sent, and renegotiations that then completed.
        public var renegotiationRequests = 0
        public var renegotiations = 0
    }

    public let port: UInt16
    private let listener: Int32
    private let defaultContext: OpaquePointer
    private let contexts: [String: OpaquePointer]
    private let handler: Handler
    private let behaviour: Behaviour
    private let state = Locked(State())
    private let acceptDone = DispatchSemaphore(value: 0)

    private struct State {
        var statistics = Statistics()
        var requests: [LabRequest] = []
        var open: Set<Int32> = []
        var stopped = false
    }

    /// Starts serving at once.
    /// - Parameters:
    ///   - identity: the chain and key served by default (and to clients without SNI).
    ///   - sni: other identities by SNI name (lower case).
    ///   - behaviour: TLS-level misbehaviour; none by default.
    ///   - handler: answers each request; the default answers 200 "ok".
    public init(
        identity: LabIdentity,
        sni: [String: LabIdentity] = [:],
        behaviour: Behaviour = Behaviour(),
        handler: @escaping Handler = { _ in .text("ok") }
    ) throws {
        _ = Self.ignoreBrokenPipes
        defaultContext = try Self.makeContext(identity, behaviour)
        var contexts: [String: OpaquePointer] = [:]
        for (name, other) in sni { contexts[name.lowercased()] = try Self.makeContext(other, behaviour) }
        self.contexts = contexts
        self.behaviour = behaviour
        self.handler = handler
        (listener, port) = try Self.listen()
        let argument = Unmanaged.passUnretained(self).toOpaque()
        for context in [defaultContext] + Array(contexts.values) {
            pinkit_SSL_CTX_set_servername_callback(context, Self.servernameCallback, argument)
        }
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "LabTLSServer accept :\(port)"
        thread.start()
    }

    deinit {
        stop()
        SSL_CTX_free(defaultContext)
        for context in contexts.values { SSL_CTX_free(context) }
    }

    /// `https://NAME:PORT` for this server.
    public func url(host: String = "localhost", path: String = "/") -> String { "https://\(host):\(port)\(path)" }

    /// A curl `--resolve` entry mapping `host` to this server.
    public func resolveEntry(for host: String) -> String { "\(host):\(port):127.0.0.1" }

    public var statistics: Statistics { state.withLock { $0.statistics } }
    public var requests: [LabRequest] { state.withLock { $0.requests } }

    /// Stops accepting and closes every open connection. Idempotent.
    public func stop() {
        let (wasStopped, open) = state.withLock { state -> (Bool, Set<Int32>) in
            defer { state.stopped = true }
            return (state.stopped, state.open)
        }
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        for descriptor in open { shutdown(descriptor, Int32(SHUT_RDWR)) }
        acceptDone.wait()
        close(listener)
    }

    // MARK: - Sockets

    /// OpenSSL writes to the socket with write(2); a client that hangs up mid-response would
    /// otherwise kill the whole (test) process with SIGPIPE. The write then fails with EPIPE.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    private static func listen() throws -> (Int32, UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw LabError("socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(descriptor, 512) == 0 else {
            close(descriptor)
            throw LabError("cannot listen on 127.0.0.1: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    private func acceptLoop() {
        defer { acceptDone.signal() }
        var index = 0
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let accepted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.open.insert(client)
                state.statistics.connections += 1
                return true
            }
            guard accepted else {
                close(client)
                return
            }
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var noDelay: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            let connection = index
            index += 1
            let thread = Thread { [self] in serve(client, connection: connection) }
            thread.start()
        }
    }

    // MARK: - TLS and HTTP

    private func serve(_ descriptor: Int32, connection: Int) {
        defer {
            state.withLock { _ = $0.open.remove(descriptor) }
            close(descriptor)
        }
        guard let ssl = SSL_new(defaultContext) else { return }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, descriptor)
        guard SSL_accept(ssl) == 1 else {
            ERR_clear_error()
            state.withLock { $0.statistics.failedHandshakes += 1 }
            return
        }
        let resumed = SSL_session_reused(ssl) == 1
        state.withLock {
            $0.statistics.handshakes += 1
            if resumed { $0.statistics.resumedHandshakes += 1 }
        }
        let serverName = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name).map { String(cString: $0) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var renegotiating = false
        while true {
            let parsed: (LabRequest, keepAlive: Bool)?
            do {
                parsed = try LabHTTPParser.parse(&buffer)
            } catch {
                _ = write(ssl, Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
                break
            }
            guard var (request, keepAlive) = parsed else {
                let count = SSL_read(ssl, &chunk, Int32(chunk.count))
                if count <= 0 { break }
                buffer.append(contentsOf: chunk[0..<Int(count)])
                continue
            }
            request.serverName = serverName
            request.connection = connection
            state.withLock {
                $0.statistics.requests += 1
                $0.requests.append(request)
            }
            if renegotiating {
                // The client carried on after our HelloRequest: did it run the second handshake?
                renegotiating = false
                let completed = SSL_renegotiate_pending(ssl) == 0
                if completed { state.withLock { $0.statistics.renegotiations += 1 } }
            }
            let response = handler(request)
            if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
            if response.dropConnection { break }
            keepAlive = keepAlive && !state.withLock { $0.stopped } && response.framing != .closeDelimited
            var bytes = LabHTTPParser.serialize(response, keepAlive: keepAlive, isHead: request.method == "HEAD")
            if let cut = response.truncateAfter { bytes = Array(bytes.prefix(cut)) }
            guard write(ssl, bytes) else { break }
            if response.truncateAfter != nil || !response.closeNotify {
                // An on-path attacker's TCP FIN: no close_notify alert before it.
                ERR_clear_error()
                return
            }
            guard keepAlive else { break }
            if behaviour.requestRenegotiation, SSL_version(ssl) == TLS1_2_VERSION {
                state.withLock { $0.statistics.renegotiationRequests += 1 }
                renegotiating = true
                if pinkit_SSL_request_renegotiation(ssl) != 1 { break }
            }
        }
        SSL_shutdown(ssl)
        ERR_clear_error()
    }

    private func write(_ ssl: OpaquePointer, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            if written <= 0 { return false }
            offset += Int(written)
        }
        return true
    }

    private static func makeContext(_ identity: LabIdentity, _ behaviour: Behaviour) throws -> OpaquePointer {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw LabError("SSL_CTX_new failed") }
        pinkit_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
        switch behaviour.maximumVersion {
        case .tls12?: pinkit_SSL_CTX_set_max_proto_version(context, TLS1_2_VERSION)
        case .tls13?: pinkit_SSL_CTX_set_min_proto_version(context, TLS1_3_VERSION)
        case nil: break
        }
        guard SSL_CTX_use_certificate(context, identity.leaf.x509) == 1,
            SSL_CTX_use_PrivateKey(context, identity.key.pkey) == 1,
            SSL_CTX_check_private_key(context) == 1
        else {
            SSL_CTX_free(context)
            throw LabError("the lab identity's certificate and key do not fit")
        }
        for certificate in identity.chain.dropFirst() {
            guard pinkit_SSL_CTX_add1_chain_cert(context, certificate.x509) == 1 else {
                SSL_CTX_free(context)
                throw LabError("cannot add a chain certificate")
            }
        }
        let sessionContext: [UInt8] = Array("pinkit-lab".utf8)
        SSL_CTX_set_session_id_context(context, sessionContext, UInt32(sessionContext.count))
        return context
    }

    /// Runs during the ClientHello: switches to the identity configured for the SNI name.
    private static let servernameCallback:
        @convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>, UnsafeMutableRawPointer?) -> Int32 = {
            ssl, _, argument in
            guard let argument, let name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name) else {
                return SSL_TLSEXT_ERR_OK
            }
            let server = Unmanaged<LabTLSServer>.fromOpaque(argument).takeUnretainedValue()
            if let context = server.contexts[String(cString: name).lowercased()] { SSL_set_SSL_CTX(ssl, context) }
            return SSL_TLSEXT_ERR_OK
        }
}
