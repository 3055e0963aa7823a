internal import CCurl
internal import COpenSSL
internal import CPinKitShims
import Foundation
import PinKit
import PinKitOpenSSL

/// Every C callback of the handshake path, in one place.
///
/// When they run: libcurl calls ``sslContextCallback`` once per new TLS connection, on the
/// session's engine thread, after it has configured the connection's own `SSL_CTX` (libcurl
/// 7.88 makes one per connection; its CA store is loaded later, before the handshake). That
/// creates the connection's ``ConnectionVerifier`` and installs ``certificateVerifyCallback``,
/// which OpenSSL calls in place of its own chain verification. Neither runs for a reused
/// connection or a resumed TLS session, which is why connection pools and TLS session caches
/// are scoped to one immutable policy (DESIGN invariant 4).
///
/// Ownership: the verifier is retained by the `SSL_CTX` itself (ex_data with a free callback),
/// so it lives exactly as long as the connection, which outlives the transfer in libcurl's
/// pool; the verify callback's argument can never dangle. Renegotiation is refused
/// (`SSL_OP_NO_RENEGOTIATION`), so the verify callback runs once per connection.
///
/// What they may not do: block, throw, call the app, do I/O or touch the multi handle. They
/// decide and record; the transfer hands the record to the caller (DESIGN invariant 10).
enum HandshakeCallbacks {
    static let sslContextCallback: pinkit_curl_ssl_ctx_callback = { _, sslContext, user in
        let context = OpaquePointer(sslContext)
        // The transfer is attached to the easy handle for the whole call, so this is live.
        guard let user else { return CURLE_SSL_CERTPROBLEM }
        let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
        transfer.handshake.counters.connectionOpened()
        let verifier = ConnectionVerifier(transfer.handshake)
        let retained = Unmanaged.passRetained(verifier).toOpaque()
        guard pinkit_SSL_CTX_attach_owned(context, retained, releaseVerifier, closeNotifyReceived) == 1 else {
            Unmanaged<ConnectionVerifier>.fromOpaque(retained).release()
            return CURLE_OUT_OF_MEMORY
        }
        transfer.connectionVerifier = verifier
        SSL_CTX_set_cert_verify_callback(context, certificateVerifyCallback, retained)
        // Fail closed: even with CURLOPT_SSL_VERIFYPEER off (where libcurl would ignore the
        // verification result), OpenSSL itself aborts the handshake when the callback says no.
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        if !transfer.handshake.allowRenegotiation { pinkit_SSL_CTX_refuse_renegotiation(context) }
        return CURLE_OK
    }

    /// Runs when OpenSSL frees a connection's `SSL_CTX`: drops the context's reference.
    static let releaseVerifier: @convention(c) (UnsafeMutableRawPointer) -> Void = { pointer in
        Unmanaged<ConnectionVerifier>.fromOpaque(pointer).release()
    }

    /// Runs (info callback) when the connection receives a TLS close_notify alert: the only
    /// authentic end of a close-delimited body.
    static let closeNotifyReceived: @convention(c) (UnsafeMutableRawPointer) -> Void = { pointer in
        Unmanaged<ConnectionVerifier>.fromOpaque(pointer).takeUnretainedValue().receivedCloseNotify = true
    }

    static let certificateVerifyCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = {
        store, user in
        guard let store, let user else { return 0 }
        return Unmanaged<ConnectionVerifier>.fromOpaque(user).takeUnretainedValue().verify(store)
    }
}

/// What a connection's verifier needs to decide: fixed when the transfer is created.
struct HandshakeSettings: Sendable {
    var policy: PinPolicy
    var host: String
    var port: Int
    var now: @Sendable () -> Date
    var captureChains: Bool
    /// Counts TLS connections opened and verify-callback runs of the client (tests).
    var counters: HandshakeCounters
    /// For the test that shows why renegotiation is refused; never set it otherwise.
    var allowRenegotiation = false
}

