import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTransport

/// `pinctl lab`: the life of a pinned app, on loopback, with a table of what happened.
struct LabCommand: Command {
    static let name = "lab"
    static let abstract = "Run the pinned-app story on loopback lab servers and print what happened."
    static let help = """
        USAGE: pinctl lab [--json] [--keep DIR] [--report FILE.html] [--serve]

        Builds a PKI (a root, an issuing CA, a backup key) and a rogue CA that the trust store
        also accepts, starts TLS servers on 127.0.0.1, and drives the real client through:
        a normal connection; a leaf renewed with a fresh key; rotation to the backup key; a CA
        change without a backup (rotation-check catches it, then it bricks); a rogue CA; a
        rogue chain appending the pinned intermediate; a self-hosted server (system trust); a
        signed kill-switch "off" and its expiry; a pin failure queued and uploaded at the next
        connection; the lab chain's deadlines; tokens kept in a private gnome-keyring across a
        restart and found in no file (with pinkit-keyring-demo, dbus and gnome-keyring; the row is
        "unavailable" without them). No network beyond loopback.

        OPTIONS:
          --json           print {"rows":[{"scenario","expected","happened","ok","outcome"}],"passed",
                           "unavailable","seconds"}; outcome is as-expected, failed or unavailable
          --keep DIR       keep everything needed to reproduce each row by hand in DIR (must not
                           exist): chains, keys, the configuration, releases file, trust store,
                           kill-switch document and public key, and DIR/README with the commands
          --report FILE    write a self-contained HTML report (each scenario, the served and
                           verified chains with pins marked, the outcome, the real error message)
          --serve          afterwards, leave one loopback server per served chain running and
                           print the pinctl check command for each; Ctrl-C stops them

        EXIT CODES: 0 every row as expected (or unavailable here); 1 a row was not; 2 usage error.
        """

    var json: Bool
    var keep: String?
    var report: String?
    var serve: Bool

