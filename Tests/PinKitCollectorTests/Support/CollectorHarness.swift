import Foundation
import PinKit
import PinKitCollector

/// An in-process collector on a loopback port, over SQLite in a temp dir.
final class CollectorHarness: @unchecked Sendable {
    // @unchecked Sendable: immutable after init.
    let storage: SQLCollectorStorage
    let api: CollectorAPI
    let server: HTTPServer
    var port: UInt16 { server.port }

    init(
        configuration: CollectorAPI.Configuration = CollectorHarness.permissive(),
        limits: HTTPServer.Limits = HTTPServer.Limits(),
        tls: HTTPServer.TLS? = nil,
        trustedProxies: [CIDR] = [],
        now: @escaping @Sendable () -> Date = { CollectorFixtures.referenceTime }
    ) throws {
        storage = try SQLCollectorStorage.open(dataDirectory: CollectorFixtures.temporaryDirectory(), databaseURL: nil)
        try storage.migrate()
        let api = CollectorAPI(storage: storage, configuration: configuration, now: now)
        self.api = api
        server = try HTTPServer(
            address: "127.0.0.1", port: 0, tls: tls, limits: limits, trustedProxies: trustedProxies
        ) { api.handle($0) }
    }

    /// Rate limits out of the way (the rate-limit test sets its own).
    static func permissive() -> CollectorAPI.Configuration {
        var configuration = CollectorAPI.Configuration()
        configuration.addressRate = RateLimiter.Rule(burst: 1_000_000, perSecond: 1_000_000)
        configuration.installationRate = RateLimiter.Rule(burst: 1_000_000, perSecond: 1_000_000)
        return configuration
    }

    func stop() {
        server.stop()
        storage.close()
    }

    static let deviceHeaders = [
        "X-PinKit-Installation": "install-0000-test", "X-PinKit-App-Version": "4.2.0",
        "Content-Type": "application/json",
    ]

    func post(_ path: String, _ body: [UInt8], headers: [String: String] = deviceHeaders) throws
        -> LoopbackHTTP.Response
    {
        try LoopbackHTTP.exchange(port: port, "POST", path, headers: headers, body: body)
    }

    func get(_ path: String, headers: [String: String] = [:]) throws -> LoopbackHTTP.Response {
        try LoopbackHTTP.exchange(port: port, "GET", path, headers: headers)
    }
}
