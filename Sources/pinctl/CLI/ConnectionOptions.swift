import Foundation
import PinKit
import PinKitTransport

/// The options every command that talks to a live host shares.
struct ConnectionOptions {
    static let help = """
          --ca-file FILE   trust only the certificates in this PEM file (default: the system store)
          --resolve HOST:PORT:ADDRESS
                           connect to ADDRESS for HOST:PORT, like curl --resolve (repeatable)
          --timeout SECONDS
                           give up after this long (default 15)
        """

    var caFile: String?
    var resolve: [String]
    var timeout: Duration

    init(parsing arguments: inout Arguments) throws(UsageError) {
        caFile = try arguments.value("--ca-file")
        resolve = try arguments.values("--resolve")
        for entry in resolve {
            let parts = entry.split(separator: ":", maxSplits: 2)
            guard parts.count == 3, Int(parts[1]) != nil, !parts[0].isEmpty, !parts[2].isEmpty else {
                throw UsageError("--resolve expects HOST:PORT:ADDRESS, saw \(entry)")
            }
        }
        if let text = try arguments.value("--timeout") {
            guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
                throw UsageError("--timeout expects seconds between 0 and 600, saw \(text)")
            }
            timeout = .milliseconds(Int(seconds * 1000))
        } else {
            timeout = .seconds(15)
        }
    }

    /// When `--resolve` names the target's host only for other ports, curl would ignore it and
    /// look the name up (a confusing "Could not resolve host"); say what is wrong instead.
    func requireResolveCovers(_ target: HostTarget) throws(CommandFailure) {
        let entries = resolve.map { $0.split(separator: ":", maxSplits: 2).map(String.init) }
        let forHost = entries.filter { HostName.normalize($0[0]) == HostName.normalize(target.host) }
        guard !forHost.isEmpty, !forHost.contains(where: { Int($0[1]) == target.port }) else { return }
        throw CommandFailure(
            .usage,
            "--resolve gives \(target.host) for port \(forHost.map { $0[1] }.joined(separator: ", ")) but the target's port is \(target.port); use --resolve \(target.host):\(target.port):\(forHost[0][2]) (curl would ignore the entry and look the name up)"
        )
    }

    /// A client for one handshake under `policy`: a fresh connection, no resumption.
    func client(_ policy: PinPolicy) throws(CommandFailure) -> PinnedHTTPClient {
        if let caFile { try Loading.requireReadable(caFile) }
        var configuration = PinnedHTTPClient.Configuration.pinned(policy)
        if let caFile { configuration.trustStore = .caFile(caFile) }
        configuration.resolve = resolve
        configuration.reuseConnections = false
        configuration.connectTimeout = timeout
        configuration.requestTimeout = timeout
        do {
            return try PinnedHTTPClient(configuration)
        } catch {
            throw CommandFailure(.network, error.reason)
        }
    }
}

/// A live target: `https://host[:port][/path]` or `host[:port]` (IPv6 in brackets).
struct HostTarget {
    var host: String
    var port: Int

    init(parsing text: String) throws(UsageError) {
        var rest = Substring(text)
        if let range = rest.range(of: "://") {
            guard rest[..<range.lowerBound].lowercased() == "https" else {
                throw UsageError("only https targets can be checked, saw \(text)")
            }
            rest = rest[range.upperBound...]
            if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<slash] }
            if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        }
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw UsageError("unterminated IPv6 address in \(text)") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw UsageError("unexpected text after the IPv6 address in \(text)")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            portText = rest[rest.index(after: colon)...]
        } else {
            host = String(rest)
        }
        if let portText {
            guard let port = Int(portText), (1...65535).contains(port) else {
                throw UsageError("expected a port between 1 and 65535, saw \(portText)")
            }
            self.port = port
        } else {
            port = 443
        }
        guard !host.isEmpty else { throw UsageError("no host in \(text)") }
        // A host name has no slash, backslash, space or control character; such a target is a
        // file path typed where a host belongs, and resolving it as a name ends in a network
        // error (exit 3) that says nothing about the file. An existing certificate file named
        // without a slash (chain.pem) gets the same hint.
        if host.unicodeScalars.contains(where: {
            "/\\".unicodeScalars.contains($0) || $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F
        })
            || (["pem", "crt", "cer", "der"].contains((text as NSString).pathExtension.lowercased())
                && FileManager.default.fileExists(atPath: text))
        {
            throw UsageError(
                "\(TerminalText.escaped(text)) is not a HOST[:PORT]; to read certificates from a file use --pem \(TerminalText.escaped(text))"
            )
        }
    }
}

/// Runs async work from the synchronous command (the main thread waits; tasks run on the pool).
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = ResultBox<T>()
    let semaphore = DispatchSemaphore(value: 0)
    Task {
        box.value = await body()
        semaphore.signal()
    }
    semaphore.wait()
    return box.value!
}

private final class ResultBox<T>: @unchecked Sendable {
    // @unchecked Sendable: written once by the task before the semaphore is signalled, read
    // once after the wait; the semaphore orders the two.
    var value: T?
}