    init(parsing arguments: inout Arguments) throws(UsageError) {
        json = try arguments.flag("--json")
        keep = try arguments.value("--keep")
        report = try arguments.value("--report")
        serve = try arguments.flag("--serve")
        if let extra = try arguments.positionals().first { throw UsageError("unexpected argument \(extra)") }
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        if let keep, FileManager.default.fileExists(atPath: keep) {
            throw CommandFailure(.usage, "\(keep) exists; give a new directory")
        }
        let directory = keep ?? NSTemporaryDirectory() + "pinkit-lab-\(UUID().uuidString)"
        let started = ContinuousClock.now
        let rows = runBlocking { () -> Result<[LabStory.Row], LabError> in
            do {
                return .success(try await LabStory(directory: directory).run())
            } catch let error as LabError {
                return .failure(error)
            } catch {
                return .failure(LabError("\(error)"))
            }
        }
        defer { if keep == nil { try? FileManager.default.removeItem(atPath: directory) } }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if case .success(let rows) = rows {
            try keepAndReport(rows, directory: directory, seconds: seconds, console)
        }
        switch rows {
        case .failure(let error):
            throw CommandFailure(.checkFailed, "the lab could not run: \(error)")
        case .success(let rows):
            let passed = rows.allSatisfy { $0.ok || $0.unavailable }
            let unavailable = rows.filter(\.unavailable).count
            if json {
                let document: JSONValue = [
                    "schemaVersion": .int(1),
                    "rows": .array(
                        rows.map {
                            [
                                "scenario": .string($0.scenario), "expected": .string($0.expected),
                                "happened": .string($0.happened), "ok": .bool($0.ok),
                                "outcome": .string($0.unavailable ? "unavailable" : $0.ok ? "as-expected" : "failed"),
                            ]
                        }
                    ),
                    "passed": .bool(passed), "unavailable": .int(unavailable),
                    "seconds": .number(String(format: "%.2f", seconds)),
                ]
                console.out(document.serialized(pretty: true))
            } else {
                let table =
                    [["", "scenario", "expected", "happened"]]
                    + rows.map { [$0.ok ? "✔" : $0.unavailable ? "–" : "✘", $0.scenario, $0.expected, $0.happened] }
                let widths = (0..<3).map { column in table.map { $0[column].count }.max() ?? 0 }
                for row in table {
                    console.out(
                        (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(
                            separator: "  ") + "  " + row[3])
                }
                console.out(
                    String(
                        format: "\n%@: %d of %d scenarios as expected%@, in %.1f s", passed ? "PASSED" : "FAILED",
                        rows.filter(\.ok).count, rows.count, unavailable > 0 ? ", \(unavailable) unavailable here" : "",
                        seconds))
            }
            if serve {
                do {
                    try LabServe.run(rows: rows, directory: keep ?? directory, console: console)
                } catch {
                    throw CommandFailure(.network, "the lab servers could not start: \(error)")
                }
            }
            return passed ? .success : .checkFailed
        }
    }

    private func keepAndReport(
        _ rows: [LabStory.Row], directory: String, seconds: Double, _ console: Console
    ) throws(CommandFailure) {
        if keep != nil || serve {
            do {
                let readme = try LabKeep.write(rows: rows, to: directory)
                try readme.write(
                    toFile: (directory as NSString).appendingPathComponent("README"), atomically: true, encoding: .utf8)
            } catch {
                throw CommandFailure(.usage, "cannot write the lab files in \(directory): \(error)")
            }
        }
        if let report {
            // The pins the lab app shipped, to mark them in every chain of the report.
            let shipped = try? PinConfiguration.load(
                contentsOf: (directory as NSString).appendingPathComponent("pinkit.json"))
            var pins: [SPKIPin: String] = [:]
            for pin in shipped?.pinSets.flatMap(\.pins) ?? [] {
                if let parsed = try? SPKIPin(parsing: pin.sha256) { pins[parsed] = pin.label ?? pin.role.rawValue }
            }
            let page = LabReport.html(rows: rows, pins: pins, seconds: seconds)
            guard FileManager.default.createFile(atPath: report, contents: Data(page.utf8)) else {
                throw CommandFailure(.usage, "cannot write \(report)")
            }
        }
    }
}

/// The story itself: each step returns a row.
struct LabStory {
    struct Row: Sendable {
        var scenario: String
        var expected: String
        var happened: String
        var ok: Bool
        /// The row could not run on this machine (a tool is missing); `happened` says what to
        /// install. Shown apart; it does not fail the lab, while anything going wrong does.
        var unavailable = false
        /// What the row's servers served and what the client saw, for --keep, --serve and --report.
        var evidence: [LabEvidence] = []
    }

    let directory: String

    final class Clock: Sendable {
        private let offset = Locked<TimeInterval>(0)
        var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
        func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    }

    func run() async throws -> [Row] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        let pki = try LabPKI(name: "PinKit Lab")
        let rogue = try LabPKI(name: "Rogue Inspection CA")
        let newCA = try LabPKI(name: "Other Public CA")
        // The device trusts all three roots, as a phone with an inspection proxy's root would.
        let caFile = try LabPKI.writeCAFile(
            [pki.root.certificate, rogue.root.certificate, newCA.root.certificate], to: path("trust-store.pem"))
        let killSwitchKey = try PrivateKey.generate(.ed25519)
        let keyID = VerifyingKey.keyID(spkiDER: killSwitchKey.publicKeyDER)
        let configurationText = """
            {"pinSets": [{"name": "managed-cloud", "hosts": ["api.example.com"],
              "pins": [{"sha256": "\(pki.intermediate.pin.base64)", "label": "Lab Issuing CA"},
                       {"sha256": "\(pki.root.pin.base64)", "label": "Lab Root"},
                       {"sha256": "\(pki.backupKey.spkiPin.base64)", "label": "backup key", "role": "backup"}]}],
             "killSwitch": {"url": "https://status.example.net/v1/kill-switch.json",
                            "publicKeys": [{"keyId": "\(keyID)", "spki": "\(Base64.encode(killSwitchKey.publicKeyDER))"}]},
             "reporting": {"url": "https://api.example.com/v1/pin-failures"}}
            """
        try configurationText.write(toFile: path("pinkit.json"), atomically: true, encoding: .utf8)
        try #"{"releases": [{"version": "1.0", "configuration": "pinkit.json", "installedShare": 1}]}"#.write(
            toFile: path("releases.json"), atomically: true, encoding: .utf8)
        let configuration = try PinConfiguration.parse(Data(configurationText.utf8))
        let policy = try PinPolicy(configuration)
        let history = ReleaseHistory(releases: [
            ReleaseHistory.Release(version: "1.0", configuration: configuration, installedShare: 1)
        ])
        let reporter = PinFailureReporter(
            store: try PinFailureReportStore(directory: path("reports")), appVersion: "1.0")
        let audit = try AuditLog(path: path("audit.jsonl"))
        let observer: @Sendable (PinningEvent) -> Void = { event in
            if case .pinFailure(let failure) = event {
                reporter.record(failure)
                audit.record(
                    .pinFailure(
                        host: failure.hostname, port: failure.port, setName: failure.setName,
                        mode: failure.mode.rawValue))
            }
        }
        var rows: [Row] = []
        var pending: [LabEvidence] = []
        /// Appends a row with the evidence gathered since the previous one.
        func append(_ row: Row) {
            var row = row
            row.evidence = pending
            pending = []
            rows.append(row)
        }
        let trustStore = CertificatePathBuilder(
            trustStore: [pki.root.certificate, rogue.root.certificate, newCA.root.certificate])

