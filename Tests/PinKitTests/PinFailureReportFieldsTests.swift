import Foundation
import Testing

@testable import PinKit

/// The evaluation is the one decision: a mismatch carries everything the transport needs to
/// enforce or let it through and to build an RFC 7469 report, so no second policy lookup is
/// made in the TLS callback.
@Suite("Pin failure report fields")
struct PinFailureReportFieldsTests {
    @Test(
        "a mismatch names the pattern that selected the set, its flags and expiry, and whether it may pass",
        arguments: ["enforce", "report-only"])
    func fields(_ mode: String) throws {
        let set = Fixture.set(["mode": "\"\(mode)\"", "expires": "\"2031-01-01T00:00:00Z\""])
        let configuration = try Fixture.configuration("{\"pinSets\": [\(set)]}")
        let policy = try PinPolicy(configuration)
        let chain = [
            CertificateFacts(
                spki: try SPKIPin(parsing: Fixture.other), subject: "CN=Rogue", issuer: "CN=Rogue",
                notBefore: Fixture.now, notAfter: Fixture.now.addingTimeInterval(86_400))
        ]
        let result = policy.evaluate(host: "V2.API.example.com.", verifiedChain: chain, now: Fixture.now)
        guard case .mismatch(let failure) = result else {
            Issue.record("expected a mismatch, got \(result)")
            return
        }
        #expect(failure.notedHostname == "api.example.com")
        #expect(failure.includeSubdomains == (policy.match(for: "v2.api.example.com")?.set.includeSubdomains ?? false))
        #expect(failure.effectiveExpirationDate == RFC3339.parse("2031-01-01T00:00:00Z"))
        #expect(failure.allowsConnection == (mode == "report-only"))
        #expect(result.allowsConnection == failure.allowsConnection)
    }
}
