import Foundation
import PinKit
import PinKitLab
import PinKitTransport
import Testing

/// A kill-switch fetch that reached the server and got a status other than 200 is not a
/// "network" failure: the operator reading the log must see the redirect or the 304.
@Suite("Kill-switch fetch errors")
struct KillSwitchFetchErrorTests {
    @Test(
        "302, 304 and 500 each have their own code, and change nothing",
        arguments: [(302, "unexpected-redirect"), (304, "not-modified"), (500, "unexpected-status")])
    func statuses(_ status: Int, _ code: String) async throws {
        let suite = KillSwitchTests()
        let h = try suite.harness()
        defer { h.close() }
        h.server.serve(try suite.signed(suite.payload(serial: 10)))
        await h.controller.refresh()
        let good = h.controller.state
        var response = status == 302 ? LabResponse.redirect(to: "/elsewhere") : LabResponse(status: status)
        if status == 304 { response.body = [] }
        h.server.serve(response)
        let actions = await h.controller.refresh()
        let reasons = actions.compactMap { if case .ignored(let text) = $0 { text } else { nil } }
        #expect(reasons == ["fetch-failed: \(code)"], "\(reasons)")
        #expect(h.controller.state == good)
    }
}