        /// Serves `identity` for api.example.com and returns how a pinned client under `policy` fares.
        func connect(
            _ identity: LabIdentity, policy: PinPolicy, host: String = "api.example.com",
            unpinnedBecause: String = "not a pinned host", configurationFile: String? = "pinkit.json"
        ) async throws -> (Bool, String) {
            let server = try LabTLSServer(identity: identity) { _ in .text("ok") }
            defer { server.stop() }
            var settings = PinnedHTTPClient.Configuration.pinned(policy)
            settings.trustStore = .caFile(caFile)
            settings.resolve = [server.resolveEntry(for: host)]
            settings.observer = observer
            settings.reuseConnections = false
            let client = try PinnedHTTPClient(settings)
            defer { client.shutdown() }
            var evidence = LabEvidence(
                identity: identity, host: host, configurationFile: configurationFile, verifiedChain: [], message: nil)
            defer { pending.append(evidence) }
            do {
                let response = try await client.send(HTTPRequest(url: URL(string: server.url(host: host))!))
                evidence.verifiedChain =
                    (try? await client.handshake(host: host, port: Int(server.port)))?.verifiedChain ?? []
                switch response.pinning {
                case .matched(let match)?:
                    return (true, "connected; pin \"\(match.label ?? "?")\" matched at depth \(match.depth - 1)")
                case .unpinnedHost?: return (true, "connected under system trust (\(unpinnedBecause))")
                default: return (true, "connected")
                }
            } catch {
                evidence.verifiedChain = error.pinFailure?.verifiedChain ?? []
                evidence.message = error.pinFailure.map { "\($0)" } ?? error.reason
                return (false, "refused: \(error.code)")
            }
        }
        /// rotation-check as devices would run it: every path to a root of the lab's store.
        func check(_ chain: [X509Certificate]) -> RotationCheck {
            pending.append(LabEvidence(rotationChain: chain))
            return RotationCheck(
                history: history, paths: trustStore.paths(for: chain).paths.map(\.facts), host: "api.example.com")
        }

        // 1. Normal connection.
        let normal = try pki.leaf(["api.example.com"])
        var (connected, detail) = try await connect(normal, policy: policy)
        append(
            Row(
                scenario: "normal connection", expected: "connects, issuing CA pin matches", happened: detail,
                ok: connected && detail.contains("Lab Issuing CA")))

        // 2. Leaf renewed with a fresh key: no release needed.
        let renewed = try pki.leaf(["api.example.com"])
        let renewalCheck = check(renewed.chain)
        (connected, detail) = try await connect(renewed, policy: policy)
        append(
            Row(
                scenario: "leaf renewed (fresh key)", expected: "rotation-check safe, connects",
                happened: "rotation-check \(renewalCheck.isSafe ? "safe" : "UNSAFE"); \(detail)",
                ok: renewalCheck.isSafe && connected))

