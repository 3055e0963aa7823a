internal import CCurl
internal import CPinKitShims
import Foundation
import PinKit

/// One request on the engine: the easy handle's options, the response being collected, and
/// the continuation to resume. Used only on the engine thread once submitted.
final class Transfer: @unchecked Sendable {
    // @unchecked Sendable: handed from the requesting task to the engine thread once, through
    // the engine's lock; from then on only the engine thread touches it.
    let id: UInt64
    let request: HTTPRequest
    let host: String
    let port: Int
    /// What the verifier of a connection this transfer opens decides with.
    let handshake: HandshakeSettings
    let settings: PinnedHTTPClient.Configuration
    let connectOnly: Bool
    /// When the whole ``PinnedHTTPClient/send(_:)`` must be over, redirect hops and time queued
    /// for a connection included.
    let deadline: ContinuousClock.Instant
    /// When the ``PinnedHTTPClient/send(_:)`` this transfer belongs to started.
    let started: ContinuousClock.Instant
    var continuation: CheckedContinuation<TransferOutcome, Never>?
    /// The verifier of the connection this transfer opened, set by the SSL_CTX callback; nil
    /// when the transfer reused a connection (no handshake ran).
    var connectionVerifier: ConnectionVerifier?
    /// The TLS state of the connection that carried the response (opened or reused), taken
    /// when the response head arrives: it knows whether close_notify came.
    var responseConnection: ConnectionVerifier?
    private var easy: UnsafeMutableRawPointer?

    var status = 0
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    var exceededSizeLimit = false
    /// The client's budget for bodies in flight; this transfer holds `body.count` of it.
    let budget: ResponseBudget
    var exceededInFlightLimit = false
    /// Bytes of response head lines received, across 1xx heads too.
    var headerBytes = 0
    var exceededHeaderLimit = false
    /// Our own cap on a response head, below libcurl's 300 KiB, so HTTP/1.1 and HTTP/2 (where
    /// the head arrives as HEADERS and CONTINUATION frames) refuse a header flood alike.
    static let maximumHeaderBytes = 256 * 1024
    /// The blank line ending the final response head has arrived.
    var headComplete = false
    var headerList: UnsafeMutablePointer<curl_slist>?
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(
        id: UInt64,
        request: HTTPRequest,
        host: String,
        port: Int,
        handshake: HandshakeSettings,
        settings: PinnedHTTPClient.Configuration,
        connectOnly: Bool,
        budget: ResponseBudget,
        started: ContinuousClock.Instant,
        deadline: ContinuousClock.Instant
    ) {
        self.budget = budget
        self.id = id
        self.request = request
        self.host = host
        self.port = port
        self.handshake = handshake
        self.settings = settings
        self.connectOnly = connectOnly
        self.started = started
        self.deadline = deadline
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if let headerList { curl_slist_free_all(headerList) }
        if let resolveList { curl_slist_free_all(resolveList) }
        errorBuffer.deallocate()
    }

    /// Bytes of the client's in-flight budget this transfer holds.
    private var reserved = 0

    /// Makes sure the transfer holds at least `total` bytes of the budget. The first time, it
    /// takes the whole declared Content-Length at once, so a response that got its share always
    /// completes: many streams then cannot each take a slice and all starve half-way.
    func reserve(upTo total: Int) -> Bool {
        guard total > reserved else { return true }
        var wanted = total
        if reserved == 0, let declared = headers["Content-Length"].flatMap(Int.init), declared > total,
            declared <= settings.maximumResponseSize
        {
            wanted = declared
        }
        guard budget.reserve(wanted - reserved) else { return false }
        reserved = wanted
        return true
    }

    /// Resumes the waiting task with `result` and what the handshake recorded for the app.
    func finish(_ result: Result<TransferResult, TransportError>) {
        budget.release(reserved)
        reserved = 0
        continuation?.resume(returning: TransferOutcome(result: result, events: connectionVerifier?.events ?? []))
        continuation = nil
    }

