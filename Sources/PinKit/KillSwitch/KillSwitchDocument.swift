public import Foundation

/// A signed kill-switch document: an envelope around the payload bytes and their signatures.
///
/// ```json
/// {"payload": "<base64url of the payload JSON>",
///  "signatures": [{"keyId": "…", "alg": "Ed25519" | "ES256", "sig": "<base64url>"}]}
/// ```
/// The payload can do exactly one thing: turn pinning off (or back on) for a scope until an
/// expiry. Any field beyond the schema, anywhere, rejects the whole document: it can never
/// carry a host to pin, a certificate, a pin or a base URL.
public struct KillSwitchDocument: Hashable, Sendable {
    /// The largest serial a document may carry: 2^53 - 1, the largest integer every JSON tool
    /// reads exactly. A serial at the top of `Int64` would end the kill switch for good.
    public static let maximumSerial: Int64 = 9_007_199_254_740_991
    /// The largest step `pinctl killswitch sign` takes over the last known serial without
    /// `--force-serial-jump`: a slip of the keyboard must not burn the range.
    public static let maximumSerialJump: Int64 = 1_000
    /// The signature algorithms this version verifies; entries with any other `alg` are ignored
    /// (a newer algorithm beside a valid signature must not make installed apps reject the switch).
    public static let knownAlgorithms = ["Ed25519", "ES256"]

    /// One signature entry as written. `bytes` is nil when `sig` is not base64url; whether that
    /// matters depends on who signed (``checkSignatures(trustedKeys:verifier:)``).
    public struct Signature: Hashable, Sendable {
        public var keyId: String
        public var algorithm: String
        public var bytes: [UInt8]?

        public init(keyId: String, algorithm: String, bytes: [UInt8]?) {
            self.keyId = keyId
            self.algorithm = algorithm
            self.bytes = bytes
        }
    }

    public enum Pinning: String, Hashable, Sendable, CaseIterable {
        case off, on
    }

    public struct Scope: Hashable, Sendable {
        /// Host patterns (apex and subdomains); nil means every pinned host.
        public var hosts: [String]?
        /// Inclusive app-version range; nil bounds are open.
        public var minimumAppVersion: String?
        public var maximumAppVersion: String?

        public init(hosts: [String]? = nil, minimumAppVersion: String? = nil, maximumAppVersion: String? = nil) {
            self.hosts = hosts
            self.minimumAppVersion = minimumAppVersion
            self.maximumAppVersion = maximumAppVersion
        }

        public static let everything = Scope()

        public func contains(appVersion: String) -> Bool {
            if let minimum = minimumAppVersion, AppVersion.compare(appVersion, minimum) == .orderedAscending {
                return false
            }
            if let maximum = maximumAppVersion, AppVersion.compare(appVersion, maximum) == .orderedDescending {
                return false
            }
            return true
        }

        public func contains(host: String) -> Bool {
            guard let hosts else { return true }
            let normalized = HostName.normalize(host)
            return hosts.contains { HostName.host(normalized, isWithinOrEqualTo: HostName.normalize($0)) }
        }
    }

    public struct Payload: Hashable, Sendable {
        public static let type = "pinning-kill-switch"
        public var serial: Int64
        public var issuedAt: Date
        public var expiresAt: Date
        public var pinning: Pinning
        public var scope: Scope
        public var reason: String

        public init(
            serial: Int64, issuedAt: Date, expiresAt: Date, pinning: Pinning, scope: Scope = .everything, reason: String
        ) {
            self.serial = serial
            self.issuedAt = issuedAt
            self.expiresAt = expiresAt
            self.pinning = pinning
            self.scope = scope
            self.reason = reason
        }

