import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL

/// What one lab step served and saw: enough to reproduce it by hand (`--keep`), to serve it
/// again (`--serve`) and to show it to a reviewer (`--report`).
struct LabEvidence: Sendable {
    /// The chain and key a lab server served, and the host it was asked for.
    var identity: LabIdentity?
    var host = "api.example.com"
    /// The configuration the client ran under (relative to the lab directory), or nil when the
    /// effective policy came from elsewhere (the kill switch).
    var configurationFile: String?
    /// The chain OpenSSL built and verified, leaf first (empty when the handshake failed before).
    var verifiedChain: [CertificateFacts] = []
    /// The client's real error message, when it refused.
    var message: String?
    /// A chain checked with rotation-check (as the server would serve it).
    var rotationChain: [X509Certificate]?
    /// The kill-switch document and its public key (file names in the lab directory).
    var killSwitchDocument: String?
    var publicKey: String?

    init(
        identity: LabIdentity, host: String, configurationFile: String?, verifiedChain: [CertificateFacts],
        message: String?
    ) {
        self.identity = identity
        self.host = host
        self.configurationFile = configurationFile
        self.verifiedChain = verifiedChain
        self.message = message
    }

    init(rotationChain: [X509Certificate]) { self.rotationChain = rotationChain }

    init(killSwitchDocument: String, publicKey: String) {
        self.killSwitchDocument = killSwitchDocument
        self.publicKey = publicKey
    }
}

/// `lab --keep DIR`: the files of each row, and DIR/README with the commands that reproduce it.
enum LabKeep {
    static func slug(_ index: Int, _ scenario: String) -> String {
        let words = scenario.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let collapsed = String(words).split(separator: "-").joined(separator: "-")
        return String(format: "%02d-", index + 1) + collapsed
    }