    /// Sets every option of `easy` for this transfer. Returns a reason when an option is refused.
    func configure(_ easy: UnsafeMutableRawPointer, share: OpaquePointer?) -> String? {
        var failure: String?
        func check(_ code: CURLcode, _ what: String) {
            if code != CURLE_OK, failure == nil {
                failure = "\(what): \(String(cString: curl_easy_strerror(code)))"
            }
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        self.easy = easy
        check(pinkit_curl_easy_setopt_string(easy, CURLOPT_URL, request.url.absoluteString), "URL")
        check(pinkit_curl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "https"), "protocols")
        check(pinkit_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1), "nosignal")
        check(pinkit_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer), "error buffer")
        check(pinkit_curl_easy_setopt_pointer(easy, CURLOPT_PRIVATE, me), "private")
        // Normal X.509 validation always runs; pinning only narrows it.
        let peer = settings.unsafeDisableCurlPeerVerificationForTesting ? 0 : 1
        check(pinkit_curl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, peer), "verify peer")
        check(pinkit_curl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, peer == 1 ? 2 : 0), "verify host")
        check(pinkit_curl_easy_setopt_ssl_ctx_callback(easy, HandshakeCallbacks.sslContextCallback), "ssl ctx")
        // The callback runs inside this transfer's connect, while the engine holds the transfer.
        check(pinkit_curl_easy_setopt_pointer(easy, CURLOPT_SSL_CTX_DATA, me), "ssl ctx data")
        let partial = settings.allowPartialChain ? 0 : Int(CURLSSLOPT_NO_PARTIALCHAIN)
        check(pinkit_curl_easy_setopt_long(easy, CURLOPT_SSL_OPTIONS, partial), "ssl options")
        switch settings.trustStore {
        case .system:
            // The distribution's CA bundle file alone, without the hashed directory libcurl adds
            // by default: with a directory set libcurl cannot cache the store, and parsed all 140
            // certificates of the bundle again for every new connection (28 ms of CPU per
            // handshake here, about 12 times the handshake itself). Debian's
            // update-ca-certificates writes the same certificates to both.
            if let bundle = settings.systemTrustBundleOverrideForTesting ?? Self.systemTrustBundle {
                check(pinkit_curl_easy_setopt_string(easy, CURLOPT_CAINFO, bundle), "CA bundle")
                check(pinkit_curl_easy_setopt_string(easy, CURLOPT_CAPATH, nil), "CA path")
            }
        case .caFile(let path):
            check(pinkit_curl_easy_setopt_string(easy, CURLOPT_CAINFO, path), "CA file")
            // Only the given file: no system CA directory beside it.
            check(pinkit_curl_easy_setopt_string(easy, CURLOPT_CAPATH, nil), "CA path")
        }
        // The store built from the CA file is kept by the session (the multi handle) for this
        // long, then read again: a root removed from the file stops being trusted by new
        // connections within this bound, and a new session (a policy change) reads it at once.
        check(pinkit_curl_easy_setopt_long(easy, CURLOPT_CA_CACHE_TIMEOUT, Self.caCacheSeconds), "CA cache")
        if let share {
            check(pinkit_curl_easy_setopt_pointer(easy, CURLOPT_SHARE, UnsafeMutableRawPointer(share)), "share")
        }
        if !settings.reuseConnections {
            check(pinkit_curl_easy_setopt_long(easy, CURLOPT_FRESH_CONNECT, 1), "fresh connect")
            check(pinkit_curl_easy_setopt_long(easy, CURLOPT_FORBID_REUSE, 1), "forbid reuse")
            check(pinkit_curl_easy_setopt_long(easy, CURLOPT_SSL_SESSIONID_CACHE, 0), "session cache")
        }
        if request.requiresFreshConnection {
            check(pinkit_curl_easy_setopt_long(easy, CURLOPT_FRESH_CONNECT, 1), "fresh connect")
        }
        let connectMilliseconds = Self.milliseconds(settings.connectTimeout)
        check(pinkit_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, connectMilliseconds), "connect timeout")
        // What is left of the send()'s one deadline; the engine enforces it too, also while the
        // transfer waits for a connection.
        let total = Self.milliseconds(deadline - ContinuousClock.now)
        check(pinkit_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, total), "timeout")
        if !settings.resolve.isEmpty {
            var list: UnsafeMutablePointer<curl_slist>?
            for entry in settings.resolve { list = curl_slist_append(list, entry) }
            resolveList = list
            check(pinkit_curl_easy_setopt_slist(easy, CURLOPT_RESOLVE, list), "resolve")
        }
        if connectOnly {
            check(pinkit_curl_easy_setopt_long(easy, CURLOPT_CONNECT_ONLY, 1), "connect only")
            return failure
        }
        let version = settings.httpVersion == .http1Only ? CURL_HTTP_VERSION_1_1 : CURL_HTTP_VERSION_2TLS
        check(pinkit_curl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(version)), "HTTP version")
        if settings.httpVersion == .http2IfAvailable, settings.waitForMultiplexingForTesting {
            // Wait for a connection being set up to the same host instead of opening another: with
            // HTTP/2 the streams then share one connection, and one handshake check.
            check(pinkit_curl_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1), "pipewait")
        }
        check(pinkit_curl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0), "redirects")
        check(pinkit_curl_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, Self.writeCallback), "write")
        check(pinkit_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, me), "write data")
        check(pinkit_curl_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION, Self.headerCallback), "header")
        check(pinkit_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, me), "header data")
        check(pinkit_curl_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""), "encoding")
        switch request.method {
        case "GET": check(pinkit_curl_easy_setopt_long(easy, CURLOPT_HTTPGET, 1), "GET")
        case "HEAD": check(pinkit_curl_easy_setopt_long(easy, CURLOPT_NOBODY, 1), "HEAD")
        default: check(pinkit_curl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method), "method")
        }
        if let body = request.body {
            check(pinkit_curl_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)), "body size")
            if body.isEmpty {
                check(pinkit_curl_easy_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, ""), "body")
            } else {
                // COPYPOSTFIELDS copies the bytes before returning.
                body.withUnsafeBytes { bytes in
                    check(
                        pinkit_curl_easy_setopt_pointer(
                            easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress)),
                        "body"
                    )
                }
            }
        }
        var list: UnsafeMutablePointer<curl_slist>?
        for field in request.headers { list = curl_slist_append(list, "\(field.name): \(field.value)") }
        // No "Expect: 100-continue" round trip for uploads.
        list = curl_slist_append(list, "Expect:")
        if let userAgent = settings.userAgent { list = curl_slist_append(list, "User-Agent: \(userAgent)") }
        headerList = list
        check(pinkit_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list), "headers")
        return failure
    }

    /// True when the response's body ends only where the connection ends (HTTP/1.x without
    /// Content-Length or chunked coding), so only TLS close_notify proves it whole.
    func isCloseDelimited(status: Int, httpVersion: String) -> Bool {
        guard httpVersion != "2", request.method != "HEAD", status >= 200, status != 204, status != 304 else {
            return false
        }
        let chunked = headers.values("Transfer-Encoding").contains { $0.lowercased().contains("chunked") }
        return headers["Content-Length"] == nil && !chunked
    }

    var resolveList: UnsafeMutablePointer<curl_slist>? {
        didSet { if let oldValue { curl_slist_free_all(oldValue) } }
    }

    /// How long a session reuses the trust store it built from a CA file.
    static let caCacheSeconds = 300

    /// The CA bundle libcurl was built to use, when that file exists; nil leaves libcurl's
    /// defaults (bundle and directory) in place.
    static let systemTrustBundle: String? = {
        guard let easy = curl_easy_init() else { return nil }
        defer { curl_easy_cleanup(easy) }
        var path: UnsafePointer<CChar>?
        guard pinkit_curl_easy_getinfo_string(easy, CURLINFO_CAINFO, &path) == CURLE_OK, let path else { return nil }
        let bundle = String(cString: path)
        return FileManager.default.isReadableFile(atPath: bundle) ? bundle : nil
    }()

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    private static let writeCallback: pinkit_curl_data_callback = { data, size, count, user in
        guard let user else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
        let length = size * count
        guard transfer.body.count + length <= transfer.settings.maximumResponseSize else {
            transfer.exceededSizeLimit = true
            return 0  // makes libcurl stop with CURLE_WRITE_ERROR
        }
        guard transfer.reserve(upTo: transfer.body.count + length) else {
            transfer.exceededInFlightLimit = true
            return 0
        }
        data.withMemoryRebound(to: UInt8.self, capacity: length) {
            transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
        }
        return length
    }

    private static let headerCallback: pinkit_curl_data_callback = { data, size, count, user in
        guard let user else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
        let length = size * count
        transfer.headerBytes += length
        guard transfer.headerBytes <= maximumHeaderBytes else {
            transfer.exceededHeaderLimit = true
            return 0  // CURLE_WRITE_ERROR
        }
        if transfer.responseConnection == nil, let easy = transfer.easy,
            let owned = pinkit_curl_connection_owned(easy)
        {
            transfer.responseConnection = Unmanaged<ConnectionVerifier>.fromOpaque(owned).takeUnretainedValue()
        }
        let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
            HeaderLine(UnsafeBufferPointer(start: $0, count: length))
        }
        switch line {
        case .statusLine:
            // A new response head (after 1xx or a proxy): start over.
            transfer.headers = HTTPHeaders()
            transfer.headComplete = false
        case .end:
            transfer.headComplete = true
        case .field(let name, let value):
            transfer.headers.add(name, value)
        case .other:
            break
        }
        return length
    }
}

/// A finished transfer as the requesting task receives it: the result, and the pinning events
/// the handshake recorded, to be delivered on the caller's side.
struct TransferOutcome: Sendable {
    var result: Result<TransferResult, TransportError>
    var events: [PendingPinningEvent]
}

/// What a finished transfer produced.
struct TransferResult: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
    var httpVersion: String
    var pinning: PinEvaluation?
    var servedChain: [CertificateFacts]
    var servedChainPEM: [String]
    var verifiedChain: [CertificateFacts]
}
