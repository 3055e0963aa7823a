import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import PinKitTransport
import Testing

@Suite("Policy-scoped sessions")
struct SessionTests {
    let lab = TransportLab.shared

    /// A policy that pins keys the lab server does not use.
    func foreignPolicy() throws -> PinPolicy {
        try lab.policy(pins: [lab.rogue.intermediate.pin, lab.rogue.backupKey.spkiPin])
    }

    @Test("keep-alive: a connection made under policy A must not carry a request under policy B")
    func keepAlive() async throws {
        let server = try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"]))
        defer { server.stop() }
        let url = server.url(host: "api.example.com")

        // Without the protection: swapping the policy but keeping the pool skips the pin check.
        let unsafe = try lab.client(try lab.policy(), server: server)
        #expect(try await unsafe.get(url).status == 200)
        unsafe.unsafeReplacePolicyKeepingConnectionsForTesting(try foreignPolicy())
        let reused = try await unsafe.get(url)
        #expect(reused.status == 200, "the kept-alive connection skipped the new policy's check")
        #expect(reused.pinning == nil, "no handshake ran for the second request")

        // With it: a new policy means a new session, and the check runs again.
        let client = try lab.client(try lab.policy(), server: server)
        #expect(try await client.get(url).status == 200)
        try client.replacePolicy(try foreignPolicy())
        let error = await transportError { try await client.get(url) }
        #expect(error?.code == .pinMismatch)
    }

    @Test("TLS resumption: a session ticket from policy A must not skip the check under policy B")
    func resumption() async throws {
        // Closing every connection forces a new one, which resumes the TLS session when it can.
        let server = try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"])) { _ in
            LabResponse(status: 200, headers: [("Connection", "close")], body: Array("ok".utf8))
        }
        defer { server.stop() }
        let url = server.url(host: "api.example.com")

        let unsafe = try lab.client(try lab.policy(), server: server)
        #expect(try await unsafe.get(url).status == 200)
        unsafe.unsafeReplacePolicyKeepingConnectionsForTesting(try foreignPolicy())
        let resumedBefore = server.statistics.resumedHandshakes
        #expect(try await unsafe.get(url).status == 200, "the resumed TLS session skipped the new policy's check")
        #expect(server.statistics.resumedHandshakes == resumedBefore + 1)

        let client = try lab.client(try lab.policy(), server: server)
        #expect(try await client.get(url).status == 200)
        try client.replacePolicy(try foreignPolicy())
        let error = await transportError { try await client.get(url) }
        #expect(error?.code == .pinMismatch)
    }

    @Test("within one session, connections are reused and the check is not repeated needlessly")
    func reuseWithinSession() async throws {
        let server = try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"]))
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server)
        for _ in 0..<5 { #expect(try await client.get(server.url(host: "api.example.com")).status == 200) }
        // One full handshake: later requests keep the connection, or resume the TLS session if
        // the server closed it in between (a slow, loaded machine).
        let statistics = server.statistics
        #expect(statistics.handshakes - statistics.resumedHandshakes == 1, "\(statistics)")
        #expect(statistics.requests == 5)
    }

    @Test("probe sessions: a self-hosted server gets system trust, the managed cloud stays pinned")
    func probe() async throws {
        // Both served by a CA the store trusts but the pins do not name (a self-hosted server's
        // own CA, or an inspection proxy in front of the managed cloud).
        let server = try LabTLSServer(
            identity: try lab.rogue.leaf(["health.self-hosted.example.net"]),
            sni: ["api.example.com": try lab.rogue.leaf(["api.example.com"])]
        )
        defer { server.stop() }
        let hosts = ["health.self-hosted.example.net", "api.example.com"]
        let probe = try lab.client(try lab.policy(), kind: .probe, server: server, hosts: hosts)
        let selfHosted = try await probe.get(server.url(host: "health.self-hosted.example.net"))
        #expect(selfHosted.status == 200)
        #expect(selfHosted.pinning == .unpinnedHost)
        let error = await transportError { try await probe.get(server.url(host: "api.example.com")) }
        #expect(error?.code == .pinMismatch)
    }

    @Test("the pinned and probe sessions share no TLS state")
    func noSharedState() async throws {
        let server = try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"]))
        defer { server.stop() }
        let url = server.url(host: "api.example.com")
        let pinned = try lab.client(try lab.policy(), server: server)
        let probe = try lab.client(try lab.policy(), kind: .probe, server: server)
        #expect(try await pinned.get(url).status == 200)
        let response = try await probe.get(url)
        #expect(response.pinning != nil, "the probe session ran its own handshake")
        #expect(server.statistics.handshakes == 2)
        #expect(server.statistics.resumedHandshakes == 0)
    }

    @Test("an unpinned session ignores the policy it is given")
    func unpinned() async throws {
        let server = try LabTLSServer(identity: try lab.rogue.leaf(["api.example.com"]))
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), kind: .unpinned, server: server)
        #expect(try await client.get(server.url(host: "api.example.com")).status == 200)
    }
}

