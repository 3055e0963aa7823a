import Foundation
import PinKit
import PinKitLab
import PinKitTestSupport
import PinKitTransport
import Testing

/// Concurrent HTTP/2 requests to one origin share one connection, so one handshake and one pin
/// check cover them all, against nginx as against nghttpd: libcurl is told to wait for the
/// connection being set up (PIPEWAIT) instead of opening one per request.
@Suite("HTTP/2 multiplexing against nginx")
struct HTTP2MultiplexingTests {
    let lab = TransportLab.shared

    func client(port: UInt16, waitForMultiplexing: Bool) throws -> PinnedHTTPClient {
        var configuration = PinnedHTTPClient.Configuration.pinned(try lab.policy())
        configuration.trustStore = .caFile(lab.caFile)
        configuration.resolve = ["api.example.com:\(port):127.0.0.1"]
        configuration.requestTimeout = .seconds(120)
        // libcurl's connect timeout covers the TLS handshake, which waits while the server is
        // paused until the last transfer has started: on a loaded machine (AddressSanitizer in CI)
        // that took more than the default 10 s, and the first requests failed.
        configuration.connectTimeout = .seconds(120)
        configuration.waitForMultiplexingForTesting = waitForMultiplexing
        return try PinnedHTTPClient(configuration)
    }

    /// `count` concurrent GETs, all handed to libcurl while the server is stopped, so none can
    /// finish a handshake before the last one starts: the order is fixed without timing.
    func concurrentGets(_ client: PinnedHTTPClient, _ server: LabNginx, _ url: String, count: Int) async
        -> [HTTPResponse?]
    {
        let before = client.transfersStarted
        server.pause()
        return await withTaskGroup(of: HTTPResponse?.self) { group in
            for _ in 0..<count { group.addTask { try? await client.get(url) } }
            while client.transfersStarted < before + count { await Task.yield() }
            server.resume()
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test("16 concurrent requests: one connection and one pin check; without PIPEWAIT, several")
    func oneConnection() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try LabNginx(
            identity: try lab.pki.leaf(["api.example.com"]), directory: directory.path, files: ["n": Array("n".utf8)])
        defer { server.stop() }
        let url = server.url(path: "/n")

        // Without waiting for multiplexing, requests that start before the first connection has
        // negotiated h2 each open a connection (up to the 8 per host), each with a pin check.
        let eager = try client(port: server.port, waitForMultiplexing: false)
        defer { eager.shutdown() }
        let eagerResponses = await concurrentGets(eager, server, url, count: 16)
        #expect(eagerResponses.allSatisfy { $0?.status == 200 && $0?.httpVersion == "2" })
        #expect(eager.tlsConnectionsOpened > 1, "\(eager.tlsConnectionsOpened) connections without PIPEWAIT")

        let waiting = try client(port: server.port, waitForMultiplexing: true)
        defer { waiting.shutdown() }
        let responses = await concurrentGets(waiting, server, url, count: 16)
        #expect(responses.allSatisfy { $0?.status == 200 && $0?.httpVersion == "2" })
        #expect(waiting.tlsConnectionsOpened == 1, "16 streams, one connection")
        #expect(waiting.handshakeVerifications == 1, "one pin check covers every stream")
        #expect(responses.filter { $0?.pinning != nil }.count == 1, "one response carries the connection's decision")
    }
}
