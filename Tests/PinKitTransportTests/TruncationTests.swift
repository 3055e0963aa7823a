import Foundation
import PinKit
import PinKitLab
import PinKitTestSupport
import PinKitTransport
import Testing

/// A response without Content-Length or chunking ends when the connection closes. Over TLS the
/// end is authentic only with a close_notify alert; a bare TCP FIN is something any on-path
/// attacker can send, without a key, to shorten a pinned response.
@Suite("Truncated responses")
struct TruncationTests {
    let lab = TransportLab.shared
    static let body = String(repeating: "0123456789", count: 1_000)

    func server(_ version: LabTLSVersion) throws -> LabTLSServer {
        try LabTLSServer(
            identity: try lab.pki.leaf(["api.example.com"]),
            behaviour: LabTLSServer.Behaviour(maximumVersion: version)
        ) { request in
            let body = Array(Self.body.utf8)
            switch request.target {
            case "/close-delimited/cut":
                // The head and the first 3000 bytes of the body, then a FIN.
                let head = LabHTTPHead.size(of: LabResponse(body: body, framing: .closeDelimited))
                return LabResponse(
                    body: body, framing: .closeDelimited, truncateAfter: head + 3_000, closeNotify: false)
            case "/close-delimited/whole":
                return LabResponse(body: body, framing: .closeDelimited)
            case "/chunked/cut":
                let head = LabHTTPHead.size(of: LabResponse(body: body, framing: .chunked))
                return LabResponse(body: body, framing: .chunked, truncateAfter: head + 3_000, closeNotify: false)
            default:
                return LabResponse(body: body)
            }
        }
    }

    @Test(
        "a close-delimited body cut by a FIN without close_notify is refused as truncated-response",
        arguments: [LabTLSVersion.tls12, .tls13])
    func closeDelimited(_ version: LabTLSVersion) async throws {
        let server = try server(version)
        defer { server.stop() }
        let url = server.url(host: "api.example.com", path: "/close-delimited/cut")
        // Without the protection: libcurl's default (here the curl tool) takes the cut body as whole.
        let curl = try Shell.run([
            "curl", "-sS", "--http1.1", "--cacert", lab.caFile, "--resolve",
            server.resolveEntry(for: "api.example.com"),
            url,
        ])
        #expect(curl.status == 0, "the attack works against libcurl's default: \(curl.stderr)")
        #expect(curl.stdout.count == 3_000)

        let client = try lab.client(try lab.policy(), server: server)
        let error = await transportError { try await client.get(url) }
        #expect(error?.code == .truncatedResponse, "\(String(describing: error))")
        #expect(error?.wasSent == true)
        // A close-delimited body that does end with close_notify is whole, and accepted.
        let whole = try await client.get(server.url(host: "api.example.com", path: "/close-delimited/whole"))
        #expect(whole.bodyText == Self.body)
    }

    @Test("a chunked body cut short is still refused", arguments: [LabTLSVersion.tls12, .tls13])
    func chunked(_ version: LabTLSVersion) async throws {
        let server = try server(version)
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server)
        let error = await transportError {
            try await client.get(server.url(host: "api.example.com", path: "/chunked/cut"))
        }
        #expect(error?.code == .truncatedResponse, "\(String(describing: error))")
        #expect(error?.wasSent == true)
    }
}
