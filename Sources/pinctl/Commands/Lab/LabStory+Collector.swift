import Foundation
import PinKit
import PinKitClient
import PinKitCollector
import PinKitLab
import PinKitOpenSSL
import PinKitTransport

/// The lab's server-half rows, run against the real collector: SQLite in the lab directory and
/// HTTPS with the lab PKI on a loopback port.
extension LabStory {
    struct CollectorContext {
        var pki: LabPKI
        var newCA: LabPKI
        var caFile: String
        var policy: PinPolicy
        var configuration: PinConfiguration
        var killSwitchKey: PrivateKey
        var directory: String
    }

    func collectorRows(_ context: CollectorContext) async throws -> [Row] {
        func path(_ name: String) -> String { (context.directory as NSString).appendingPathComponent(name) }
        let token = "lab-operator-token-0123456789"
        let keyID = VerifyingKey.keyID(spkiDER: context.killSwitchKey.publicKeyDER)
        let storage = try SQLCollectorStorage.open(dataDirectory: path("collector"), databaseURL: nil)
        try storage.migrate()
        defer { storage.close() }
        var settings = CollectorAPI.Configuration()
        settings.operatorTokens = try OperatorTokens(text: "lab:\(token)")
        settings.killSwitchPublicKeys = [keyID: context.killSwitchKey.publicKeyDER]
        let api = CollectorAPI(storage: storage, configuration: settings)
        let identity = try context.pki.leaf(["collector.example.net"])
        let server = try HTTPServer(
            address: "127.0.0.1", port: 0,
            tls: HTTPServer.TLS(
                certificateChainPEM: identity.chain.map(\.pem).joined(), privateKeyPEM: identity.key.privateKeyPEM)
        ) { api.handle($0) }
        defer { server.stop() }
        let base = "https://collector.example.net:\(server.port)"
        let resolveCollector = "collector.example.net:\(server.port):127.0.0.1"
        var unpinned = PinnedHTTPClient.Configuration.unpinned()
        unpinned.trustStore = .caFile(context.caFile)
        unpinned.resolve = [resolveCollector]
        let http = try PinnedHTTPClient(unpinned)
        defer { http.shutdown() }
        func post(_ path: String, _ body: [UInt8], headers: [(String, String)]) async throws
            -> PinKitTransport.HTTPResponse
        {
            try await http.send(
                PinKitTransport.HTTPRequest(
                    method: "POST", url: URL(string: base + path)!,
                    headers: HTTPHeaders([("Content-Type", "application/json")] + headers), body: body))
        }
        var rows: [Row] = []

        // 1. A bad rotation: the API host now serves a chain from another CA. Every pinned
        // connection fails, yet the report reaches the collector over the unpinned path.
        let reporter = PinFailureReporter(
            store: try PinFailureReportStore(directory: path("collector-device-reports")), appVersion: "1.0")
        let rotated = try context.newCA.leaf(["api.example.com"])
        let apiServer = try LabTLSServer(identity: rotated) { _ in .text("ok") }
        defer { apiServer.stop() }
        var pinned = PinnedHTTPClient.Configuration.pinned(context.policy)
        pinned.trustStore = .caFile(context.caFile)
        pinned.resolve = [apiServer.resolveEntry(for: "api.example.com")]
        pinned.reuseConnections = false
        pinned.observer = { event in if case .pinFailure(let failure) = event { reporter.record(failure) } }
        let device = try PinnedHTTPClient(pinned)
        defer { device.shutdown() }
        let failed =
            (try? await device.send(
                PinKitTransport.HTTPRequest(url: URL(string: apiServer.url(host: "api.example.com"))!))) == nil
        var uplinkSettings = CollectorUplink.Configuration(
            reportingURL: URL(string: base + "/v1/pin-failures")!,
            installationID: try InstallationID.loadOrCreate(path: path("installation-id")), appVersion: "1.0")
        uplinkSettings.transport = { transport in
            transport.trustStore = .caFile(context.caFile)
            transport.resolve = [resolveCollector]
        }
        let uplink = try CollectorUplink(uplinkSettings, reporter: reporter)
        _ = await uplink.pinFailureObserved()
        let groups = try storage.pinFailureSummary(since: .distantPast)
        let newKey = context.newCA.intermediate.pin.base64
        rows.append(
            Row(
                scenario: "a bad rotation is reported while pinning fails (unpinned report path)",
                expected: "pinned request refused; report stored by the collector",
                happened:
                    "refused: \(failed); collector holds \(groups.count) group(s), served keys include the new CA: \(groups.contains { $0.servedKeys.contains(newKey) })",
                ok: failed && groups.contains { $0.servedKeys.contains(newKey) }))

        // 2. The canary sees the same chain before any device does.
        var handshake = PinnedHTTPClient.Configuration.unpinned()
        handshake.trustStore = .caFile(context.caFile)
        handshake.resolve = [apiServer.resolveEntry(for: "api.example.com")]
        handshake.reuseConnections = false
        let probe = try PinnedHTTPClient(handshake)
        defer { probe.shutdown() }
        let live = try await probe.handshake(host: "api.example.com", port: Int(apiServer.port))
        let history = ReleaseHistory(releases: [
            ReleaseHistory.Release(version: "1.0", configuration: context.configuration, installedShare: 0)
        ])
        let canary = CanaryReport(
            history: history, chains: [("api.example.com", Int(apiServer.port), live.verifiedChain)], now: Date())
        rows.append(
            Row(
                scenario: "the canary flags the bad chain first", expected: "release 1.0 would be bricked (exit 1)",
                happened: "bricked releases: \(canary.hosts.first?.bricked.joined(separator: ", ") ?? "none")",
                ok: canary.bricksALiveRelease && canary.hosts.first?.bricked == ["1.0"]))

        // 3. A device-side rewrite of the audit log is seen by the server-side anchor.
        let headers = uplink.deviceHeaders
        let log = try AuditLog(path: path("collector-audit.jsonl"))
        for _ in 0..<3 { log.record(.tokenRotated) }
        let first = try await post("/v1/audit", log.uploadDocument().body, headers: headers)
        let forged = try AuditLog(path: path("collector-audit-forged.jsonl"))
        for _ in 0..<4 { forged.record(.syncToggled(enabled: false)) }
        _ = try await post("/v1/audit", forged.uploadDocument().body, headers: headers)
        let anomalies = try storage.auditAnomalies(since: .distantPast)
        rows.append(
            Row(
                scenario: "a rewritten audit log is flagged chain-broken",
                expected: "first upload anchored; the rewrite flagged with both hashes",
                happened:
                    "first: HTTP \(first.status); anomalies: \(Set(anomalies.map(\.kind.rawValue)).sorted().joined(separator: ", "))",
                ok: first.status == 200 && anomalies.contains { $0.kind == .chainBroken || $0.kind == .rewritten }))

        // 4. Check-ins feed the installed base, which feeds rotation-check.
        for (index, version) in ["1.0", "1.0", "0.9"].enumerated() {
            let body: JSONValue = ["appVersion": .string(version)]
            _ = try await post(
                "/v1/check-in", Array(body.serialized().utf8),
                headers: [("X-PinKit-Installation", "lab-install-\(index)000"), ("X-PinKit-App-Version", version)])
        }
        let answer = try await http.send(
            PinKitTransport.HTTPRequest(
                url: URL(string: base + "/v1/installed-base")!,
                headers: HTTPHeaders([("Authorization", "Bearer \(token)")])))
        let measured = try? InstalledBaseSource.parse(answer.body, source: base)
        let checked = measured.map {
            RotationCheck(
                history: $0.apply(to: history, now: Date()), chain: live.verifiedChain, host: "api.example.com")
        }
        let share = measured?.shares["1.0"] ?? 0
        let bricked = checked?.releases.filter { $0.bricked }.map { $0.version } ?? []
        rows.append(
            Row(
                scenario: "installed base feeds rotation-check",
                expected: "measured shares annotate; release 1.0 still checked",
                happened:
                    "window \(measured?.window ?? "?"), 1.0 at \(Int((share * 100).rounded()))%, bricked: \(bricked.joined(separator: ", "))",
                ok: share > 0.5 && share < 1 && bricked == ["1.0"]))

        // 5. The kill switch is published through the collector (which verifies it) and fetched.
        let issued = Date().addingTimeInterval(-60)
        let document = try KillSwitchDocument.envelope(
            payload: .init(
                serial: 7, issuedAt: issued, expiresAt: issued.addingTimeInterval(3_600), pinning: .off,
                scope: .init(hosts: ["api.example.com"]), reason: "LAB-2"),
            signatures: [(keyID, "Ed25519", { try context.killSwitchKey.sign($0) })])
        let published = try await post(
            "/v1/kill-switch", Array(document.utf8), headers: [("Authorization", "Bearer \(token)")])
        var switchSettings = KillSwitchController.Configuration(
            url: URL(string: base + "/v1/kill-switch")!,
            publicKeys: [keyID: context.killSwitchKey.publicKeyDER], statePath: path("collector-kill-switch.json"),
            appVersion: "1.0")
        switchSettings.trustStore = .caFile(context.caFile)
        switchSettings.resolve = [resolveCollector]
        let controller = KillSwitchController(configuration: switchSettings, basePolicy: context.policy) { _ in }
        await controller.refresh()
        let off = controller.state.activeOff?.serial == 7
        rows.append(
            Row(
                scenario: "kill switch published through the collector",
                expected: "verified, recorded, fetched by the device",
                happened:
                    "publish: HTTP \(published.status); device sees serial \(controller.state.activeOff.map { String($0.serial) } ?? "none")",
                ok: published.status == 200 && off))
        return rows
    }
}
