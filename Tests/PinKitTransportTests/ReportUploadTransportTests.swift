import Foundation
import PinKit
import PinKitLab
import PinKitTestSupport
import PinKitTransport
import Testing

@Suite("Reports over the transport")
struct ReportUploadTransportTests {
    let lab = TransportLab.shared

    @Test(
        "failures observed in the handshake are stored, then uploaded at the next good connection; only acknowledged ones leave"
    )
    func endToEnd() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try PinFailureReportStore(directory: directory.path)
        let reporter = PinFailureReporter(store: store, appVersion: "2.0.0")
        let observer: @Sendable (PinningEvent) -> Void = { event in
            if case .pinFailure(let failure) = event { reporter.record(failure) }
        }
        // Two rogue leaves (two verified chains with different keys): two reports.
        for _ in 0..<2 {
            let server = try LabTLSServer(identity: try lab.rogue.leaf(["api.example.com"]))
            let client = try lab.client(try lab.policy(), server: server) { $0.observer = observer }
            _ = await transportError { try await client.get(server.url(host: "api.example.com")) }
            server.stop()
        }
        #expect(store.entries.count == 2)
        let firstID = store.entries[0].id

        // The reporting server acknowledges only the first report it is sent.
        let server = try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"])) { request in
            guard request.method == "POST", request.target == "/v1/pin-failures",
                let body = try? JSONParser.parse(request.body), case .array(let reports)? = body["reports"],
                case .string(let id)? = reports.first?["id"]
            else { return .text("bad request", status: 400) }
            return .json(#"{"accepted": ["\#(id)"]}"#)
        }
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server)
        let reportingURL = URL(string: server.url(host: "api.example.com", path: "/v1/pin-failures"))!
        let outcome = await reporter.connectionSucceeded { body in
            let response = try await client.send(
                HTTPRequest(
                    method: "POST", url: reportingURL, headers: ["Content-Type": "application/json"], body: body)
            )
            guard (200..<300).contains(response.status) else {
                throw TransportError(.network, "status \(response.status)")
            }
            return response.body
        }
        #expect(outcome == .uploaded(accepted: 1, remaining: 1))
        let sent = try JSONParser.parse(server.requests[0].body)
        guard case .array(let reports)? = sent["reports"] else {
            Issue.record("no reports sent")
            return
        }
        #expect(reports.count == 2)
        #expect(reports[0]["hostname"] == "api.example.com")
        #expect(reports[0]["app-version"] == "2.0.0")
        let remaining = try PinFailureReportStore(directory: directory.path).entries
        #expect(remaining.count == 1)
        #expect(remaining[0].id != firstID)
    }
}
