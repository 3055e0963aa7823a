import Foundation
import PinKit
import PinKitLab
import PinKitTransport
import Testing

/// `wasSent` must agree with the server's own log: a failure after the request left the client
/// (a reset, a timeout while waiting for the answer) may have been acted on, so retrying a
/// non-idempotent request is not safe; a failure before it (refused, TLS, pinning, queued) is.
@Suite("wasSent and retry safety")
struct RetrySafetyTests {
    let lab = TransportLab.shared

    func server(_ identity: LabIdentity) throws -> LabTLSServer {
        try LabTLSServer(identity: identity) { request in
            switch request.target {
            case "/drop": return LabResponse(dropConnection: true)
            case "/slow": return LabResponse(body: Array("late".utf8), delay: 6)
            default: return .text("ok")
            }
        }
    }

    @Test(
        "failures after the server got the request say wasSent; network errors alone do not tell",
        arguments: ["/drop", "/slow"])
    func afterSending(_ path: String) async throws {
        let server = try server(try lab.pki.leaf(["api.example.com"]))
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server) { $0.requestTimeout = .seconds(3) }
        let error = try #require(
            await transportError {
                try await client.send(
                    HTTPRequest(
                        method: "POST", url: URL(string: server.url(host: "api.example.com", path: path))!,
                        body: Array("{}".utf8)))
            })
        // The server logged the request, yet the error is a plain network failure: the old
        // "never reached a server" reading of isNetwork was false here.
        #expect(server.requests.contains { $0.target == path })
        #expect(error.isNetwork, "\(error)")
        #expect(error.wasSent, "\(error)")
    }

    @Test("failures before any byte of the request left say so: refused, pin mismatch")
    func beforeSending() async throws {
        let rogue = try server(try lab.rogue.leaf(["api.example.com"]))
        defer { rogue.stop() }
        let client = try lab.client(try lab.policy(), server: rogue)
        let mismatch = await transportError { try await client.get(rogue.url(host: "api.example.com", path: "/x")) }
        #expect(mismatch?.code == .pinMismatch)
        #expect(mismatch?.wasSent == false)
        #expect(rogue.requests.isEmpty)

        let port = rogue.port
        rogue.stop()
        let refused = await transportError { try await client.get("https://api.example.com:\(port)/x") }
        #expect(refused?.code == .connectionRefused)
        #expect(refused?.wasSent == false)
    }
}
