import Foundation
import PinKit
import PinKitCollector
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import Testing

@Suite("Collector HTTPS (libmicrohttpd TLS)")
struct ServerTLSTests {
    @Test("the collector answers over HTTPS with its certificate; a plain-HTTP request gets no answer")
    func https() throws {
        let identity = try CollectorFixtures.pki.leaf(["localhost", "127.0.0.1"])
        let tls = HTTPServer.TLS(
            certificateChainPEM: identity.chain.map(\.pem).joined(), privateKeyPEM: identity.key.privateKeyPEM)
        let harness = try CollectorHarness(tls: tls)
        defer { harness.stop() }
        let directory = CollectorFixtures.temporaryDirectory()
        let caFile = try LabPKI.writeCAFile([CollectorFixtures.pki.root.certificate], to: directory + "/ca.pem")
        let request = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        let result = try Shell.run(
            [
                "openssl", "s_client", "-connect", "127.0.0.1:\(harness.port)", "-servername", "localhost",
                "-CAfile", caFile, "-verify_return_error", "-verify_hostname", "localhost", "-quiet", "-ign_eof",
            ],
            input: Data(request.utf8))
        #expect(result.stdout.hasPrefix("HTTP/1.1 200"), "\(result.stderr)")
        #expect(result.stdout.contains("{\"status\":\"ok\"}"))
        // Plain HTTP to the TLS port is not served.
        let plain = try? LoopbackHTTP.exchange(port: harness.port, "GET", "/healthz")
        #expect(plain == nil || plain?.status != 200)
    }
}

@Suite("Collector development certificate")
struct DevelopmentCertificateTests {
    @Test("made once under DIR/tls with a private key file, then reused")
    func madeOnce() throws {
        let directory = CollectorFixtures.temporaryDirectory()
        let first = try DevelopmentCertificate.loadOrCreate(dataDirectory: directory)
        let second = try DevelopmentCertificate.loadOrCreate(dataDirectory: directory)
        #expect(first.pin == second.pin && first.certificatePath == second.certificatePath)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/tls/collector.key")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let harness = try CollectorHarness(tls: first.tls)
        defer { harness.stop() }
        let result = try Shell.run(
            [
                "openssl", "s_client", "-connect", "127.0.0.1:\(harness.port)", "-CAfile", first.certificatePath,
                "-verify_return_error", "-verify_hostname", "localhost", "-quiet", "-ign_eof",
            ],
            input: Data("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
        #expect(result.stdout.hasPrefix("HTTP/1.1 200"), "\(result.stderr)")
    }
}