    /// Writes chains and keys under `directory` and returns the README text.
    static func write(rows: [LabStory.Row], to directory: String) throws -> String {
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        try FileManager.default.createDirectory(atPath: path("chains"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path("keys"), withIntermediateDirectories: true)
        var text = """
            PinKit lab, kept. Every path below is relative to this directory: run the commands from here.

            pinkit.json        the configuration the lab app ships (release 1.0)
            releases.json      the release history rotation-check reads
            trust-store.pem    the device's trust store (lab root, rogue inspection root, other CA)
            kill-switch-document.json  the signed kill-switch document (valid for an hour from the run);
                               kill-switch.pub its public key; kill-switch.json the app's stored state
            chains/, keys/     what each row's server served (NAME.pem leaf first, NAME.rest.pem without
                               the leaf) and the leaf's key (0600)
            keyring-home/      the keyring row's HOME: gnome-keyring's encrypted keyring, the app's log,
                               and .config/pinkit-demo/tokens.json, what a plain-file store leaves

            Serve a chain by hand, then check it (any free port instead of 8443):
              openssl s_server -accept 127.0.0.1:8443 -cert chains/NAME.pem -cert_chain chains/NAME.rest.pem -key keys/NAME.key -www
            or let `pinctl lab --serve` serve them all.

            """
        for (index, row) in rows.enumerated() {
            let name = slug(index, row.scenario)
            text += "\n## \(index + 1). \(row.scenario)\n   expected: \(row.expected)\n   happened: \(row.happened)\n"
            for (offset, evidence) in row.evidence.enumerated() {
                let file = row.evidence.count > 1 ? "\(name)-\(offset + 1)" : name
                if let identity = evidence.identity {
                    try (identity.chain.map(\.pem).joined()).write(
                        toFile: path("chains/\(file).pem"), atomically: true, encoding: .utf8)
                    // s_server's -cert takes the leaf (the file's first certificate); the rest goes in -cert_chain.
                    var extra = ""
                    if identity.chain.count > 1 {
                        try (identity.chain.dropFirst().map(\.pem).joined()).write(
                            toFile: path("chains/\(file).rest.pem"), atomically: true, encoding: .utf8)
                        extra = " -cert_chain chains/\(file).rest.pem"
                    }
                    guard
                        FileManager.default.createFile(
                            atPath: path("keys/\(file).key"), contents: Data(identity.key.privateKeyPEM.utf8),
                            attributes: [.posixPermissions: 0o600])
                    else { throw LabError("cannot write keys/\(file).key") }
                    let config = evidence.configurationFile.map { " --config \($0)" } ?? ""
                    text += """
                           openssl s_server -accept 127.0.0.1:8443 -cert chains/\(file).pem\(extra) -key keys/\(file).key -www &
                           pinctl check\(config) --ca-file trust-store.pem --resolve \(evidence.host):8443:127.0.0.1 \(evidence.host):8443

                        """
                    if evidence.configurationFile == nil {
                        text += "   (the app ran with pinning off by the kill switch: without --config, as above)\n"
                    }
                }
                if let chain = evidence.rotationChain {
                    try (chain.map(\.pem).joined()).write(
                        toFile: path("chains/\(file)-rotation.pem"), atomically: true, encoding: .utf8)
                    text +=
                        "   pinctl rotation-check --releases releases.json --chain chains/\(file)-rotation.pem --trust-store trust-store.pem --host api.example.com\n"
                }
                if let document = evidence.killSwitchDocument, let key = evidence.publicKey {
                    text +=
                        "   pinctl killswitch verify --public-key \(key) \(document)   (add --now DATE after the hour)\n"
                }
            }
        }
        return text
    }
}

/// `lab --report FILE.html`: one self-contained page a reviewer can attach to a review.
enum LabReport {
    static func html(rows: [LabStory.Row], pins: [SPKIPin: String], seconds: Double) -> String {
        func escape(_ text: String) -> String {
            var result = ""
            for character in text {
                switch character {
                case "&": result += "&amp;"
                case "<": result += "&lt;"
                case ">": result += "&gt;"
                case "\"": result += "&quot;"
                case "'": result += "&#39;"
                default: result.append(character)
                }
            }
            return result
        }
        func chain(_ title: String, _ facts: [CertificateFacts]) -> String {
            guard !facts.isEmpty else { return "" }
            let items = facts.enumerated().map { depth, certificate in
                let position = depth == 0 ? "leaf" : certificate.subject == certificate.issuer ? "root" : "intermediate"
                let pinned =
                    pins[certificate.spki].map { " <strong class=\"pin\">pinned: \(escape($0))</strong>" } ?? ""
                return
                    "<li><span class=\"depth\">\(depth) \(position)</span> \(escape(certificate.subject)) <code>sha256/\(certificate.spki.base64)</code>\(pinned)</li>"
            }
            return "<p>\(title)</p><ol start=\"0\">\(items.joined())</ol>"
        }
        let passed = rows.allSatisfy { $0.ok || $0.unavailable }
        var body = ""
        for (index, row) in rows.enumerated() {
            let (style, verdict) =
                row.ok
                ? ("ok", "as expected")
                : row.unavailable ? ("unavailable", "unavailable here") : ("failed", "NOT as expected")
            body +=
                "<section class=\"\(style)\"><h2>\(index + 1). \(escape(row.scenario)) — \(verdict)</h2>"
            body += "<p><b>Expected:</b> \(escape(row.expected))<br><b>Happened:</b> \(escape(row.happened))</p>"
            for evidence in row.evidence {
                if let identity = evidence.identity {
                    body += chain("Served chain (\(escape(evidence.host)))", identity.chain.map(\.facts))
                    body += chain("Verified chain (as OpenSSL built it)", evidence.verifiedChain)
                    if let message = evidence.message {
                        body += "<p><b>Client error:</b> <code class=\"message\">\(escape(message))</code></p>"
                    }
                }
                if let rotation = evidence.rotationChain {
                    body += chain("Chain given to rotation-check", rotation.map(\.facts))
                }
                if let document = evidence.killSwitchDocument {
                    body += "<p>Kill-switch document: <code>\(escape(document))</code></p>"
                }
            }
            body += "</section>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>PinKit lab report</title>
            <style>
            body{font-family:sans-serif;max-width:60em;margin:2em auto;line-height:1.4}
            section{border-left:4px solid #2a2;padding:0 1em;margin:1.5em 0}
            section.failed{border-color:#c22}section.unavailable{border-color:#999}
            code{font-size:90%;word-break:break-all}.pin{color:#06c}.depth{display:inline-block;min-width:8em}
            </style></head><body>
            <h1>PinKit lab report</h1>
            <p id="summary">\(passed ? "PASSED" : "FAILED"): \(rows.filter(\.ok).count) of \(rows.count) scenarios as expected, in \(String(format: "%.1f", seconds)) s.</p>
            \(body)</body></html>

            """
    }
}

/// `lab --serve`: every served chain on its own loopback server until Ctrl-C.
enum LabServe {
    static func run(rows: [LabStory.Row], directory: String, console: Console) throws {
        var servers: [LabTLSServer] = []
        defer { for server in servers { server.stop() } }
        for (index, row) in rows.enumerated() {
            for evidence in row.evidence {
                guard let identity = evidence.identity else { continue }
                let server = try LabTLSServer(identity: identity) { _ in .text("ok") }
                servers.append(server)
                let config = evidence.configurationFile.map { " --config \(directory)/\($0)" } ?? ""
                console.out(
                    "\(index + 1). \(row.scenario): pinctl check\(config) --ca-file \(directory)/trust-store.pem --resolve \(server.resolveEntry(for: evidence.host)) \(evidence.host):\(server.port)"
                )
            }
        }
        console.out("serving \(servers.count) lab servers on 127.0.0.1; Ctrl-C stops them")
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0, queue: .global()) }
        for source in sources {
            source.setEventHandler { stop.signal() }
            source.resume()
        }
        stop.wait()
        for source in sources { source.cancel() }
        console.out("stopped")
    }
}
