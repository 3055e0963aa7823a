import Foundation
import PinKit
import PinKitOpenSSL

/// `pinctl killswitch keygen|sign|verify|show`: operate the signed kill switch.
struct KillSwitchCommand: Command {
    static let name = "killswitch"
    static let abstract = "Make kill-switch keys, sign documents that turn pinning off, verify and show them."
    static let help = """
        USAGE: pinctl killswitch keygen --out DIR [--type ed25519|ec-p256]
               pinctl killswitch sign --key FILE --serial N --pinning off|on (--expires DATE | --for 7d|12h)
                                      --reason TEXT [--host HOST]... [--app-versions MIN-MAX] [--key-id ID] --out FILE
               pinctl killswitch verify --public-key FILE [--key-id ID] [--now DATE] [--after-serial N] DOC
               pinctl killswitch show [--json] DOC

        keygen writes DIR/kill-switch.key (mode 0600, never printed), DIR/kill-switch.pub and
        prints the configuration entry {"keyId","spki"} for killSwitch.publicKeys.
        sign writes a signed envelope; the document can only turn pinning off (or back on) for
        its hosts and app versions until it expires (at most 30 days after it is issued).
        verify says whether an app with that key would accept DOC, and why not.

        EXIT CODES: 0 done / accepted; 1 DOC would not be accepted (bad signature, expired,
        malformed, replayed serial); 2 usage error (including refusing to overwrite a file).
        """

    enum Action: String { case keygen, sign, verify, show }
    var action: Action
    var json: Bool
    var out: String?
    var type: PrivateKey.Kind
    var key: String?
    var serial: Int64?
    var pinning: KillSwitchDocument.Pinning?
    var expires: Date?
    var lifetime: TimeInterval?
    var reason: String?
    var hosts: [String]
    var versions: (String, String)?
    var keyID: String?
    var publicKey: String?
    var now: Date
    var afterSerial: Int64
    var document: String?

    init(parsing arguments: inout Arguments) throws(UsageError) {
        json = try arguments.flag("--json")
        out = try arguments.value("--out")
        let typeText = try arguments.value("--type") ?? "ed25519"
        guard let kind = ["ed25519": PrivateKey.Kind.ed25519, "ec-p256": .ecP256][typeText] else {
            throw UsageError("--type is ed25519 or ec-p256, saw \(typeText)")
        }
        type = kind
        key = try arguments.value("--key")
        if let text = try arguments.value("--serial") {
            guard let value = Int64(text), value > 0 else {
                throw UsageError("--serial expects a positive integer, saw \(text)")
            }
            serial = value
        }
        if let text = try arguments.value("--pinning") {
            guard let value = KillSwitchDocument.Pinning(rawValue: text) else {
                throw UsageError("--pinning is off or on, saw \(text)")
            }
            pinning = value
        }
        if let text = try arguments.value("--expires") {
            guard let date = RFC3339.parse(text) else {
                throw UsageError("--expires expects an RFC 3339 date, saw \(text)")
            }
            expires = date
        }
        if let text = try arguments.value("--for") {
            guard let seconds = Self.duration(text) else {
                throw UsageError("--for expects a duration like 7d or 12h, saw \(text)")
            }
            lifetime = seconds
        }
        reason = try arguments.value("--reason")
        hosts = try arguments.values("--host")
        if let text = try arguments.value("--app-versions") {
            let parts = text.split(separator: "-", maxSplits: 1).map(String.init)
            guard parts.count == 2, AppVersion.components(parts[0]) != nil, AppVersion.components(parts[1]) != nil
            else {
                throw UsageError("--app-versions expects MIN-MAX such as 1.2.0-1.4.9, saw \(text)")
            }
            versions = (parts[0], parts[1])
        }
        keyID = try arguments.value("--key-id")
        publicKey = try arguments.value("--public-key")
        if let text = try arguments.value("--now") {
            guard let date = RFC3339.parse(text) else {
                throw UsageError("--now expects an RFC 3339 date, saw \(text)")
            }
            now = date
        } else {
            now = Date()
        }
        afterSerial = Int64(try arguments.value("--after-serial") ?? "0") ?? -1
        if afterSerial < 0 { throw UsageError("--after-serial expects a whole number") }
        let rest = try arguments.positionals()
        guard let first = rest.first, let action = Action(rawValue: first) else {
            throw UsageError("expected keygen, sign, verify or show, saw \(rest.first ?? "nothing")")
        }
        self.action = action
        document = rest.count > 1 ? rest[1] : nil
        if rest.count > 2 { throw UsageError("unexpected argument \(rest[2])") }
    }

