import Foundation
import PinKit
import PinKitLab
import PinKitTestSupport
import PinKitTransport
import Testing

/// The system trust store is read from the CA bundle file alone, so that libcurl keeps the store
/// it built for the session instead of parsing the whole bundle for every new connection; a new
/// session (a policy change) reads the bundle again.
@Suite("System trust store: built once per session, read again by a new session")
struct SystemTrustStoreTests {
    let lab = TransportLab.shared

    @Test("fresh connections of one session reuse its store; a new session drops a withdrawn root")
    func storePerSession() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try LabPKI.writeCAFile([lab.pki.root.certificate], to: directory.file("system.pem"))
        let server = try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"]))
        let client = try lab.client(.systemTrustOnly, kind: .unpinned, server: server) {
            $0.trustStore = .system
            $0.systemTrustBundleOverrideForTesting = bundle
            $0.reuseConnections = false
        }
        defer { client.shutdown() }
        let url = server.url(host: "api.example.com")
        #expect(try await client.get(url).status == 200, "the bundle's root is trusted")

        // An update withdraws the lab root from the bundle.
        _ = try LabPKI.writeCAFile([lab.rogue.root.certificate], to: bundle)
        // A new connection of the same session builds no new store: reading the bundle per
        // connection (libcurl's behaviour with its CA directory set) would refuse here.
        #expect(try await client.get(url).status == 200, "the session's store was reused")
        #expect(client.tlsConnectionsOpened == 2, "two full handshakes, no connection reuse")

        // A new session reads the bundle again: the withdrawn root is trusted no more.
        try client.replacePolicy(.systemTrustOnly)
        let error = await transportError { try await client.get(url) }
        #expect(error?.code == .untrustedCertificate, "\(String(describing: error))")
    }

    @Test("the system bundle is the only source: a root outside it is refused")
    func onlyTheBundle() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try LabPKI.writeCAFile([lab.rogue.root.certificate], to: directory.file("system.pem"))
        let server = try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"]))
        let client = try lab.client(.systemTrustOnly, kind: .unpinned, server: server) {
            $0.trustStore = .system
            $0.systemTrustBundleOverrideForTesting = bundle
        }
        defer { client.shutdown() }
        let error = await transportError { try await client.get(server.url(host: "api.example.com")) }
        #expect(error?.code == .untrustedCertificate, "\(String(describing: error))")
    }
}