        /// The payload as JSON, in the documented member order.
        public var json: JSONValue {
            var scopeMembers: [(key: String, value: JSONValue)] = []
            if let hosts = scope.hosts { scopeMembers.append(("hosts", .array(hosts.map(JSONValue.string)))) }
            if scope.minimumAppVersion != nil || scope.maximumAppVersion != nil {
                var range: [(key: String, value: JSONValue)] = []
                if let minimum = scope.minimumAppVersion { range.append(("min", .string(minimum))) }
                if let maximum = scope.maximumAppVersion { range.append(("max", .string(maximum))) }
                scopeMembers.append(("appVersions", .object(range)))
            }
            return [
                "type": .string(Self.type), "serial": .int(serial), "issuedAt": .string(RFC3339.format(issuedAt)),
                "expiresAt": .string(RFC3339.format(expiresAt)), "pinning": .string(pinning.rawValue),
                "scope": .object(scopeMembers), "reason": .string(reason),
            ]
        }
    }

    /// The payload exactly as signed.
    public var payloadBytes: [UInt8]
    public var payload: Payload
    public var signatures: [Signature]

    /// Parses an envelope strictly.
    /// - Throws: ``PinKitError`` (`malformed-json` or `invalid-document`) listing every problem.
    public static func parse<Bytes: Collection>(_ data: Bytes) throws(PinKitError) -> KillSwitchDocument
    where Bytes.Element == UInt8 {
        let envelope = try JSONParser.parse(data)
        var reader = DocumentReader()
        let fields = reader.object(
            envelope, at: "", allowed: ["payload", "signatures"], required: ["payload", "signatures"])
        var signatures: [Signature] = []
        if let elements = reader.array(fields?["signatures"], at: "signatures") {
            for (index, element) in elements.enumerated() {
                let path = "signatures[\(index)]"
                // An entry for an algorithm this version does not know is ignored whole: its
                // members may follow a later schema (forward compatibility).
                if case .string(let algorithm)? = element["alg"], !knownAlgorithms.utf8Contains(algorithm) {
                    let keyId: String = if case .string(let id)? = element["keyId"] { id } else { "" }
                    signatures.append(Signature(keyId: keyId, algorithm: algorithm, bytes: nil))
                    continue
                }
                guard
                    let signature = reader.object(
                        element, at: path, allowed: ["keyId", "alg", "sig"], required: ["keyId", "alg", "sig"]),
                    let keyId = reader.string(signature["keyId"], at: path + ".keyId"),
                    let algorithm = reader.string(signature["alg"], at: path + ".alg"),
                    let encoded = reader.string(signature["sig"], at: path + ".sig")
                else { continue }
                let bytes: [UInt8]? =
                    if case .success(let bytes) = Base64.decode(encoded, alphabet: .url) { bytes } else { nil }
                signatures.append(Signature(keyId: keyId, algorithm: algorithm, bytes: bytes))
            }
        }
        var payloadBytes: [UInt8] = []
        var payload: Payload?
        if let encoded = reader.string(fields?["payload"], at: "payload") {
            switch Base64.decode(encoded, alphabet: .url) {
            case .success(let bytes):
                payloadBytes = bytes
                do {
                    payload = try parsePayload(JSONParser.parse(bytes), reader: &reader)
                } catch {
                    reader.report(.invalidValue, at: "payload", "the payload is not JSON: \(error.reason)")
                }
            case .failure(let failure):
                reader.report(.invalidValue, at: "payload", "expected base64url: \(failure)")
            }
        }
        guard reader.problems.isEmpty, let payload else {
            throw PinKitError(.invalidDocument, "not an acceptable kill-switch document", problems: reader.problems)
        }
        return KillSwitchDocument(payloadBytes: payloadBytes, payload: payload, signatures: signatures)
    }

