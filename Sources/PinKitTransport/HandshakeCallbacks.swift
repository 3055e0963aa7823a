internal import CCurl
internal import COpenSSL
internal import CPinKitShims
import Foundation
import PinKit
import PinKitOpenSSL

/// Every C callback of the handshake path, in one place.
///
/// When they run: libcurl calls ``sslContextCallback`` once per new TLS connection, on the
/// session's engine thread, after it has configured the `SSL_CTX` (its CA store is loaded
/// later, before the handshake). That installs ``certificateVerifyCallback``, which OpenSSL
/// calls once per full handshake in place of its own chain verification. Neither runs for a
/// reused connection or a resumed TLS session, which is why connection pools and TLS session
/// caches are scoped to one immutable policy (DESIGN invariant 4).
///
/// What they may not do: block, throw, or touch the multi handle. State travels as an
/// `Unmanaged<HandshakeVerifier>` in the user-data slots; the transfer keeps the verifier alive.
enum HandshakeCallbacks {
    static let sslContextCallback: pinkit_curl_ssl_ctx_callback = { _, sslContext, user in
        let context = OpaquePointer(sslContext)
        SSL_CTX_set_cert_verify_callback(context, certificateVerifyCallback, user)
        // Fail closed: even with CURLOPT_SSL_VERIFYPEER off (where libcurl would ignore the
        // verification result), OpenSSL itself aborts the handshake when the callback says no.
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        return CURLE_OK
    }

    static let certificateVerifyCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = {
        store, user in
        guard let store, let user else { return 0 }
        return Unmanaged<HandshakeVerifier>.fromOpaque(user).takeUnretainedValue().verify(store)
    }
}

/// The decision for one handshake: normal X.509 validation, the host name, then the pins of
/// the verified chain. One per transfer; used only on the engine thread.
final class HandshakeVerifier: @unchecked Sendable {
    // @unchecked Sendable: created by the requesting task, then used only on the engine thread
    // (in the callbacks and when the transfer completes), never concurrently.

    enum Outcome {
        case chainInvalid(code: Int32, message: String)
        case hostnameMismatch
        case evaluated(PinEvaluation)
    }

    let policy: PinPolicy
    let host: String
    let port: Int
    let now: @Sendable () -> Date
    let observer: (@Sendable (PinningEvent) -> Void)?
    let captureChains: Bool

    private(set) var outcome: Outcome?
    private(set) var servedChain: [CertificateFacts] = []
    private(set) var servedChainPEM: [String] = []
    private(set) var verifiedChain: [CertificateFacts] = []
    private(set) var callbackRuns = 0

    init(
        policy: PinPolicy,
        host: String,
        port: Int,
        now: @escaping @Sendable () -> Date,
        observer: (@Sendable (PinningEvent) -> Void)?,
        captureChains: Bool
    ) {
        self.policy = policy
        self.host = host
        self.port = port
        self.now = now
        self.observer = observer
        self.captureChains = captureChains
    }

    /// The cert-verify callback's body: returns 1 to accept the chain, 0 to abort the handshake.
    func verify(_ store: OpaquePointer) -> Int32 {
        callbackRuns += 1
        // The served list is read only when asked for or to report a mismatch, not per handshake.
        if captureChains {
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
        if captureChains { verifiedChain = Self.facts(verified) }
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
                return try? Certificate.sha256(ofEncoded: pubkey)
            }
        }
        let evaluation = policy.evaluate(host: host, verifiedChainKeys: keys, now: now()) {
            verifiedChain.isEmpty ? Self.facts(verified) : verifiedChain
        }
        outcome = .evaluated(evaluation)
        switch evaluation {
        case .mismatch(let failure):
            observer?(.pinFailure(event(for: failure, served: Self.served(store), verified: verified)))
            guard failure.mode == .reportOnly else {
                X509_STORE_CTX_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION)
                return 0
            }
            return 1
        case .pinSetExpired(let setName, let expired):
            observer?(.pinSetExpired(host: host, port: port, setName: setName, expired: expired, at: now()))
            return 1
        case .matched, .unpinnedHost:
            return 1
        }
    }

    private func event(for failure: PinFailure, served: [OpaquePointer], verified: [OpaquePointer])
        -> PinFailureEvent
    {
        let match = policy.match(for: host)
        return PinFailureEvent(
            date: now(),
            hostname: host,
            port: port,
            notedHostname: match?.pattern ?? host,
            setName: failure.setName,
            includeSubdomains: match?.set.includeSubdomains ?? false,
            effectiveExpirationDate: match?.set.expires,
            mode: failure.mode,
            servedCertificateChain: Self.pem(served),
            validatedCertificateChain: Self.pem(verified),
            knownPins: failure.expectedPins.map { "pin-sha256=\"\($0.base64)\"" },
            validatedChainPins: failure.verifiedChain.map(\.spki),
            reason: failure.description
        )
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
        chain.compactMap { try? Certificate(borrowing: $0).facts }
    }

    private static func pem(_ chain: [OpaquePointer]) -> [String] {
        chain.compactMap { try? Certificate(borrowing: $0).pem }
    }

    private static func leaf(_ leaf: OpaquePointer, matches host: String) -> Bool {
        if HostName.isIPLiteral(host) {
            return X509_check_ip_asc(leaf, host, 0) == 1
        }
        return X509_check_host(leaf, host, host.utf8.count, 0, nil) == 1
    }
}
