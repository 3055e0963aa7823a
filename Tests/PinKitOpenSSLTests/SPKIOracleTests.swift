import Foundation
import PinKit
import PinKitOpenSSL
import PinKitTestSupport
import Testing

/// Our SPKI pins, names and dates against two independent implementations: the openssl CLI and
/// Python `cryptography`, on freshly generated keys of every supported type.
@Suite("SPKI pins against openssl and Python cryptography")
struct SPKIOracleTests {
    // (label, openssl genpkey arguments, expected keyType, expected curve or bits)
    static let keyTypes: [(String, String, String, String)] = [
        ("rsa2048", "-algorithm RSA -pkeyopt rsa_keygen_bits:2048", "RSA", "2048"),
        ("rsa3072", "-algorithm RSA -pkeyopt rsa_keygen_bits:3072", "RSA", "3072"),
        ("rsa4096", "-algorithm RSA -pkeyopt rsa_keygen_bits:4096", "RSA", "4096"),
        ("p256", "-algorithm EC -pkeyopt ec_paramgen_curve:P-256", "EC", "P-256"),
        ("p384", "-algorithm EC -pkeyopt ec_paramgen_curve:P-384", "EC", "P-384"),
        ("p521", "-algorithm EC -pkeyopt ec_paramgen_curve:P-521", "EC", "P-521"),
        // Labels ending in "c": the same keys re-encoded with compressed points.
        ("p256c", "-algorithm EC -pkeyopt ec_paramgen_curve:P-256", "EC", "P-256"),
        ("p384c", "-algorithm EC -pkeyopt ec_paramgen_curve:P-384", "EC", "P-384"),
        ("ed25519", "-algorithm ED25519", "Ed25519", "256"),
        ("ed448", "-algorithm ED448", "Ed448", "456"),
    ]

    @Test("pins, subjects, issuers and dates equal openssl's for every key type", arguments: keyTypes)
    func opensslOracle(_ type: (String, String, String, String)) throws {
        let (label, genpkey, keyType, detail) = type
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Shell.bash(
            """
            openssl genpkey \(genpkey) -out key.pem 2>/dev/null
            \(label.hasSuffix("c") ? "openssl ec -in key.pem -conv_form compressed -out key.pem 2>/dev/null" : "")
            openssl req -x509 -key key.pem -subj "/C=DE/O=Pin\\, Kit+OU=Lab/CN=\(label) test" -days 400 -out cert.pem 2>/dev/null
            openssl x509 -in cert.pem -outform der -out cert.der
            """,
            directory: directory.url
        )
        let pemPath = directory.file("cert.pem")
        let expectedPin = try CLIPKI.opensslPin(certificate: pemPath)
        let subject = try Shell.bash("openssl x509 -in '\(pemPath)' -noout -subject -nameopt RFC2253")
        let dates = try Shell.bash("openssl x509 -in '\(pemPath)' -noout -startdate -enddate")

        let certificate = try #require(try X509Certificate.load(contentsOf: pemPath).first)
        #expect(certificate.spkiSHA256.base64 == expectedPin)
        #expect("subject=" + certificate.subject + "\n" == subject)
        #expect(certificate.issuer == certificate.subject)
        #expect(certificate.keyType == keyType)
        #expect((certificate.curve ?? String(certificate.keyBits)) == detail)
        #expect(dates.contains("notBefore=" + Self.opensslDate(certificate.notBefore)))
        #expect(dates.contains("notAfter=" + Self.opensslDate(certificate.notAfter)))

        // DER input gives the same certificate.
        if label.hasSuffix("c") {
            // A compressed P-256/P-384 point is 33/49 bytes: check the key really is compressed.
            let spkiLength = try Shell.bash(
                "openssl x509 -in '\(pemPath)' -pubkey -noout | openssl pkey -pubin -outform der | wc -c"
            )
            #expect(["59\n", "72\n"].contains(spkiLength), "SPKI of \(spkiLength) bytes is not compressed")
        }
        let der = try #require(try X509Certificate.load(contentsOf: directory.file("cert.der")).first)
        #expect(der == certificate)
        #expect(der.spkiSHA256 == certificate.spkiSHA256)
    }