    static func duration(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let value = Double(text.dropLast()), value > 0 else { return nil }
        switch unit {
        case "d": return value * 86_400
        case "h": return value * 3600
        case "m": return value * 60
        default: return nil
        }
    }

    func validate() throws(UsageError) {
        switch action {
        case .keygen:
            if out == nil { throw UsageError("keygen needs --out DIR") }
        case .sign:
            guard key != nil, serial != nil, pinning != nil, reason != nil, out != nil else {
                throw UsageError("sign needs --key, --serial, --pinning, --reason and --out")
            }
            if (expires == nil) == (lifetime == nil) {
                throw UsageError("sign needs exactly one of --expires and --for")
            }
            for host in hosts where HostName.syntaxProblem(ofPattern: host) != nil {
                throw UsageError("--host \(host) is not a host name")
            }
        case .verify:
            if publicKey == nil || document == nil { throw UsageError("verify needs --public-key FILE and DOC") }
        case .show:
            if document == nil { throw UsageError("show needs DOC") }
        }
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        switch action {
        case .keygen: return try keygen(console)
        case .sign: return try sign(console)
        case .verify: return try verify(console)
        case .show: return try show(console)
        }
    }

    private func keygen(_ console: Console) throws(CommandFailure) -> ExitCode {
        let directory = out!
        let keyPath = (directory as NSString).appendingPathComponent("kill-switch.key")
        let publicPath = (directory as NSString).appendingPathComponent("kill-switch.pub")
        for path in [keyPath, publicPath] where FileManager.default.fileExists(atPath: path) {
            throw CommandFailure(.usage, "\(path) exists; refusing to overwrite a key")
        }
        let key: PrivateKey
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            key = try PrivateKey.generate(type)
        } catch {
            throw CommandFailure(.usage, "cannot create \(directory): \(error)")
        }
        guard
            FileManager.default.createFile(
                atPath: keyPath, contents: Data(key.privateKeyPEM.utf8), attributes: [.posixPermissions: 0o600]),
            FileManager.default.createFile(atPath: publicPath, contents: Data(key.publicKeyPEM.utf8))
        else { throw CommandFailure(.usage, "cannot write the key files in \(directory)") }
        let entry: JSONValue = [
            "keyId": .string(PublicKey.keyID(spkiDER: key.publicKeyDER)),
            "spki": .string(Base64.encode(key.publicKeyDER)),
        ]
        console.out(
            json
                ? entry.serialized(pretty: true)
                : "wrote \(keyPath) (private, 0600) and \(publicPath)\nadd to killSwitch.publicKeys: \(entry.serialized())"
        )
        return .success
    }

    private func sign(_ console: Console) throws(CommandFailure) -> ExitCode {
        try requireReadable(key!)
        if FileManager.default.fileExists(atPath: out!) {
            throw CommandFailure(.usage, "\(out!) exists; refusing to overwrite")
        }
        let privateKey: PrivateKey
        do {
            privateKey = try PrivateKey(
                pem: String(decoding: FileManager.default.contents(atPath: key!) ?? Data(), as: UTF8.self))
        } catch {
            throw CommandFailure(.checkFailed, "\(key!): \(error.reason)")
        }
        guard let algorithm = privateKey.signatureAlgorithm else {
            throw CommandFailure(.checkFailed, "\(key!) is not an Ed25519 or EC P-256 key")
        }
        let issued = now
        let expiry = expires ?? issued.addingTimeInterval(lifetime!)
        guard expiry > issued, expiry.timeIntervalSince(issued) <= 30 * 86_400 else {
            throw CommandFailure(.usage, "the document must expire after it is issued and within 30 days")
        }
        let payload = KillSwitchDocument.Payload(
            serial: serial!,
            issuedAt: issued,
            expiresAt: expiry,
            pinning: pinning!,
            scope: .init(
                hosts: hosts.isEmpty ? nil : hosts, minimumAppVersion: versions?.0, maximumAppVersion: versions?.1),
            reason: reason!
        )
        let id = keyID ?? PublicKey.keyID(spkiDER: privateKey.publicKeyDER)
        let text: String
        do {
            text = try KillSwitchDocument.envelope(
                payload: payload, signatures: [(id, algorithm, { try privateKey.sign($0) })])
        } catch {
            throw CommandFailure(.checkFailed, "signing failed: \(error)")
        }
        guard FileManager.default.createFile(atPath: out!, contents: Data((text + "\n").utf8)) else {
            throw CommandFailure(.usage, "cannot write \(out!)")
        }
        console.out(
            "wrote \(out!): serial \(serial!), pinning \(pinning!.rawValue) until \(RFC3339.format(expiry)), signed by \(id)"
        )
        return .success
    }

    private func loadDocument() throws(CommandFailure) -> (bytes: [UInt8], document: KillSwitchDocument) {
        try requireReadable(document!)
        let bytes = Array(FileManager.default.contents(atPath: document!) ?? Data())
        do {
            return (bytes, try KillSwitchDocument.parse(bytes))
        } catch {
            throw CommandFailure(.checkFailed, "\(document!) would not be accepted: \(error.description)")
        }
    }

    private func verify(_ console: Console) throws(CommandFailure) -> ExitCode {
        let (_, parsed) = try loadDocument()
        try requireReadable(publicKey!)
        let text = String(decoding: FileManager.default.contents(atPath: publicKey!) ?? Data(), as: UTF8.self)
        let der: [UInt8]
        do throws(PinKitError) {
            guard let block = try PEM.blocks(in: text).first(where: { $0.label == "PUBLIC KEY" }) else {
                throw PinKitError(.malformedPEM, "expected a PUBLIC KEY block")
            }
            guard try PublicKey(spkiDER: block.der).algorithm != nil else {
                throw PinKitError(.malformedPEM, "not an Ed25519 or EC P-256 key")
            }
            der = block.der
        } catch {
            throw CommandFailure(.usage, "\(publicKey!): \(error.reason)")
        }
        let id = keyID ?? PublicKey.keyID(spkiDER: der)
        // The serials an app has already seen are part of its state.
        let machine =
            (try? KillSwitchStateMachine(json: ["highestSerial": .int(afterSerial), "activeOff": .null]))
            ?? KillSwitchStateMachine()
        let settings = KillSwitchStateMachine.Settings(publicKeys: [id: der], verifier: OpenSSLSignatureVerifier())
        if let reason = machine.rejection(of: parsed, settings: settings, now: now) {
            console.out("REJECTED: \(reason)")
            return .checkFailed
        }
        let payload = parsed.payload
        console.out(
            "ACCEPTED: serial \(payload.serial), pinning \(payload.pinning.rawValue) until \(RFC3339.format(payload.expiresAt)), signed by \(id)"
        )
        return .success
    }

    private func show(_ console: Console) throws(CommandFailure) -> ExitCode {
        let (_, parsed) = try loadDocument()
        let signatures: [JSONValue] = parsed.signatures.map {
            ["keyId": .string($0.keyId), "alg": .string($0.algorithm)]
        }
        if json {
            console.out(
                JSONValue.object([("payload", parsed.payload.json), ("signatures", .array(signatures))]).serialized(
                    pretty: true))
        } else {
            let payload = parsed.payload
            console.out(
                """
                serial:     \(payload.serial)
                pinning:    \(payload.pinning.rawValue)
                issued:     \(RFC3339.format(payload.issuedAt))
                expires:    \(RFC3339.format(payload.expiresAt))
                hosts:      \(payload.scope.hosts?.joined(separator: ", ") ?? "every pinned host")
                versions:   \(payload.scope.minimumAppVersion ?? "*") - \(payload.scope.maximumAppVersion ?? "*")
                reason:     \(payload.reason)
                signatures: \(parsed.signatures.isEmpty ? "none (accepted only by apps without keys)" : parsed.signatures.map { "\($0.keyId) (\($0.algorithm))" }.joined(separator: ", "))
                """)
        }
        return .success
    }
}
