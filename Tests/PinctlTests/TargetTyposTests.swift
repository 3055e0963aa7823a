import Foundation
import PinKitTestSupport
import Testing

/// A file path typed where `spki` or `check` expect HOST[:PORT] was resolved as a host name:
/// "Could not resolve host: ." and exit 3 (network error) for `pinctl spki ./chain.pem`. A target
/// that cannot be a host name, or that names an existing file, is a usage error (exit 2) that
/// points at --pem.
@Suite("Host targets that are file paths")
struct TargetTyposTests {
    @Test(
        "a path where a host belongs is a usage error naming --pem",
        arguments: [
            ["spki", "./missing.pem"], ["spki", "/tmp"], ["spki", "certs/chain.pem"], ["check", "./chain.pem"],
            ["spki", "a b"],
        ])
    func pathAsHost(arguments: [String]) throws {
        let result = try PinctlBinary.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("--pem"), "\(arguments): \(result.stderr)")
    }

    @Test("an existing file named like a host is pointed at --pem too; --json gives a JSON usage error")
    func existingFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try directory.write("chain.pem", "not used")
        let result = try PinctlBinary.run(["spki", "--json", directory.file("chain.pem")])
        #expect(result.status == 2)
        #expect(result.stdout.contains("\"usage\""), "\(result.stdout)")
    }
}
