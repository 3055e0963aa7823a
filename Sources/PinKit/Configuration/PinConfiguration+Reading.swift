public import Foundation

extension PinConfiguration {
    /// Reads a configuration from JSON or a property list (XML or binary), in the full schema or
    /// the flat `HLPinnedHosts` + `HLPinnedSPKIHashes` form.
    ///
    /// Reading checks structure only (syntax, keys, types); semantic rules are
    /// ``validate(chain:now:publicSuffixes:)``'s.
    /// - Throws: ``PinKitError`` with ``PinKitError/Code/malformedJSON`` (with line and column),
    ///   ``PinKitError/Code/malformedPropertyList``, or ``PinKitError/Code/invalidDocument``
    ///   listing every structural problem.
    public static func parse(_ data: Data) throws(PinKitError) -> PinConfiguration {
        if PropertyListBridge.looksLikePropertyList(data) {
            return try parse(infoPlistKeys(of: try PropertyListBridge.jsonValue(fromPropertyList: data)))
        }
        return try parse(try JSONParser.parse(data))
    }

    /// An app's real Info.plist carries `CFBundleIdentifier` and dozens of other keys next to
    /// the `HL*` pinning keys; as the app itself does, read the `HL*` keys and ignore the rest.
    /// A property list without any `HL*` key and without the full schema's keys is such an
    /// Info.plist without pinning: the neutral configuration. Misspelt `HL*` keys stay errors.
    static func infoPlistKeys(of value: JSONValue) -> JSONValue {
        guard case .object(let members) = value,
            !members.contains(where: { topLevelKeys.contains($0.key) }),
            members.contains(where: { !$0.key.hasPrefix("HL") })
        else { return value }
        let pinning = members.filter { $0.key.hasPrefix("HL") }
        return .object(pinning.isEmpty ? [(key: "HLPinnedHosts", value: .array([]))] : pinning)
    }

