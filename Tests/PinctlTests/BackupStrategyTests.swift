import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import Testing

/// The three backup strategies of docs/ROTATION.md, end to end, as a team on a public CA runs
/// them: the server sends leaf + intermediate (never the root), the leaf is a wildcard, and the
/// devices' store is a PEM bundle. keygen → init → validate --production → rotation-check →
/// rotate → next release.
@Suite("Backup strategies end to end")
struct BackupStrategyTests {
    let ca: LabPKI
    let directory: TemporaryDirectory
    let store: String
    let served: String

    init() throws {
        ca = try LabPKI(name: "Public CA")
        directory = try TemporaryDirectory()
        store = try LabPKI.writeCAFile([ca.root.certificate], to: directory.file("store.pem"))
        served = try LabPKI.writeCAFile(try ca.leaf(["*.example.com"]).chain, to: directory.file("served.pem"))
    }

    func pinctl(_ arguments: [String]) throws -> Shell.Result { try PinctlBinary.run(arguments) }

    func releases(_ configurations: [(String, String)]) throws -> String {
        let entries = configurations.map {
            #"{"version": "\#($0.0)", "configuration": "\#($0.1)", "installedShare": 0.5}"#
        }
        return try directory.write(
            "releases-\(UUID().uuidString).json", #"{"releases": [\#(entries.joined(separator: ", "))]}"#)
    }

    func file(_ certificates: [X509Certificate]) throws -> String {
        try LabPKI.writeCAFile(certificates, to: directory.file("chain-\(UUID().uuidString).pem"))
    }

    @Test("init completes the root from the store by signature, proposes the wildcard's apex, an expiry and a summary")
    func initOnServedChain() throws {
        let spare = try pinctl(["keygen", "--type", "ec-p256", "--out", directory.path, "--name", "spare"])
        #expect(spare.status == 0)
        let result = try pinctl([
            "init", "--chain", served, "--trust-store", store, "--backup-key", directory.file("spare.key"),
            "--now", RFC3339.format(ca.referenceTime),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let configuration = try PinConfiguration.parse(Data(result.stdout.utf8))
        let set = try #require(configuration.pinSets.first)
        #expect(set.pins.map(\.sha256) == [ca.intermediate.pin.base64, ca.root.pin.base64, try spareKeyPin()])
        #expect(set.pins.last?.operatorHeld == true)
        #expect(set.hosts == ["example.com"])
        #expect(result.stderr.contains("wildcard: proposing its apex example.com"))
        #expect(result.stderr.contains("completed from the trust store by signature"))
        let expires = try #require(set.expires)
        #expect(expires <= ca.referenceTime.addingTimeInterval(548 * 86_400))
        // 18 months from --now, rounded down to the day, since both CA keys live longer.
        let eighteenMonths = (ca.referenceTime + 548 * 86_400).timeIntervalSince1970
        #expect(expires.timeIntervalSince1970 == (eighteenMonths / 86_400).rounded(.down) * 86_400)
        #expect(result.stderr.contains("backup strategy: operator-held spare key"))

        // The same chain without the store: the root is missing, and init says so plainly.
        let missing = try pinctl([
            "init", "--chain", served, "--trust-store", try file([try LabPKI(name: "Other").root.certificate]),
            "--backup-key", directory.file("spare.key"),
        ])
        #expect(missing.status == 0)
        #expect(missing.stderr.contains("THE ROOT IS MISSING"))
    }

    func spareKeyPin() throws -> String {
        try String(contentsOfFile: directory.file("spare.pin"), encoding: .utf8).trimmingCharacters(in: .newlines)
    }

    @Test("the narrow host init recommends for a wildcard leaf passes the gate against that leaf's chain")
    func narrowedWildcard() throws {
        _ = try pinctl(["keygen", "--type", "ec-p256", "--out", directory.path, "--name", "spare"])
        let out = directory.file("narrow.json")
        let made = try pinctl([
            "init", "--chain", served, "--trust-store", store, "--backup-key", directory.file("spare.key"), "--hosts",
            "api.example.com", "--out", out,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let gate = try pinctl(["validate", "--production", "--chain", served, out])
        #expect(gate.status == 0, "\(gate.stdout)")
        #expect(!gate.stdout.contains("chain-outside-pin-sets"))
    }

    @Test("init --hosts com writes nothing and exits 1")
    func initRefusesPublicSuffix() throws {
        let out = directory.file("refused.json")
        let result = try pinctl([
            "init", "--chain", served, "--trust-store", store, "--no-backup", "--hosts", "com", "--out", out,
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(result.stderr.contains("public-suffix-host"))
        // With --json: one document on stdout that says nothing was written.
        let json = try pinctl([
            "init", "--json", "--chain", served, "--trust-store", store, "--no-backup", "--hosts", "com", "--out", out,
        ])
        #expect(json.status == 1)
        let document = try JSONParser.parse(json.stdout)
        #expect(document["written"] == .null && document["schemaVersion"] == 1)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test(
        "(a) an operator-held spare: after the CA certifies it, no leaf-pinned; the next release must add a new spare")
    func operatorHeldSpare() throws {
        _ = try pinctl(["keygen", "--type", "ec-p256", "--out", directory.path, "--name", "spare"])
        let v1 = directory.file("v1.json")
        let made = try pinctl([
            "init", "--chain", served, "--trust-store", store, "--backup-key", directory.file("spare.key"), "--out", v1,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let full = try file(try ca.leaf(["*.example.com"]).chain + [ca.root.certificate])
        #expect(try pinctl(["validate", "--production", "--chain", full, v1]).status == 0)

        // Rotation: a new CA certifies the next leaf for the spare key (CSR or ACME with key reuse).
        let spareKey = try PrivateKey(pem: try String(contentsOfFile: directory.file("spare.key"), encoding: .utf8))
        let newCA = try LabPKI(name: "Second Public CA")
        let rotated = try newCA.leaf(["*.example.com"], key: spareKey).chain
        let devices = try file([ca.root.certificate, newCA.root.certificate])
        let check = try pinctl([
            "rotation-check", "--releases", try releases([("1.0", v1)]), "--chain", try file(rotated), "--trust-store",
            devices, "--host", "api.example.com",
        ])
        #expect(check.status == 0, "\(check.stdout)")

        // The guard after the rotation: the spare is the leaf, deliberately; a note, not leaf-pinned.
        let after = try file(rotated + [newCA.root.certificate])
        let guardResult = try pinctl(["validate", "--json", "--chain", after, v1])
        let document = try JSONParser.parse(guardResult.stdout)
        guard case .array(let problems)? = document["problems"] else {
            Issue.record("no problems array")
            return
        }
        #expect(!problems.contains { $0["code"] == "leaf-pinned" })
        #expect(problems.contains { $0["code"] == "operator-held-leaf" && $0["severity"] == "note" })
        // Before the marker, the same key was called leaf-pinned (the error this strategy used to hit).
        let unmarked = try directory.write(
            "unmarked.json",
            #"{"pinSets": [{"name": "p", "hosts": ["example.com"], "pins": [{"sha256": "\#(ca.intermediate.pin.base64)"}, {"sha256": "\#(try spareKeyPin())", "role": "backup"}]}]}"#
        )
        #expect(try pinctl(["validate", "--chain", after, unmarked]).stdout.contains("leaf-pinned"))

        // The next release keeps the spare and the new CA; without a new spare it is unsafe.
        let spare = try spareKeyPin()
        let nextWithout = try directory.write(
            "v2.json",
            #"{"pinSets": [{"name": "p", "hosts": ["example.com"], "pins": [{"sha256": "\#(spare)", "operatorHeld": true}, {"sha256": "\#(newCA.intermediate.pin.base64)"}]}]}"#
        )
        let demand = try pinctl([
            "rotation-check", "--json", "--releases", try releases([("1.0", v1)]), "--chain", try file(rotated),
            "--trust-store", devices, "--host", "api.example.com", "--next", nextWithout,
        ])
        #expect(demand.status == 1)
        #expect(demand.stdout.contains("next-without-backup"))
        #expect(demand.stdout.contains("next-without-new-spare"))
        // Keeping the old CA's pins leaves keys outside the chain, but still no new spare.
        let demandAgain = try pinctl([
            "rotation-check", "--releases", try releases([("1.0", v1)]), "--chain", try file(rotated),
            "--trust-store", devices, "--host", "api.example.com", "--next", v1,
        ])
        #expect(demandAgain.status == 1)
        #expect(demandAgain.stdout.contains("PROBLEM [next-without-new-spare]"), "\(demandAgain.stdout)")
        _ = try pinctl(["keygen", "--type", "ec-p256", "--out", directory.path, "--name", "spare2"])
        let spare2 = try String(contentsOfFile: directory.file("spare2.pin"), encoding: .utf8).trimmingCharacters(
            in: .newlines)
        let nextWith = try directory.write(
            "v2b.json",
            #"{"pinSets": [{"name": "p", "hosts": ["example.com"], "pins": [{"sha256": "\#(spare)", "operatorHeld": true}, {"sha256": "\#(newCA.intermediate.pin.base64)"}, {"sha256": "\#(spare2)", "role": "backup", "operatorHeld": true}]}]}"#
        )
        let safe = try pinctl([
            "rotation-check", "--releases", try releases([("1.0", v1)]), "--chain", try file(rotated), "--trust-store",
            devices, "--host", "api.example.com", "--next", nextWith,
        ])
        #expect(safe.status == 0, "\(safe.stdout)")
    }

    @Test(
        "(b) CA-level pins: a warning that fails the gate until acknowledged with a reason; errors cannot be acknowledged"
    )
    func caLevelAcknowledged() throws {
        let full = try file(try ca.leaf(["*.example.com"]).chain + [ca.root.certificate])
        let pins =
            #"[{"sha256": "\#(ca.intermediate.pin.base64)", "label": "issuing"}, {"sha256": "\#(ca.root.pin.base64)", "label": "root"}]"#
        func set(_ acknowledged: String) throws -> String {
            try directory.write(
                "b-\(UUID().uuidString).json",
                #"{"pinSets": [{"name": "p", "hosts": ["example.com"], "expires": "2099-01-01", "pins": \#(pins)\#(acknowledged)}]}"#
            )
        }
        let bare = try pinctl(["validate", "--production", "--chain", full, try set("")])
        #expect(bare.status == 1)
        #expect(bare.stdout.contains("warning [no-backup-pin]") && bare.stdout.contains("not a CA change"))
        // Without --production the same set is valid: a warning, not an unpassable error.
        #expect(try pinctl(["validate", "--chain", full, try set("")]).status == 0)
        let reason = "accepted tradeoff: CA-level pins, reviewed 2026-11"
        let acknowledged = try pinctl([
            "validate", "--production", "--chain", full,
            try set(
                #", "acknowledged": [{"code": "no-backup-pin", "reason": "\#(reason)"}, {"code": "no-declared-backup", "reason": "\#(reason)"}]"#
            ),
        ])
        #expect(acknowledged.status == 0, "\(acknowledged.stdout)")
        #expect(acknowledged.stdout.contains("note [acknowledged-warning]") && acknowledged.stdout.contains(reason))
        let noReason = try pinctl([
            "validate", "--production", "--chain", full,
            try set(#", "acknowledged": [{"code": "no-backup-pin", "reason": " "}]"#),
        ])
        #expect(noReason.status == 1)
        #expect(noReason.stdout.contains("invalid-acknowledgement"))
        // An error stays an error: pinning a rogue key that matches nothing cannot be waved through.
        let brick = try directory.write(
            "brick.json",
            #"{"pinSets": [{"name": "p", "hosts": ["example.com"], "pins": [{"sha256": "\#(ca.backupKey.spkiPin.base64)"}, {"sha256": "\#(try PrivateKey.generate(.ecP256).spkiPin.base64)", "role": "backup"}], "acknowledged": [{"code": "no-pin-matches-chain", "reason": "x"}]}]}"#
        )
        let refused = try pinctl(["validate", "--production", "--chain", full, brick])
        #expect(refused.status == 1)
        #expect(
            refused.stdout.contains("error [no-pin-matches-chain]")
                && refused.stdout.contains("invalid-acknowledgement"))
    }

    @Test("(c) a second CA's key as the backup: a move to that CA is safe for installed releases")
    func secondCA() throws {
        let other = try LabPKI(name: "Second Public CA")
        let otherRoot = try file([other.root.certificate])
        let v1 = directory.file("c1.json")
        let made = try pinctl([
            "init", "--chain", served, "--trust-store", store, "--backup-ca", otherRoot, "--out", v1, "--json",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let summary = try JSONParser.parse(made.stdout)
        #expect(summary["schemaVersion"] == 1)
        #expect(summary["summary"]?["backupStrategy"] == "second CA")
        let moved = try other.leaf(["*.example.com"]).chain
        let check = try pinctl([
            "rotation-check", "--releases", try releases([("1.0", v1)]), "--chain", try file(moved), "--trust-store",
            try file([ca.root.certificate, other.root.certificate]), "--host", "api.example.com",
        ])
        #expect(check.status == 0, "\(check.stdout)")
        // Without the second CA's pin the same move bricks the release.
        let v0 = directory.file("c0.json")
        _ = try pinctl(["init", "--chain", served, "--trust-store", store, "--no-backup", "--out", v0])
        let bricked = try pinctl([
            "rotation-check", "--releases", try releases([("1.0", v0)]), "--chain", try file(moved), "--trust-store",
            try file([ca.root.certificate, other.root.certificate]), "--host", "api.example.com",
        ])
        #expect(bricked.status == 1)
        #expect(bricked.stdout.contains("release-bricked"))
    }

    @Test("a rotating public-CA intermediate is not pinned alone: init pins the root, the guard warns")
    func rotatingIntermediate() throws {
        // A lab CA named like Let's Encrypt's R11 under an "ISRG Root X1".
        let root = try LabPKI(name: "ISRG")
        let key = try PrivateKey.generate(.ecP256)
        var builder = CertificateBuilder(
            commonName: "R11", organization: "Let's Encrypt", notBefore: Date() - 86_400,
            notAfter: Date() + 900 * 86_400, isCA: true, pathLength: 0)
        builder.subject = [("C", "US"), ("O", "Let's Encrypt"), ("CN", "R11")]
        let r11 = LabAuthority(certificate: try root.root.issue(builder, for: key), key: key)
        let chain = try root.leaf(["api.example.com"], issuer: r11).chain
        let result = try pinctl([
            "init", "--chain", try file(chain), "--trust-store", try file([root.root.certificate]), "--backup-pin",
            root.backupKey.spkiPin.base64,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let configuration = try PinConfiguration.parse(Data(result.stdout.utf8))
        #expect(configuration.pinSets[0].pins.map(\.sha256) == [root.root.pin.base64, root.backupKey.spkiPin.base64])
        #expect(result.stderr.contains("Let's Encrypt rotates among intermediates"))
        let onlyIntermediate = try directory.write(
            "r11.json",
            #"{"pinSets": [{"name": "p", "hosts": ["api.example.com"], "pins": [{"sha256": "\#(r11.pin.base64)"}, {"sha256": "\#(root.backupKey.spkiPin.base64)", "role": "backup"}]}]}"#
        )
        let warned = try pinctl(["validate", "--chain", try file(chain + [root.root.certificate]), onlyIntermediate])
        #expect(warned.stdout.contains("warning [rotating-intermediate]"), "\(warned.stdout)")
        #expect(warned.stdout.contains("letsencrypt.org"))
    }
}
