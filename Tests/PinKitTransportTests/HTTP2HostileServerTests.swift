import Foundation
import PinKit
import PinKitLab
import PinKitTransport
import Testing

/// What the HTTP/1.1 tests check, over HTTP/2 against servers on loopback: size caps that
/// hold across many streams, header floods, and one handshake check per connection that
/// covers every stream multiplexed on it.
@Suite("HTTP/2 against hostile servers")
struct HTTP2HostileServerTests {
    let lab = TransportLab.shared
    static let megabyte = [UInt8](repeating: 0x61, count: 1024 * 1024)

    func client(
        _ policy: PinPolicy, port: UInt16, kind: PinnedHTTPClient.Kind = .pinned,
        configure: (inout PinnedHTTPClient.Configuration) -> Void = { _ in }
    ) throws -> PinnedHTTPClient {
        try lab.client(policy, kind: kind, server: try placeholder()) {
            $0.resolve = ["api.example.com:\(port):127.0.0.1"]
            $0.requestTimeout = .seconds(120)
            configure(&$0)
        }
    }

    /// `TransportLab.client` wants a lab server for its resolve entries; ours are replaced.
    private func placeholder() throws -> LabTLSServer {
        Self.placeholderServer
    }
    private static let placeholderServer = try! LabTLSServer(identity: try! TransportLab.shared.pki.leaf(["unused"]))

    /// `count` concurrent GETs of `path`; each result is a status or a transport error.
    func concurrentGets(_ client: PinnedHTTPClient, _ url: String, count: Int) async -> [Result<
        HTTPResponse, TransportError
    >] {
        await withTaskGroup(of: Result<HTTPResponse, TransportError>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do throws(TransportError) { return .success(try await client.get(url)) } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test("60 streams of 1 MiB: the per-response cap alone multiplies; the client-wide cap holds")
    func manyStreams() async throws {
        let server = try NghttpdServer(identity: try lab.pki.leaf(["api.example.com"]), files: ["big": Self.megabyte])
        defer { server.stop() }
        let url = server.url(path: "/big")

        // Without the client-wide cap: every stream stays under the per-response cap, and
        // together they hold many times it.
        let unbounded = try client(try lab.policy(), port: server.port) {
            $0.maximumResponseSize = 2 * 1024 * 1024
            $0.maximumInFlightResponseBytes = .max
        }
        let all = await concurrentGets(unbounded, url, count: 60)
        #expect(all.allSatisfy { (try? $0.get().status) == 200 })
        #expect(all.contains { (try? $0.get().httpVersion) == "2" }, "the streams ran over HTTP/2")
        #expect(unbounded.peakInFlightResponseBytes > 8 * 1024 * 1024, "\(unbounded.peakInFlightResponseBytes)")

        let bounded = try client(try lab.policy(), port: server.port) {
            $0.maximumResponseSize = 2 * 1024 * 1024
            $0.maximumInFlightResponseBytes = 8 * 1024 * 1024
        }
        let results = await concurrentGets(bounded, url, count: 60)
        #expect(bounded.peakInFlightResponseBytes <= 8 * 1024 * 1024)
        var refused = 0
        for result in results {
            switch result {
            case .success(let response): #expect(response.body.count == Self.megabyte.count)
            case .failure(let error):
                #expect(error.code == .inFlightLimit, "\(error)")
                refused += 1
            }
        }
        #expect(refused > 0, "the client-wide cap engaged")
        #expect(refused < 60, "responses that fit still completed")

        // The per-response cap, over HTTP/2.
        let small = try client(try lab.policy(), port: server.port) { $0.maximumResponseSize = 512 * 1024 }
        let error = await transportError { try await small.get(url) }
        #expect(error?.code == .responseTooLarge)
    }

    @Test(
        "header floods over HTTP/2 end in a typed error before the flood ends: a huge block, an endless one",
        arguments: [false, true])
    func headerFlood(_ endless: Bool) async throws {
        // About 4.5 MB of header fields in CONTINUATION frames.
        let server = try ContinuationFloodServer(
            identity: try lab.pki.leaf(["api.example.com"]), continuations: 5_000, endless: endless)
        let client = try client(try lab.policy(), port: server.port)
        let error = await transportError { try await client.get(server.url(path: "/")) }
        // Closing the client's connections lets the server see the hang-up and report.
        client.shutdown()
        let frames = server.framesSentThenStop()
        #expect(error?.code == .responseHeaderTooLarge, "\(String(describing: error))")
        let sent = try #require(frames, "the flood server reported nothing")
        #expect(sent < 5_001, "the client hung up before the flood ended: \(sent) frames")
    }

    @Test("every stream of a connection is covered by its one handshake check, pinned or refused")
    func pinningOncePerConnection() async throws {
        let good = try NghttpdServer(identity: try lab.pki.leaf(["api.example.com"]), files: ["n": Array("n".utf8)])
        defer { good.stop() }
        let pinned = try client(try lab.policy(), port: good.port)
        let responses = await concurrentGets(pinned, good.url(path: "/n"), count: 20)
        #expect(responses.allSatisfy { (try? $0.get().httpVersion) == "2" })
        #expect(pinned.tlsConnectionsOpened == 1, "20 streams, one connection")
        #expect(pinned.handshakeVerifications == pinned.tlsConnectionsOpened)

        // A rogue chain the trust store accepts: without pinning every stream gets through ...
        let rogue = try NghttpdServer(identity: try lab.rogue.leaf(["api.example.com"]), files: ["n": Array("n".utf8)])
        defer { rogue.stop() }
        let unpinned = try client(.systemTrustOnly, port: rogue.port, kind: .unpinned)
        let through = await concurrentGets(unpinned, rogue.url(path: "/n"), count: 20)
        #expect(through.allSatisfy { (try? $0.get().status) == 200 })
        // ... with it, none does: no stream rides a connection whose check failed or is pending.
        let refused = await concurrentGets(
            try client(try lab.policy(), port: rogue.port), rogue.url(path: "/n"), count: 20)
        #expect(refused.allSatisfy { if case .failure(let error) = $0 { error.code == .pinMismatch } else { false } })
    }
}
