import Foundation
import PinKit
import PinKitCollector
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import Testing

@Suite("rotation-check --installed-base from the collector")
struct InstalledBaseRotationTests {
    @Test("measured shares annotate, but a live release with no measured share is still checked")
    func liveReleaseNeverDisappears() throws {
        let pki = CollectorFixtures.pki
        let rotated = try LabPKI(name: "New CA", referenceTime: CollectorFixtures.referenceTime)
        let directory = CollectorFixtures.temporaryDirectory()
        func configuration(_ pins: [String], name: String) throws -> String {
            let pinsJSON = pins.map { #"{"sha256": "\#($0)"}"# }.joined(separator: ", ")
            let path = directory + "/\(name).json"
            try #"{"pinSets": [{"name": "cloud", "hosts": ["api.example.com"], "pins": [\#(pinsJSON)]}]}"#
                .write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        // 4.0 pins only the old CA (dormant installs); 5.0 pins the new CA and a backup.
        let old = try configuration([pki.intermediate.pin.base64, pki.backupKey.spkiPin.base64], name: "old")
        let new = try configuration([rotated.intermediate.pin.base64, rotated.backupKey.spkiPin.base64], name: "new")
        let chain = directory + "/chain.pem"
        try (try rotated.leaf(["api.example.com"]).chain + [rotated.root.certificate]).map(\.pem).joined()
            .write(toFile: chain, atomically: true, encoding: .utf8)
        let releases = directory + "/releases.json"
        try
            #"{"releases": [{"version": "4.0", "configuration": "\#(old)", "installedShare": 0.0}, {"version": "5.0", "configuration": "\#(new)", "installedShare": 1.0}]}"#
            .write(toFile: releases, atomically: true, encoding: .utf8)

        // The collector counted only 5.0 (the 4.0 installs never checked in within the window).
        let harness = try CollectorHarness(now: { Date() })
        defer { harness.stop() }
        try harness.storage.checkIn(
            CheckIn(installationID: "install-5000", appVersion: "5.0", pinSetFingerprint: nil, pinSetExpiry: nil),
            now: Date())
        var configurationWithToken = CollectorAPI.Configuration()
        configurationWithToken.operatorTokens = try OperatorTokens(text: "ops:0123456789abcdef0123")
        let api = CollectorAPI(storage: harness.storage, configuration: configurationWithToken)
        let answer = api.handle(
            HTTPRequest(
                method: "GET", path: "/v1/installed-base", headers: ["authorization": "Bearer 0123456789abcdef0123"]))
        let saved = directory + "/installed-base.json"
        try Data(answer.body).write(to: URL(fileURLWithPath: saved))

        // Hand-typed shares with a share threshold: 4.0 disappears and the rotation looks safe.
        let naive = try PinctlBinary.run([
            "rotation-check", "--releases", releases, "--chain", chain, "--trust-store", chain, "--min-share", "0.01",
        ])
        #expect(naive.status == 0, "\(naive.stdout)")
        // Measured shares: 4.0's pin set is live, so it stays installed and is reported bricked.
        let measured = try PinctlBinary.run([
            "rotation-check", "--releases", releases, "--chain", chain, "--trust-store", chain, "--min-share", "0.01",
            "--installed-base", saved,
        ])
        #expect(measured.status == 1, "\(measured.stdout)")
        #expect(measured.stdout.contains("BRICKED"))
        #expect(measured.stderr.contains("window 30d"))

        // The same, straight from the collector over HTTPS with the operator token.
        let identity = try pki.leaf(["localhost"])
        var tokens = CollectorAPI.Configuration()
        tokens.operatorTokens = try OperatorTokens(text: "ops:0123456789abcdef0123")
        let live = try CollectorHarness(
            configuration: tokens,
            tls: HTTPServer.TLS(
                certificateChainPEM: identity.chain.map(\.pem).joined(), privateKeyPEM: identity.key.privateKeyPEM),
            now: { Date() })
        defer { live.stop() }
        try live.storage.checkIn(
            CheckIn(installationID: "install-5000", appVersion: "5.0", pinSetFingerprint: nil, pinSetExpiry: nil),
            now: Date())
        let ca = try LabPKI.writeCAFile([pki.root.certificate], to: directory + "/collector-ca.pem")
        try "0123456789abcdef0123\n".write(toFile: directory + "/token", atomically: true, encoding: .utf8)
        let fromURL = try PinctlBinary.run([
            "rotation-check", "--releases", releases, "--chain", chain, "--trust-store", chain, "--min-share", "0.01",
            "--installed-base", "https://localhost:\(live.port)/v1/installed-base", "--token-file",
            directory + "/token", "--ca-file", ca,
        ])
        #expect(fromURL.status == 1, "\(fromURL.stdout)\(fromURL.stderr)")
        #expect(fromURL.stderr.contains("installed shares from https://localhost:\(live.port)/v1/installed-base"))
    }
}
