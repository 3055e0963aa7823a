import Foundation
import PinKitTestSupport
import Testing

/// `scripts/check-core-portability`, which CI runs: the core imports nothing Linux-only outside
/// `#if canImport(…)` and no C module, so the Apple adapter can build on it.
@Suite("Core portability check")
struct CorePortabilityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let script = root.appendingPathComponent("scripts/check-core-portability").path

    @Test("an unguarded Glibc import, a FoundationNetworking import under the wrong guard and a C import are caught")
    func catchesLinuxOnlyImports() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(
            "Bad.swift",
            """
            import Foundation
            import Glibc
            #if canImport(Darwin)
            import FoundationNetworking
            #elseif canImport(Glibc)
                import Glibc
            #endif
            internal import COpenSSL
            """)
        let result = try Shell.run([Self.script, directory.path])
        #expect(result.status == 1)
        #expect(result.stdout.split(separator: "\n").map { $0.split(separator: ":")[1] } == ["2", "4", "8"])
    }

    @Test("the core passes")
    func corePasses() throws {
        let result = try Shell.run([Self.script, Self.root.appendingPathComponent("Sources/PinKit").path])
        #expect(result.status == 0, "\(result.stdout)")
    }
}
