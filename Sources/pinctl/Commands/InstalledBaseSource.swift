import Foundation
import PinKit
import PinKitTransport

/// Measured installed shares for `rotation-check --installed-base URL|FILE`: the collector's
/// `GET /v1/installed-base` (with an operator token) or a saved copy of its answer.
///
/// Shares order and annotate the releases; they never make a live release disappear. A release
/// stays installed while any of its pin sets is live (not expired) on the deploy date, whatever
/// its measured share: dormant installs are the long tail a rotation must not brick. A release
/// whose sets have all expired fails open and is safe by construction.
struct InstalledBaseSource {
    var source: String
    var window: String
    var shares: [String: Double]

    static let usage = """
          --installed-base URL|FILE
                           take installed shares from the collector (https://…, with --token-file)
                           or from a saved GET /v1/installed-base answer
          --token-file FILE
                           the operator token for --installed-base URL (its first line)
        """

    /// Reads the shares. - Throws: exit 3 when the collector cannot be reached, 1 for bad content.
    static func load(_ spec: String, tokenFile: String?, connection: ConnectionOptions) throws(CommandFailure)
        -> InstalledBaseSource
    {
        let body: [UInt8]
        if spec.hasPrefix("https://") {
            guard let url = URL(string: spec) else { throw CommandFailure(.usage, "--installed-base: not a URL") }
            guard let tokenFile, let text = try? String(contentsOfFile: tokenFile, encoding: .utf8),
                let token = text.split(whereSeparator: \.isNewline).first.map(String.init)
            else { throw CommandFailure(.usage, "--installed-base URL needs a readable --token-file") }
            let client = try connection.client(.systemTrustOnly)
            defer { client.shutdown() }
            let request = HTTPRequest(url: url, headers: HTTPHeaders([("Authorization", "Bearer \(token)")]))
            let outcome = runBlocking { () -> Result<HTTPResponse, TransportError> in
                do throws(TransportError) {
                    return .success(try await client.send(request))
                } catch {
                    return .failure(error)
                }
            }
            switch outcome {
            case .failure(let error): throw CommandFailure(.network, error.reason)
            case .success(let response) where response.status != 200:
                throw CommandFailure(.network, "the collector answered HTTP \(response.status) for the installed base")
            case .success(let response): body = response.body
            }
        } else {
            try Loading.requireReadable(spec)
            body = Array(FileManager.default.contents(atPath: spec) ?? Data())
        }
        return try parse(body, source: spec)
    }

    static func parse(_ body: [UInt8], source: String) throws(CommandFailure) -> InstalledBaseSource {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw CommandFailure(.checkFailed, "--installed-base: \(error.reason)")
        }
        guard case .string(let window)? = value["window"], case .array(let versions)? = value["versions"] else {
            throw CommandFailure(.checkFailed, "--installed-base: expected {\"window\", \"versions\": [...]}")
        }
        var shares: [String: Double] = [:]
        for entry in versions {
            guard case .string(let version)? = entry["version"], case .number(let text)? = entry["share"],
                let share = Double(text), (0...1).contains(share)
            else {
                throw CommandFailure(.checkFailed, "--installed-base: each version needs a version and a share in 0…1")
            }
            shares[version] = share
        }
        return InstalledBaseSource(source: source, window: window, shares: shares)
    }

    /// The history with measured shares, and every release whose pin set is live at `now`
    /// kept installed whatever its share (``ReleaseHistory/applyingMeasuredShares(_:now:)``,
    /// the rule the collector console applies too).
    func apply(to history: ReleaseHistory, now: Date) -> ReleaseHistory {
        history.applyingMeasuredShares(shares, now: now)
    }
}
