import Foundation
import PinKit
import PinKitClient
import PinKitCollector
import PinKitLab
import PinKitOpenSSL
import PinKitTransport
import Testing

@Suite("Reports reach the collector while pinning fails")
struct UnpinnedReportPathTests {
    final class PolicyChanges: Sendable {
        let policies = Locked<[PinPolicy]>([])
    }

    @Test("a bad rotation: the report travels the unpinned path at once and the kill switch is refetched")
    func badRotation() async throws {
        let pki = CollectorFixtures.pki
        // The API host moved to a CA key the app does not pin: every pinned connection fails.
        let rotated = try LabPKI(name: "Rotated CA", referenceTime: Date())
        let api = try LabTLSServer(identity: try rotated.leaf(["api.example.com"])) { _ in .json(#"{"name":"x"}"#) }
        defer { api.stop() }
        let key = try PrivateKey.generate(.ed25519)
        let keyID = VerifyingKey.keyID(spkiDER: key.publicKeyDER)
        var collectorConfiguration = CollectorHarness.permissive()
        collectorConfiguration.operatorTokens = try OperatorTokens(text: "oncall:\(KillSwitchPublishTests.token)")
        collectorConfiguration.killSwitchPublicKeys = [keyID: key.publicKeyDER]
        let identity = try pki.leaf(["collector.example.com"])
        let collector = try CollectorHarness(
            configuration: collectorConfiguration,
            tls: HTTPServer.TLS(
                certificateChainPEM: identity.chain.map(\.pem).joined(), privateKeyPEM: identity.key.privateKeyPEM),
            now: { Date() })
        defer { collector.stop() }
        // The operator has already published "pinning off".
        let now = Date()
        let off = try KillSwitchDocument.envelope(
            payload: .init(
                serial: 1, issuedAt: now.addingTimeInterval(-60), expiresAt: now.addingTimeInterval(3_600),
                pinning: .off, reason: "bad rotation"),
            signatures: [(keyID, "Ed25519", { try key.sign($0) })])
        let published = collector.api.handle(
            PinKitCollector.HTTPRequest(
                method: "POST", path: "/v1/kill-switch",
                headers: ["authorization": "Bearer \(KillSwitchPublishTests.token)"], body: Array(off.utf8)))
        #expect(published.status == 200)

        let directory = CollectorFixtures.temporaryDirectory()
        let ca = try LabPKI.writeCAFile([pki.root.certificate, rotated.root.certificate], to: directory + "/ca.pem")
        let resolve = [
            api.resolveEntry(for: "api.example.com"), "collector.example.com:\(collector.port):127.0.0.1",
        ]
        let collectorURL = "https://collector.example.com:\(collector.port)"
        let policy = try PinPolicy(
            PinConfiguration.parse(
                Data(
                    #"{"pinSets": [{"name": "cloud", "hosts": ["api.example.com"], "pins": [{"sha256": "\#(pki.intermediate.pin.base64)"}, {"sha256": "\#(pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}"#
                        .utf8)))

        func client(uplink: Bool, state: String) throws -> (
            APIClient, PinFailureReporter, CollectorUplink?, PolicyChanges
        ) {
            let reporter = PinFailureReporter(
                store: try PinFailureReportStore(directory: state + "/reports"), appVersion: "4.2.0")
            var configuration = APIClient.Configuration(
                baseURL: URL(string: "https://api.example.com:\(api.port)")!, policy: policy,
                credentials: InMemoryCredentialStore())
            configuration.transport = { settings in
                settings.trustStore = .caFile(ca)
                settings.resolve = resolve
            }
            configuration.reporter = reporter
            configuration.reportingURL = URL(string: collectorURL + "/v1/pin-failures")
            let changes = PolicyChanges()
            var made: CollectorUplink?
            if uplink {
                var killSwitch = KillSwitchController.Configuration(
                    url: URL(string: collectorURL + "/v1/kill-switch")!, publicKeys: [keyID: key.publicKeyDER],
                    statePath: state + "/kill-switch.json", appVersion: "4.2.0")
                killSwitch.trustStore = .caFile(ca)
                killSwitch.resolve = resolve
                let controller = KillSwitchController(configuration: killSwitch, basePolicy: policy) { policy in
                    changes.policies.withLock { $0.append(policy) }
                }
                var settings = CollectorUplink.Configuration(
                    reportingURL: URL(string: collectorURL + "/v1/pin-failures")!,
                    installationID: try InstallationID.loadOrCreate(path: state + "/installation-id"),
                    appVersion: "4.2.0")
                settings.transport = { settings in
                    settings.trustStore = .caFile(ca)
                    settings.resolve = resolve
                }
                made = try CollectorUplink(settings, reporter: reporter, killSwitch: controller)
                configuration.uplink = made
            }
            return (try APIClient(configuration), reporter, made, changes)
        }

        // Without the unpinned path (today's behaviour): the report waits for a pinned success
        // that never comes, and nothing reaches the collector.
        let before = CollectorFixtures.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: before, withIntermediateDirectories: true)
        let (oldClient, oldReporter, _, _) = try client(uplink: false, state: before)
        do {
            try await oldClient.login(username: "ada", password: "pw")
            Issue.record("the pinned request succeeded")
        } catch {
            #expect("\(error)".contains("pin"), "\(error)")
        }
        #expect(oldReporter.store.entries.count == 1)
        #expect(try collector.storage.reportIDs().isEmpty)

        // With it: the report arrives right after the failure, and the kill switch is refetched.
        let after = CollectorFixtures.temporaryDirectory()
        let (newClient, reporter, uplink, changes) = try client(uplink: true, state: after)
        await #expect(throws: (any Error).self) { try await newClient.login(username: "ada", password: "pw") }
        await uplink?.settle()
        let stored = try collector.storage.reportIDs()
        #expect(stored.count == 1 && reporter.store.entries.isEmpty)
        let groups = try collector.storage.pinFailureSummary(since: .distantPast)
        #expect(groups.first?.servedKeys.contains(rotated.intermediate.pin.base64) == true)
        #expect(changes.policies.withLock { $0.count } == 1)
        // A second failure within the intervals: neither another upload nor another fetch.
        let again = await uplink?.pinFailureObserved()
        #expect(again == CollectorUplink.FailureActions(report: nil, killSwitchRefreshed: false))
    }
}

@Suite("Daily check-in from the device")
struct CheckInUplinkTests {
    @Test("the check-in is sent once per interval and counts the installation with its pin-set fingerprint")
    func checkIn() async throws {
        let identity = try CollectorFixtures.pki.leaf(["collector.example.com"])
        let collector = try CollectorHarness(
            tls: HTTPServer.TLS(
                certificateChainPEM: identity.chain.map(\.pem).joined(), privateKeyPEM: identity.key.privateKeyPEM),
            now: { Date() })
        defer { collector.stop() }
        let state = CollectorFixtures.temporaryDirectory()
        let ca = try LabPKI.writeCAFile([CollectorFixtures.pki.root.certificate], to: state + "/ca.pem")
        let base = "https://collector.example.com:\(collector.port)"
        let id = try InstallationID.loadOrCreate(path: state + "/installation-id")
        #expect(try InstallationID.loadOrCreate(path: state + "/installation-id") == id && InstallationID.isValid(id))
        var settings = CollectorUplink.Configuration(
            reportingURL: URL(string: base + "/v1/pin-failures")!, installationID: id, appVersion: "4.2.0")
        settings.checkInURL = URL(string: base + "/v1/check-in")
        settings.pinSetFingerprint = PinSetFingerprint.of(pins: [CollectorFixtures.pki.intermediate.pin.base64])
        settings.transport = { transport in
            transport.trustStore = .caFile(ca)
            transport.resolve = ["collector.example.com:\(collector.port):127.0.0.1"]
        }
        let reporter = PinFailureReporter(
            store: try PinFailureReportStore(directory: state + "/reports"), appVersion: "4.2.0")
        let uplink = try CollectorUplink(settings, reporter: reporter)
        #expect(await uplink.checkInIfDue())
        #expect(await uplink.checkInIfDue() == false)
        let base30 = try collector.storage.installedBase(window: 30 * 86_400, now: Date())
        #expect(base30.map(\.installations) == [1])
        #expect(base30.first?.pinSetFingerprints == [settings.pinSetFingerprint ?? ""])
    }
}

@Suite("The unpinned report path honours the collector's rate limit")
struct UnpinnedReportThrottleTests {
    @Test("a 429 with Retry-After from the collector is a throttled failure and the next upload waits that long")
    func retryAfter() async throws {
        let identity = try CollectorFixtures.pki.leaf(["collector.example.com"])
        let collector = try LabTLSServer(identity: identity) { _ in
            LabResponse(status: 429, headers: [("Retry-After", "3600")], body: [])
        }
        defer { collector.stop() }
        let state = CollectorFixtures.temporaryDirectory()
        let ca = try LabPKI.writeCAFile([CollectorFixtures.pki.root.certificate], to: state + "/ca.pem")
        var settings = CollectorUplink.Configuration(
            reportingURL: URL(string: collector.url(host: "collector.example.com", path: "/v1/pin-failures"))!,
            installationID: try InstallationID.loadOrCreate(path: state + "/installation-id"), appVersion: "4.2.0")
        settings.transport = { transport in
            transport.trustStore = .caFile(ca)
            transport.resolve = [collector.resolveEntry(for: "collector.example.com")]
        }
        let reporter = PinFailureReporter(
            store: try PinFailureReportStore(directory: state + "/reports"), appVersion: "4.2.0")
        reporter.record(CollectorFixtures.event())
        let uplink = try CollectorUplink(settings, reporter: reporter)
        let before = Date()
        let actions = await uplink.pinFailureObserved()
        // Before the shared answer mapping this path called every non-2xx "send-failed" and
        // backed off by its own jittered seconds, ignoring the collector's hour.
        guard case .failed(let failure)? = actions.report else {
            Issue.record("expected a failed upload, got \(String(describing: actions.report))")
            return
        }
        #expect(failure.code == .throttled, "\(failure)")
        let notBefore = try #require(reporter.scheduleState.notBefore)
        #expect(notBefore.timeIntervalSince(before) >= 3_600, "waits as long as the collector asked")
        #expect(reporter.store.entries.count == 1, "nothing removed")
    }
}
