import Foundation
import PinKit
import PinKitCollector
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport

/// Upload bodies produced by the real client-side stores (`PinFailureReportStore`, `AuditLog`),
/// so the collector is tested against exactly what devices send.
enum CollectorFixtures {
    static let referenceTime = Date(timeIntervalSince1970: 1_790_000_000)

    /// One lab PKI for the whole test process (key generation is the slow part).
    static let pki: LabPKI = try! LabPKI(name: "Collector Lab", referenceTime: referenceTime)
    static let servedChain: [X509Certificate] = try! pki.leaf(["api.example.com"]).chain

    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "pinkit-collector-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func event(
        host: String = "api.example.com", chain: [X509Certificate]? = nil, reason: String = "pin mismatch"
    )
        -> PinFailureEvent
    {
        let served = chain ?? servedChain
        return PinFailureEvent(
            date: referenceTime, hostname: host, port: 443, notedHostname: host, setName: "api",
            includeSubdomains: true, effectiveExpirationDate: referenceTime.addingTimeInterval(86_400 * 300),
            mode: .enforce, servedCertificateChain: served.map(\.pem), validatedCertificateChain: served.map(\.pem),
            knownPins: [pki.backupKey.spkiPin.base64], validatedChainPins: served.map(\.spkiSHA256), reason: reason)
    }

    /// The body `PinFailureReportStore.uploadDocument()` sends for `events`, and the report ids.
    static func reportUpload(_ events: [PinFailureEvent], appVersion: String = "4.2.0") throws -> (
        body: [UInt8], ids: [String]
    ) {
        let store = try PinFailureReportStore(directory: temporaryDirectory())
        for event in events { store.record(PinFailureReport(event: event, appVersion: appVersion)) }
        let document = store.uploadDocument()
        return (document.body, document.ids)
    }

    /// A real audit log with `count` entries; returns it for further writes.
    static func auditLog(entries count: Int, event: AuditEvent? = nil) throws -> AuditLog {
        let log = try AuditLog(path: temporaryDirectory() + "/audit.log", now: { referenceTime })
        for index in 0..<count { log.record(event ?? .syncToggled(enabled: index % 2 == 0)) }
        return log
    }

    /// The validated entries of a body, as the API would store them.
    static func entries(_ body: [UInt8]) throws -> [AuditUploadEntry] {
        try CollectorAPI.validatedAuditEntries(body)
    }
}