/// Counts TLS connections opened and verify-callback runs of one client, across its sessions:
/// with renegotiation refused, and HTTP/2 streams sharing connections, the two must be equal.
final class HandshakeCounters: Sendable {
    private let counts = Locked((connections: 0, verifications: 0))
    func connectionOpened() { counts.withLock { $0.connections += 1 } }
    func verified() { counts.withLock { $0.verifications += 1 } }
    var connections: Int { counts.withLock { $0.connections } }
    var verifications: Int { counts.withLock { $0.verifications } }
}

/// Something the verifier saw that the app's observer must hear about, recorded during the
/// handshake and turned into a ``PinningEvent`` on the caller's side.
struct PendingPinningEvent: Sendable {
    enum Kind: Sendable {
        case pinFailure(PinFailure, served: RetainedChain, verified: RetainedChain)
        case pinSetExpired(setName: String, expired: Date)
    }
    var kind: Kind
    var host: String
    var port: Int
    var date: Date

    /// Builds the event (PEM encoding and all), off the engine thread.
    func event() -> PinningEvent {
        switch kind {
        case .pinFailure(let failure, let served, let verified):
            return .pinFailure(
                PinFailureEvent(
                    date: date,
                    hostname: host,
                    port: port,
                    notedHostname: failure.notedHostname,
                    setName: failure.setName,
                    includeSubdomains: failure.includeSubdomains,
                    effectiveExpirationDate: failure.effectiveExpirationDate,
                    mode: failure.mode,
                    servedCertificateChain: served.pem,
                    validatedCertificateChain: verified.pem,
                    knownPins: failure.expectedPins.map { "pin-sha256=\"\($0.base64)\"" },
                    validatedChainPins: failure.verifiedChain.map(\.spki),
                    reason: failure.description
                ))
        case .pinSetExpired(let setName, let expired):
            return .pinSetExpired(host: host, port: port, setName: setName, expired: expired, at: date)
        }
    }
}

/// References to the certificates of a chain, taken in the verify callback (one `X509_up_ref`
/// each, no copy) so that encoding them can wait until the callback has returned.
final class RetainedChain: @unchecked Sendable {
    // @unchecked Sendable: the pointers are fixed at init and only read afterwards; an X509 is
    // immutable once verified and OpenSSL's reference counts are atomic.
    private let certificates: [OpaquePointer]

    init(_ certificates: [OpaquePointer]) {
        for certificate in certificates { X509_up_ref(certificate) }
        self.certificates = certificates
    }

    deinit { for certificate in certificates { X509_free(certificate) } }

    var pem: [String] { certificates.compactMap { try? X509Certificate(borrowing: $0).pem } }
}

/// The decision for one connection's handshake: normal X.509 validation, the host name, then
/// the pins of the verified chain. Owned by the connection's `SSL_CTX`; used only on the
/// engine thread (in the callback, then by the transfer that opened the connection).
final class ConnectionVerifier: @unchecked Sendable {
    // @unchecked Sendable: created and used only on the engine thread, never concurrently; the
    // transfer copies its record into Sendable values before they leave that thread.

    enum Outcome {
        case chainInvalid(code: Int32, message: String)
        case hostnameMismatch
        case evaluated(PinEvaluation)
    }

    let settings: HandshakeSettings

    private(set) var outcome: Outcome?
    private(set) var events: [PendingPinningEvent] = []
    private(set) var servedChain: [CertificateFacts] = []
    private(set) var servedChainPEM: [String] = []
    private(set) var verifiedChain: [CertificateFacts] = []
    private(set) var callbackRuns = 0
    /// The peer closed the TLS connection properly (set by the info callback).
    var receivedCloseNotify = false

    init(_ settings: HandshakeSettings) { self.settings = settings }

