import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import Testing

@Suite("Rotation that cannot brick")
struct RotationTests {
    let pki: LabPKI
    let directory: TemporaryDirectory

    init() throws {
        pki = try LabPKI(name: "Rotation Lab")
        directory = try TemporaryDirectory()
    }

    func write(_ name: String, _ text: String) throws -> String { try directory.write(name, text) }

    func chainFile(_ name: String, _ certificates: [X509Certificate]) throws -> String {
        try LabPKI.writeCAFile(certificates, to: directory.file(name))
    }

    func config(_ name: String, pins: [(SPKIPin, String, String)]) throws -> String {
        let entries = pins.map { #"{"sha256": "\#($0.0.base64)", "label": "\#($0.1)", "role": "\#($0.2)"}"# }
        return try write(
            name,
            #"{"pinSets": [{"name": "cloud", "hosts": ["api.example.com"], "pins": [\#(entries.joined(separator: ", "))]}]}"#
        )
    }

    /// Releases 1.0 and 1.1 pin the intermediate and the backup key.
    func history() throws -> String {
        let shipped = try config(
            "release.json",
            pins: [(pki.intermediate.pin, "issuing CA", "active"), (pki.backupKey.spkiPin, "backup 2027", "backup")])
        return try write(
            "releases.json",
            #"{"releases": [{"version": "1.0", "configuration": "\#(shipped)", "installedShare": 0.3}, {"version": "1.1", "configuration": "\#(shipped)", "installedShare": 0.7}, {"version": "0.9", "configuration": {"pinSets": []}, "installedShare": 0.0}]}"#
        )
    }

    /// The devices' store: the lab root, and the roots a test adds.
    func rotationCheck(_ chain: [X509Certificate], next: String? = nil, roots: [X509Certificate] = []) throws
        -> Shell.Result
    {
        let path = try chainFile("chain-\(UUID().uuidString).pem", chain)
        let store = try chainFile("store-\(UUID().uuidString).pem", [pki.root.certificate] + roots)
        var arguments = ["rotation-check", "--releases", try history(), "--chain", path, "--trust-store", store]
        if let next { arguments += ["--next", next] }
        return try PinctlBinary.run(arguments)
    }

    @Test("renewal with a fresh leaf key needs no release")
    func renewal() throws {
        let renewed = try pki.leaf(["api.example.com"])
        let result = try rotationCheck(renewed.chain + [pki.root.certificate])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("SAFE"))
        #expect(result.stdout.contains("issuing CA"))
    }

