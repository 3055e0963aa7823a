import Foundation
import PinKit
import PinKitOpenSSL

/// Strict reading of device uploads: the schema is closed (unknown keys are errors), every
/// structured field is checked against its format, and only free text passes through the
/// sanitizer (a hash, a chain or a pin must arrive byte for byte, or anchoring and the key
/// summary break).
enum UploadValidation {
    struct Invalid: Error {
        var code: String
        var detail: String
    }

    static let maximumReports = 100
    static let maximumAuditEntries = 5_000
    static let maximumReasonLength = 512

    static func isAppVersion(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy {
                isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "_")
            }
    }

    /// A random installation identifier: 8…64 characters of `[A-Za-z0-9-]`.
    static func isInstallationID(_ text: String) -> Bool {
        (8...64).contains(text.utf8.count) && text.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
    }

    static func isReportID(_ text: String) -> Bool { isInstallationID(text) }

    static func isHexHash(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    static func isHostname(_ text: String) -> Bool {
        (1...253).contains(text.utf8.count)
            && text.utf8.allSatisfy {
                isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":")
                    || $0 == UInt8(ascii: "_")
            }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
    }

    static func parse(_ body: [UInt8]) throws(Invalid) -> JSONValue {
        do {
            return try JSONParser.parse(body)
        } catch {
            throw Invalid(code: "malformed-json", detail: error.reason)
        }
    }

    static func invalid(_ problems: [ConfigurationProblem], _ what: String) -> Invalid {
        let list = problems.prefix(5).map { "\($0.path): \($0.message)" }.joined(separator: "; ")
        return Invalid(code: "invalid-document", detail: "\(what): \(list)")
    }

    // MARK: Reports

    /// `{"reports":[…],"dropped-reports":N}` as `PinFailureReportStore.uploadDocument()` writes it.
    static func reports(_ body: [UInt8]) throws(Invalid) -> (reports: [StoredReport], dropped: Int64) {
        let value = try parse(body)
        var reader = DocumentReader()
        let fields = reader.object(value, at: "", allowed: ["reports", "dropped-reports"], required: ["reports"])
        let items = reader.array(fields?["reports"], at: "reports")
        let dropped = fields?["dropped-reports"].map { reader.integer($0, at: "dropped-reports") } ?? 0
        guard reader.problems.isEmpty, let items else { throw invalid(reader.problems, "not a report upload") }
        guard items.count <= maximumReports else {
            throw Invalid(code: "too-many-reports", detail: "\(items.count) reports; the limit is \(maximumReports)")
        }
        guard let dropped, dropped >= 0, dropped <= 1_000_000 else {
            throw Invalid(code: "invalid-document", detail: "dropped-reports: expected a count in 0…1000000")
        }
        var reports: [StoredReport] = []
        var seen = Set<String>()
        for (index, item) in items.enumerated() {
            let report = try self.report(item, at: "reports[\(index)]")
            guard seen.insert(report.id).inserted else {
                throw Invalid(code: "invalid-document", detail: "reports[\(index)].id: the id appears twice")
            }
            reports.append(report)
        }
        return (reports, dropped)
    }

    private static func report(_ value: JSONValue, at path: String) throws(Invalid) -> StoredReport {
        guard case .object(let members) = value else {
            throw Invalid(code: "invalid-document", detail: "\(path): expected an object, saw \(value.typeName)")
        }
        let extras = ["id", "count", "first-seen", "last-seen"]
        var reader = DocumentReader()
        let id = reader.string(value["id"], at: "\(path).id")
        let count = reader.integer(value["count"], at: "\(path).count")
        let first = reader.date(value["first-seen"], at: "\(path).first-seen")
        let last = reader.date(value["last-seen"], at: "\(path).last-seen")
        for key in extras where value[key] == nil {
            reader.report(.missingKey, at: "\(path).\(key)", "required key \"\(key)\" is missing")
        }
        guard reader.problems.isEmpty, let id, let count, let first, let last else {
            throw invalid(reader.problems, "not a pin-failure report")
        }
        guard isReportID(id) else { throw Invalid(code: "invalid-document", detail: "\(path).id: not a report id") }
        guard count >= 1, first <= last else {
            throw Invalid(code: "invalid-document", detail: "\(path): count must be ≥ 1 and first-seen ≤ last-seen")
        }
        let core = JSONValue.object(members.filter { !extras.contains($0.key) })
        let report: PinFailureReport
        do {
            report = try PinFailureReport(json: core)
        } catch {
            throw invalid(error.problems, "\(path) is not an RFC 7469 report")
        }
        let event = report.event
        guard isHostname(event.hostname), isHostname(event.notedHostname) else {
            throw Invalid(code: "invalid-document", detail: "\(path).hostname: not a host name")
        }
        guard (1...65_535).contains(event.port) else {
            throw Invalid(code: "invalid-document", detail: "\(path).port: expected 1…65535")
        }
        guard isAppVersion(report.appVersion) else {
            throw Invalid(code: "invalid-document", detail: "\(path).app-version: not a version")
        }
        var pins: [String] = []
        for pin in event.knownPins {
            guard let parsed = try? SPKIPin(parsing: pin) else {
                throw Invalid(code: "invalid-document", detail: "\(path).known-pins: not an SPKI pin")
            }
            pins.append(parsed.base64)
        }
        var served: [String] = []
        for (which, chain) in [
            ("served", event.servedCertificateChain), ("validated", event.validatedCertificateChain),
        ] {
            guard chain.count <= 10 else {
                throw Invalid(code: "invalid-document", detail: "\(path).\(which)-certificate-chain: more than 10")
            }
            for pem in chain {
                guard pem.utf8.count <= 16_384, let certificates = try? X509Certificate.load(pem: pem),
                    certificates.count == 1
                else {
                    throw Invalid(
                        code: "invalid-document",
                        detail: "\(path).\(which)-certificate-chain: each element must be one PEM certificate")
                }
                if which == "served" { served.append(certificates[0].spkiSHA256.base64) }
            }
        }
        let reason = String(LogSanitizer.redact(event.reason).prefix(maximumReasonLength))
        var document = members
        if let index = document.firstIndex(where: { $0.key == "failure-reason" }) {
            document[index].value = .string(reason)
        }
        return StoredReport(
            id: id, hostname: event.hostname.lowercased(), port: event.port, appVersion: report.appVersion,
            mode: event.mode.rawValue, failureReason: reason,
            pinSet: PinSetFingerprint.of(pins: pins),
            servedKeys: served, count: count, firstSeen: first, lastSeen: last,
            document: JSONValue.object(document).serialized())
    }

    // MARK: Audit

    /// `{"entries":[…]}` as `AuditLog.uploadDocument()` writes it; only the first entry may be
    /// a truncation marker, and sequence numbers must rise.
    static func auditEntries(_ body: [UInt8]) throws(Invalid) -> [AuditUploadEntry] {
        let value = try parse(body)
        var reader = DocumentReader()
        let fields = reader.object(value, at: "", allowed: ["entries"], required: ["entries"])
        let items = reader.array(fields?["entries"], at: "entries")
        guard reader.problems.isEmpty, let items else { throw invalid(reader.problems, "not an audit upload") }
        guard items.count <= maximumAuditEntries else {
            throw Invalid(
                code: "too-many-entries", detail: "\(items.count) entries; the limit is \(maximumAuditEntries)")
        }
        var entries: [AuditUploadEntry] = []
        for (index, item) in items.enumerated() {
            let path = "entries[\(index)]"
            var reader = DocumentReader()
            let isMarker = item["type"] == .string("truncated")
            if isMarker && index != 0 {
                throw Invalid(code: "invalid-document", detail: "\(path): a truncation marker may only come first")
            }
            let keys =
                isMarker ? ["seq", "time", "type", "anchor", "removed"] : ["seq", "time", "type", "fields", "prev"]
            let members = reader.object(item, at: path, allowed: keys, required: keys)
            let seq = reader.integer(members?["seq"], at: "\(path).seq")
            _ = reader.date(members?["time"], at: "\(path).time")
            let type = reader.string(members?["type"], at: "\(path).type")
            var link: String?
            if isMarker {
                link = reader.string(members?["anchor"], at: "\(path).anchor")
                _ = reader.integer(members?["removed"], at: "\(path).removed")
            } else {
                link = reader.string(members?["prev"], at: "\(path).prev")
                if let fields = members?["fields"], case .object = fields {
                } else if members != nil {
                    reader.report(.wrongType, at: "\(path).fields", "expected an object")
                }
            }
            guard reader.problems.isEmpty, let seq, let type, let link else {
                throw invalid(reader.problems, "not an audit entry")
            }
            guard seq >= 1, isHexHash(link), (1...64).contains(type.utf8.count) else {
                throw Invalid(
                    code: "invalid-document", detail: "\(path): seq must be ≥ 1, prev/anchor 64 lower-case hex")
            }
            if let previous = entries.last, seq <= previous.seq {
                throw Invalid(
                    code: "invalid-document", detail: "\(path).seq: \(seq) does not rise after \(previous.seq)")
            }
            // The hash covers the line exactly as the device wrote it; the parser keeps member
            // order and number text, so serializing again reproduces those bytes.
            let line = item.serialized()
            entries.append(
                AuditUploadEntry(
                    seq: seq, kind: isMarker ? .truncated(anchor: link) : .entry(prev: link), type: type,
                    hash: PortableSHA256.hex(Array(line.utf8)), document: sanitized(item).serialized()))
        }
        return entries
    }

    /// The entry with every string inside `fields` passed through the sanitizer, each with the key
    /// of the member it is in (a credential key's string goes whole: the rules never see the key and
    /// the value together).
    private static func sanitized(_ entry: JSONValue) -> JSONValue {
        guard case .object(var members) = entry, let index = members.firstIndex(where: { $0.key == "fields" }) else {
            return entry
        }
        func clean(_ value: JSONValue, key: String = "") -> JSONValue {
            switch value {
            case .string(let text): return .string(LogSanitizer.redact(text, key: key))
            case .array(let items): return .array(items.map { clean($0, key: key) })
            case .object(let members): return .object(members.map { ($0.key, clean($0.value, key: $0.key)) })
            default: return value
            }
        }
        members[index].value = clean(members[index].value)
        return .object(members)
    }

    // MARK: Check-in

    static func checkIn(_ body: [UInt8], installation: String) throws(Invalid) -> CheckIn {
        let value = try parse(body)
        var reader = DocumentReader()
        let keys = ["appVersion", "pinSetFingerprint", "pinSetExpiry"]
        let fields = reader.object(value, at: "", allowed: keys, required: ["appVersion"])
        let version = reader.string(fields?["appVersion"], at: "appVersion")
        let fingerprint =
            fields?["pinSetFingerprint"] == nil || fields?["pinSetFingerprint"] == .null
            ? nil : reader.string(fields?["pinSetFingerprint"], at: "pinSetFingerprint")
        let expiry =
            fields?["pinSetExpiry"] == nil || fields?["pinSetExpiry"] == .null
            ? nil : reader.date(fields?["pinSetExpiry"], at: "pinSetExpiry")
        guard reader.problems.isEmpty, let version else { throw invalid(reader.problems, "not a check-in") }
        guard isAppVersion(version) else {
            throw Invalid(code: "invalid-document", detail: "appVersion: not a version")
        }
        if let fingerprint,
            !(1...128).contains(fingerprint.utf8.count)
                || !fingerprint.utf8.allSatisfy({
                    isAlphanumeric($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "=")
                        || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
                })
        {
            throw Invalid(code: "invalid-document", detail: "pinSetFingerprint: expected hex or base64")
        }
        return CheckIn(
            installationID: installation, appVersion: version, pinSetFingerprint: fingerprint, pinSetExpiry: expiry)
    }
}
