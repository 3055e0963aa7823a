import Foundation
import PinKit
import PinKitTransport

/// The live devices' requests, through PinKit's own transport (an unpinned session, as the
/// kill-switch fetch and the report path use) to the real collector on loopback.
final class LiveTransport: Sendable {
    enum Outcome: Sendable {
        case answered(status: Int, headers: HTTPHeaders, body: [UInt8])
        case failed
    }

    struct Call: Sendable {
        var device: Int
        var request: HTTPRequest
    }

    let client: PinnedHTTPClient
    let concurrency: Int

    init(collector: CollectorProcess, concurrency: Int = 16) throws {
        var settings = PinnedHTTPClient.Configuration.unpinned()
        settings.trustStore = .caFile(collector.caFile)
        settings.resolve = [collector.resolveEntry]
        settings.connectTimeout = .seconds(3)
        settings.requestTimeout = .seconds(20)
        settings.maximumConnectionsPerHost = concurrency
        settings.httpVersion = .http1Only
        client = try PinnedHTTPClient(settings)
        self.concurrency = concurrency
    }

    /// Runs the calls with bounded concurrency; outcomes come back in the calls' order.
    func run(_ calls: [Call]) async -> [Outcome] {
        var outcomes = [Outcome](repeating: .failed, count: calls.count)
        var next = 0
        await withTaskGroup(of: (Int, Outcome).self) { group in
            func add(_ index: Int) {
                let request = calls[index].request
                group.addTask { [client] in
                    do {
                        let response = try await client.send(request)
                        return (
                            index, .answered(status: response.status, headers: response.headers, body: response.body)
                        )
                    } catch {
                        return (index, .failed)
                    }
                }
            }
            while next < min(concurrency, calls.count) {
                add(next)
                next += 1
            }
            for await (index, outcome) in group {
                outcomes[index] = outcome
                if next < calls.count {
                    add(next)
                    next += 1
                }
            }
        }
        return outcomes
    }

    func shutdown() { client.shutdown() }

    /// The headers a device behind a load balancer arrives with.
    static func deviceHeaders(_ device: Int, appVersion: String) -> HTTPHeaders {
        [
            "X-Forwarded-For": "10.\((device >> 16) & 255).\((device >> 8) & 255).\(device & 255)",
            "X-PinKit-Installation": String(format: "fleet-device-%08d", device),
            "X-PinKit-App-Version": appVersion,
        ]
    }
}
