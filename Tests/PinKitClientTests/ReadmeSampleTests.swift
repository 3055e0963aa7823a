// The code samples of README.md, compiled and run as part of the tests, so the README cannot
// drift from the API. Keep the two in step.
import Foundation
import PinKit
import PinKitClient
import PinKitOpenSSL
import PinKitTransport
import Testing

/// README "Using the library".
func readmeUsingTheLibrary(configurationPath: String, chainPath: String) throws -> String {
    let configuration = try PinConfiguration.load(contentsOf: configurationPath)
    for problem in configuration.validate() { print(problem) }  // every problem at once
    let policy = try PinPolicy(configuration)  // throws on errors in the document, never for the date
    _ = policy.isPinnedHost("v2.api.example.com")  // true: subdomain of a pinned apex

    let chain = try Certificate.load(contentsOf: chainPath).map(\.facts)  // leaf first
    switch policy.evaluate(host: "api.example.com", verifiedChain: chain) {
    case .matched(let match): return "pinned at depth \(match.depth): \(match.label ?? "")"
    case .mismatch(let failure): return "\(failure)"  // host, chain keys, expected pins
    case .unpinnedHost, .pinSetExpired: return "system trust decides"
    }
}

/// README "Pinned HTTPS".
func readmePinnedHTTPS(policy: PinPolicy) async throws -> Int {
    var settings = PinnedHTTPClient.Configuration.pinned(policy)
    settings.observer = { event in _ = event }  // a PinningEvent: pin failure or expired set; return quickly
    settings.logger = Logger(category: "transport", configuration: .production(sinks: [.standardError]))
    let client = try PinnedHTTPClient(settings)
    let response = try await client.send(HTTPRequest(url: URL(string: "https://api.example.com/v1/status")!))
    return response.status
}

/// README "The API client".
func readmeAPIClient(policy: PinPolicy, stateDirectory: String, name: String, password: String) async throws -> String {
    struct Profile: Codable, Sendable { let name: String }
    var configuration = APIClient.Configuration(
        baseURL: URL(string: "https://api.example.com")!,
        policy: policy,
        credentials: InMemoryCredentialStore()
    )
    configuration.auditLog = try AuditLog(path: stateDirectory + "/audit.jsonl")
    configuration.reporter = PinFailureReporter(
        store: try PinFailureReportStore(directory: stateDirectory + "/reports"),
        appVersion: "1.4.2"
    )
    configuration.reportingURL = URL(string: "https://api.example.com/v1/pin-failures")
    configuration.onLogout = { reason in _ = reason }  // show the sign-in screen
    let api = try APIClient(configuration)
    try await api.login(username: name, password: password)  // the password is never stored
    let profile = try await api.get("/v1/profile", as: Profile.self)
    return profile.name
}

@Suite("README samples")
struct ReadmeSampleTests {
    @Test("the library sample runs on the bundled sample configuration and chain")
    func usingTheLibrary() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let result = try readmeUsingTheLibrary(
            configurationPath: root.appendingPathComponent("Samples/pinkit.json").path,
            chainPath: root.appendingPathComponent("Samples/chain.pem").path
        )
        #expect(result == "pinned at depth 2: PinKit Sample Issuing CA 1")
        // The network samples compile with the suite; the lab and transport suites exercise them.
        _ = readmePinnedHTTPS
        _ = readmeAPIClient
    }
}