    @Test("pins equal Python cryptography's for uncompressed key encodings")
    func pythonOracle() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var script = ""
        for (label, genpkey, _, _) in Self.keyTypes where !label.hasSuffix("c") {
            script += """
                openssl genpkey \(genpkey) -out \(label).key 2>/dev/null
                openssl req -x509 -key \(label).key -subj "/CN=\(label)" -days 30 -out \(label).pem 2>/dev/null

                """
        }
        try Shell.bash(script, directory: directory.url)
        // Python re-encodes the key as SubjectPublicKeyInfo, an independent DER encoder.
        let python = """
            import base64, hashlib, sys
            from cryptography import x509
            from cryptography.hazmat.primitives import serialization
            for path in sys.argv[1:]:
                cert = x509.load_pem_x509_certificate(open(path, 'rb').read())
                spki = cert.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
                print(path, base64.b64encode(hashlib.sha256(spki).digest()).decode())
            """
        let paths = Self.keyTypes.map(\.0).filter { !$0.hasSuffix("c") }.map { directory.file("\($0).pem") }
        let result = try Shell.run(["python3", "-c", python] + paths)
        try #require(result.status == 0, "python3 cryptography failed: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == paths.count)
        for line in lines {
            let parts = line.split(separator: " ")
            let ours = try #require(try X509Certificate.load(contentsOf: String(parts[0])).first)
            #expect(ours.spkiSHA256.base64 == String(parts[1]), "\(parts[0])")
        }
    }

    @Test("Debian's GTS Root R4 pins to the published value")
    func gtsRootR4() throws {
        let path = "/usr/share/ca-certificates/mozilla/GTS_Root_R4.crt"
        try #require(FileManager.default.fileExists(atPath: path), "ca-certificates is not installed")
        let certificate = try #require(try X509Certificate.load(contentsOf: path).first)
        #expect(certificate.spkiSHA256.base64 == "mEflZT5enoR1FuXLgYYGqnVEoZvmf9c2bVBpiOjYQ0c=")
        #expect(certificate.subject == "CN=GTS Root R4,O=Google Trust Services LLC,C=US")
        #expect(certificate.keyType == "EC" && certificate.curve == "P-384")
    }

    @Test("every Mozilla root in the system store pins exactly as openssl does")
    func mozillaRoots() throws {
        let folder = "/usr/share/ca-certificates/mozilla"
        let files =
            (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter { $0.hasSuffix(".crt") } ?? []
        try #require(!files.isEmpty, "\(folder) is empty or missing: install ca-certificates")
        // One shell for all roots keeps this to about a second.
        let output = try Shell.bash(
            """
            cd '\(folder)'
            for f in *.crt; do
              printf '%s %s\\n' "$f" "$(openssl x509 -in "$f" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64)"
            done
            """
        )
        var checked = 0
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            let certificate = try #require(try X509Certificate.load(contentsOf: "\(folder)/\(parts[0])").first)
            #expect(certificate.spkiSHA256.base64 == String(parts[1]), "\(parts[0])")
            checked += 1
        }
        #expect(checked == files.count)
        #expect(checked > 100)
    }

    /// `openssl x509 -startdate` prints `Nov 29 22:05:01 2026 GMT`.
    static func opensslDate(_ date: Date) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let text = RFC3339.format(date)  // 2026-11-29T22:05:01Z
        let parts = text.split(whereSeparator: { "-T:Z".contains($0) }).map(String.init)
        let day = Int(parts[2])!
        let paddedDay = day < 10 ? " \(day)" : "\(day)"
        return "\(months[Int(parts[1])! - 1]) \(paddedDay) \(parts[3]):\(parts[4]):\(parts[5]) \(parts[0]) GMT"
    }
}
