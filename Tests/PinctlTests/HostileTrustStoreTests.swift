import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import Testing

/// A trust-store bundle is operator input and may be enormous or hostile. The path search is
/// bounded; SAFE is a claim about *every* path, so neither a bundle full of unrelated roots nor
/// one full of same-name decoys may make rotation-check call a bricking rotation safe.
///
/// The shape under attack is the cross-sign of `TrustPathTests`: installed releases pin only the
/// old root; devices holding the new root stop there and are bricked. Certificates placed in the
/// bundle between the old root and the new one used to spend the search's bound, so only the
/// old root's path was found and the run printed SAFE (exit 0) next to a one-line note.
@Suite("Hostile trust stores")
struct HostileTrustStoreTests {
    let pki: LabPKI
    let old: LabPKI
    let directory: TemporaryDirectory
    let served: [X509Certificate]

    init() throws {
        pki = try LabPKI(name: "Hostile Lab")
        old = try LabPKI(name: "Hostile Old Lab")
        directory = try TemporaryDirectory()
        served =
            try pki.leaf(["api.example.com"]).chain + [
                try LabPKI.crossSign(pki.root, by: old.root, notAfter: Date() + 300 * 86_400)
            ]
    }

    /// `count` self-signed certificates under one key: named `name` (same-name decoys) or each
    /// its own name (unrelated roots).
    func filler(_ count: Int, named name: [(attribute: String, value: String)]?) throws -> [X509Certificate] {
        let key = try PrivateKey.generate(.ecP256)
        return try (0..<count).map { index in
            var builder = CertificateBuilder(
                commonName: "Filler Root \(index)", notBefore: Date() - 86_400, notAfter: Date() + 86_400, isCA: true)
            if let name { builder.subject = name }
            return try builder.issue(for: key)
        }
    }

    func history() throws -> (file: String, history: ReleaseHistory) {
        let configuration = try directory.write(
            "release.json",
            #"{"pinSets": [{"name": "api", "hosts": ["api.example.com"], "pins": [{"sha256": "\#(old.root.pin.base64)", "label": "old root"}, {"sha256": "\#(pki.backupKey.spkiPin.base64)", "label": "spare", "role": "backup"}]}]}"#
        )
        let file = try directory.write(
            "releases.json",
            #"{"releases": [{"version": "3.0", "configuration": "\#(configuration)", "installedShare": 1.0}]}"#)
        return (file, try ReleaseHistory.load(contentsOf: file))
    }

    @Test("a search stopped at its bound is a problem, never SAFE")
    func truncatedSearchIsUnsafe() throws {
        let decoys = try filler(20, named: pki.root.certificate.subjectAttributes)
        var builder = CertificatePathBuilder(trustStore: [old.root.certificate] + decoys + [pki.root.certificate])
        builder.maximumCandidates = 10
        let search = builder.paths(for: served)
        #expect(search.truncated)
        #expect(search.paths.map { $0.root.spkiSHA256 } == [old.root.pin], "the new root's path was never reached")
        let (_, history) = try history()
        // Unprotected: the paths found are all pinned, so a check that ignores the bound says SAFE.
        #expect(RotationCheck(history: history, paths: search.paths.map(\.facts)).isSafe)
        let check = RotationCheck(history: history, paths: search.paths.map(\.facts), allPathsFound: !search.truncated)
        #expect(check.problems.map(\.code) == [.pathSearchIncomplete])
        // With the bound out of the way the bricked path is there.
        builder.maximumCandidates = 4096
        let full = builder.paths(for: served)
        #expect(!full.truncated)
        #expect(Set(full.paths.map { $0.root.spkiSHA256 }) == [old.root.pin, pki.root.pin])
    }

    /// 4,100 certificates: more than the default bound of 4,096 candidates.
    @Test(
        "rotation-check with thousands of filler roots before the new root: UNSAFE with the reason",
        arguments: [("unrelated", false), ("same-name", true)])
    func fillerBundle(kind: String, sameName: Bool) throws {
        let fillers = try filler(4_100, named: sameName ? pki.root.certificate.subjectAttributes : nil)
        let store = try LabPKI.writeCAFile(
            [old.root.certificate] + fillers + [pki.root.certificate], to: directory.file("store-\(kind).pem"))
        let chain = try LabPKI.writeCAFile(served, to: directory.file("served.pem"))
        let (releases, _) = try history()
        let result = try PinctlBinary.run([
            "rotation-check", "--json", "--releases", releases, "--chain", chain, "--trust-store", store,
        ])
        #expect(result.status == 1, "\(kind): \(result.stdout.prefix(2_000))")
        let document = try JSONParser.parse(result.stdout)
        #expect(document["safe"] == false)
        guard case .array(let problems)? = document["problems"] else {
            Issue.record("no problems in \(result.stdout.prefix(2_000))")
            return
        }
        // Unrelated names no longer spend the bound: the bricked path is found. Same-name decoys
        // still can, and then the incomplete search itself is the problem.
        let expected = sameName ? "path-search-incomplete" : "release-bricked"
        #expect(problems.map { $0["code"] }.contains(.string(expected)), "\(problems)")
        // init reuses the path builder: an incomplete search is said, not passed over.
        let proposed = try PinctlBinary.run([
            "init", "--json", "--chain", chain, "--trust-store", store, "--no-backup", "--hosts", "api.example.com",
        ])
        let notes = try JSONParser.parse(proposed.stdout)["summary"]?["notes"]
        let warned = notes.map { "\($0)".contains("stopped at its bound") } ?? false
        #expect(warned == sameName, "\(kind): \(proposed.stdout.prefix(3_000))")
    }
}
