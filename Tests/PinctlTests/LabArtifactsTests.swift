import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitProcessGate
import PinKitTestSupport
import Testing

/// The lab as something to keep and show: --keep reproduces a row by hand, --report renders in
/// a real browser, --serve leaves the servers up until Ctrl-C.
@Suite("pinctl lab --keep, --report, --serve")
struct LabArtifactsTests {
    /// Runs a README command line (`pinctl …`) with the built binary, in `directory`.
    func runReadmeCommand(_ line: String, port: UInt16, in directory: String) throws -> Shell.Result {
        let words = line.replacingOccurrences(of: "8443", with: "\(port)").split(separator: " ").map(String.init)
        #expect(words.first == "pinctl")
        return try Shell.run(
            [PinctlBinary.url.path] + words.dropFirst(), directory: URL(fileURLWithPath: directory))
    }

    @Test("--keep writes what reproduces each row, and README's commands reproduce it; --report renders in Chromium")
    func keepAndReport() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let kept = scratch.file("lab")
        let report = scratch.file("report.html")
        let result = try PinctlBinary.run(["lab", "--keep", kept, "--report", report])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let readme = try String(contentsOfFile: kept + "/README", encoding: .utf8)
        for index in 1...11 { #expect(readme.contains("\n## \(index). "), "row \(index)") }
        for file in ["pinkit.json", "releases.json", "trust-store.pem", "kill-switch-document.json", "kill-switch.pub"]
        {
            #expect(FileManager.default.fileExists(atPath: kept + "/" + file), "\(file)")
        }

        // Reproduce row 5 (a rogue CA the store trusts) by hand from the kept files.
        let section = try #require(readme.components(separatedBy: "\n## 5. ").dropFirst().first)
        let name = "05-rogue-ca-trusted-by-the-store"
        let mode = try FileManager.default.attributesOfItem(atPath: "\(kept)/keys/\(name).key")[.posixPermissions]
        #expect((mode as? NSNumber)?.intValue == 0o600)
        let identity = LabIdentity(
            chain: try X509Certificate.load(contentsOf: "\(kept)/chains/\(name).pem"),
            key: try PrivateKey(pem: try String(contentsOfFile: "\(kept)/keys/\(name).key", encoding: .utf8)))
        let server = try LabTLSServer(identity: identity)
        defer { server.stop() }
        let line = try #require(
            section.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("pinctl check") })
        let check = try runReadmeCommand(line.trimmingCharacters(in: .whitespaces), port: server.port, in: kept)
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("pin-mismatch"))
        let verify = try Shell.run(
            [
                PinctlBinary.url.path, "killswitch", "verify", "--public-key", "kill-switch.pub",
                "kill-switch-document.json",
            ],
            directory: URL(fileURLWithPath: kept))
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")

        // The report, rendered by a real browser.
        let profile = scratch.file("chromium-profile")
        let dom = try Shell.run([
            "timeout", "120", "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)",
            "--dump-dom", "file://\(report)",
        ])
        #expect(dom.status == 0, "\(dom.stderr)")
        let summary = try #require(
            dom.stdout.firstMatch(
                of: try Regex<(Substring, Substring, Substring)>(#"PASSED: (\d+) of (\d+) scenarios as expected"#)))
        #expect(summary.1 == summary.2, "every scenario as expected: \(summary.0)")
        #expect(dom.stdout.contains("rogue CA trusted by the store"))
        #expect(dom.stdout.contains("pinned: Lab Issuing CA"), "pins are marked in the chains")
        #expect(dom.stdout.contains("pin mismatch for api.example.com"), "the real mismatch message")
        #expect(dom.stdout.contains("Verified chain (as OpenSSL built it)"))
        #expect(!dom.stdout.contains("<script"), "self-contained and inert")
    }

    @Test("--serve prints a check command per served chain that works, and stops on SIGINT with exit 0")
    func serve() throws {
        let process = Process()
        process.executableURL = PinctlBinary.url
        process.arguments = ["lab", "--serve"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try ProcessGate.run(process)
        var text = ""
        let reader = output.fileHandleForReading
        while !text.contains("Ctrl-C stops them") {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("5. rogue CA trusted by the store:") })
        let command = String(line.drop { $0 != ":" }.dropFirst()).trimmingCharacters(in: .whitespaces)
        let words = command.split(separator: " ").map(String.init)
        let check = try Shell.run([PinctlBinary.url.path] + words.dropFirst())
        #expect(check.status == 1, "\(command): \(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("pin-mismatch"))
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        text += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("stopped"))
    }
}
