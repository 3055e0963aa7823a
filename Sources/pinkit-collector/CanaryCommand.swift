import Foundation
import PinKit
import PinKitCollector
import PinKitTransport

/// `pinkit-collector canary`: fetch each pinned host's live chain and check it against every
/// release; exit 1 when it would brick a live release (for cron and alerting).
struct CanaryCommand {
    static let help = """
        USAGE: pinkit-collector canary --releases FILE --host HOST[:PORT]... [--ca-file FILE]
                 [--resolve HOST:PORT:ADDRESS]... [--json] [--data DIR [--database URL]]
        Fetches the chain each HOST serves (a TLS handshake, as `pinctl spki HOST`) and runs the
        rotation check against every release in FILE whose pin set is live, whatever its share.
        Run it from cron: it sees a bad rotation before the first device report. With --data, the
        verdicts are stored for operators (GET /v1/canary).
        EXIT CODES: 0 no live release would be bricked; 1 one would; 2 usage error;
        3 a host could not be reached.
        """

    var releases: String
    var hosts: [(host: String, port: Int)]
    var caFile: String?
    var resolve: [String]
    var json: Bool
    var storage: StorageOptions?

    init(_ words: [String]) throws {
        var options = Options(words)
        if words.contains("--data") || words.contains(where: { $0.hasPrefix("--data=") }) {
            storage = try StorageOptions(&options)
        }
        guard let releases = try options.value("--releases") else { throw UsageError("--releases FILE is required") }
        self.releases = releases
        hosts = try options.values("--host").map { text throws -> (String, Int) in
            if let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
                (1...65_535).contains(port)
            {
                return (String(text[..<colon]), port)
            }
            guard !text.contains(":") else { throw UsageError("--host expects HOST or HOST:PORT, saw \(text)") }
            return (text, 443)
        }
        guard !hosts.isEmpty else { throw UsageError("give at least one --host") }
        caFile = try options.value("--ca-file")
        resolve = try options.values("--resolve")
        json = options.flag("--json")
        try options.finish()
    }

    func run() throws -> Int32 {
        let history: ReleaseHistory
        do {
            history = try ReleaseHistory.load(contentsOf: releases)
        } catch {
            throw UsageError("--releases: \(error.description)")
        }
        var settings = PinnedHTTPClient.Configuration.unpinned()
        if let caFile { settings.trustStore = .caFile(caFile) }
        settings.resolve = resolve
        settings.reuseConnections = false
        settings.connectTimeout = .seconds(10)
        let client = try PinnedHTTPClient(settings)
        defer { client.shutdown() }
        var chains: [(host: String, port: Int, chain: [CertificateFacts])] = []
        var unreachable: [(host: String, reason: String)] = []
        for target in hosts {
            switch Self.fetch(client, target.host, target.port) {
            case .success(let chain): chains.append((target.host, target.port, chain))
            case .failure(let error): unreachable.append((target.host, error.reason))
            }
        }
        let now = Date()
        let report = CanaryReport(history: history, chains: chains, unreachable: unreachable, now: now)
        if let storage {
            let opened = try storage.open()
            defer { opened.close() }
            try opened.recordCanary(report.results(at: now))
        }
        if json {
            standardOutput(report.json.serialized(pretty: true))
        } else {
            for host in report.hosts {
                let verdict =
                    host.bricked.isEmpty ? "ok" : "WOULD BRICK releases \(host.bricked.joined(separator: ", "))"
                standardOutput("\(host.host):\(host.port): \(verdict)")
                for warning in host.warnings { standardOutput("  warning: \(warning)") }
            }
            for host in report.unreachable { standardOutput("\(host.host): unreachable: \(host.reason)") }
        }
        if report.bricksALiveRelease { return 1 }
        return report.unreachable.isEmpty ? 0 : 3
    }

    /// The chain as verified (served chain when it does not verify: still worth checking).
    private static func fetch(_ client: PinnedHTTPClient, _ host: String, _ port: Int)
        -> Result<[CertificateFacts], TransportError>
    {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(TransportError) {
                let report = try await client.handshake(host: host, port: port)
                box.result = .success(report.verifiedChain.isEmpty ? report.servedChain : report.verifiedChain)
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return box.result ?? .failure(TransportError(.network, "no result"))
    }

    private final class ResultBox: @unchecked Sendable {
        // @unchecked Sendable: written once by the task before the semaphore is signalled, read after.
        var result: Result<[CertificateFacts], TransportError>?
    }
}
