import Foundation
import PinKit
import PinKitOpenSSL

/// `pinctl killswitch sign`: a signed document, or (with --payload-out) the bytes to sign elsewhere.
struct KillSwitchSign: GroupAction {
    static let name = "sign"
    static let usage = """
        pinctl killswitch sign (--key FILE --out DOC | --payload-out FILE) --serial N --pinning off|on
                                (--expires DATE | --for 7d|12h) --reason TEXT (--host HOST... --config FILE | --all-hosts)
                                [--app-versions MIN-MAX] [--key-id ID] [--state FILE] [--last-serial N]
                                [--force-serial-jump] [--now DATE] [--json]
        """

    var key: String?
    var out: String?
    var payloadOut: String?
    var serial: Int64
    var pinning: KillSwitchDocument.Pinning
    var expires: Date?
    var lifetime: TimeInterval?
    var reason: String
    var hosts: [String]
    var allHosts: Bool
    var versions: (String, String)?
    var keyID: String?
    var config: String?
    var state: String?
    var lastSerial: Int64?
    var forceSerialJump: Bool
    var now: Date

    init(parsing arguments: inout Arguments) throws(UsageError) {
        key = try arguments.value("--key")
        out = try arguments.value("--out")
        payloadOut = try arguments.value("--payload-out")
        guard let serial = try KillSwitchOptions.serial(&arguments, "--serial") else {
            throw UsageError("sign needs --serial N")
        }
        self.serial = serial
        guard let text = try arguments.value("--pinning") else { throw UsageError("sign needs --pinning off|on") }
        guard let pinning = KillSwitchDocument.Pinning(rawValue: text) else {
            throw UsageError("--pinning is off or on, saw \(text)")
        }
        self.pinning = pinning
        expires = try KillSwitchOptions.date(&arguments, "--expires")
        if let text = try arguments.value("--for") {
            guard let seconds = KillSwitchOptions.duration(text) else {
                throw UsageError("--for expects a duration like 7d or 12h, saw \(text)")
            }
            lifetime = seconds
        }
        guard let reason = try arguments.value("--reason") else { throw UsageError("sign needs --reason TEXT") }
        self.reason = reason
        hosts = try arguments.values("--host")
        allHosts = try arguments.flag("--all-hosts")
        if let text = try arguments.value("--app-versions") {
            let parts = text.split(separator: "-", maxSplits: 1).map(String.init)
            guard parts.count == 2, AppVersion.components(parts[0]) != nil, AppVersion.components(parts[1]) != nil
            else { throw UsageError("--app-versions expects MIN-MAX such as 1.2.0-1.4.9, saw \(text)") }
            versions = (parts[0], parts[1])
        }
        keyID = try arguments.value("--key-id")
        config = try arguments.value("--config")
        state = try arguments.value("--state")
        lastSerial = try KillSwitchOptions.serial(&arguments, "--last-serial", allowZero: true)
        forceSerialJump = try arguments.flag("--force-serial-jump")
        now = try KillSwitchOptions.date(&arguments, "--now") ?? Date()
        try KillSwitchOptions.noPositionals(&arguments)
    }