    private static func parsePayload(_ value: JSONValue, reader: inout DocumentReader) -> Payload? {
        let keys = ["type", "serial", "issuedAt", "expiresAt", "pinning", "scope", "reason"]
        guard let fields = reader.object(value, at: "payload", allowed: keys, required: keys.filter { $0 != "scope" })
        else { return nil }
        if let type = reader.string(fields["type"], at: "payload.type"), type != Payload.type {
            reader.report(.invalidValue, at: "payload.type", "expected \"\(Payload.type)\", saw \"\(type)\"")
        }
        let serial = reader.integer(fields["serial"], at: "payload.serial")
        if let serial, serial <= 0 || serial > maximumSerial {
            reader.report(
                .invalidValue, at: "payload.serial",
                "expected a serial from 1 to \(maximumSerial) (2^53 - 1), saw \(serial)")
        }
        let issued = reader.date(fields["issuedAt"], at: "payload.issuedAt")
        let expires = reader.date(fields["expiresAt"], at: "payload.expiresAt")
        let pinning = reader.enumeration(fields["pinning"], at: "payload.pinning", as: Pinning.self)
        let reason = reader.string(fields["reason"], at: "payload.reason")
        var scope = Scope.everything
        if let scopeValue = fields["scope"],
            let scopeFields = reader.object(scopeValue, at: "payload.scope", allowed: ["hosts", "appVersions"])
        {
            if let hosts = reader.strings(scopeFields["hosts"], at: "payload.scope.hosts") {
                for (index, host) in hosts.enumerated() {
                    if let problem = HostName.syntaxProblem(ofPattern: host) {
                        reader.report(.invalidValue, at: "payload.scope.hosts[\(index)]", problem.message(for: host))
                    }
                }
                scope.hosts = hosts
            }
            if let range = scopeFields["appVersions"],
                let rangeFields = reader.object(range, at: "payload.scope.appVersions", allowed: ["min", "max"])
            {
                scope.minimumAppVersion = reader.string(rangeFields["min"], at: "payload.scope.appVersions.min")
                scope.maximumAppVersion = reader.string(rangeFields["max"], at: "payload.scope.appVersions.max")
                for (key, version) in [("min", scope.minimumAppVersion), ("max", scope.maximumAppVersion)] {
                    if let version, AppVersion.components(version) == nil {
                        reader.report(
                            .invalidValue, at: "payload.scope.appVersions.\(key)",
                            "expected a version like 1.4.2, saw \"\(version)\"")
                    }
                }
            }
        }
        guard let serial, let issued, let expires, let pinning, let reason else { return nil }
        return Payload(
            serial: serial, issuedAt: issued, expiresAt: expires, pinning: pinning, scope: scope, reason: reason)
    }

    /// The exact bytes a signature covers for `payload`: what `pinctl killswitch sign
    /// --payload-out` hands to a KMS or HSM.
    public static func payloadBytes(_ payload: Payload) -> [UInt8] { Array(payload.json.serialized().utf8) }

    /// Builds the envelope around payload bytes and signatures made elsewhere (JOSE form).
    public static func envelope(payloadBytes bytes: [UInt8], signatures: [Signature]) -> String {
        let signed: [JSONValue] = signatures.map {
            [
                "keyId": .string($0.keyId), "alg": .string($0.algorithm),
                "sig": .string(Base64.encode($0.bytes ?? [], alphabet: .url)),
            ]
        }
        let envelope: JSONValue = [
            "payload": .string(Base64.encode(bytes, alphabet: .url)), "signatures": .array(signed),
        ]
        return envelope.serialized(pretty: true)
    }

    /// Builds the envelope for `payload` signed by `sign` (for `pinctl killswitch sign`).
    public static func envelope(
        payload: Payload,
        signatures: [(keyId: String, algorithm: String, sign: ([UInt8]) throws -> [UInt8])]
    ) throws -> String {
        let bytes = Array(payload.json.serialized().utf8)
        var signed: [JSONValue] = []
        for signer in signatures {
            let signature = try signer.sign(bytes)
            signed.append([
                "keyId": .string(signer.keyId), "alg": .string(signer.algorithm),
                "sig": .string(Base64.encode(signature, alphabet: .url)),
            ])
        }
        let envelope: JSONValue = [
            "payload": .string(Base64.encode(bytes, alphabet: .url)), "signatures": .array(signed),
        ]
        return envelope.serialized(pretty: true)
    }
}

/// Dotted numeric app versions ("1.4.10" > "1.4.9").
public enum AppVersion {
    public static func components(_ version: String) -> [Int]? {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 4 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy(\.isASCIIDigitCharacter), let number = Int(part) else { return nil }
            numbers.append(number)
        }
        return numbers
    }

    public static func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        let a = components(lhs) ?? [0]
        let b = components(rhs) ?? [0]
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            if x != y { return x < y ? .orderedAscending : .orderedDescending }
        }
        return .orderedSame
    }
}