        // 3. Rotation to the backup key.
        let backupCA = try pki.intermediate(for: pki.backupKey, commonName: "PinKit Lab Issuing CA 2")
        let rotated = try pki.leaf(["api.example.com"], issuer: backupCA)
        let rotationCheck = check(rotated.chain)
        (connected, detail) = try await connect(rotated, policy: policy)
        append(
            Row(
                scenario: "rotation to the backup key", expected: "rotation-check safe, connects via backup",
                happened: "rotation-check \(rotationCheck.isSafe ? "safe" : "UNSAFE"); \(detail)",
                ok: rotationCheck.isSafe && connected && detail.contains("backup")))

        // 4. A CA change with no backup: caught beforehand, bricking if shipped.
        let moved = try newCA.leaf(["api.example.com"])
        let movedCheck = check(moved.chain)
        (connected, detail) = try await connect(moved, policy: policy)
        append(
            Row(
                scenario: "CA change without a backup", expected: "rotation-check unsafe; installs bricked",
                happened:
                    "rotation-check \(movedCheck.isSafe ? "safe" : "UNSAFE (\(movedCheck.releases.filter(\.bricked).count) release bricked)"); \(detail)",
                ok: !movedCheck.isSafe && !connected && detail.contains("pin-mismatch")))

        // 5. A rogue CA the store trusts.
        (connected, detail) = try await connect(try rogue.leaf(["api.example.com"]), policy: policy)
        append(
            Row(
                scenario: "rogue CA trusted by the store", expected: "blocked (pin mismatch)", happened: detail,
                ok: !connected && detail.contains("pin-mismatch")))

        // 6. A rogue chain that appends the pinned intermediate.
        (connected, detail) = try await connect(
            try rogue.leaf(["api.example.com"]).appending([pki.intermediate.certificate]), policy: policy)
        append(
            Row(
                scenario: "rogue chain + pinned intermediate", expected: "blocked (verified chain checked)",
                happened: detail, ok: !connected && detail.contains("pin-mismatch")))

        // 7. A self-hosted server: not pinned, system trust.
        (connected, detail) = try await connect(
            try rogue.leaf(["health.self-hosted.example.net"]), policy: policy, host: "health.self-hosted.example.net")
        append(
            Row(
                scenario: "self-hosted server", expected: "connects under system trust", happened: detail,
                ok: connected && detail.contains("system trust")))

        // 8. A signed kill-switch "off", then its expiry.
        let clock = Clock()
        let documentBox = Locked(LabResponse.text("none", status: 404))
        let status = try LabTLSServer(identity: try pki.leaf(["status.example.net"])) { _ in documentBox.withLock { $0 }
        }
        defer { status.stop() }
        var switchSettings = try KillSwitchController.Configuration(
            configuration.killSwitch, statePath: path("kill-switch.json"), appVersion: "1.0")
        // The lab serves the document on a loopback port; nothing is ever looked up in DNS.
        switchSettings.url = URL(string: status.url(host: "status.example.net", path: "/v1/kill-switch.json"))!
        switchSettings.trustStore = .caFile(caFile)
        switchSettings.resolve = [status.resolveEntry(for: "status.example.net")]
        switchSettings.now = { clock.now }
        let effective = Locked(policy)
        let controller = KillSwitchController(configuration: switchSettings, basePolicy: policy, auditLog: audit) {
            newPolicy in
            effective.withLock { $0 = newPolicy }
        }
        let issued = clock.now.addingTimeInterval(-60)
        let document = try KillSwitchDocument.envelope(
            payload: .init(
                serial: 1, issuedAt: issued, expiresAt: issued.addingTimeInterval(3600), pinning: .off,
                scope: .init(hosts: ["api.example.com"]), reason: "LAB-1"),
            signatures: [(keyID, "Ed25519", { try killSwitchKey.sign($0) })]
        )
        documentBox.withLock { $0 = .json(document) }
        try document.write(toFile: path("kill-switch-document.json"), atomically: true, encoding: .utf8)
        try killSwitchKey.publicKeyPEM.write(toFile: path("kill-switch.pub"), atomically: true, encoding: .utf8)
        await controller.refresh()
        pending.append(LabEvidence(killSwitchDocument: "kill-switch-document.json", publicKey: "kill-switch.pub"))
        (connected, detail) = try await connect(
            try rogue.leaf(["api.example.com"]), policy: effective.withLock { $0 },
            unpinnedBecause: "pinning off by kill switch", configurationFile: nil)
        let audited =
            (try? String(contentsOfFile: audit.path, encoding: .utf8))?.contains("\"type\":\"kill-switch-changed\"")
            ?? false
        append(
            Row(
                scenario: "signed kill-switch \"off\"", expected: "pinning off for its scope, audited",
                happened: "\(detail); audited: \(audited)", ok: connected && audited))
        clock.advance(2 * 3600)
        await controller.refresh()
        (connected, detail) = try await connect(try rogue.leaf(["api.example.com"]), policy: effective.withLock { $0 })
        append(
            Row(
                scenario: "kill-switch \"off\" expires", expected: "pinning back on", happened: detail,
                ok: !connected && detail.contains("pin-mismatch")))

