import Foundation

/// An RFC 7469 section 3 pin-validation failure report, plus the app version, the failure
/// reason and the mode. Nothing else: no user identifier, URL path or query, or token.
public struct PinFailureReport: Hashable, Sendable {
    public var event: PinFailureEvent
    public var appVersion: String

    public init(event: PinFailureEvent, appVersion: String) {
        self.event = event
        self.appVersion = appVersion
    }

    /// What makes two failures "the same" for deduplication: host, port, the verified chain's
    /// keys and the known pins.
    public var deduplicationKey: String {
        let parts =
            [event.hostname, String(event.port)] + event.validatedChainPins.map(\.base64) + ["|"] + event.knownPins
        return PortableSHA256.hex(Array(parts.joined(separator: "\n").utf8))
    }

    /// The report's JSON members in RFC 7469 order, then PinKit's three additions.
    public var json: JSONValue {
        [
            "date-time": .string(RFC3339.format(event.date)),
            "hostname": .string(event.hostname),
            "port": .int(event.port),
            "effective-expiration-date": .optionalString(event.effectiveExpirationDate.map(RFC3339.format)),
            "include-subdomains": .bool(event.includeSubdomains),
            "noted-hostname": .string(event.notedHostname),
            "served-certificate-chain": .array(event.servedCertificateChain.map(JSONValue.string)),
            "validated-certificate-chain": .array(event.validatedCertificateChain.map(JSONValue.string)),
            "known-pins": .array(event.knownPins.map(JSONValue.string)),
            "app-version": .string(appVersion),
            "failure-reason": .string(LogSanitizer.redact(event.reason)),
            "mode": .string(event.mode.rawValue),
        ]
    }

    /// Reads a report written by ``json``.
    /// - Throws: ``PinKitError/Code/invalidDocument`` naming every problem.
    public init(json value: JSONValue) throws(PinKitError) {
        var reader = DocumentReader()
        let keys = [
            "date-time", "hostname", "port", "effective-expiration-date", "include-subdomains", "noted-hostname",
            "served-certificate-chain", "validated-certificate-chain", "known-pins", "app-version", "failure-reason",
            "mode",
        ]
        let fields = reader.object(
            value, at: "", allowed: keys, required: keys.filter { $0 != "effective-expiration-date" })
        let date = reader.date(fields?["date-time"], at: "date-time")
        let hostname = reader.string(fields?["hostname"], at: "hostname")
        let port = reader.integer(fields?["port"], at: "port")
        let expires: Date? =
            fields?["effective-expiration-date"] == .null
            ? nil : reader.date(fields?["effective-expiration-date"], at: "effective-expiration-date")
        let include = reader.bool(fields?["include-subdomains"], at: "include-subdomains")
        let noted = reader.string(fields?["noted-hostname"], at: "noted-hostname")
        let served = reader.strings(fields?["served-certificate-chain"], at: "served-certificate-chain")
        let validated = reader.strings(fields?["validated-certificate-chain"], at: "validated-certificate-chain")
        let known = reader.strings(fields?["known-pins"], at: "known-pins")
        let version = reader.string(fields?["app-version"], at: "app-version")
        let reason = reader.string(fields?["failure-reason"], at: "failure-reason")
        let mode = reader.enumeration(fields?["mode"], at: "mode", as: PinConfiguration.Mode.self)
        guard reader.problems.isEmpty, let date, let hostname, let port, let include, let noted, let served,
            let validated, let known, let version, let reason, let mode
        else {
            throw PinKitError(.invalidDocument, "not a pin failure report", problems: reader.problems)
        }
        self.init(
            event: PinFailureEvent(
                date: date,
                hostname: hostname,
                port: Int(port),
                notedHostname: noted,
                setName: "",
                includeSubdomains: include,
                effectiveExpirationDate: expires,
                mode: mode,
                servedCertificateChain: served,
                validatedCertificateChain: validated,
                knownPins: known,
                // Not part of the wire format; the store keeps each report's deduplication key.
                validatedChainPins: [],
                reason: reason
            ),
            appVersion: version
        )
    }
}