    @Test("rotation to the backup key every installed release pins is safe")
    func rotateToBackup() throws {
        let backupCA = try pki.intermediate(for: pki.backupKey)
        let leaf = try pki.leaf(["api.example.com"], issuer: backupCA)
        let result = try rotationCheck(leaf.chain + [pki.root.certificate])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("backup 2027"))
    }

    @Test("a CA change without a backup is caught beforehand as bricking")
    func caChange() throws {
        let newCA = try LabPKI(name: "Another CA")
        let result = try rotationCheck(
            try newCA.leaf(["api.example.com"]).chain + [newCA.root.certificate], roots: [newCA.root.certificate])
        #expect(result.status == 1)
        #expect(result.stdout.contains("BRICKED"))
        #expect(
            result.stdout.contains("release 1.0 would be bricked")
                && result.stdout.contains("release 1.1 would be bricked"))
        #expect(!result.stdout.contains("release 0.9"), "0% share is not installed")
        // The library API says the same.
        let check = RotationCheck(
            history: try ReleaseHistory.load(contentsOf: try history()),
            chain: (try newCA.leaf(["api.example.com"]).chain + [newCA.root.certificate]).map(\.facts)
        )
        #expect(!check.isSafe)
        #expect(check.releases.filter(\.bricked).map(\.version) == ["1.0", "1.1"])
    }

    @Test("a next release that drops a pin installed releases rely on, or ships without a backup, is unsafe")
    func nextRelease() throws {
        let chain = try pki.leaf(["api.example.com"]).chain + [pki.root.certificate]
        let newBackup = try PrivateKey.generate(.ecP256)
        let drops = try config(
            "next-drops.json",
            pins: [(pki.backupKey.spkiPin, "backup 2027", "active"), (newBackup.spkiPin, "backup 2028", "backup")])
        let dropped = try rotationCheck(chain, next: drops)
        #expect(dropped.status == 1)
        #expect(dropped.stdout.contains("drops \(pki.intermediate.pin.base64)"))
        #expect(dropped.stdout.contains("1.0, 1.1"))
        let noBackup = try config(
            "next-nobackup.json",
            pins: [(pki.intermediate.pin, "issuing CA", "active"), (pki.root.pin, "root", "active")])
        let withoutBackup = try rotationCheck(chain, next: noBackup)
        #expect(withoutBackup.status == 1)
        #expect(withoutBackup.stdout.contains("without a backup"))
        let good = try config(
            "next-good.json",
            pins: [
                (pki.intermediate.pin, "issuing CA", "active"), (pki.backupKey.spkiPin, "backup 2027", "backup"),
                (newBackup.spkiPin, "backup 2028", "backup"),
            ])
        let safe = try rotationCheck(chain, next: good)
        #expect(safe.status == 0, "\(safe.stdout)")
        let json = try JSONParser.parse(
            try PinctlBinary.run([
                "rotation-check", "--json", "--releases", try history(), "--chain", try chainFile("c.pem", chain),
                "--next", drops, "--trust-store", try chainFile("s.pem", [pki.root.certificate]),
            ]).stdout)
        #expect(json["safe"] == false)
    }

    @Test("deadlines are per key: a cross-signed certificate expiring early is not the key's deadline")
    func crossSignedDeadline() throws {
        // The GTS Root R4 shape: the root key is served cross-signed by an older root that expires
        // first, while the self-signed certificate with the same key lives on in the trust store.
        let oldRoot = try LabPKI(name: "Old Root CA")
        let crossExpiry = RFC3339.parse("2028-01-28T00:00:00Z")!
        let crossSigned = try LabPKI.crossSign(pki.root, by: oldRoot.root, notAfter: crossExpiry)
        #expect(crossSigned.spkiSHA256 == pki.root.pin)
        let chain = try chainFile("served.pem", try pki.leaf(["api.example.com"]).chain + [crossSigned])
        let store = try chainFile("store.pem", [pki.root.certificate, oldRoot.root.certificate])
        let configuration = try config(
            "deadline.json", pins: [(pki.root.pin, "Lab Root", "active"), (pki.backupKey.spkiPin, "backup", "backup")])
        let ics = directory.file("deadlines.ics")
        let now = "2027-01-01T00:00:00Z"
        let result = try PinctlBinary.run([
            "deadlines", "--json", "--config", configuration, "--chain", chain, "--trust-store", store, "--now", now,
            "--ics", ics,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONParser.parse(result.stdout)
        guard case .array(let keys)? = document["keys"] else {
            Issue.record("no keys")
            return
        }
        let root = keys.first { $0["label"] == "Lab Root" }
        #expect(root?["deadline"] == .string(RFC3339.format(pki.root.certificate.notAfter)))
        #expect(pki.root.certificate.notAfter > crossExpiry)
        guard case .array(let carriers)? = root?["certificates"] else {
            Issue.record("no certificates")
            return
        }
        #expect(carriers.count == 2, "the cross-signed and the self-signed certificate carry the key")
        #expect(keys.first { $0["label"] == "backup" }?["deadline"] == .null)

        // The calendar, parsed back.
        let text = try String(contentsOfFile: ics, encoding: .utf8)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        let physical = text.components(separatedBy: "\r\n").dropLast()
        #expect(physical.allSatisfy { $0.utf8.count <= 75 })
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "every line ends in CRLF")
        let logical = text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter {
            !$0.isEmpty
        }
        #expect(logical.filter { $0 == "BEGIN:VEVENT" }.count == 1, "one event: the backup has no deadline yet")
        #expect(logical.filter { $0 == "BEGIN:VALARM" }.count == 3)
        #expect(
            logical.filter { $0.hasPrefix("TRIGGER") } == [
                "TRIGGER;RELATED=START:-P90D", "TRIGGER;RELATED=START:-P30D", "TRIGGER;RELATED=START:-P14D",
            ])
        let start = ICalendarFormat.dateTime(pki.root.certificate.notAfter)
        #expect(logical.contains("DTSTART:\(start)"))
        for required in ["UID:", "DTSTAMP:20270101T000000Z", "SUMMARY:Pinned key expires: Lab Root (cloud)"] {
            #expect(logical.contains { $0.hasPrefix(required) }, "\(required)")
        }
        // python's icalendar is not installed; a minimal structural parse stands in: balanced blocks.
        var depth = 0
        for line in logical {
            if line.hasPrefix("BEGIN:") { depth += 1 }
            if line.hasPrefix("END:") { depth -= 1 }
            #expect(depth >= 0)
        }
        #expect(depth == 0)
    }

    @Test("deadlines warn when a key or a set expires before a release's supported-until date")
    func deadlineWarnings() throws {
        let configuration = try write(
            "expiring.json",
            #"{"pinSets": [{"name": "cloud", "hosts": ["api.example.com"], "expires": "2027-06-01T00:00:00Z", "pins": [{"sha256": "\#(pki.intermediate.pin.base64)"}, {"sha256": "\#(pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}"#
        )
        let releases = try write(
            "supported.json",
            #"{"releases": [{"version": "2.0", "configuration": "\#(configuration)", "supportedUntil": "2040-01-01T00:00:00Z"}]}"#
        )
        let chain = try chainFile("d.pem", try pki.leaf(["api.example.com"]).chain + [pki.root.certificate])
        let result = try PinctlBinary.run([
            "deadlines", "--config", configuration, "--chain", chain, "--trust-store", chain, "--releases", releases,
            "--now", "2027-01-01T00:00:00Z",
        ])
        #expect(result.stdout.contains("WARNING: pin set cloud expires 2027-06-01T00:00:00Z, before release 2.0"))
        #expect(result.stdout.contains("WARNING: key"))
    }

    @Test("keygen writes a 0600 key, a CSR openssl verifies, and the openssl pin; it never overwrites")
    func keygen() throws {
        let out = directory.file("keys")
        let result = try PinctlBinary.run([
            "keygen", "--type", "ec-p384", "--out", out, "--subject", "/O=Acme/CN=Acme backup 2027",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let pin = String(result.stdout.split(separator: "\n")[0])
        #expect(try CLIPKI.opensslPin(key: out + "/backup.key") == pin)
        #expect(!result.stdout.contains("PRIVATE KEY"))
        let mode = try FileManager.default.attributesOfItem(atPath: out + "/backup.key")[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let verify = try Shell.run(["openssl", "req", "-in", out + "/backup.csr", "-verify", "-noout", "-subject"])
        #expect(
            verify.stdout.contains("O = Acme, CN = Acme backup 2027")
                || verify.stdout.contains("O=Acme, CN=Acme backup 2027")
                || verify.stdout.contains("subject=O = Acme, CN = Acme backup 2027"), "\(verify.stdout)\(verify.stderr)"
        )
        #expect(verify.stderr.contains("verify OK") || verify.stdout.contains("verify OK"))
        #expect(try PinctlBinary.run(["keygen", "--type", "ec-p384", "--out", out]).status == 2)
        #expect(try PinctlBinary.run(["keygen", "--type", "dsa", "--out", out]).status == 2)
        for type in ["ec-p256", "rsa-3072"] {
            let other = try PinctlBinary.run(["keygen", "--type", type, "--out", directory.file("k-\(type)")])
            #expect(other.status == 0)
        }
    }

    @Test("init proposes intermediate and root pins plus backups, never the leaf; it refuses without a backup")
    func initCommand() throws {
        let chain = try chainFile(
            "init.pem", try pki.leaf(["api.example.com", "*.cdn.example.com"]).chain + [pki.root.certificate])
        let keyPath = try write("backup.key", pki.backupKey.privateKeyPEM)
        let result = try PinctlBinary.run(["init", "--chain", chain, "--backup-key", keyPath])
        #expect(result.status == 0, "\(result.stderr)")
        let configuration = try PinConfiguration.parse(Data(result.stdout.utf8))
        let pins = configuration.pinSets[0].pins.map(\.sha256)
        #expect(pins == [pki.intermediate.pin.base64, pki.root.pin.base64, pki.backupKey.spkiPin.base64])
        #expect(configuration.pinSets[0].pins.last?.role == .backup)
        #expect(configuration.pinSets[0].hosts == ["api.example.com", "cdn.example.com"])
        #expect(configuration.pinConfigurationIsValid(chain: try X509Certificate.load(contentsOf: chain).map(\.facts)))
        let refused = try PinctlBinary.run(["init", "--chain", chain])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("without a backup pin"))
        let risky = try PinctlBinary.run(["init", "--chain", chain, "--no-backup"])
        #expect(risky.status == 0)
        #expect(risky.stderr.contains("WARNING: no backup pin"), "\(risky.stderr)")
        #expect(risky.stderr.contains("no-backup-pin"))
    }
}

/// The calendar date format, restated independently of the implementation.
enum ICalendarFormat {
    static func dateTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}
