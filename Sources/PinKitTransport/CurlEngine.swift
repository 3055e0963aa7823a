internal import CCurl
internal import COpenSSL
internal import CPinKitShims
import Foundation
import PinKit
import Synchronization

/// One libcurl multi handle with its connection pool and TLS session cache, driven by one
/// thread: the "session" that DESIGN invariant 4 scopes to one immutable policy.
///
/// Requests from any task are queued under a lock and the thread is woken with
/// `curl_multi_wakeup`; every other libcurl call happens on the engine thread.
final class CurlEngine: @unchecked Sendable {
    // @unchecked Sendable: `multi`, `share`, `active` and `idle` are touched only on the engine
    // thread; the cross-thread state is `inbox`, behind a lock.
    private let multi: UnsafeMutableRawPointer
    private let share: OpaquePointer?
    private let inbox = Locked(Inbox())
    private var active: [UInt64: (easy: UnsafeMutableRawPointer, transfer: Transfer)] = [:]
    private var idle: [UnsafeMutableRawPointer] = []
    private let finished = DispatchSemaphore(value: 0)
    /// Transfers handed to the multi handle so far (tests wait on it instead of on time).
    private let added = Atomic<Int>(0)
    var transfersAdded: Int { added.load(ordering: .relaxed) }

    private struct Inbox {
        var submitted: [Transfer] = []
        var cancelled: Set<UInt64> = []
        var shuttingDown = false
        /// Finish what is running, then stop (a replaced session).
        var draining = false
    }

    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    init(maximumConnectionsPerHost: Int, shareTLSSessions: Bool) throws(TransportError) {
        guard Self.globalInit, let multi = curl_multi_init() else {
            throw TransportError(.network, "libcurl could not be initialised")
        }
        self.multi = multi
        pinkit_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, maximumConnectionsPerHost)
        if shareTLSSessions, let share = curl_share_init() {
            pinkit_curl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
            pinkit_curl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
            self.share = OpaquePointer(share)
        } else {
            self.share = nil
        }
        let thread = Thread { [self] in run() }
        thread.name = "PinKit transport"
        thread.start()
    }

    deinit {
        shutdown()
    }

    /// Queues `transfer`; it completes through its continuation.
    func submit(_ transfer: Transfer) {
        let accepted = inbox.withLock { inbox -> Bool in
            guard !inbox.shuttingDown else { return false }
            inbox.submitted.append(transfer)
            return true
        }
        if accepted {
            curl_multi_wakeup(multi)
        } else {
            transfer.finish(.failure(TransportError(.shutDown, "the client was shut down")))
        }
    }

    func cancel(_ id: UInt64) {
        inbox.withLock { _ = $0.cancelled.insert(id) }
        curl_multi_wakeup(multi)
    }

    /// Lets running transfers finish, then frees the session; returns at once.
    func shutdownWhenIdle() {
        inbox.withLock { $0.draining = true }
        curl_multi_wakeup(multi)
    }

    /// Fails every queued and running request with `shut-down`, then frees libcurl's state.
    func shutdown() {
        let alreadyStopping = inbox.withLock { inbox -> Bool in
            defer { inbox.shuttingDown = true }
            return inbox.shuttingDown
        }
        guard !alreadyStopping else { return }
        curl_multi_wakeup(multi)
        finished.wait()
    }

    private func run() {
        var stillRunning: Int32 = 0
        while true {
            let (submitted, cancelled, stopping, draining) = inbox.withLock { inbox in
                defer {
                    inbox.submitted = []
                    inbox.cancelled = []
                }
                return (inbox.submitted, inbox.cancelled, inbox.shuttingDown, inbox.draining)
            }
            for transfer in submitted { start(transfer, cancelled: cancelled.contains(transfer.id)) }
            for id in cancelled {
                if let entry = active[id] {
                    complete(
                        entry.easy, entry.transfer,
                        .failure(TransportError(.cancelled, "the request was cancelled", host: entry.transfer.host)))
                }
            }
            if stopping {
                for (_, entry) in active {
                    complete(
                        entry.easy, entry.transfer,
                        .failure(TransportError(.shutDown, "the client was shut down", host: entry.transfer.host)))
                }
                break
            }
            expireOverdueTransfers()
            curl_multi_perform(multi, &stillRunning)
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let code = message.pointee.data.result
                var pointer: UnsafeMutableRawPointer?
                pinkit_curl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &pointer)
                guard let pointer else { continue }
                let transfer = Unmanaged<Transfer>.fromOpaque(pointer).takeUnretainedValue()
                complete(easy, transfer, result(of: easy, transfer, code))
            }
            if draining {
                // Decided under the lock, so that no submission can slip in unseen.
                let idleNow = inbox.withLock { inbox -> Bool in
                    guard active.isEmpty, inbox.submitted.isEmpty else { return false }
                    inbox.shuttingDown = true
                    return true
                }
                if idleNow { break }
            }
            curl_multi_poll(multi, nil, 0, pollTimeout(), nil)
        }
        for easy in idle { curl_easy_cleanup(easy) }
        idle = []
        curl_multi_cleanup(multi)
        if let share { curl_share_cleanup(UnsafeMutableRawPointer(share)) }
        inbox.withLock { $0.shuttingDown = true }
        finished.signal()
    }

    private func start(_ transfer: Transfer, cancelled: Bool) {
        if cancelled {
            transfer.finish(.failure(TransportError(.cancelled, "the request was cancelled", host: transfer.host)))
            return
        }
        guard ContinuousClock.now < transfer.deadline else {
            transfer.finish(.failure(timeoutError(transfer, wasSent: false)))
            return
        }
        guard let easy = idle.popLast() ?? curl_easy_init() else {
            transfer.finish(.failure(TransportError(.network, "curl_easy_init failed")))
            return
        }
        if let failure = transfer.configure(easy, share: share) {
            curl_easy_reset(easy)
            idle.append(easy)
            transfer.finish(.failure(TransportError(.invalidRequest, failure, host: transfer.host)))
            return
        }
        active[transfer.id] = (easy, transfer)
        curl_multi_add_handle(multi, easy)
        added.add(1, ordering: .relaxed)
    }

    private func complete(
        _ easy: UnsafeMutableRawPointer, _ transfer: Transfer, _ result: Result<TransferResult, TransportError>
    ) {
        curl_multi_remove_handle(multi, easy)
        active[transfer.id] = nil
        if transfer.connectOnly {
            // A connect-only handle owns its connection; it cannot go back to the pool.
            curl_easy_cleanup(easy)
        } else {
            curl_easy_reset(easy)
            idle.append(easy)
        }
        transfer.finish(result)
    }

    /// The one deadline of a send() covers time queued behind `maximumConnectionsPerHost`,
    /// which libcurl's own timeout does not reliably count: enforced here for every transfer.
    private func expireOverdueTransfers() {
        let now = ContinuousClock.now
        for (_, entry) in active where entry.transfer.deadline <= now {
            complete(entry.easy, entry.transfer, .failure(timeoutError(entry.transfer, wasSent: wasSent(entry.easy))))
        }
    }

    /// Until the nearest deadline, at most a second (cancellations and submissions wake the poll).
    private func pollTimeout() -> Int32 {
        guard let nearest = active.values.map(\.transfer.deadline).min() else { return 1000 }
        let left = Transfer.milliseconds(nearest - ContinuousClock.now)
        return Int32(min(1000, left))
    }

    /// True once bytes of the request were handed to the connection: the server may have it.
    private func wasSent(_ easy: UnsafeMutableRawPointer) -> Bool {
        var requestSize = 0
        pinkit_curl_easy_getinfo_long(easy, CURLINFO_REQUEST_SIZE, &requestSize)
        return requestSize > 0
    }

    /// A timeout that says how long the send() really ran and where the request was.
    private func timeoutError(_ transfer: Transfer, wasSent: Bool) -> TransportError {
        let elapsed = Transfer.milliseconds(ContinuousClock.now - transfer.started)
        let phase =
            wasSent
            ? "in flight (the request was sent, no complete response came)"
            : "waiting for a connection (nothing of the request was sent)"
        // libcurl's connect timeout can fire well before the send()'s deadline.
        let limit =
            !wasSent && ContinuousClock.now < transfer.deadline - .milliseconds(100)
            ? "no connection within the connect timeout" : "no response within the request deadline"
        var error = TransportError(
            .timeout, "\(transfer.host): \(limit), after \(elapsed) milliseconds \(phase)", host: transfer.host)
        error.wasSent = wasSent
        error.elapsed = .milliseconds(elapsed)
        return error
    }

    private func result(of easy: UnsafeMutableRawPointer, _ transfer: Transfer, _ code: CURLcode)
        -> Result<TransferResult, TransportError>
    {
        let verifier = transfer.connectionVerifier
        var pinning: PinEvaluation?
        if case .evaluated(let evaluation)? = verifier?.outcome { pinning = evaluation }
        guard code == CURLE_OK else {
            if code == CURLE_OPERATION_TIMEDOUT { return .failure(timeoutError(transfer, wasSent: wasSent(easy))) }
            var failure = error(for: code, transfer)
            failure.servedChainPEM = verifier?.servedChainPEM ?? []
            failure.wasSent = wasSent(easy)
            failure.elapsed = ContinuousClock.now - transfer.started
            return .failure(failure)
        }
        var status = 0
        pinkit_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var version = 0
        pinkit_curl_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
        let httpVersion = version == Int(CURL_HTTP_VERSION_2_0) ? "2" : "1.1"
        if !transfer.connectOnly, transfer.isCloseDelimited(status: status, httpVersion: httpVersion),
            transfer.responseConnection?.receivedCloseNotify != true
        {
            // libcurl takes a bare TCP FIN as the end of the body; an on-path attacker can send one.
            var error = TransportError(
                .truncatedResponse,
                "\(transfer.host): the response has no length and the connection closed without TLS close_notify after \(transfer.body.count) body bytes; it may be cut short",
                host: transfer.host
            )
            error.wasSent = true
            error.elapsed = ContinuousClock.now - transfer.started
            return .failure(error)
        }
        return .success(
            TransferResult(
                status: status,
                headers: transfer.headers,
                body: transfer.body,
                httpVersion: httpVersion,
                pinning: pinning,
                servedChain: verifier?.servedChain ?? [],
                servedChainPEM: verifier?.servedChainPEM ?? [],
                verifiedChain: verifier?.verifiedChain ?? []
            )
        )
    }

    /// Maps libcurl's result and what the handshake callback saw to a typed error.
    private func error(for code: CURLcode, _ transfer: Transfer) -> TransportError {
        let host = transfer.host
        let curlMessage = String(cString: transfer.errorBuffer)
        let detail = curlMessage.isEmpty ? String(cString: curl_easy_strerror(code)) : curlMessage
        let curlCode = Int(code.rawValue)
        switch transfer.connectionVerifier?.outcome {
        case .evaluated(.mismatch(let failure))?:
            return TransportError(
                .pinMismatch, failure.description, host: host, pinFailure: failure, curlCode: curlCode)
        case .chainInvalid(let verifyCode, let message)?:
            let kind: TransportError.Code =
                [X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID].contains(verifyCode)
                ? .expiredCertificate : .untrustedCertificate
            return TransportError(kind, "\(host): \(message)", host: host, curlCode: curlCode)
        case .hostnameMismatch?:
            return TransportError(
                .hostnameMismatch,
                "\(host): the certificate is not valid for this host name",
                host: host,
                curlCode: curlCode
            )
        default:
            break
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            return TransportError(.dnsFailure, "\(host): \(detail)", host: host, curlCode: curlCode)
        case CURLE_COULDNT_CONNECT:
            return TransportError(.connectionRefused, "\(host): \(detail)", host: host, curlCode: curlCode)
        case CURLE_OPERATION_TIMEDOUT:
            return TransportError(.timeout, "\(host): \(detail)", host: host, curlCode: curlCode)
        case CURLE_WRITE_ERROR where transfer.exceededHeaderLimit:
            return TransportError(
                .responseHeaderTooLarge,
                "\(host): the response head passed \(Transfer.maximumHeaderBytes) bytes (a header flood)",
                host: host, curlCode: curlCode)
        case CURLE_WRITE_ERROR where transfer.exceededInFlightLimit:
            return TransportError(
                .inFlightLimit,
                "\(host): responses in flight on this client passed \(transfer.budget.limit) bytes together; this one was stopped",
                host: host, curlCode: curlCode)
        case CURLE_WRITE_ERROR where transfer.exceededSizeLimit:
            return TransportError(
                .responseTooLarge,
                "\(host): the response exceeded \(transfer.settings.maximumResponseSize) bytes",
                host: host,
                curlCode: curlCode
            )
        case CURLE_OUT_OF_MEMORY where !transfer.headComplete,
            CURLE_RECV_ERROR where curlMessage.contains("response headers"):
            // libcurl 7.88 reports a header line over its 100 KiB limit as "Out of memory", and a
            // head over 300 KiB as a receive error.
            return TransportError(
                .responseHeaderTooLarge,
                "\(host): the response head is larger than the transport accepts (one header line over 100 KiB or all of them over 300 KiB)",
                host: host, curlCode: curlCode)
        case CURLE_HTTP2 where curlMessage.contains("CONTINUATION"),
            CURLE_HTTP2_STREAM where curlMessage.contains("CONTINUATION"),
            CURLE_RECV_ERROR where curlMessage.contains("CONTINUATION"):
            // nghttp2 refuses a header block split over too many frames (the CONTINUATION flood).
            return TransportError(
                .responseHeaderTooLarge,
                "\(host): the response head came in more HTTP/2 CONTINUATION frames than allowed (a header flood)",
                host: host, curlCode: curlCode)
        case CURLE_PARTIAL_FILE:
            // A length or chunked framing the connection ended before.
            return TransportError(
                .truncatedResponse, "\(host): the connection closed before the response was complete: \(detail)",
                host: host, curlCode: curlCode)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER:
            return TransportError(.tlsHandshake, "\(host): \(detail)", host: host, curlCode: curlCode)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return TransportError(.invalidRequest, "\(detail)", host: host, curlCode: curlCode)
        default:
            return TransportError(.network, "\(host): \(detail)", host: host, curlCode: curlCode)
        }
    }
}
