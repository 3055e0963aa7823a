import Foundation
import PinKit
import PinKitOpenSSL
import PinKitTransport

/// `pinctl spki`: every certificate of a chain with its SPKI pin.
struct SpkiCommand: Command {
    static let name = "spki"
    static let abstract = "List certificates of PEM/DER files or a live host with their SPKI SHA-256 pins."
    static let help = """
        USAGE: pinctl spki [--json] [--config FILE] --pem FILE...
               pinctl spki [--json] [--config FILE] [--ca-file FILE] [--resolve HOST:PORT:ADDRESS] HOST[:PORT]

        Lists every certificate in order, numbered like openssl (depth 0 is the leaf; the
        depth restarts with each file) and named leaf, intermediate or root; the leaf is marked
        "do not pin" (its key rotates with every renewal):
        subject and issuer (RFC 2253, as `openssl x509 -nameopt RFC2253` prints them),
        notBefore and notAfter (UTC), key type and size, and the SPKI SHA-256 pin (base64,
        identical to the openssl pipeline). With --config, also which pin set and label pin
        each certificate. For a live host, the chain is listed as the server sent it, even
        when it would not be trusted.

        OPTIONS:
          --pem FILE...    PEM (one or more certificates, text around them allowed) or DER files
          --config FILE    a pin configuration (JSON or property list) to mark pinned keys
        \(ConnectionOptions.help)
          --json           print {"schemaVersion":1,"certificates":[{"index","depth","position",
                           "doNotPin",...,"spkiSHA256","pinnedBy"}]} (docs/CLI.md)
          -h, --help       show this help

        EXIT CODES: 0 listed; 1 a file holds no readable certificate or the configuration is
        malformed; 2 usage error (including an unreadable path); 3 the host could not be reached
        or sent no certificate.
        """

    var json: Bool
    var configPath: String?
    var pemPaths: [String]
    var connection: ConnectionOptions
    var target: HostTarget?

    init(parsing arguments: inout Arguments) throws(UsageError) {
        json = try arguments.flag("--json")
        configPath = try arguments.value("--config")
        pemPaths = try arguments.values("--pem", multiple: true)
        connection = try ConnectionOptions(parsing: &arguments)
        let rest = try arguments.positionals()
        guard rest.count <= 1 else { throw UsageError("give one HOST[:PORT], saw \(rest.count) targets") }
        target = try rest.first.map { text throws(UsageError) in try HostTarget(parsing: text) }
    }

