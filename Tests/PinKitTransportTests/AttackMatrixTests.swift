import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import PinKitTransport
import Testing

/// Every attack first shown to work without the protection, then to fail with it.
@Suite("Attack matrix")
struct AttackMatrixTests {
    let lab = TransportLab.shared

    @Test("a rogue CA that the trust store accepts: works unpinned, blocked pinned")
    func rogueCA() async throws {
        let server = try LabTLSServer(identity: try lab.rogue.leaf(["api.example.com"]))
        defer { server.stop() }
        let url = server.url(host: "api.example.com")
        let unpinned = try await lab.unpinnedClient(server: server).get(url)
        #expect(unpinned.status == 200, "the attack works without pinning")
        let error = await transportError { try await lab.client(try lab.policy(), server: server).get(url) }
        #expect(error?.code == .pinMismatch)
        let failure = try #require(error?.pinFailure)
        #expect(failure.host == "api.example.com")
        #expect(failure.verifiedChain.map(\.subject).contains("CN=Rogue Inspection CA Root,O=Rogue Inspection CA"))
        #expect(failure.expectedPins.contains(lab.pki.intermediate.pin))
        #expect(error?.reason.contains(lab.rogue.intermediate.pin.base64) == true)
    }

    @Test(
        "a rogue chain that appends the pinned intermediate: a served-chain check is fooled, the verified chain is not")
    func appendedPinnedIntermediate() async throws {
        let identity = try lab.rogue.leaf(["api.example.com"]).appending([lab.pki.intermediate.certificate])
        let server = try LabTLSServer(identity: identity)
        defer { server.stop() }
        let policy = try lab.policy()
        // Without the protection: pins checked on the list the server sent would match.
        let served = policy.evaluate(host: "api.example.com", verifiedChain: identity.chain.map(\.facts))
        guard case .matched = served else {
            Issue.record("the served chain should contain the pinned key: \(served)")
            return
        }
        let url = server.url(host: "api.example.com")
        #expect(try await lab.unpinnedClient(server: server).get(url).status == 200)
        let error = await transportError { try await lab.client(policy, server: server).get(url) }
        #expect(error?.code == .pinMismatch)
    }

    @Test("a self-signed certificate served with the pinned intermediate is untrusted")
    func selfSigned() async throws {
        let identity = try lab.pki.selfSignedLeaf(["api.example.com"]).appending([lab.pki.intermediate.certificate])
        let server = try LabTLSServer(identity: identity)
        defer { server.stop() }
        let policy = try lab.policy()
        guard case .matched = policy.evaluate(host: "api.example.com", verifiedChain: identity.chain.map(\.facts))
        else {
            Issue.record("a pin-only check of the served chain should accept it")
            return
        }
        let error = await transportError {
            try await lab.client(policy, server: server).get(server.url(host: "api.example.com"))
        }
        #expect(error?.code == .untrustedCertificate)
        #expect(error?.isChainInvalid == true)
    }

    @Test("an expired leaf under the pinned intermediate fails normal validation")
    func expired() async throws {
        let identity = try lab.pki.expiredLeaf(["api.example.com"])
        let server = try LabTLSServer(identity: identity)
        defer { server.stop() }
        let policy = try lab.policy()
        guard case .matched = policy.evaluate(host: "api.example.com", verifiedChain: identity.chain.map(\.facts))
        else {
            Issue.record("a pin-only check should accept the expired chain")
            return
        }
        let error = await transportError {
            try await lab.client(policy, server: server).get(server.url(host: "api.example.com"))
        }
        #expect(error?.code == .expiredCertificate)
    }

    @Test("a leaf for another host under the pinned intermediate fails the host-name check")
    func wrongHost() async throws {
        let identity = try lab.pki.leaf(["other.example.com"])
        let server = try LabTLSServer(identity: identity)
        defer { server.stop() }
        let policy = try lab.policy()
        guard case .matched = policy.evaluate(host: "api.example.com", verifiedChain: identity.chain.map(\.facts))
        else {
            Issue.record("a pin-only check should accept the wrong-host chain")
            return
        }
        let error = await transportError {
            try await lab.client(policy, server: server).get(server.url(host: "api.example.com"))
        }
        #expect(error?.code == .hostnameMismatch)
    }

