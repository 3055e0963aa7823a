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
    /// `/slow` answers after two seconds.
    func server(delay: TimeInterval) throws -> LabTLSServer {
        try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"])) { request in
            if request.target == "/slow" { return LabResponse(body: Array("late".utf8), delay: 2) }
            let hop = Int(request.target.split(separator: "/").last ?? "") ?? 0
            guard hop < 3 else { return LabResponse(body: Array("arrived".utf8), delay: delay) }
            var response = LabResponse.redirect(to: "/hop/\(hop + 1)", status: 302)
            response.delay = delay
            return response
        }
    }

    @Test("the timeout covers every redirect hop, not each hop afresh")
    func acrossHops() async throws {
        let server = try server(delay: 1.0)
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server) {
            $0.followRedirects = true
            $0.requestTimeout = .milliseconds(2_500)
        }
        // Each hop alone fits the timeout easily: a per-hop timer would let all three through.
        let single = try await client.get(server.url(host: "api.example.com", path: "/hop/3"))
        #expect(single.bodyText == "arrived")

        let error = await transportError { try await client.get(server.url(host: "api.example.com", path: "/hop/1")) }
        #expect(error?.code == .timeout, "\(String(describing: error))")
        #expect(error?.wasSent == true, "an earlier hop reached the server")
        let elapsed = try #require(error?.elapsed)
        #expect(elapsed >= .milliseconds(2_500), "the message reports the whole call: \(elapsed)")
        #expect(error?.reason.contains("in flight") == true, "\(String(describing: error))")
        // It timed out on a later hop, each hop well inside the timeout: the hops shared one deadline.
        #expect(server.requests.contains { $0.target == "/hop/2" })
    }

    @Test("time queued behind maximumConnectionsPerHost counts, and the error says the request waited")
    func queued() async throws {
        let server = try server(delay: 0)
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server) {
            $0.maximumConnectionsPerHost = 1
            $0.httpVersion = .http1Only
        }
        let slow = Task { try await client.get(server.url(host: "api.example.com", path: "/slow")).status }
        // Wait until the slow request holds the only connection.
        while !server.requests.contains(where: { $0.target == "/slow" }) {
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
        #expect(elapsed >= .milliseconds(500))
        #expect(!server.requests.contains { $0.target == "/hop/3" }, "the queued request never reached the server")
        #expect(try await slow.value == 200)
    }
}
