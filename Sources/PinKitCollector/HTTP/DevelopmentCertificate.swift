public import Foundation
import PinKit
import PinKitOpenSSL

/// The certificate `serve` uses when given neither `--tls-cert` nor `--plain-http`: a
/// self-signed EC P-256 certificate for `localhost`, `127.0.0.1` and `::1`, made once and kept
/// under `DIR/tls/` (key 0600), so `pinkit-collector serve --data DIR` runs HTTPS with one
/// command. For trying the collector out; production gives its own certificate.
public enum DevelopmentCertificate {
    /// Loads or creates it. - Returns: the TLS material and the certificate's path and SPKI pin.
    /// - Throws: ``CollectorError/Code/configuration`` when it can be neither read nor made.
    public static func loadOrCreate(dataDirectory: String) throws(CollectorError)
        -> (tls: HTTPServer.TLS, certificatePath: String, pin: String)
    {
        let directory = (dataDirectory as NSString).appendingPathComponent("tls")
        let certificatePath = (directory as NSString).appendingPathComponent("collector.crt")
        let keyPath = (directory as NSString).appendingPathComponent("collector.key")
        if let certificate = try? String(contentsOfFile: certificatePath, encoding: .utf8),
            let key = try? String(contentsOfFile: keyPath, encoding: .utf8),
            let parsed = try? X509Certificate.load(pem: certificate).first
        {
            return (
                HTTPServer.TLS(certificateChainPEM: certificate, privateKeyPEM: key), certificatePath,
                parsed.spkiSHA256.base64
            )
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let key = try PrivateKey.generate(.ecP256)
            let now = Date()
            let certificate = try CertificateBuilder(
                commonName: "pinkit-collector (development)", notBefore: now.addingTimeInterval(-3_600),
                notAfter: now.addingTimeInterval(365 * 86_400), dnsNames: ["localhost"],
                ipAddresses: ["127.0.0.1", "::1"]
            ).issue(for: key)
            guard
                FileManager.default.createFile(
                    atPath: keyPath, contents: Data(key.privateKeyPEM.utf8), attributes: [.posixPermissions: 0o600]),
                FileManager.default.createFile(atPath: certificatePath, contents: Data(certificate.pem.utf8))
            else { throw CollectorError(.configuration, "cannot write \(directory)") }
            return (
                HTTPServer.TLS(certificateChainPEM: certificate.pem, privateKeyPEM: key.privateKeyPEM),
                certificatePath, certificate.spkiSHA256.base64
            )
        } catch let error as CollectorError {
            throw error
        } catch {
            throw CollectorError(.configuration, "cannot make a development certificate in \(directory): \(error)")
        }
    }
}