    @Test(
        "subdomains, upper case and a trailing dot are pinned like the apex",
        arguments: ["v2.api.example.com", "API.EXAMPLE.COM", "Api.Example.Com."]
    )
    func hostForms(_ host: String) async throws {
        let name = HostName.normalize(host)
        let server = try LabTLSServer(identity: try lab.rogue.leaf([name]))
        defer { server.stop() }
        let url = server.url(host: host)
        let unpinned = try await lab.unpinnedClient(server: server, hosts: [name, host]).get(url)
        #expect(unpinned.status == 200)
        let error = await transportError {
            try await lab.client(try lab.policy(), server: server, hosts: [name, host]).get(url)
        }
        #expect(error?.code == .pinMismatch, "\(host)")
    }

    @Test(
        "look-alike hosts are not pinned: they get plain system trust",
        arguments: ["evilapi.example.com", "api.example.com.evil.net", "example.com"]
    )
    func lookAlikes(_ host: String) async throws {
        let server = try LabTLSServer(identity: try lab.rogue.leaf([host]))
        defer { server.stop() }
        let response = try await lab.client(try lab.policy(), server: server, hosts: [host]).get(server.url(host: host))
        #expect(response.status == 200)
        #expect(response.pinning == .unpinnedHost)
    }

    @Test("a redirect from the pinned host to a rogue server is checked under its own host's policy")
    func redirect() async throws {
        let rogue = try LabTLSServer(identity: try lab.rogue.leaf(["cdn.api.example.com"]))
        defer { rogue.stop() }
        let origin = try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"])) { _ in
            .redirect(to: rogue.url(host: "cdn.api.example.com", path: "/asset"))
        }
        defer { origin.stop() }
        let hosts = [origin.resolveEntry(for: "api.example.com"), rogue.resolveEntry(for: "cdn.api.example.com")]
        func client(_ policy: PinPolicy) throws -> PinnedHTTPClient {
            try lab.client(policy, server: origin) {
                $0.resolve = hosts
                $0.followRedirects = true
            }
        }
        let url = origin.url(host: "api.example.com")
        let unpinned = try await client(.systemTrustOnly).get(url, headers: ["Authorization": "Bearer secret"])
        #expect(unpinned.status == 200)
        #expect(unpinned.url.host == "cdn.api.example.com")
        #expect(
            rogue.requests.first?.header("Authorization") == nil,
            "credentials must not follow a redirect to another host")
        let error = await transportError { try await client(try lab.policy()).get(url) }
        #expect(error?.code == .pinMismatch)
        #expect(error?.host == "cdn.api.example.com")
    }

    @Test("a root pin with the intermediate in the CA file: partial chains would hide the root")
    func partialChain() async throws {
        let server = try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"]))
        defer { server.stop() }
        let caFile = try LabPKI.writeCAFile(
            [lab.pki.intermediate.certificate, lab.pki.root.certificate],
            to: lab.directory.file("partial-\(UUID().uuidString).pem")
        )
        let rootOnly = try lab.policy(pins: [lab.pki.root.pin, lab.pki.backupKey.spkiPin])
        let url = server.url(host: "api.example.com")
        // libcurl's default: the intermediate becomes an anchor, so the root never enters the chain.
        let partial = await transportError {
            try await lab.client(rootOnly, server: server) {
                $0.trustStore = .caFile(caFile)
                $0.allowPartialChain = true
            }.get(url)
        }
        #expect(partial?.code == .pinMismatch)
        let full = try await lab.client(rootOnly, server: server) { $0.trustStore = .caFile(caFile) }.get(url)
        guard case .matched(let match)? = full.pinning else {
            Issue.record("expected the root pin to match, got \(String(describing: full.pinning))")
            return
        }
        #expect(match.depth == 3)
    }

    @Test("with libcurl's peer verification switched off, the verify callback still fails closed")
    func verifyPeerOff() async throws {
        let server = try LabTLSServer(identity: try lab.rogue.selfSignedLeaf(["api.example.com"]))
        defer { server.stop() }
        // Without the protection: curl with verification off talks to anyone.
        let curl = try Shell.run([
            "curl", "-sS", "-k", "--resolve", server.resolveEntry(for: "api.example.com"),
            server.url(host: "api.example.com"),
        ])
        #expect(curl.status == 0 && curl.stdout == "ok", "curl -k should reach the rogue server: \(curl.stderr)")
        for policy in [try lab.policy(), PinPolicy.systemTrustOnly] {
            let error = await transportError {
                try await lab.client(policy, server: server) { $0.unsafeDisableCurlPeerVerificationForTesting = true }
                    .get(server.url(host: "api.example.com"))
            }
            #expect(error?.code == .untrustedCertificate)
        }
    }
}
