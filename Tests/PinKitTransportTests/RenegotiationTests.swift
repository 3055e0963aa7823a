import Foundation
import PinKit
import PinKitLab
import PinKitTransport
import Testing

/// A server that asks for a TLS 1.2 renegotiation on a kept-alive connection. Before the fix
/// the second handshake ran the verify callback with a pointer to the first transfer's freed
/// verifier (ASan: heap-use-after-free in HandshakeVerifier.verify); CI runs this suite under
/// ASan.
@Suite("Renegotiation on a kept-alive connection")
struct RenegotiationTests {
    let lab = TransportLab.shared

    func renegotiatingServer() throws -> LabTLSServer {
        try LabTLSServer(
            identity: try lab.pki.leaf(["api.example.com"]),
            behaviour: LabTLSServer.Behaviour(maximumVersion: .tls12, requestRenegotiation: true)
        )
    }

    /// Three requests in a row on one client, each allowed to fail with a typed error only.
    func exercise(_ client: PinnedHTTPClient, _ server: LabTLSServer) async -> [Result<Int, TransportError>] {
        var results: [Result<Int, TransportError>] = []
        for _ in 0..<3 {
            do throws(TransportError) {
                results.append(.success(try await client.get(server.url(host: "api.example.com")).status))
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }

    @Test("without the protection the client runs a second handshake on the pooled connection")
    func unprotected() async throws {
        // Whether the client reads the HelloRequest on the pooled connection before it decides to
        // reuse it depends on scheduling; on a loaded machine it may open a new connection
        // instead. Up to five rounds, each with a fresh server and client, until one renegotiates.
        var seen: (verifications: Int, statistics: LabTLSServer.Statistics)?
        for _ in 0..<5 where seen == nil {
            let server = try renegotiatingServer()
            defer { server.stop() }
            let client = try lab.client(try lab.policy(), server: server) {
                $0.unsafeAllowRenegotiationForTesting = true
                $0.httpVersion = .http1Only
            }
            _ = await exercise(client, server)
            if server.statistics.renegotiations >= 1 { seen = (client.handshakeVerifications, server.statistics) }
        }
        let (verifications, statistics) = try #require(seen, "no round renegotiated")
        let fullHandshakes = statistics.handshakes - statistics.resumedHandshakes
        #expect(
            verifications > fullHandshakes,
            "a verification ran without a new connection: \(verifications) \(statistics)")
    }

    @Test("with it: no second verification, and each request completes or fails with a typed error")
    func protected() async throws {
        let server = try renegotiatingServer()
        defer { server.stop() }
        let recorder = EventRecorder()
        let client = try lab.client(try lab.policy(), server: server) {
            $0.httpVersion = .http1Only
            $0.observer = recorder.observer
        }
        let results = await exercise(client, server)
        #expect(server.statistics.renegotiationRequests >= 1, "the server did ask: \(server.statistics)")
        #expect(server.statistics.renegotiations == 0, "\(server.statistics)")
        // A resumed session (a new connection after the server gave up on the old one) was
        // verified when it was made, under this same policy: only full handshakes verify.
        let fullHandshakes = server.statistics.handshakes - server.statistics.resumedHandshakes
        #expect(
            client.handshakeVerifications == fullHandshakes,
            "one verification per full handshake: \(client.handshakeVerifications) \(server.statistics)")
        #expect(try #require(results.first).get() == 200)
        for result in results {
            if case .failure(let error) = result {
                #expect([.network, .tlsHandshake].contains(error.code), "\(error)")
            }
        }
        #expect(recorder.all.isEmpty)
    }
}
