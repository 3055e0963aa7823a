import Foundation
import PinKit
import PinKitCollector
import PinKitLab
import PinKitTestSupport
import Testing

@Suite("pinkit-collector canary")
struct CanaryTests {
    @Test("the canary passes the current chain and flags a rotated chain that would brick a live release")
    func canary() throws {
        let pki = CollectorFixtures.pki
        let rotated = try LabPKI(name: "Rotated CA", referenceTime: Date())
        let good = try LabTLSServer(identity: try pki.leaf(["api.example.com"]))
        defer { good.stop() }
        let bad = try LabTLSServer(identity: try rotated.leaf(["api.example.com"]))
        defer { bad.stop() }
        let directory = CollectorFixtures.temporaryDirectory()
        let ca = try LabPKI.writeCAFile([pki.root.certificate, rotated.root.certificate], to: directory + "/ca.pem")
        let configuration = directory + "/shipped.json"
        try
            #"{"pinSets": [{"name": "cloud", "hosts": ["api.example.com"], "pins": [{"sha256": "\#(pki.intermediate.pin.base64)"}, {"sha256": "\#(pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}"#
            .write(toFile: configuration, atomically: true, encoding: .utf8)
        let releases = directory + "/releases.json"
        // 4.1's measured share is zero: the canary checks it anyway (dormant installs).
        try #"{"releases": [{"version": "4.1", "configuration": "\#(configuration)", "installedShare": 0.0}]}"#
            .write(toFile: releases, atomically: true, encoding: .utf8)
        func canary(_ server: LabTLSServer, extra: [String] = []) throws -> Shell.Result {
            try Shell.run(
                [
                    CollectorProcess.binary, "canary", "--releases", releases, "--host",
                    "api.example.com:\(server.port)",
                    "--resolve", server.resolveEntry(for: "api.example.com"), "--ca-file", ca, "--json",
                ] + extra)
        }
        let fine = try canary(good)
        #expect(fine.status == 0, "\(fine.stdout)\(fine.stderr)")
        #expect(try JSONParser.parse(fine.stdout)["bricksALiveRelease"] == false)
        let broken = try canary(bad, extra: ["--data", directory + "/collector"])
        #expect(broken.status == 1, "\(broken.stdout)\(broken.stderr)")
        let report = try JSONParser.parse(broken.stdout)
        #expect(report["bricksALiveRelease"] == true)
        guard case .array(let hosts)? = report["hosts"] else {
            Issue.record("no hosts")
            return
        }
        #expect(hosts.first?["brickedReleases"] == ["4.1"])
        // Recorded for operators: GET /v1/canary.
        let storage = try SQLCollectorStorage.open(dataDirectory: directory + "/collector", databaseURL: nil)
        defer { storage.close() }
        var settings = CollectorAPI.Configuration()
        settings.operatorTokens = try OperatorTokens(text: "ops:0123456789abcdef0123")
        let api = CollectorAPI(storage: storage, configuration: settings)
        let answer = api.handle(
            HTTPRequest(method: "GET", path: "/v1/canary", headers: ["authorization": "Bearer 0123456789abcdef0123"]))
        let document = try JSONParser.parse(answer.body)
        #expect(document["bricksALiveRelease"] == true)
        guard case .array(let recorded)? = document["hosts"] else {
            Issue.record("no recorded hosts")
            return
        }
        #expect(recorded.first?["brickedReleases"] == ["4.1"] && recorded.first?["host"] == "api.example.com")
    }
}
