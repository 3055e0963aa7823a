public import Foundation

/// Everything one console page shows, read from storage in one go.
public struct ConsoleData: Sendable {
    public var now: Date
    public var currentKillSwitch: KillSwitchPublication?
    public var publications: [KillSwitchPublication]
    public var failuresSince: Date
    public var failures: [FailureGroup]
    public var failuresPerDay: [DailyFailureCount]
    public var installedBaseWindow: TimeInterval
    public var installedBase: [InstalledVersion]
    public var anomalies: [AuditAnomaly]

    public init(
        now: Date, currentKillSwitch: KillSwitchPublication?, publications: [KillSwitchPublication],
        failuresSince: Date, failures: [FailureGroup], failuresPerDay: [DailyFailureCount] = [],
        installedBaseWindow: TimeInterval,
        installedBase: [InstalledVersion], anomalies: [AuditAnomaly]
    ) {
        self.now = now
        self.currentKillSwitch = currentKillSwitch
        self.publications = publications
        self.failuresSince = failuresSince
        self.failures = failures
        self.failuresPerDay = failuresPerDay
        self.installedBaseWindow = installedBaseWindow
        self.installedBase = installedBase
        self.anomalies = anomalies
    }

    /// Reads the page's data: failures of the last 7 days, anomalies within the retention.
    /// - Throws: ``CollectorError`` when storage fails.
    public static func load(
        from storage: any CollectorStorage, configuration: CollectorAPI.Configuration, now: Date
    ) throws(CollectorError) -> ConsoleData {
        let since = now.addingTimeInterval(-7 * 86_400)
        return ConsoleData(
            now: now, currentKillSwitch: try storage.currentKillSwitch(),
            publications: try storage.killSwitchPublications(), failuresSince: since,
            failures: try storage.pinFailureSummary(since: since),
            failuresPerDay: try storage.pinFailuresPerDay(since: since),
            installedBaseWindow: configuration.installedBaseWindow,
            installedBase: try storage.installedBase(window: configuration.installedBaseWindow, now: now),
            anomalies: try storage.auditAnomalies(since: now.addingTimeInterval(-configuration.retention)))
    }
}
