import Foundation
import PinKit
import PinKitLab
import PinKitTransport
import Testing

/// libcurl refuses a header line over 100 KiB and a response head over 300 KiB; the error must
/// name that cause, not "Out of memory".
@Suite("Oversized response headers")
struct ResponseHeaderLimitTests {
    let lab = TransportLab.shared

    @Test(
        "a giant header line and a flood of header lines fail with response-header-too-large",
        arguments: [(1, 200_000), (4_000, 100)])
    func oversized(_ lines: Int, _ length: Int) async throws {
        let server = try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"])) { _ in
            LabResponse(headers: (0..<lines).map { ("X-Flood-\($0)", String(repeating: "a", count: length)) })
        }
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server)
        let error = await transportError { try await client.get(server.url(host: "api.example.com")) }
        #expect(error?.code == .responseHeaderTooLarge, "\(String(describing: error))")
        #expect(error?.reason.contains("header") == true)
        #expect(error?.reason.lowercased().contains("out of memory") == false, "\(String(describing: error))")
    }
}