    func validate() throws(UsageError) {
        if pemPaths.isEmpty && target == nil {
            throw UsageError("give certificate files with --pem FILE, or a HOST[:PORT]")
        }
        if !pemPaths.isEmpty && target != nil {
            throw UsageError("give either --pem FILE... or a HOST[:PORT], not both")
        }
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        var certificates: [(path: String, certificate: X509Certificate)] = []
        if let target {
            certificates = try liveChain(target).map { ("\(target.host):\(target.port)", $0) }
        }
        for path in pemPaths {
            try Loading.requireReadable(path)
            do {
                certificates += try X509Certificate.load(contentsOf: path).map { (path, $0) }
            } catch {
                throw CommandFailure(.checkFailed, error.reason)
            }
        }
        let configuration = try configPath.map { path throws(CommandFailure) in try Loading.configuration(path) }
        var rows: [JSONValue] = []
        var text: [String] = []
        var depth = 0
        for (offset, entry) in certificates.enumerated() {
            // Depth restarts with each file (each is a chain of its own, leaf first).
            if offset > 0 && certificates[offset - 1].path != entry.path { depth = 0 }
            defer { depth += 1 }
            let certificate = entry.certificate
            let isLast = offset + 1 == certificates.count || certificates[offset + 1].path != entry.path
            let position =
                certificate.isSelfIssued
                ? "root" : depth == 0 ? "leaf" : isLast ? "intermediate (its root is not in the file)" : "intermediate"
            let positionCode = position.hasPrefix("intermediate") ? "intermediate" : position
            let pinnedBy = configuration.map { pinners(of: certificate.spkiSHA256, in: $0) }
            let key =
                certificate.curve.map { "\(certificate.keyType) \($0)" }
                ?? "\(certificate.keyType) \(certificate.keyBits)"
            rows.append([
                "index": .int(offset + 1),
                "depth": .int(depth),
                "position": .string(positionCode),
                "doNotPin": .bool(positionCode == "leaf"),
                "source": .string(entry.path),
                "subject": .string(certificate.subject),
                "issuer": .string(certificate.issuer),
                "notBefore": .string(RFC3339.format(certificate.notBefore)),
                "notAfter": .string(RFC3339.format(certificate.notAfter)),
                "keyType": .string(certificate.keyType),
                "keyBits": .int(certificate.keyBits),
                "curve": .optionalString(certificate.curve),
                "spkiSHA256": .string(certificate.spkiSHA256.base64),
                "pinnedBy": pinnedBy.map { .array($0.map(\.json)) } ?? .null,
            ])
            var lines = [
                "[\(depth) \(position)] \(TerminalText.escaped(certificate.subject))",
                "    issuer:      \(TerminalText.escaped(certificate.issuer))",
                "    notBefore:   \(RFC3339.format(certificate.notBefore))",
                "    notAfter:    \(RFC3339.format(certificate.notAfter))",
                "    key:         \(key)",
                "    SPKI SHA-256: \(certificate.spkiSHA256.base64)",
            ]
            if positionCode == "leaf" {
                lines.append(
                    "    do not pin:  the leaf (its key rotates with every renewal); pin an intermediate or root")
            }
            if let pinnedBy {
                lines.append(
                    "    pinned by:   "
                        + (pinnedBy.isEmpty
                            ? "(not pinned)" : TerminalText.escaped(pinnedBy.map(\.text).joined(separator: "; ")))
                )
            }
            text.append(lines.joined(separator: "\n"))
        }
        if json {
            console.out(
                JSONValue.object([("schemaVersion", .int(1)), ("certificates", .array(rows))]).serialized(pretty: true))
        } else {
            console.out(text.joined(separator: "\n"))
        }
        return .success
    }

    /// The chain a live host sends, captured during the handshake whether or not it is trusted.
    private func liveChain(_ target: HostTarget) throws(CommandFailure) -> [X509Certificate] {
        try connection.requireResolveCovers(target)
        let client = try connection.client(.systemTrustOnly)
        defer { client.shutdown() }
        let outcome = runBlocking { () -> Result<[String], TransportError> in
            do throws(TransportError) {
                return .success(try await client.handshake(host: target.host, port: target.port).servedChainPEM)
            } catch {
                return .failure(error)
            }
        }
        let pem: [String]
        switch outcome {
        case .success(let chain): pem = chain
        case .failure(let error) where !error.servedChainPEM.isEmpty: pem = error.servedChainPEM
        case .failure(let error): throw CommandFailure(.network, error.reason)
        }
        do {
            return try X509Certificate.load(pem: pem.joined())
        } catch {
            throw CommandFailure(.network, "\(target.host) sent no readable certificate: \(error.reason)")
        }
    }

    private struct Pinner {
        var set: String
        var label: String?
        var role: PinConfiguration.Role
        var json: JSONValue {
            ["pinSet": .string(set), "label": .optionalString(label), "role": .string(role.rawValue)]
        }
        var text: String { "\(set)" + (label.map { " \"\($0)\"" } ?? "") + (role == .backup ? " (backup)" : "") }
    }

    private func pinners(of pin: SPKIPin, in configuration: PinConfiguration) -> [Pinner] {
        configuration.pinSets.flatMap { set in
            set.pins.filter { (try? SPKIPin(parsing: $0.sha256)) == pin }
                .map { Pinner(set: set.name, label: $0.label, role: $0.role) }
        }
    }
}
