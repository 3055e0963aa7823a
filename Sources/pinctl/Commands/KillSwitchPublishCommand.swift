import Foundation
import PinKit
import PinKitTransport

/// `pinctl killswitch publish`: uploads a signed document to the collector, which verifies it
/// against its own configured keys (it never signs) and records who published it and why.
struct KillSwitchPublishCommand: Command {
    static let name = "killswitch publish"
    static let abstract = "Publish a signed kill-switch document through the collector."
    static let help = """
        USAGE: pinctl killswitch publish --collector URL --token-file FILE [--json] [--ca-file FILE]
                                         [--resolve HOST:PORT:ADDRESS] [--timeout SECONDS] DOC

        Uploads DOC (from `pinctl killswitch sign`) to the collector's POST /v1/kill-switch with
        the operator token in FILE (its first line). The collector checks the signature against
        its configured public keys, the serial against the last published one, and the expiry,
        then serves it at GET /v1/kill-switch.
        \(ConnectionOptions.help)
        EXIT CODES: 0 published; 1 the collector refused DOC (signature, serial, expiry, schema)
        or the token; 2 usage error; 3 network/TLS error.
        """

    var collector: URL
    var tokenFile: String
    var document: String
    var json: Bool
    var connection: ConnectionOptions

    init(parsing arguments: inout Arguments) throws(UsageError) {
        json = try arguments.flag("--json")
        guard let text = try arguments.value("--collector") else { throw UsageError("--collector URL is required") }
        guard let url = URL(string: text), url.scheme == "https", url.host != nil else {
            throw UsageError("--collector expects an https:// URL, saw \(TerminalText.escaped(text))")
        }
        collector = url
        guard let file = try arguments.value("--token-file") else { throw UsageError("--token-file FILE is required") }
        tokenFile = file
        connection = try ConnectionOptions(parsing: &arguments)
        let rest = try arguments.positionals()
        guard rest.count == 1 else { throw UsageError("expected one DOC, saw \(rest.count) arguments") }
        document = rest[0]
    }

    func run(_ console: Console) throws(CommandFailure) -> ExitCode {
        guard let body = FileManager.default.contents(atPath: document) else {
            throw CommandFailure(.usage, "cannot read \(TerminalText.escaped(document))")
        }
        guard let tokenText = try? String(contentsOfFile: tokenFile, encoding: .utf8),
            let token = tokenText.split(whereSeparator: \.isNewline).first.map(String.init), !token.isEmpty
        else { throw CommandFailure(.usage, "cannot read a token from \(TerminalText.escaped(tokenFile))") }
        // Refuse locally what the collector would refuse anyway: a document that is not one.
        do {
            _ = try KillSwitchDocument.parse(Array(body))
        } catch {
            throw CommandFailure(
                .checkFailed, "\(TerminalText.escaped(document)) is not a kill-switch document: \(error.reason)")
        }
        let client = try connection.client(.systemTrustOnly)
        defer { client.shutdown() }
        let endpoint = collector.appendingPathComponent("v1/kill-switch")
        let request = HTTPRequest(
            method: "POST", url: endpoint,
            headers: HTTPHeaders([("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")]),
            body: Array(body))
        let outcome = runBlocking { () -> Result<HTTPResponse, TransportError> in
            do throws(TransportError) {
                return .success(try await client.send(request))
            } catch {
                return .failure(error)
            }
        }
        let response: HTTPResponse
        switch outcome {
        case .success(let value): response = value
        case .failure(let error): throw CommandFailure(.network, error.reason)
        }
        let answer = try? JSONParser.parse(response.body)
        if json {
            console.out(
                JSONValue.object([
                    ("schemaVersion", 1), ("published", .bool(response.status == 200)),
                    ("status", .int(response.status)),
                    ("collector", answer ?? .null),
                ]).serialized(pretty: true))
        }
        guard response.status == 200 else {
            let code: String = { if case .string(let text)? = answer?["code"] { return text } else { return "" } }()
            let detail: String = { if case .string(let text)? = answer?["detail"] { return text } else { return "" } }()
            let message = "the collector refused the document (HTTP \(response.status) \(code)): \(detail)"
            if !json { console.err("pinctl killswitch publish: " + TerminalText.escaped(message)) }
            return response.status >= 500 ? .network : .checkFailed
        }
        if !json {
            let serial: String = {
                if case .number(let text)? = answer?["serial"] { return text } else { return "?" }
            }()
            let who: String = { if case .string(let text)? = answer?["operator"] { return text } else { return "?" } }()
            console.out(
                "published serial \(TerminalText.escaped(serial)) as \(TerminalText.escaped(who)) to \(TerminalText.escaped(collector.absoluteString))"
            )
        }
        return .success
    }
}
