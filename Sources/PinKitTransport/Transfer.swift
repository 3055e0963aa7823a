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
    let verifier: HandshakeVerifier
    let settings: PinnedHTTPClient.Configuration
    let connectOnly: Bool
    var continuation: CheckedContinuation<Result<TransferResult, TransportError>, Never>?

    var status = 0
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    var exceededSizeLimit = false
    var headerList: UnsafeMutablePointer<curl_slist>?
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(
        id: UInt64,
        request: HTTPRequest,
        host: String,
        port: Int,
        verifier: HandshakeVerifier,
        settings: PinnedHTTPClient.Configuration,
        connectOnly: Bool
    ) {
        self.id = id
        self.request = request
        self.host = host
        self.port = port
        self.verifier = verifier
        self.settings = settings
        self.connectOnly = connectOnly
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if let headerList { curl_slist_free_all(headerList) }
        if let resolveList { curl_slist_free_all(resolveList) }
        errorBuffer.deallocate()
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
        let verifierPointer = Unmanaged.passUnretained(verifier).toOpaque()
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
        check(pinkit_curl_easy_setopt_pointer(easy, CURLOPT_SSL_CTX_DATA, verifierPointer), "ssl ctx data")
        let partial = settings.allowPartialChain ? 0 : Int(CURLSSLOPT_NO_PARTIALCHAIN)
        check(pinkit_curl_easy_setopt_long(easy, CURLOPT_SSL_OPTIONS, partial), "ssl options")
        switch settings.trustStore {
        case .system:
            break
        case .caFile(let path):
            check(pinkit_curl_easy_setopt_string(easy, CURLOPT_CAINFO, path), "CA file")
            // Only the given file: no system CA directory beside it.
            check(pinkit_curl_easy_setopt_string(easy, CURLOPT_CAPATH, nil), "CA path")
        }
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
        let total = Self.milliseconds(request.timeout ?? settings.requestTimeout)
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

    var resolveList: UnsafeMutablePointer<curl_slist>? {
        didSet { if let oldValue { curl_slist_free_all(oldValue) } }
    }

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
        data.withMemoryRebound(to: UInt8.self, capacity: length) {
            transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
        }
        return length
    }

    private static let headerCallback: pinkit_curl_data_callback = { data, size, count, user in
        guard let user else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
        let length = size * count
        let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            // A new response head (after 1xx or a proxy): start over.
            transfer.headers = HTTPHeaders()
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            transfer.headers.add(name, value)
        }
        return length
    }
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
