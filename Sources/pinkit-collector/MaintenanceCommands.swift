import Foundation
import PinKit
import PinKitCollector

/// `migrate`, `purge` and `export`: the storage without the server.
enum MaintenanceCommands {
    static let help = """
        USAGE: pinkit-collector migrate --data DIR [--database URL]
               pinkit-collector purge --data DIR [--database URL] [--retention-days N]
               pinkit-collector export --data DIR [--database URL]
        migrate applies pending schema migrations; purge deletes rows older than the retention
        (default 90 days); export prints stored reports, anomalies, the installed base and the
        kill-switch publications as one JSON document.
        """

    static func migrate(_ words: [String]) throws -> Int32 {
        var options = Options(words)
        let storage = try StorageOptions(&options)
        try options.finish()
        let opened = try SQLCollectorStorage.open(
            dataDirectory: storage.dataDirectory, databaseURL: storage.databaseURL)
        defer { opened.close() }
        let applied = try opened.migrate()
        standardOutput((["applied": .array(applied.map { .int($0) })] as JSONValue).serialized())
        return 0
    }

    static func purge(_ words: [String]) throws -> Int32 {
        var options = Options(words)
        let storage = try StorageOptions(&options)
        var days = 90
        if let text = try options.value("--retention-days") {
            guard let value = Int(text), value >= 0 else {
                throw UsageError("--retention-days expects a whole number ≥ 0")
            }
            days = value
        }
        try options.finish()
        let opened = try storage.open()
        defer { opened.close() }
        let counts = try opened.purge(before: Date().addingTimeInterval(-Double(days) * 86_400))
        let document: JSONValue = [
            "retentionDays": .int(days), "reports": .int(counts.reports), "auditEntries": .int(counts.auditEntries),
            "anomalies": .int(counts.anomalies), "installations": .int(counts.installations),
        ]
        standardOutput(document.serialized())
        return 0
    }

    static func export(_ words: [String]) throws -> Int32 {
        var options = Options(words)
        let storage = try StorageOptions(&options)
        try options.finish()
        let opened = try storage.open()
        defer { opened.close() }
        let epoch = Date(timeIntervalSince1970: 0)
        let now = Date()
        let document: JSONValue = [
            "exportedAt": .string(RFC3339.format(now)),
            "reportIDs": .array(try opened.reportIDs().map(JSONValue.string)),
            "failureGroups": .array(
                try opened.pinFailureSummary(since: epoch).map { group in
                    [
                        "hostname": .string(group.hostname), "pinSet": .string(group.pinSet),
                        "appVersion": .string(group.appVersion),
                        "servedKeys": .array(group.servedKeys.map(JSONValue.string)), "reports": .int(group.reports),
                        "installations": .int(group.installations),
                    ]
                }),
            "anomalies": .array(
                try opened.auditAnomalies(since: epoch).map { anomaly in
                    [
                        "installation": .string(anomaly.installationID), "seq": .int(anomaly.seq),
                        "kind": .string(anomaly.kind.rawValue), "expectedHash": .string(anomaly.expectedHash),
                        "seenHash": .string(anomaly.seenHash),
                    ]
                }),
            "installedBase": .array(
                try opened.installedBase(window: 30 * 86_400, now: now).map { version in
                    ["version": .string(version.version), "installations": .int(version.installations)]
                }),
            "killSwitchPublications": .array(
                try opened.killSwitchPublications().map { publication in
                    [
                        "serial": .int(publication.serial), "operator": .string(publication.operatorName),
                        "reason": .string(publication.reason),
                        "publishedAt": .string(RFC3339.format(publication.publishedAt)),
                    ]
                }),
        ]
        standardOutput(document.serialized(pretty: true))
        return 0
    }
}
