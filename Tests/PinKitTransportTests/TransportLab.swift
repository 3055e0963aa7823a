import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import PinKitTransport
import Testing

/// The PKIs and trust store the transport suites share: the platform's real PKI, and a rogue
/// CA that the trust store also accepts (a mis-issuing CA, a TLS-inspection proxy).
final class TransportLab: Sendable {
    static let shared = try! TransportLab()

    let pki: LabPKI
    let rogue: LabPKI
    let directory: TemporaryDirectory
    /// Trusts both roots, as a device with a rogue root installed would.
    let caFile: String

    init() throws {
        pki = try LabPKI(name: "PinKit Lab")
        rogue = try LabPKI(name: "Rogue Inspection CA")
        directory = try TemporaryDirectory()
        caFile = try LabPKI.writeCAFile([pki.root.certificate, rogue.root.certificate], to: directory.file("ca.pem"))
    }

    /// The production pin set: the lab intermediate and root, and the backup key.
    func policy(
        hosts: [String] = ["api.example.com"], mode: String = "enforce", expires: String? = nil, pins: [SPKIPin]? = nil
    )
        throws -> PinPolicy
    {
        let pins = pins ?? [pki.intermediate.pin, pki.root.pin, pki.backupKey.spkiPin]
        let entries = pins.enumerated().map { index, pin in
            #"{"sha256": "\#(pin.base64)", "label": "pin \#(index)"\#(index == pins.count - 1 ? #", "role": "backup""# : "")}"#
        }
        let hostList = hosts.map { "\"\($0)\"" }.joined(separator: ", ")
        let expiry = expires.map { #", "expires": "\#($0)""# } ?? ""
        let json =
            #"{"pinSets": [{"name": "managed-cloud", "hosts": [\#(hostList)], "mode": "\#(mode)"\#(expiry), "pins": [\#(entries.joined(separator: ", "))]}]}"#
        let configuration = try PinConfiguration.parse(Data(json.utf8))
        return try PinPolicy(configuration)
    }

    /// A client of `kind` trusting `caFile`, resolving `hosts` to `server`.
    func client(
        _ policy: PinPolicy,
        kind: PinnedHTTPClient.Kind = .pinned,
        server: LabTLSServer,
        hosts: [String] = ["api.example.com"],
        configure: (inout PinnedHTTPClient.Configuration) -> Void = { _ in }
    ) throws -> PinnedHTTPClient {
        var configuration = PinnedHTTPClient.Configuration(kind: kind, policy: policy)
        configuration.trustStore = .caFile(caFile)
        configuration.resolve = hosts.map { server.resolveEntry(for: $0) }
        // One deadline covers a whole send(), redirect hops included, and the time until the
        // caller's task submits each hop: generous, because the full suite runs CPU-bound tests
        // that hold the task pool for minutes; tests about time set their own.
        configuration.requestTimeout = .seconds(300)
        configure(&configuration)
        return try PinnedHTTPClient(configuration)
    }

    /// An unpinned client with the same trust store: what the attack achieves without pinning.
    func unpinnedClient(server: LabTLSServer, hosts: [String] = ["api.example.com"]) throws -> PinnedHTTPClient {
        try client(.systemTrustOnly, kind: .unpinned, server: server, hosts: hosts)
    }
}

/// Collects pinning events delivered to a client's observer.
final class EventRecorder: Sendable {
    private let events = Locked<[PinningEvent]>([])
    var all: [PinningEvent] { events.withLock { $0 } }
    var observer: @Sendable (PinningEvent) -> Void { { [self] event in events.withLock { $0.append(event) } } }
}

extension PinnedHTTPClient {
    func get(_ url: String, headers: HTTPHeaders = [:]) async throws(TransportError) -> HTTPResponse {
        try await send(HTTPRequest(url: URL(string: url)!, headers: headers))
    }
}

/// Runs `body` and returns the transport error it throws, or nil when it succeeds. Any other
/// error (the test's own set-up failing) is recorded as a test issue.
func transportError(
    _ body: () async throws -> HTTPResponse,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> TransportError? {
    do {
        _ = try await body()
        return nil
    } catch let error as TransportError {
        return error
    } catch {
        Issue.record("set-up failed: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
