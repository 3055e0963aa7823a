import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTransport

extension LabStory {
    /// The kill-switch drill of docs/ROTATION.md, on loopback: a drill configuration pins only
    /// drill.example.com and trusts two kill-switch keys held apart; the *second* key signs an
    /// "off" for the drill host, the document is verified, the app takes it and audits it, and
    /// the off lapses at its expiry. Proves both keys work without touching a production host.
    func killSwitchDrill(caFile: String, pki: LabPKI) async throws -> Row {
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent("drill-" + name) }
        let first = try PrivateKey.generate(.ed25519)
        let second = try PrivateKey.generate(.ecP256)
        let ids = [first, second].map { VerifyingKey.keyID(spkiDER: $0.publicKeyDER) }
        let configurationText = """
            {"pinSets": [{"name": "drill", "hosts": ["drill.example.com"],
              "pins": [{"sha256": "\(pki.intermediate.pin.base64)"}, {"sha256": "\(pki.backupKey.spkiPin.base64)", "role": "backup"}]}],
             "killSwitch": {"url": "https://status.example.net/v1/drill.json", "publicKeys": [
               {"keyId": "\(ids[0])", "spki": "\(Base64.encode(first.publicKeyDER))"},
               {"keyId": "\(ids[1])", "spki": "\(Base64.encode(second.publicKeyDER))"}]}}
            """
        try configurationText.write(toFile: path("pinkit.json"), atomically: true, encoding: .utf8)
        let configuration = try PinConfiguration.parse(Data(configurationText.utf8))
        let policy = try PinPolicy(configuration)
        let clock = Clock()
        let issued = clock.now.addingTimeInterval(-60)
        let payload = KillSwitchDocument.Payload(
            serial: 1, issuedAt: issued, expiresAt: issued.addingTimeInterval(3600), pinning: .off,
            scope: .init(hosts: ["drill.example.com"]), reason: "DRILL")
        let document = try KillSwitchDocument.envelope(
            payload: payload, signatures: [(ids[1], "ES256", { try second.sign($0) })])
        try document.write(toFile: path("kill-switch.json"), atomically: true, encoding: .utf8)
        // Verify as an app with the drill configuration would, before publishing.
        var settings = KillSwitchStateMachine.Settings(
            publicKeys: Dictionary(uniqueKeysWithValues: zip(ids, [first, second].map(\.publicKeyDER))),
            verifier: OpenSSLSignatureVerifier())
        settings.minimumSerial = configuration.killSwitch?.minimumSerial ?? 0
        let verified =
            KillSwitchStateMachine().rejection(
                of: try KillSwitchDocument.parse(Array(document.utf8)), settings: settings, now: clock.now) == nil
        let status = try LabTLSServer(identity: try pki.leaf(["status.example.net"])) { _ in .json(document) }
        defer { status.stop() }
        var switchSettings = try KillSwitchController.Configuration(
            configuration.killSwitch, statePath: path("state.json"), appVersion: "1.0")
        switchSettings.url = URL(string: status.url(host: "status.example.net", path: "/v1/drill.json"))!
        switchSettings.trustStore = .caFile(caFile)
        switchSettings.resolve = [status.resolveEntry(for: "status.example.net")]
        switchSettings.now = { clock.now }
        let audit = try AuditLog(path: path("audit.jsonl"))
        let controller = KillSwitchController(configuration: switchSettings, basePolicy: policy, auditLog: audit) { _ in
        }
        await controller.refresh()
        let off = !controller.effectivePolicy.isPinnedHost("drill.example.com")
        let auditText = { (try? String(contentsOfFile: audit.path, encoding: .utf8)) ?? "" }
        let audited = auditText().contains("\"serial\":1") && auditText().contains("DRILL")
        clock.advance(2 * 3600)
        await controller.refresh()
        let lapsed = controller.effectivePolicy.isPinnedHost("drill.example.com") && auditText().contains("\"expired\"")
        return Row(
            scenario: "kill-switch drill (second key)",
            expected: "verified, drill host off, audited, lapses",
            happened: "verified: \(verified), off: \(off), audited: \(audited), lapsed: \(lapsed)",
            ok: verified && off && audited && lapsed)
    }
}
