import Foundation
import PinKit
import PinKitLab
import PinKitTransport

extension LabStory {
    /// An install that missed every update: its pin set expired yesterday, before the app
    /// started. It must still load its policy and reach the server (system trust plus an
    /// event), even through a chain its pins would refuse, so it can be told to update.
    func expiredPinSetRow(caFile: String, pki: LabPKI, rogue: LabPKI) async throws -> Row {
        let yesterday = RFC3339.format(Date().addingTimeInterval(-86_400))
        let text = """
            {"pinSets": [{"name": "managed-cloud", "hosts": ["api.example.com"], "expires": "\(yesterday)",
              "pins": [{"sha256": "\(pki.intermediate.pin.base64)"},
                       {"sha256": "\(pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}
            """
        let configuration = try PinConfiguration.parse(Data(text.utf8))
        let shipGate = configuration.validate().contains { $0.code == .expiredPinSet }
        let row = { (happened: String, ok: Bool) in
            Row(
                scenario: "pin set expired before launch",
                expected: "ship gate refuses; app loads, connects unpinned, event", happened: happened, ok: ok)
        }
        let policy: PinPolicy
        do {
            policy = try PinPolicy(configuration)
        } catch {
            return row("no client: \(error.code)", false)
        }
        let server = try LabTLSServer(identity: try rogue.leaf(["api.example.com"])) { _ in .text("ok") }
        defer { server.stop() }
        let events = Locked<[PinningEvent]>([])
        var settings = PinnedHTTPClient.Configuration.pinned(policy)
        settings.trustStore = .caFile(caFile)
        settings.resolve = [server.resolveEntry(for: "api.example.com")]
        settings.reuseConnections = false
        settings.observer = { event in events.withLock { $0.append(event) } }
        let client = try PinnedHTTPClient(settings)
        defer { client.shutdown() }
        let connected: Bool
        do {
            connected =
                try await client.send(HTTPRequest(url: URL(string: server.url(host: "api.example.com"))!))
                .status == 200
        } catch {
            return row("ship gate refuses: \(shipGate); refused: \(error.code)", false)
        }
        let expiredEvents = events.withLock { $0 }.filter {
            if case .pinSetExpired = $0 { return true }
            return false
        }
        return row(
            "ship gate refuses: \(shipGate); connected under system trust; \(expiredEvents.count) pinSetExpired event",
            shipGate && connected && expiredEvents.count == 1)
    }
}