@Suite("Pinning events")
struct PinningEventTests {
    let lab = TransportLab.shared

    @Test("a pin failure reaches the observer with both chains, the known pins and the set's flags")
    func failureEvent() async throws {
        let identity = try lab.rogue.leaf(["v2.api.example.com"]).appending([lab.pki.intermediate.certificate])
        let server = try LabTLSServer(identity: identity)
        defer { server.stop() }
        let recorder = EventRecorder()
        let policy = try lab.policy(expires: "2031-01-01T00:00:00Z")
        let client = try lab.client(policy, server: server, hosts: ["v2.api.example.com"]) {
            $0.observer = recorder.observer
        }
        _ = await transportError { try await client.get(server.url(host: "v2.api.example.com")) }
        guard case .pinFailure(let event)? = recorder.all.first else {
            Issue.record("no pin failure event: \(recorder.all)")
            return
        }
        #expect(event.hostname == "v2.api.example.com")
        #expect(event.port == Int(server.port))
        #expect(event.notedHostname == "api.example.com")
        #expect(event.includeSubdomains)
        #expect(event.effectiveExpirationDate == RFC3339.parse("2031-01-01T00:00:00Z"))
        #expect(event.mode == .enforce)
        #expect(event.servedCertificateChain.count == 3, "leaf, rogue intermediate, appended pinned intermediate")
        #expect(event.servedCertificateChain.last == lab.pki.intermediate.certificate.pem)
        #expect(event.validatedCertificateChain.count == 3)
        #expect(event.validatedCertificateChain.last == lab.rogue.root.certificate.pem)
        #expect(event.knownPins.first == "pin-sha256=\"\(lab.pki.intermediate.pin.base64)\"")
        #expect(event.validatedChainPins.count == 3)
    }

    @Test("report-only lets the connection through and still reports")
    func reportOnly() async throws {
        let server = try LabTLSServer(identity: try lab.rogue.leaf(["api.example.com"]))
        defer { server.stop() }
        let recorder = EventRecorder()
        let client = try lab.client(try lab.policy(mode: "report-only"), server: server) {
            $0.observer = recorder.observer
        }
        let response = try await client.get(server.url(host: "api.example.com"))
        #expect(response.status == 200)
        guard case .mismatch(let failure)? = response.pinning else {
            Issue.record("expected a reported mismatch, got \(String(describing: response.pinning))")
            return
        }
        #expect(failure.mode == .reportOnly)
        guard case .pinFailure(let event)? = recorder.all.first else {
            Issue.record("no event")
            return
        }
        #expect(event.mode == .reportOnly)
    }

    @Test("an expired pin set is not enforced, and the observer hears about it")
    func expiredSet() async throws {
        let server = try LabTLSServer(identity: try lab.rogue.leaf(["api.example.com"]))
        defer { server.stop() }
        let recorder = EventRecorder()
        let policy = try lab.policy(expires: "2030-01-01T00:00:00Z")
        let before = try lab.client(policy, server: server) { $0.now = { RFC3339.parse("2029-12-31T00:00:00Z")! } }
        #expect(
            await transportError { try await before.get(server.url(host: "api.example.com")) }?.code == .pinMismatch)
        let after = try lab.client(policy, server: server) {
            $0.now = { RFC3339.parse("2030-01-02T00:00:00Z")! }
            $0.observer = recorder.observer
        }
        #expect(try await after.get(server.url(host: "api.example.com")).status == 200)
        guard case .pinSetExpired(let host, _, let name, _, _)? = recorder.all.first else {
            Issue.record("no expiry event: \(recorder.all)")
            return
        }
        #expect(host == "api.example.com")
        #expect(name == "managed-cloud")
    }
}
