public import Foundation
public import PinKit
public import PinKitOpenSSL

/// What the console's rotation check and deadlines work from: the app's release history
/// (`releases.json`, as `pinctl rotation-check --releases` reads it) and the devices' trust
/// store, the same inputs the CLI takes.
public struct ConsoleReleases: Sendable {
    public var history: ReleaseHistory
    public var trustStore: [X509Certificate]
    /// Reminder lead times of the deadlines page and calendar (`pinctl deadlines`' default).
    public var leads: [TimeInterval] = [90 * 86_400, 30 * 86_400, 14 * 86_400]

    public init(history: ReleaseHistory, trustStore: [X509Certificate]) {
        self.history = history
        self.trustStore = trustStore
    }

    /// - Throws: ``CollectorError/Code/configuration`` naming the file that could not be used.
    public static func load(releases: String, trustStore: String) throws(CollectorError) -> ConsoleReleases {
        do {
            return ConsoleReleases(
                history: try ReleaseHistory.load(contentsOf: releases),
                trustStore: try X509Certificate.load(contentsOf: trustStore))
        } catch {
            throw CollectorError(.configuration, "--releases/--trust-store: \(error.description)")
        }
    }
}
