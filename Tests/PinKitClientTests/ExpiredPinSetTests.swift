import Foundation
import PinKit
import PinKitClient
import PinKitLab
import PinKitTestSupport
import PinKitTransport
import Testing

/// Issue 12 §1: a pin set that expired before the app started must not stop the app. The
/// connection runs under system trust, the event is emitted and the audit entry recorded.
@Suite("An expired pin set at runtime")
struct ExpiredPinSetTests {
    static let yesterday = RFC3339.format(Date().addingTimeInterval(-86_400))

    /// The client suite's pin set, expired yesterday (real clock: the process starts after the date).
    static func expiredConfiguration() throws -> PinConfiguration {
        let pki = APIClientTests.pki
        let json =
            #"{"pinSets": [{"name": "managed-cloud", "hosts": ["api.example.com"], "expires": "\#(yesterday)", "pins": [{"sha256": "\#(pki.intermediate.pin.base64)"}, {"sha256": "\#(pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}"#
        return try PinConfiguration.parse(Data(json.utf8))
    }

    @Test("the API client builds, connects to a chain that does not match, emits the event and audits it")
    func apiClient() async throws {
        let configuration = try Self.expiredConfiguration()
        // The ship-time gate still refuses this set; that gate is not the runtime's.
        #expect(configuration.validate().contains { $0.code == .expiredPinSet && $0.severity == .error })
        let policy = try PinPolicy(configuration)
        // The rogue CA is trusted by the client's store: under system trust its chain is accepted,
        // under the (live) pin set it would not be.
        let h = try APIClientTests.harness(
            identity: try APIClientTests.rogue.leaf(["api.example.com"]),
            configure: {
                $0.policy = policy
                $0.auditUploadURL = nil  // keep the entries in the file, unacknowledged
            })
        defer {
            h.server.stop()
            h.state.remove()
        }
        try await h.client.login(username: "ada", password: AuthServer.password)
        #expect(try await h.client.get("/v1/profile", as: Profile.self).name == "Ada")
        let audit = try String(contentsOfFile: h.audit.path, encoding: .utf8)
        #expect(audit.contains("\"type\":\"pin-set-expired\""))
        #expect(audit.contains("\"pinSet\":\"managed-cloud\""))
        #expect(!audit.contains("\"type\":\"pin-failure\""))
    }

    @Test("the pinned HTTP client delivers pinSetExpired; a live set on the same chain refuses it")
    func transportEvent() async throws {
        let expired = try PinPolicy(Self.expiredConfiguration())
        let server = try LabTLSServer(identity: try APIClientTests.rogue.leaf(["api.example.com"]))
        defer { server.stop() }
        let events = Locked<[PinningEvent]>([])
        func client(_ policy: PinPolicy) throws -> PinnedHTTPClient {
            var settings = PinnedHTTPClient.Configuration.pinned(policy)
            settings.trustStore = .caFile(APIClientTests.caFile)
            settings.resolve = [server.resolveEntry(for: "api.example.com")]
            settings.observer = { event in events.withLock { $0.append(event) } }
            return try PinnedHTTPClient(settings)
        }
        let url = URL(string: server.url(host: "api.example.com", path: "/v1/status"))!
        // The same set, live (clock before its expiry): the chain is refused.
        var live = try client(expired)
        live = try {
            var settings = live.configuration
            settings.now = { Date().addingTimeInterval(-2 * 86_400) }
            return try PinnedHTTPClient(settings)
        }()
        do {
            _ = try await live.send(HTTPRequest(url: url))
            Issue.record("a live pin set must refuse the rogue chain")
        } catch {
            #expect(error.code == .pinMismatch)
        }
        events.withLock { $0.removeAll() }
        let response = try await client(expired).send(HTTPRequest(url: url))
        #expect(response.status == 200)
        let seen = events.withLock { $0 }
        #expect(seen.count == 1)
        guard case .pinSetExpired(let host, _, let setName, _, _)? = seen.first else {
            Issue.record("expected pinSetExpired, saw \(seen)")
            return
        }
        #expect(host == "api.example.com" && setName == "managed-cloud")
    }
}