        // 9. The queued pin failures go out at the next good connection.
        let queued = reporter.store.entries.count
        let received = Locked(0)
        let reporting = try LabTLSServer(identity: try pki.leaf(["api.example.com"])) { request in
            guard request.target == "/v1/pin-failures", let body = try? JSONParser.parse(request.body),
                case .array(let reports)? = body["reports"]
            else { return .text("ok") }
            received.withLock { $0 += reports.count }
            return .json(JSONValue.object([("accepted", .array(reports.compactMap { $0["id"] }))]).serialized())
        }
        defer { reporting.stop() }
        var settings = PinnedHTTPClient.Configuration.pinned(policy)
        settings.trustStore = .caFile(caFile)
        settings.resolve = [reporting.resolveEntry(for: "api.example.com")]
        let client = try PinnedHTTPClient(settings)
        defer { client.shutdown() }
        let reportURL = URL(string: reporting.url(host: "api.example.com", path: "/v1/pin-failures"))!
        _ = try await client.send(HTTPRequest(url: URL(string: reporting.url(host: "api.example.com"))!))
        await reporter.connectionSucceeded { body in
            try await client.send(
                HTTPRequest(method: "POST", url: reportURL, headers: ["Content-Type": "application/json"], body: body)
            ).body
        }
        let sent = received.withLock { $0 }
        append(
            Row(
                scenario: "pin failures uploaded at next connect", expected: "queued reports sent, store emptied",
                happened: "\(queued) queued, \(sent) uploaded, \(reporter.store.entries.count) left",
                ok: queued > 0 && sent == queued && reporter.store.entries.isEmpty))

        // 10. Deadlines for the lab chain.
        let deadlines = KeyDeadlines(
            configuration: configuration, certificates: (normal.chain + [pki.root.certificate]).map(\.facts))
        let summary = deadlines.keys.map { key in
            "\(key.label ?? "?") \(key.deadline.map { String(RFC3339.format($0).prefix(10)) } ?? "none yet")"
        }
        let sensible =
            deadlines.keys.filter { $0.role == .active }.allSatisfy { ($0.deadline ?? .distantPast) > Date() }
            && deadlines.keys.first { $0.role == .backup }?.deadline == nil
        append(
            Row(
                scenario: "deadlines for the lab chain", expected: "per-key deadlines, backup not yet issued",
                happened: summary.joined(separator: ", "), ok: sensible))
        rows.append(try await expiredPinSetRow(caFile: caFile, pki: pki, rogue: rogue))
        rows.append(try await killSwitchDrill(caFile: caFile, pki: pki))
        rows += try await collectorRows(
            CollectorContext(
                pki: pki, newCA: newCA, caFile: caFile, policy: policy, configuration: configuration,
                killSwitchKey: killSwitchKey, directory: directory))
        rows.append(try keyringRow(caFile: caFile, pki: pki))
        return rows
    }
}
