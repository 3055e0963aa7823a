import Foundation
import PinKit
import PinKitLab
import PinKitTransport
import Testing

/// Credentials belong to an origin (scheme, host, port): another port of the same host is
/// another server, possibly another tenant's (curl's rule since CVE-2022-27776).
@Suite("Credentials on redirect")
struct RedirectCredentialTests {
    let lab = TransportLab.shared

    /// Redirects `/go` to `target` + `/landed`; answers 200 elsewhere.
    func redirecting(to target: @escaping @Sendable () -> String) throws -> LabTLSServer {
        try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"])) { request in
            request.target == "/go" ? .redirect(to: target() + "/landed", status: 307) : .text("landed")
        }
    }

    @Test("kept on a same-origin redirect, dropped when only the port changes")
    func acrossPorts() async throws {
        let other = try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"]))
        defer { other.stop() }
        let sameOrigin = Locked<String>("")
        let origin = try redirecting { sameOrigin.withLock { $0 } }
        defer { origin.stop() }
        let credentials: HTTPHeaders = ["Authorization": "Bearer token-1", "Cookie": "session=abc"]
        let client = try lab.client(try lab.policy(), server: origin) {
            $0.resolve = [origin.resolveEntry(for: "api.example.com"), other.resolveEntry(for: "api.example.com")]
            $0.followRedirects = true
        }

        // The redirect path forwards credentials where they belong: the same origin gets them.
        sameOrigin.withLock { $0 = "https://api.example.com:\(origin.port)" }
        #expect(
            try await client.get(origin.url(host: "api.example.com", path: "/go"), headers: credentials).status == 200)
        let landed = try #require(origin.requests.last)
        #expect(landed.target == "/landed")
        #expect(landed.header("Authorization") == "Bearer token-1")
        #expect(landed.header("Cookie") == "session=abc")

        // Same host name, another port: a host-name comparison would forward them.
        sameOrigin.withLock { $0 = "https://api.example.com:\(other.port)" }
        let response = try await client.get(origin.url(host: "api.example.com", path: "/go"), headers: credentials)
        #expect(response.status == 200)
        #expect(response.url.port == Int(other.port))
        let elsewhere = try #require(other.requests.last)
        #expect(elsewhere.header("Authorization") == nil)
        #expect(elsewhere.header("Cookie") == nil)
    }
}
