import Foundation
import PinKit
import PinKitTestSupport
import Testing

/// `assemble` is `sign` for keys in a KMS or HSM, so it must refuse what `sign` refuses: the
/// payload file is operator input (hand-edited, or made by another tool), and the merged
/// `assemble` wrote a document with a public-suffix scope, an inverted app-version range, an
/// escape sequence in its reason or a 90-day lifetime (exit 0) that `verify` then rejected.
@Suite("killswitch assemble applies sign's rules")
struct KillSwitchAssembleRulesTests {
    static func payload(scope: String = "{}", reason: String = "INC-9", days: Int = 1, serial: Int = 41) -> String {
        let issued = Date()
        return
            #"{"type":"pinning-kill-switch","serial":\#(serial),"issuedAt":"\#(RFC3339.format(issued))","expiresAt":"\#(RFC3339.format(issued + Double(days) * 86_400))","pinning":"off","scope":\#(scope),"reason":"\#(reason)"}"#
    }

    @Test(
        "a payload sign would refuse is not assembled, and nothing is written",
        arguments: [
            ("public-suffix", payload(scope: #"{"hosts":["com"]}"#)),
            ("inverted", payload(scope: #"{"appVersions":{"min":"9.0","max":"1.0"}}"#)),
            ("escape", payload(reason: #"\u001b[2J\rACCEPTED"#)),
            ("bidi", payload(reason: #"INC\u202e9"#)),
            ("lifetime", payload(days: 90)),
            ("outside-config", payload(scope: #"{"hosts":["other.example.org"]}"#)),
            ("below-floor", payload(serial: 7)),
        ])
    func refused(name: String, payload: String) throws {
        let setup = try KillSwitchCLITests.Setup()
        defer { setup.directory.remove() }
        let file = try setup.directory.write("payload-\(name).bin", payload)
        try Shell.bash(
            "openssl pkeyutl -sign -inkey keys/kill-switch.key -rawin -in payload-\(name).bin -out \(name).sig",
            directory: setup.directory.url)
        let out = setup.directory.file("\(name).json")
        let result = try PinctlBinary.run([
            "killswitch", "assemble", "--payload", file, "--signature", setup.directory.file("\(name).sig"),
            "--key-id", "ks-a", "--public-key", setup.pub, "--config", setup.config, "--out", out,
        ])
        #expect(result.status == 1, "\(name): \(result.stdout)\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "\(name)")
    }

    @Test("the same payload with an in-scope host and a plain reason is assembled and verifies")
    func accepted() throws {
        let setup = try KillSwitchCLITests.Setup()
        defer { setup.directory.remove() }
        let file = try setup.directory.write("payload.bin", Self.payload(scope: #"{"hosts":["api.example.com"]}"#))
        try Shell.bash(
            "openssl pkeyutl -sign -inkey keys/kill-switch.key -rawin -in payload.bin -out ok.sig",
            directory: setup.directory.url)
        let out = setup.directory.file("ok.json")
        let result = try PinctlBinary.run([
            "killswitch", "assemble", "--payload", file, "--signature", setup.directory.file("ok.sig"), "--key-id",
            "ks-a", "--public-key", setup.pub, "--config", setup.config, "--out", out,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let verify = try PinctlBinary.run([
            "killswitch", "verify", "--public-key", setup.pub, "--key-id", "ks-a", "--config", setup.config, out,
        ])
        #expect(verify.stdout.hasPrefix("ACCEPTED: serial 41"), "\(verify.stdout)")
    }
}
