import Foundation
import PinKit
import PinKitTestSupport
import Testing

/// `pinctl redact` on lines longer than its piece (16 MiB; 1 MiB here through
/// `PINCTL_REDACT_PIECE_BYTES`, so the test takes seconds): a secret straddling the boundary.
@Suite("pinctl redact long lines")
struct RedactLongLineTests {
    static let piece = 1 << 20
    /// 40 base64url characters: either half alone is shorter than a token.
    static let secret = "Zq7SEEDlongtokenA1b2C3d4E5f6G7h8I9j0KkLl"

    /// Filler words (each shorter than a token) up to `count` bytes, with `\r` every `crEvery` bytes.
    static func filler(_ count: Int, crEvery: Int?) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        let word = Array("word ".utf8)
        while bytes.count < count {
            if let crEvery, bytes.count % crEvery < word.count, bytes.count >= crEvery { bytes.append(0x0D) }
            bytes.append(contentsOf: word)
        }
        return Array(bytes.prefix(count))
    }

    @Test(
        "a token straddling the piece boundary is redacted, and a second pass changes nothing",
        arguments: [nil, 64 << 10])
    func straddling(crEvery: Int?) throws {
        // The secret starts 20 bytes before the boundary, so a cut at 16 MiB splits it in two.
        var line = Self.filler(Self.piece - 20, crEvery: crEvery)
        line += Array(Self.secret.utf8) + Array(" end".utf8)
        // The attack first: redacting the two 16 MiB pieces separately keeps both halves, and a
        // second pass over the joined output would catch it (not idempotent).
        let naive = LogSanitizer.redact(bytes: line[..<Self.piece]) + LogSanitizer.redact(bytes: line[Self.piece...])
        let naiveText = String(decoding: naive, as: UTF8.self)
        #expect(
            naiveText.contains(String(Self.secret.prefix(20))) && naiveText.contains(String(Self.secret.suffix(20))))
        #expect(LogSanitizer.redact(bytes: naive) != naive)

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("long.log", "")
        try Data(line + [0x0A] + Array("next Bearer abc\n".utf8)).write(to: URL(fileURLWithPath: path))
        func redact(_ path: String) throws -> Shell.Result {
            // Shell.run starts /usr/bin/env, which takes NAME=VALUE before the command.
            try Shell.run(["PINCTL_REDACT_PIECE_BYTES=\(Self.piece)", PinctlBinary.url.path, "redact", path])
        }
        let result = try redact(path)
        #expect(result.status == 0)
        let expected = String(decoding: LogSanitizer.redact(bytes: line), as: UTF8.self) + "\nnext [redacted-bearer]\n"
        #expect(result.stdout == expected)
        #expect(
            !result.stdout.contains(String(Self.secret.prefix(12)))
                && !result.stdout.contains(String(Self.secret.suffix(12))))
        let again = try directory.write("again.log", result.stdout)
        #expect(try redact(again).stdout == result.stdout)
    }
}
