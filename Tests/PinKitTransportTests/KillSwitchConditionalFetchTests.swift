import Foundation
import PinKit
import PinKitLab
import PinKitTestSupport
import PinKitTransport
import Testing

/// A kill-switch host that honours If-None-Match, and counts what it sent.
final class ConditionalKillSwitchServer: Sendable {
    let server: LabTLSServer
    let bodiesSent = Locked(0)
    let conditionalRequests = Locked<[String]>([])

    init(lab: TransportLab, document: String, etag: String) throws {
        let bodies = bodiesSent
        let conditional = conditionalRequests
        server = try LabTLSServer(identity: try lab.pki.leaf(["status.example.net"])) { request in
            let cache = [(name: "ETag", value: etag), (name: "Cache-Control", value: "public, max-age=3600")]
            if let match = request.header("If-None-Match") {
                conditional.withLock { $0.append(match) }
                if match == etag { return LabResponse(status: 304, headers: cache) }
            }
            bodies.withLock { $0 += 1 }
            return LabResponse(
                status: 200, headers: cache + [(name: "Content-Type", value: "application/json")],
                body: Array(document.utf8))
        }
    }
}

@Suite("Kill-switch conditional fetch")
struct KillSwitchConditionalFetchTests {
    let lab = TransportLab.shared

    func controller(_ server: ConditionalKillSwitchServer, statePath: String) throws -> KillSwitchController {
        let helper = KillSwitchTests()
        var configuration = KillSwitchController.Configuration(
            url: URL(string: server.server.url(host: "status.example.net", path: "/v1/kill-switch"))!,
            publicKeys: [KillSwitchTests.keyID: KillSwitchTests.signingKey.publicKeyDER],
            statePath: statePath, appVersion: "1.3.0")
        configuration.trustStore = .caFile(lab.caFile)
        configuration.resolve = [server.server.resolveEntry(for: "status.example.net")]
        configuration.timeout = .seconds(2)
        configuration.generator = SplitMix64(seed: 1)
        return KillSwitchController(configuration: configuration, basePolicy: try helper.basePolicy()) { _ in }
    }

    @Test("the second fetch is a 304 that changes nothing; the validator survives a restart; a lost state drops it")
    func conditional() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let helper = KillSwitchTests()
        let server = try ConditionalKillSwitchServer(
            lab: lab, document: try helper.signed(helper.payload()), etag: "\"serial-10\"")
        defer { server.server.stop() }
        let statePath = directory.file("kill-switch.json")
        let first = try controller(server, statePath: statePath)
        let applied = await first.refresh()
        #expect(applied.contains(.policyChanged))
        #expect(first.fetchSchedule.etag == "\"serial-10\"")
        #expect(first.fetchSchedule.lifetime == 3600)
        let again = await first.refresh()
        #expect(!again.contains(.policyChanged) && !again.contains(.persist), "\(again)")
        #expect(server.bodiesSent.withLock { $0 } == 1, "the 304 carried no document")
        #expect(!first.effectivePolicy.isPinnedHost("api.example.com"), "the off stays in force after a 304")

        let restarted = try controller(server, statePath: statePath)
        #expect(restarted.fetchSchedule.etag == "\"serial-10\"")
        _ = await restarted.refresh()
        #expect(server.bodiesSent.withLock { $0 } == 1)

        try FileManager.default.removeItem(atPath: statePath)
        let lost = try controller(server, statePath: statePath)
        #expect(lost.fetchSchedule.etag == nil, "without its state the validator would hide the document")
        _ = await lost.refresh()
        #expect(server.bodiesSent.withLock { $0 } == 2)
        #expect(server.conditionalRequests.withLock { $0 } == ["\"serial-10\"", "\"serial-10\""])
    }

    @Test("a rejected document's ETag is not kept, so the next fetch is unconditional")
    func rejectedNotValidated() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ConditionalKillSwitchServer(lab: lab, document: #"{"not":"a kill switch"}"#, etag: "\"junk\"")
        defer { server.server.stop() }
        let controller = try controller(server, statePath: directory.file("kill-switch.json"))
        _ = await controller.refresh()
        #expect(controller.fetchSchedule.etag == nil)
        _ = await controller.refresh()
        #expect(server.conditionalRequests.withLock { $0 }.isEmpty)
        #expect(server.bodiesSent.withLock { $0 } == 2)
    }
}
