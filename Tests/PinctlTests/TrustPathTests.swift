import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import Testing

/// rotation-check completes chains by signature and checks every path a device could build.
///
/// Each scenario first runs the check on the chain completed the way the tool used to (any
/// trusted root whose subject *string* equals the issuer name is appended) and shows it calling
/// a bricking rotation SAFE; then the path builder shows the path a device really takes.
@Suite("Rotation paths by signature")
struct TrustPathTests {
    let pki: LabPKI
    let directory: TemporaryDirectory

    init() throws {
        pki = try LabPKI(name: "Path Lab")
        directory = try TemporaryDirectory()
    }

    /// The completion rotation-check used before: by name, every matching root appended.
    static func nameCompleted(_ chain: [X509Certificate], store: [X509Certificate]) -> [CertificateFacts] {
        guard let last = chain.last, !last.isSelfIssued else { return chain.map(\.facts) }
        return chain.map(\.facts) + store.filter { $0.subject == last.issuer }.map(\.facts)
    }

    /// Installed releases pin `pin` (labelled `label`) and a backup key in no chain.
    func releases(pin: SPKIPin, label: String) throws -> (path: String, history: ReleaseHistory) {
        let configuration = try directory.write(
            "release-\(label).json",
            #"{"pinSets": [{"name": "api", "hosts": ["api.example.com"], "pins": [{"sha256": "\#(pin.base64)", "label": "\#(label)"}, {"sha256": "\#(pki.backupKey.spkiPin.base64)", "label": "spare", "role": "backup"}]}]}"#
        )
        let path = try directory.write(
            "releases-\(label).json",
            #"{"releases": [{"version": "3.0", "configuration": "\#(configuration)", "installedShare": 1.0}]}"#)
        return (path, try ReleaseHistory.load(contentsOf: path))
    }

    func file(_ name: String, _ certificates: [X509Certificate]) throws -> String {
        try LabPKI.writeCAFile(certificates, to: directory.file(name))
    }

    /// A root with exactly `pki.root`'s name and a different key (a re-keyed root generation).
    func sameNameRoot() throws -> LabAuthority {
        let key = try PrivateKey.generate(.ecP384)
        var builder = CertificateBuilder(
            commonName: "", notBefore: pki.root.certificate.notBefore, notAfter: pki.root.certificate.notAfter,
            isCA: true)
        builder.subject = pki.root.certificate.subjectAttributes
        return LabAuthority(certificate: try builder.issue(for: key), key: key)
    }

    func issuingCA(under root: LabAuthority) throws -> LabAuthority {
        let key = try PrivateKey.generate(.ecP256)
        let certificate = try root.issue(
            CertificateBuilder(
                commonName: "Path Lab Issuing CA G2", organization: "Path Lab", notBefore: Date() - 86_400,
                notAfter: Date() + 365 * 86_400, isCA: true, pathLength: 0),
            for: key)
        return LabAuthority(certificate: certificate, key: key)
    }

    @Test("two roots of one name and different keys: only the one whose key signed the chain ends its path")
    func sameNameRoots() throws {
        let rekeyed = try sameNameRoot()
        #expect(rekeyed.certificate.subject == pki.root.certificate.subject)
        #expect(rekeyed.pin != pki.root.pin)
        // The server moves to an issuing CA under the re-keyed root; installed releases pin the old root key.
        let served = try pki.leaf(["api.example.com"], issuer: try issuingCA(under: rekeyed)).chain
        let store = [pki.root.certificate, rekeyed.certificate]
        let (releasesFile, history) = try releases(pin: pki.root.pin, label: "old root")

        // Attack on the name-based completion: the old root's name matches, so it is appended and
        // the bricking rotation looks SAFE.
        let byName = RotationCheck(history: history, chain: Self.nameCompleted(served, store: store))
        #expect(byName.isSafe, "the name-based completion lets the wrong root vouch for the chain")

        // By signature: the only path ends at the re-keyed root, which no installed release pins.
        let search = CertificatePathBuilder(trustStore: store).paths(for: served)
        #expect(search.paths.count == 1)
        #expect(search.paths.first?.root.spkiSHA256 == rekeyed.pin)
        let bySignature = RotationCheck(history: history, paths: search.paths.map(\.facts))
        #expect(!bySignature.isSafe)
        #expect(bySignature.problems.map(\.code) == [.releaseBricked])

        let result = try PinctlBinary.run([
            "rotation-check", "--releases", releasesFile, "--chain", try file("served.pem", served), "--trust-store",
            try file("store.pem", store),
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("path 1 (root \(pki.root.certificate.subject)): "))
        #expect(!result.stdout.contains("path 2"))
        #expect(result.stdout.contains("PROBLEM [release-bricked]: release 3.0 would be bricked"))
        #expect(result.stdout.hasSuffix("UNSAFE\n"))
    }

    @Test("a cross-signed root gives two paths; a release pinning only the old root is bricked on the short one")
    func crossSignedRoot() throws {
        // The ISRG X2 / X1 shape: the new root is served cross-signed by the old one, and modern
        // devices hold the new root itself, so they stop there and never see the old root.
        let old = try LabPKI(name: "Old Lab")
        let cross = try LabPKI.crossSign(pki.root, by: old.root, notAfter: Date() + 300 * 86_400)
        let served = try pki.leaf(["api.example.com"]).chain + [cross]
        let store = [old.root.certificate, pki.root.certificate]
        let (releasesFile, history) = try releases(pin: old.root.pin, label: "old root")

        let byName = RotationCheck(history: history, chain: Self.nameCompleted(served, store: store))
        #expect(byName.isSafe, "by name, the chain is completed with the old root only")

        let search = CertificatePathBuilder(trustStore: store).paths(for: served)
        #expect(search.paths.map { $0.root.spkiSHA256 } == [pki.root.pin, old.root.pin], "short path first")
        #expect(search.paths.map(\.certificates.count) == [3, 4])
        let bySignature = RotationCheck(history: history, paths: search.paths.map(\.facts))
        #expect(!bySignature.isSafe)
        #expect(bySignature.releases.first?.pathEvaluations.map(\.allowsConnection) == [false, true])

        // Pinning the key both root certificates share keeps every path safe.
        let (_, newRootHistory) = try releases(pin: pki.root.pin, label: "new root")
        #expect(RotationCheck(history: newRootHistory, paths: search.paths.map(\.facts)).isSafe)

        let result = try PinctlBinary.run([
            "rotation-check", "--json", "--releases", releasesFile, "--chain", try file("cross.pem", served),
            "--trust-store", try file("cross-store.pem", store),
        ])
        #expect(result.status == 1)
        let document = try JSONParser.parse(result.stdout)
        #expect(document["schemaVersion"] == 1)
        guard case .array(let paths)? = document["paths"], case .array(let problems)? = document["problems"] else {
            Issue.record("no paths or problems in \(result.stdout)")
            return
        }
        #expect(
            paths.map { $0["root"]?["spkiSHA256"] } == [.string(pki.root.pin.base64), .string(old.root.pin.base64)])
        #expect(problems.map { $0["code"] } == [.string("release-bricked")])
        guard case .array(let releaseResults)? = document["releases"] else {
            Issue.record("no releases")
            return
        }
        #expect(releaseResults.map { $0["mismatchedPaths"] } == [[1]])
    }

    @Test("an expired cross-sign is refused by OpenSSL and listed as such, not counted as a path")
    func expiredCrossSign() throws {
        let old = try LabPKI(name: "Old Lab")
        let cross = try LabPKI.crossSign(pki.root, by: old.root, notAfter: Date() - 86_400)
        let served = try pki.leaf(["api.example.com"]).chain + [cross]
        let search = CertificatePathBuilder(trustStore: [old.root.certificate, pki.root.certificate]).paths(
            for: served)
        #expect(search.paths.map { $0.root.spkiSHA256 } == [pki.root.pin])
        #expect(search.rejected.count == 1)
        #expect(search.rejected.first?.reason.contains("expired") == true, "\(search.rejected.map(\.reason))")
    }

    @Test("a chain that reaches no root of the store is unsafe with its own code; a served root is no anchor")
    func noTrustedPath() throws {
        let stranger = try LabPKI(name: "Stranger")
        let served = try pki.leaf(["api.example.com"]).chain + [pki.root.certificate]
        let search = CertificatePathBuilder(trustStore: [stranger.root.certificate]).paths(for: served)
        #expect(search.paths.isEmpty)
        let (_, history) = try releases(pin: pki.intermediate.pin, label: "issuing")
        // Without the store's say, the served chain alone would match the pin.
        #expect(RotationCheck(history: history, chain: served.map(\.facts)).isSafe)
        let check = RotationCheck(history: history, paths: search.paths.map(\.facts))
        #expect(check.problems.map(\.code) == [.noTrustedPath])
    }

    @Test("an intermediate the server omits is found in the bundle (as devices fetch it), but never ends a path")
    func intermediateFromBundle() throws {
        let leafOnly = [try pki.leaf(["api.example.com"]).leaf]
        #expect(CertificatePathBuilder(trustStore: [pki.root.certificate]).paths(for: leafOnly).paths.isEmpty)
        let withIntermediate = CertificatePathBuilder(trustStore: [pki.intermediate.certificate, pki.root.certificate])
        let found = withIntermediate.paths(for: leafOnly).paths
        #expect(
            found.map { $0.certificates.map(\.spkiSHA256) } == [
                [leafOnly[0].spkiSHA256, pki.intermediate.pin, pki.root.pin]
            ])
        // Partial chains stay off: an intermediate alone in the store is no anchor.
        #expect(CertificatePathBuilder(trustStore: [pki.intermediate.certificate]).paths(for: leafOnly).paths.isEmpty)
    }

    @Test("a store of many same-name roots costs a bounded search")
    func boundedSearch() throws {
        var store = [pki.root.certificate]
        for _ in 0..<40 { store.append(try sameNameRoot().certificate) }
        var builder = CertificatePathBuilder(trustStore: store)
        builder.maximumCandidates = 30
        let search = builder.paths(for: try pki.leaf(["api.example.com"]).chain)
        #expect(search.truncated)
        builder.maximumCandidates = 4096
        let full = builder.paths(for: try pki.leaf(["api.example.com"]).chain)
        #expect(!full.truncated)
        #expect(full.paths.map { $0.root.spkiSHA256 } == [pki.root.pin])
    }
}