    /// Reads a configuration file.
    /// - Throws: ``PinKitError/Code/io`` when it cannot be read, or whatever ``parse(_:)-(Data)`` throws.
    public static func load(contentsOf path: String) throws(PinKitError) -> PinConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PinKitError(.io, "cannot read the configuration file \(path)")
        }
        do {
            return try parse(data)
        } catch {
            throw PinKitError(error.code, "\(path): \(error.reason)", problems: error.problems)
        }
    }

    static let topLevelKeys = ["pinSets", "killSwitch", "reporting", "debugOverrides"]
    static let flatKeys = ["HLPinnedHosts", "HLPinnedSPKIHashes"]

    /// Reads a configuration from an already parsed document.
    public static func parse(_ value: JSONValue) throws(PinKitError) -> PinConfiguration {
        var reader = DocumentReader()
        var configuration = PinConfiguration()
        if case .object(let members) = value, members.contains(where: { flatKeys.contains($0.key) }) {
            if let mixed = members.first(where: { topLevelKeys.contains($0.key) }) {
                reader.report(
                    .mixedForms,
                    at: mixed.key,
                    "the flat HLPinnedHosts/HLPinnedSPKIHashes keys cannot be combined with \"\(mixed.key)\"; use one form"
                )
            }
            if let fields = reader.object(value, at: "", allowed: flatKeys + topLevelKeys) {
                let hosts = reader.strings(fields["HLPinnedHosts"], at: "HLPinnedHosts") ?? []
                let hashes = reader.strings(fields["HLPinnedSPKIHashes"], at: "HLPinnedSPKIHashes") ?? []
                if !hosts.isEmpty || !hashes.isEmpty {
                    configuration.pinSets = [
                        PinSet(name: "HLPinnedHosts", hosts: hosts, pins: hashes.map { Pin(sha256: $0) })
                    ]
                }
                configuration.isFlatForm = true
            }
        } else if let fields = reader.object(value, at: "", allowed: topLevelKeys) {
            if let sets = reader.array(fields["pinSets"], at: "pinSets") {
                for (index, element) in sets.enumerated() {
                    if let set = readPinSet(element, at: "pinSets[\(index)]", reader: &reader) {
                        configuration.pinSets.append(set)
                    }
                }
            }
            if let killSwitch = fields["killSwitch"] {
                configuration.killSwitch = readKillSwitch(killSwitch, reader: &reader)
            }
            if let overrides = fields["debugOverrides"] {
                configuration.debugOverrides = readDebugOverrides(overrides, reader: &reader)
            }
            if let reporting = fields["reporting"],
                let object = reader.object(reporting, at: "reporting", allowed: ["url"], required: ["url"]),
                let url = reader.string(object["url"], at: "reporting.url")
            {
                configuration.reporting = Reporting(url: url)
            }
        }
        guard reader.problems.isEmpty else {
            let count = reader.problems.count
            throw PinKitError(
                .invalidDocument,
                "the configuration does not match the schema (\(count) problem\(count == 1 ? "" : "s"))",
                problems: reader.problems
            )
        }
        return configuration
    }

    private static func readPinSet(_ value: JSONValue, at path: String, reader: inout DocumentReader) -> PinSet? {
        let allowed = [
            "name", "hosts", "includeSubdomains", "excludeSubdomains", "pins", "expires", "mode", "acknowledged",
        ]
        guard let fields = reader.object(value, at: path, allowed: allowed, required: ["name", "hosts", "pins"])
        else { return nil }
        var pins: [Pin] = []
        if let elements = reader.array(fields["pins"], at: path + ".pins") {
            for (index, element) in elements.enumerated() {
                let pinPath = "\(path).pins[\(index)]"
                guard
                    let pinFields = reader.object(
                        element,
                        at: pinPath,
                        allowed: ["sha256", "label", "role", "operatorHeld"],
                        required: ["sha256"]
                    )
                else { continue }
                let sha256 = reader.string(pinFields["sha256"], at: pinPath + ".sha256")
                let label = reader.string(pinFields["label"], at: pinPath + ".label")
                let role = reader.enumeration(pinFields["role"], at: pinPath + ".role", as: Role.self)
                let held = reader.bool(pinFields["operatorHeld"], at: pinPath + ".operatorHeld") ?? false
                if let sha256 {
                    pins.append(Pin(sha256: sha256, label: label, role: role ?? .active, operatorHeld: held))
                }
            }
        }
        var acknowledged: [Acknowledgement] = []
        if let elements = reader.array(fields["acknowledged"], at: path + ".acknowledged") {
            for (index, element) in elements.enumerated() {
                let at = "\(path).acknowledged[\(index)]"
                guard
                    let entry = reader.object(
                        element, at: at, allowed: ["code", "reason"], required: ["code", "reason"]),
                    let code = reader.string(entry["code"], at: at + ".code"),
                    let reason = reader.string(entry["reason"], at: at + ".reason")
                else { continue }
                acknowledged.append(Acknowledgement(code: code, reason: reason))
            }
        }
        return PinSet(
            name: reader.string(fields["name"], at: path + ".name") ?? "",
            hosts: reader.strings(fields["hosts"], at: path + ".hosts") ?? [],
            includeSubdomains: reader.bool(fields["includeSubdomains"], at: path + ".includeSubdomains") ?? true,
            excludeSubdomains: reader.strings(fields["excludeSubdomains"], at: path + ".excludeSubdomains") ?? [],
            pins: pins,
            expires: reader.dayOrDate(fields["expires"], at: path + ".expires"),
            mode: reader.enumeration(fields["mode"], at: path + ".mode", as: Mode.self) ?? .enforce,
            acknowledged: acknowledged
        )
    }

    private static func readKillSwitch(_ value: JSONValue, reader: inout DocumentReader) -> KillSwitch? {
        guard
            let fields = reader.object(
                value, at: "killSwitch", allowed: ["url", "publicKeys", "minimumSerial"], required: ["url"])
        else { return nil }
        var keys: [KillSwitch.PublicKey] = []
        if let elements = reader.array(fields["publicKeys"], at: "killSwitch.publicKeys") {
            for (index, element) in elements.enumerated() {
                let path = "killSwitch.publicKeys[\(index)]"
                guard
                    let keyFields = reader.object(
                        element,
                        at: path,
                        allowed: ["keyId", "spki"],
                        required: ["keyId", "spki"]
                    ),
                    let keyId = reader.string(keyFields["keyId"], at: path + ".keyId"),
                    let spki = reader.string(keyFields["spki"], at: path + ".spki")
                else { continue }
                keys.append(KillSwitch.PublicKey(keyId: keyId, spki: spki))
            }
        }
        let minimumSerial = reader.integer(fields["minimumSerial"], at: "killSwitch.minimumSerial")
        if let minimumSerial, minimumSerial < 0 || minimumSerial > KillSwitchDocument.maximumSerial {
            reader.report(
                .invalidValue, at: "killSwitch.minimumSerial",
                "expected a serial from 0 to \(KillSwitchDocument.maximumSerial), saw \(minimumSerial)")
        }
        guard let url = reader.string(fields["url"], at: "killSwitch.url") else { return nil }
        return KillSwitch(url: url, publicKeys: keys, minimumSerial: minimumSerial)
    }
}