    /// The cert-verify callback's body: returns 1 to accept the chain, 0 to abort the handshake.
    /// Decides and records; the app hears about it later, on the caller's side.
    func verify(_ store: OpaquePointer) -> Int32 {
        callbackRuns += 1
        settings.counters.verified()
        let host = settings.host
        // The served list is read only when asked for or to report a mismatch, not per handshake.
        if settings.captureChains {
            let served = Self.served(store)
            servedChain = Self.facts(served)
            servedChainPEM = Self.pem(served)
        }
        guard X509_verify_cert(store) == 1 else {
            let code = X509_STORE_CTX_get_error(store)
            outcome = .chainInvalid(code: code, message: String(cString: X509_verify_cert_error_string(Int(code))))
            return 0
        }
        var verified: [OpaquePointer] = []
        if let chain = X509_STORE_CTX_get0_chain(store) {
            for index in 0..<pinkit_sk_X509_num(chain) {
                if let certificate = pinkit_sk_X509_value(chain, index) { verified.append(certificate) }
            }
        }
        if settings.captureChains { verifiedChain = Self.facts(verified) }
        guard let leaf = verified.first, Self.leaf(leaf, matches: host) else {
            outcome = .hostnameMismatch
            X509_STORE_CTX_set_error(store, X509_V_ERR_HOSTNAME_MISMATCH)
            return 0
        }
        // The hot path, only for a host with a live pin set: one SHA-256 over each certificate's
        // already-decoded SPKI.
        let keys = {
            verified.compactMap { certificate -> SPKIPin? in
                guard let pubkey = X509_get_X509_PUBKEY(certificate) else { return nil }
                return try? X509Certificate.sha256(ofEncoded: pubkey)
            }
        }
        let now = settings.now()
        let evaluation = settings.policy.evaluate(host: host, verifiedChainKeys: keys, now: now) {
            verifiedChain.isEmpty ? Self.facts(verified) : verifiedChain
        }
        outcome = .evaluated(evaluation)
        switch evaluation {
        case .mismatch(let failure):
            let chains = (served: RetainedChain(Self.served(store)), verified: RetainedChain(verified))
            record(.pinFailure(failure, served: chains.served, verified: chains.verified), at: now)
        case .pinSetExpired(let setName, let expired):
            record(.pinSetExpired(setName: setName, expired: expired), at: now)
        case .matched, .unpinnedHost:
            break
        }
        // The core's evaluation is the one decision; the callback only carries it out.
        guard evaluation.allowsConnection else {
            X509_STORE_CTX_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION)
            return 0
        }
        return 1
    }

    private func record(_ kind: PendingPinningEvent.Kind, at date: Date) {
        events.append(PendingPinningEvent(kind: kind, host: settings.host, port: settings.port, date: date))
    }

    /// The certificates the peer sent, leaf first.
    private static func served(_ store: OpaquePointer) -> [OpaquePointer] {
        var result: [OpaquePointer] = []
        if let untrusted = X509_STORE_CTX_get0_untrusted(store) {
            for index in 0..<pinkit_sk_X509_num(untrusted) {
                if let certificate = pinkit_sk_X509_value(untrusted, index) { result.append(certificate) }
            }
        }
        if let leaf = X509_STORE_CTX_get0_cert(store), result.first.map({ X509_cmp($0, leaf) != 0 }) ?? true {
            result.insert(leaf, at: 0)
        }
        return result
    }

    private static func facts(_ chain: [OpaquePointer]) -> [CertificateFacts] {
        chain.compactMap { try? X509Certificate(borrowing: $0).facts }
    }

    private static func pem(_ chain: [OpaquePointer]) -> [String] {
        chain.compactMap { try? X509Certificate(borrowing: $0).pem }
    }

    private static func leaf(_ leaf: OpaquePointer, matches host: String) -> Bool {
        if HostName.isIPLiteral(host) {
            return X509_check_ip_asc(leaf, host, 0) == 1
        }
        return X509_check_host(leaf, host, host.utf8.count, 0, nil) == 1
    }
}
