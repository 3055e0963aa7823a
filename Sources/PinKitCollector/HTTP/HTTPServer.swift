internal import CPinKitCollectorShims
public import Foundation

/// A libmicrohttpd daemon (epoll, internal thread pool, HTTPS when given a certificate) that
/// hands each complete request to a Swift handler.
///
/// Bounds: the request line and headers by libmicrohttpd's per-connection memory, the body by
/// ``Limits/maximumBody`` (a declared larger `Content-Length` is refused before it is read),
/// the idle time by libmicrohttpd's timeout, and the *total* time of a request by a deadline
/// reaper in the C shim (a sender dripping one byte at a time is cut off).
public final class HTTPServer: @unchecked Sendable {
    // @unchecked Sendable: `server` is set once in init and freed once in stop() under `lock`.
    public struct Limits: Sendable {
        public var maximumBody = 1 << 20
        public var threads = 4
        public var idleTimeoutSeconds = 15
        /// The most a request may take from its first byte to its answer (milliseconds).
        public var requestDeadlineMilliseconds = 30_000
        public var connectionLimit = 4_096
        public var headerMemory = 32 * 1024
        public init() {}
    }

    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    public struct TLS: Sendable {
        public var certificateChainPEM: String
        public var privateKeyPEM: String
        public init(certificateChainPEM: String, privateKeyPEM: String) {
            self.certificateChainPEM = certificateChainPEM
            self.privateKeyPEM = privateKeyPEM
        }
    }

    public let limits: Limits
    public let isTLS: Bool
    let handler: Handler
    let trustedProxies: [CIDR]
    private var server: OpaquePointer?
    private let lock = NSLock()
    private var context: Unmanaged<HTTPServer>?

    /// Starts listening. - Throws: ``CollectorError/Code/server`` when libmicrohttpd cannot start.
    public init(
        address: String, port: UInt16, tls: TLS?, limits: Limits = Limits(), trustedProxies: [CIDR] = [],
        handler: @escaping Handler
    ) throws(CollectorError) {
        self.limits = limits
        self.isTLS = tls != nil
        self.handler = handler
        self.trustedProxies = trustedProxies
        let context = Unmanaged.passRetained(self)
        var error = [CChar](repeating: 0, count: 256)
        let started: OpaquePointer? = address.withCString { address in
            withOptionalCString(tls?.certificateChainPEM) { cert in
                withOptionalCString(tls?.privateKeyPEM) { key in
                    var options = pk_server_options(
                        address: address, port: port, tls_cert_pem: cert, tls_key_pem: key,
                        threads: UInt32(max(1, limits.threads)),
                        idle_timeout_seconds: UInt32(limits.idleTimeoutSeconds),
                        request_deadline_ms: UInt32(limits.requestDeadlineMilliseconds),
                        connection_limit: UInt32(limits.connectionLimit), connection_memory_limit: limits.headerMemory)
                    return pk_server_start(
                        &options, HTTPServerCallbacks.access, HTTPServerCallbacks.completed, context.toOpaque(), &error,
                        error.count)
                }
            }
        }
        guard let started else {
            context.release()
            throw CollectorError(.server, String(cString: error))
        }
        self.server = started
        self.context = context
    }

    /// The port the daemon listens on (the chosen one when started with port 0).
    public var port: UInt16 { lock.withLock { server.map { pk_server_port($0) } ?? 0 } }

    /// Connections cut off by the request deadline since start.
    public var deadlineCutoffs: UInt64 { lock.withLock { server.map { pk_server_deadline_cutoffs($0) } ?? 0 } }

    /// Stops accepting, waits for the worker threads, frees the daemon.
    public func stop() {
        let (running, context) = lock.withLock { () -> (OpaquePointer?, Unmanaged<HTTPServer>?) in
            defer {
                server = nil
                self.context = nil
            }
            return (server, self.context)
        }
        if let running { pk_server_stop(running) }
        context?.release()
    }
}

private func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