    func validate() throws(UsageError) {
        if key == nil && payloadOut == nil {
            throw UsageError("sign needs --key FILE (with --out DOC) or --payload-out FILE")
        }
        if key != nil && out == nil { throw UsageError("sign --key needs --out DOC") }
        if key == nil && out != nil { throw UsageError("--out needs --key FILE; to sign elsewhere use --payload-out") }
        if key == nil && keyID != nil {
            throw UsageError("--key-id names the --key's entry; with a KMS give it to assemble")
        }
        if (expires == nil) == (lifetime == nil) { throw UsageError("sign needs exactly one of --expires and --for") }
        if hosts.isEmpty == !allHosts {
            throw UsageError(
                hosts.isEmpty
                    ? "sign needs --host HOST (repeatable) or an explicit --all-hosts: a switch without a scope turns pinning off for every host"
                    : "--host and --all-hosts exclude each other")
        }
        if !hosts.isEmpty && config == nil {
            throw UsageError("--host needs --config FILE, to check that each host lies inside a pin set")
        }
        if let control = reason.unicodeScalars.first(where: Self.isControl) {
            throw UsageError(
                "--reason may not contain control characters (saw U+\(String(control.value, radix: 16, uppercase: true))): it is shown on operators' terminals"
            )
        }
        if reason.isEmpty { throw UsageError("--reason needs text, e.g. the incident id") }
        if let keyID, keyID.isEmpty || keyID.unicodeScalars.contains(where: Self.isControl) {
            throw UsageError("--key-id must be non-empty, without control characters")
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    func run(_ output: ActionOutput) throws(CommandFailure) -> ExitCode {
        let configuration = try config.map { path throws(CommandFailure) in try Loading.configuration(path) }
        let expiry = expires ?? now.addingTimeInterval(lifetime ?? 0)
        guard expiry > now, expiry.timeIntervalSince(now) <= 30 * 86_400 else {
            throw CommandFailure(.usage, "the document must expire after it is issued and within 30 days")
        }
        let payload = KillSwitchDocument.Payload(
            serial: serial, issuedAt: now, expiresAt: expiry, pinning: pinning,
            scope: .init(
                hosts: allHosts ? nil : hosts, minimumAppVersion: versions?.0, maximumAppVersion: versions?.1),
            reason: reason)
        let scopeProblems = KillSwitchScopeCheck.payloadProblems(payload, configuration: configuration, now: now)
        if let first = scopeProblems.first {
            throw CommandFailure(
                .usage, scopeProblems.count == 1 ? first.message : scopeProblems.map(\.message).joined(separator: "; "))
        }
        let last = try lastKnownSerial(configuration)
        if serial <= last.serial {
            throw CommandFailure(
                .usage,
                "--serial \(serial) is not above \(last.serial) (\(last.source)): apps would refuse it as a replay")
        }
        if serial - last.serial > KillSwitchDocument.maximumSerialJump && !forceSerialJump {
            throw CommandFailure(
                .usage,
                "--serial \(serial) jumps \(serial - last.serial) past \(last.serial) (\(last.source)); the maximum is \(KillSwitchDocument.maximumSerialJump) without --force-serial-jump (a serial spent can never be used again)"
            )
        }
        let bytes = KillSwitchDocument.payloadBytes(payload)
        for path in [out, payloadOut, state.map { $0 + ".tmp" }].compactMap({ $0 }) { try Loading.refuseExisting(path) }
        var keyId: String?
        if let key, let out {
            let (privateKey, algorithm) = try Loading.signingKey(key)
            let id = keyID ?? VerifyingKey.keyID(spkiDER: privateKey.publicKeyDER)
            let signature: [UInt8]
            do {
                signature = try privateKey.sign(bytes)
            } catch {
                throw CommandFailure(.checkFailed, "signing failed: \(error.reason)")
            }
            let text = KillSwitchDocument.envelope(
                payloadBytes: bytes, signatures: [.init(keyId: id, algorithm: algorithm, bytes: signature)])
            try Loading.write(Array((text + "\n").utf8), to: out)
            keyId = id
        }
        if let payloadOut { try Loading.write(bytes, to: payloadOut) }
        if let state { try record(payload, in: state) }
        let summary = "serial \(serial), pinning \(pinning.rawValue) until \(RFC3339.format(expiry))"
        output.result(
            [
                "document": .optionalString(out), "payloadFile": .optionalString(payloadOut), "serial": .int(serial),
                "pinning": .string(pinning.rawValue), "expiresAt": .string(RFC3339.format(expiry)),
                "hosts": payload.scope.hosts.map { .array($0.map(JSONValue.string)) } ?? .null,
                "keyId": .optionalString(keyId), "state": .optionalString(state),
            ],
            human: [
                out.map { "wrote \($0): \(summary), signed by \(TerminalText.escaped(keyId ?? ""))" },
                payloadOut.map {
                    "wrote \($0): the exact payload bytes to sign (\(summary)); then run pinctl killswitch assemble"
                },
                state.map { "recorded serial \(serial) in \($0)" },
            ].compactMap { $0 }.joined(separator: "\n"))
        return .success
    }

    /// The serial the new one must exceed: the highest of --last-serial, the --state file and
    /// the configuration's floor (a document at or below it is dead on arrival).
    private func lastKnownSerial(_ configuration: PinConfiguration?) throws(CommandFailure) -> (
        serial: Int64, source: String
    ) {
        var best: (serial: Int64, source: String) = (0, "no serial known yet")
        if let lastSerial, lastSerial > best.serial { best = (lastSerial, "--last-serial") }
        if let state, FileManager.default.fileExists(atPath: state) {
            let recorded = try Loading.killSwitchState(state).highestSerial
            if recorded > best.serial { best = (recorded, "the last serial recorded in \(state)") }
        }
        if let floor = configuration?.killSwitch?.minimumSerial, floor > best.serial {
            best = (floor, "the configuration's killSwitch.minimumSerial")
        }
        return best
    }

    /// Records the new serial in the operator's state file (the app's state format).
    private func record(_ payload: KillSwitchDocument.Payload, in path: String) throws(CommandFailure) {
        let value: JSONValue = [
            "highestSerial": .int(payload.serial), "activeOff": payload.pinning == .off ? payload.json : .null,
        ]
        let temporary = path + ".tmp"
        try Loading.write(Array((value.serialized(pretty: true) + "\n").utf8), to: temporary)
        guard rename(temporary, path) == 0 else { throw CommandFailure(.usage, "cannot replace \(path)") }
    }
}
