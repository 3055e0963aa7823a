import Foundation
import PinKit
import PinKitLab
import PinKitTransport
import Testing

/// One deadline per send(): redirect hops and time queued for a connection count against it, and
/// the error says how long the call ran and whether the request was waiting or in flight.
@Suite("One deadline per send")
struct DeadlineTests {
    let lab = TransportLab.shared

    /// `/hop/N` answers after `delay` seconds with a redirect to `/hop/N+1`; `/hop/3` with 200.
    /// `/held` answers only when `release` is signalled (or after 30 s).
    func server(delay: TimeInterval, release: DispatchSemaphore = DispatchSemaphore(value: 0)) throws -> LabTLSServer {
        try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"])) { request in
            if request.target == "/held" {
                _ = release.wait(timeout: .now() + 30)
                return .text("released")
            }
            let hop = Int(request.target.split(separator: "/").last ?? "") ?? 0
            guard hop < 3 else { return LabResponse(body: Array("arrived".utf8), delay: delay) }
            var response = LabResponse.redirect(to: "/hop/\(hop + 1)", status: 302)
            response.delay = delay
            return response
        }
    }

    @Test("the timeout covers every redirect hop, not each hop afresh")
    func acrossHops() async throws {
        let server = try server(delay: 1.5)
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server) {
            $0.followRedirects = true
            $0.requestTimeout = .milliseconds(3_500)
        }
        // Each hop alone fits the timeout easily: a per-hop timer would let all three through.
        let single = try await client.get(server.url(host: "api.example.com", path: "/hop/3"))
        #expect(single.bodyText == "arrived")

        let error = await transportError { try await client.get(server.url(host: "api.example.com", path: "/hop/1")) }
        #expect(error?.code == .timeout, "\(String(describing: error))")
        // It timed out after the first hop had answered (each hop well inside the timeout): the
        // hops shared one deadline.
        #expect(error?.wasSent == true, "an earlier hop reached the server")
        let elapsed = try #require(error?.elapsed)
        // Counted from the send(), not from the hop that timed out (which began 1.5 s or more in).
        #expect(elapsed > .milliseconds(3_000), "the message reports the whole call: \(elapsed)")
        #expect(error?.reason.contains("after \(Int(elapsed / .milliseconds(1))) milliseconds") == true)
    }

    @Test("time queued behind maximumConnectionsPerHost counts, and the error says the request waited")
    func queued() async throws {
        let release = DispatchSemaphore(value: 0)
        let server = try server(delay: 0, release: release)
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server) {
            $0.maximumConnectionsPerHost = 1
            $0.httpVersion = .http1Only
        }
        let held = Task { try await client.get(server.url(host: "api.example.com", path: "/held")).status }
        // Wait until the held request occupies the only connection; the server keeps it until released.
        while !server.requests.contains(where: { $0.target == "/held" }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let queued = await transportError {
            try await client.send(
                HTTPRequest(
                    url: URL(string: server.url(host: "api.example.com", path: "/hop/3"))!, timeout: .milliseconds(500))
            )
        }
        #expect(queued?.code == .timeout, "\(String(describing: queued))")
        #expect(queued?.wasSent == false)
        #expect(queued?.reason.contains("waiting for a connection") == true, "\(String(describing: queued))")
        let elapsed = try #require(queued?.elapsed)
        #expect(elapsed > .milliseconds(400), "the real time spent queued, give or take timer rounding")
        #expect(!server.requests.contains { $0.target == "/hop/3" }, "the queued request never reached the server")
        release.signal()
        #expect(try await held.value == 200)
    }
}
