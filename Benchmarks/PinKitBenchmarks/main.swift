// pinkit-bench: prints one JSON document of measurements. Every comparison is measured side by
// side in this one run (interleaved rounds), so the ratios hold on a noisy shared machine even
// when the absolute numbers do not. Never a timed test: run it by hand or from CI for figures.
import Foundation
import PinKit
import PinKitClient
import PinKitLab
import PinKitOpenSSL
import PinKitTestSupport
import PinKitTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct Options {
    var seconds = 1.0
    var rounds = 5
    var only: Set<String> = []
    var urlSessionChild: String?

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let word = iterator.next() {
            switch word {
            case "--seconds": seconds = Double(iterator.next() ?? "") ?? seconds
            case "--rounds": rounds = Int(iterator.next() ?? "") ?? rounds
            case "--only": only.insert(iterator.next() ?? "")
            case "--urlsession-child": urlSessionChild = iterator.next()
            case "-h", "--help":
                print(
                    "usage: pinkit-bench [--seconds S per round] [--rounds N] [--only evaluator|sanitizer|store|transport|collector|reference]"
                )
                exit(0)
            default:
                FileHandle.standardError.write(Data("pinkit-bench: unknown argument \(word)\n".utf8))
                exit(2)
            }
        }
    }

    func wants(_ group: String) -> Bool { only.isEmpty || only.contains(group) }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))

// The URLSession half of the keep-alive comparison. FoundationNetworking on Linux trusts only
// libcurl's compiled-in bundle (its CA-file variable is read on Android alone), so the parent
// runs this in a private mount namespace where the lab CA is bound over that bundle; the system
// store itself is never touched. Each "go" line from the parent runs one round.
if let child = options.urlSessionChild, let url = URL(string: child) {
    let session = URLSession(configuration: .ephemeral)
    while let line = readLine(), line == "go" {
        var answer: String
        do {
            answer = String(try await rate(seconds: options.seconds) { _ = try await session.data(from: url) })
        } catch {
            answer = "error \(error)"
        }
        FileHandle.standardOutput.write(Data((answer + "\n").utf8))
    }
    exit(0)
}
var report: [(key: String, value: JSONValue)] = [
    ("machine", ["cores": .int(ProcessInfo.processInfo.activeProcessorCount)]),
    ("secondsPerRound", .number(String(options.seconds))), ("rounds", .int(options.rounds)),
]

func number(_ value: Double, digits: Int = 3) -> JSONValue {
    .number(String(format: "%.\(digits)f", value))
}

/// Runs `body` repeatedly for `seconds`; returns operations per second.
func rate(seconds: Double, _ body: () async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    var count = 0
    while clock.now - start < .milliseconds(Int(seconds * 1000)) {
        try await body()
        count += 1
    }
    let elapsed = clock.now - start
    return Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

// MARK: - Evaluator and hashing costs

if options.wants("evaluator") {
    let pki = try LabPKI(name: "Bench")
    let leaf = try pki.leaf(["api.example.com"])
    let chain = leaf.chain + [pki.root.certificate]
    let configuration = try PinConfiguration.parse(
        Data(
            #"{"pinSets": [{"name": "b", "hosts": ["api.example.com"], "pins": [{"sha256": "\#(pki.root.pin.base64)"}, {"sha256": "\#(pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}"#
                .utf8
        )
    )
    let policy = try PinPolicy(configuration)
    let keys = chain.map(\.spkiSHA256)
    let iterations = 200_000
    var sink = 0
    let clock = ContinuousClock()
    let evaluate = clock.measure {
        for index in 0..<iterations {
            let host = index & 1 == 0 ? "api.example.com" : "v2.api.example.com"
            if case .matched(let match) = policy.evaluate(
                host: host, verifiedChainKeys: { keys }, now: Date(), chain: { [] })
            {
                sink &+= match.depth
            }
        }
    }
    let hashIterations = 50_000
    let pubkeyHash = clock.measure {
        for _ in 0..<hashIterations { sink &+= Int(chain[0].spkiSHA256.digest[0]) }
    }
    let der = chain[0].der
    let hashFromX509 = clock.measure {
        for _ in 0..<hashIterations {
            if let pin = try? chain[0].recomputedSPKI() { sink &+= Int(pin.digest[0]) }
        }
    }
    let reparse = clock.measure {
        for _ in 0..<(hashIterations / 10) {
            if let certificate = try? X509Certificate(der: der) { sink &+= Int(certificate.spkiSHA256.digest[0]) }
        }
    }
    func micro(_ duration: Duration, _ count: Int) -> Double {
        (Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12) / Double(count)
    }
    _ = pubkeyHash
    report.append(
        (
            "evaluator",
            [
                "chainLength": .int(keys.count),
                "evaluateMicrosecondsPerChain": number(micro(evaluate, iterations)),
                "spkiHashFromX509Microseconds": number(micro(hashFromX509, hashIterations)),
                "certificateParseFromDERMicroseconds": number(micro(reparse, hashIterations / 10)),
                "checksum": .int(sink & 0xFFFF),
            ]
        )
    )
}

// MARK: - Log sanitizer

if options.wants("sanitizer") { report.append(("sanitizer", SanitizerBenchmark.run(options))) }

// MARK: - Report store

if options.wants("store") {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pinkit-bench-store-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // The default limits (50 reports, 256 KiB): what an app runs with.
    let store = try PinFailureReportStore(directory: directory)
    let pki = try LabPKI(name: "Bench")
    let chain = try pki.leaf(["api.example.com"]).chain + [pki.root.certificate]
    func event(_ index: Int) -> PinFailureEvent {
        PinFailureEvent(
            date: Date(), hostname: "h\(index).api.example.com", port: 443, notedHostname: "api.example.com",
            setName: "managed-cloud", includeSubdomains: true, effectiveExpirationDate: nil, mode: .enforce,
            servedCertificateChain: chain.map(\.pem), validatedCertificateChain: chain.map(\.pem),
            knownPins: [
                "pin-sha256=\"\(pki.intermediate.pin.base64)\"", "pin-sha256=\"\(pki.backupKey.spkiPin.base64)\"",
            ],
            validatedChainPins: chain.map(\.spkiSHA256), reason: "pin mismatch for h\(index).api.example.com"
        )
    }
    let distinct = 2_000
    let clock = ContinuousClock()
    let writeTime = clock.measure {
        for index in 0..<distinct { store.record(PinFailureReport(event: event(index), appVersion: "1.0")) }
    }
    let live = store.entries.count
    let size = (try? FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int) ?? 0
    let duplicates = 20_000
    let duplicate = PinFailureReport(event: event(0), appVersion: "1.0")
    let duplicateTime = clock.measure { for _ in 0..<duplicates { store.record(duplicate) } }
    func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
    report.append(
        (
            "reportStore",
            [
                "distinctReportsPerSecond": number(Double(distinct) / seconds(writeTime), digits: 0),
                "duplicateFailuresPerSecond": number(Double(duplicates) / seconds(duplicateTime), digits: 0),
                "bytesOnDiskPerReport": .int(size / max(1, live)),
                "liveReportsAfterWrites": .int(live),
                "reportChainCertificates": .int(chain.count),
            ]
        )
    )
}

// MARK: - Transport

if options.wants("transport") {
    // P-256 throughout: the most common web PKI shape, and the cheapest chain to verify.
    let pki = try LabPKI(
        name: "Bench", rootKeyKind: ProcessInfo.processInfo.environment["BENCH_P384_ROOT"] == nil ? .ecP256 : .ecP384)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pinkit-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let caFile = try LabPKI.writeCAFile([pki.root.certificate], to: directory.appendingPathComponent("ca.pem").path)
    let server = try LabTLSServer(identity: try pki.leaf(["api.example.com", "localhost"])) { _ in .text("ok") }
    defer { server.stop() }
    let configuration = try PinConfiguration.parse(
        Data(
            #"{"pinSets": [{"name": "b", "hosts": ["api.example.com"], "pins": [{"sha256": "\#(pki.intermediate.pin.base64)"}, {"sha256": "\#(pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}"#
                .utf8
        )
    )
    let policy = try PinPolicy(configuration)
    func client(_ policy: PinPolicy, reuse: Bool) throws -> PinnedHTTPClient {
        var settings = PinnedHTTPClient.Configuration.pinned(policy)
        settings.trustStore = .caFile(caFile)
        settings.resolve = [server.resolveEntry(for: "api.example.com")]
        settings.reuseConnections = reuse
        settings.httpVersion = .http1Only
        return try PinnedHTTPClient(settings)
    }
    let url = URL(string: server.url(host: "api.example.com"))!
    let request = HTTPRequest(url: url)

    // Full handshakes: pinned and unpinned clients, interleaved round by round.
    let pinnedFresh = try client(policy, reuse: false)
    let unpinnedFresh = try client(.systemTrustOnly, reuse: false)
    // A second unpinned client: its ratio to the first is the instrument's own noise floor (A/A).
    let controlFresh = try client(.systemTrustOnly, reuse: false)
    _ = try await pinnedFresh.send(request)
    _ = try await unpinnedFresh.send(request)
    _ = try await controlFresh.send(request)
    // Single handshakes alternate (pinned, unpinned, pinned, …) and each kind's time is summed, so
    // drift on a shared machine cancels request by request; rounds give the spread.
    var pinnedRates: [Double] = []
    var unpinnedRates: [Double] = []
    var ratios: [Double] = []
    var controlRatios: [Double] = []
    let clock = ContinuousClock()
    func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
    for round in 0..<options.rounds {
        var times = [0.0, 0.0, 0.0]  // pinned, unpinned, control
        var count = 0
        let roundStart = clock.now
        let clients = [pinnedFresh, unpinnedFresh, controlFresh]
        while seconds(clock.now - roundStart) < 3 * options.seconds {
            // Rotate the order so no client always goes first.
            for offset in 0..<3 {
                let which = (count + round + offset) % 3
                let started = clock.now
                _ = try await clients[which].send(request)
                times[which] += seconds(clock.now - started)
            }
            count += 1
        }
        pinnedRates.append(Double(count) / times[0])
        unpinnedRates.append(Double(count) / times[1])
        ratios.append(times[1] / times[0])
        controlRatios.append(times[1] / times[2])
    }

    // openssl s_time against the same server: the handshake rate a bare OpenSSL client reaches.
    var sTimeRate = 0.0
    let sTime = Process()
    sTime.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let sTimeSeconds = max(2, Int(options.seconds * Double(options.rounds) / 2))
    sTime.arguments = [
        "openssl", "s_time", "-connect", "127.0.0.1:\(server.port)", "-new", "-time", "\(sTimeSeconds)", "-www", "/",
    ]
    let pipe = Pipe()
    sTime.standardOutput = pipe
    sTime.standardError = FileHandle.nullDevice
    let sTimeStart = ContinuousClock.now
    try sTime.run()
    let sTimeOutput = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    sTime.waitUntilExit()
    let sTimeElapsed = ContinuousClock.now - sTimeStart
    // "N connections in T real seconds, …": T is whole seconds, so divide by our own wall time.
    for line in sTimeOutput.split(separator: "\n") where line.contains("real seconds") {
        if let connections = Double(line.split(separator: " ")[0]) {
            sTimeRate =
                connections
                / (Double(sTimeElapsed.components.seconds) + Double(sTimeElapsed.components.attoseconds) / 1e18)
        }
    }

    // Keep-alive: the pinned client vs Foundation's URLSession on the same server, interleaved.
    let keepAlive = try client(policy, reuse: true)
    _ = try await keepAlive.send(request)
    var keepAliveRates: [Double] = []
    var urlSessionRates: [Double] = []
    var urlSessionNote = "URLSession ran in a private mount namespace trusting the lab CA"
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    let bundle = "/etc/ssl/certs/ca-certificates.crt"
    child.arguments = [
        "-m", "--propagation", "private", "sh", "-c",
        "mount --bind \"$1\" \(bundle) && exec \"$2\" --seconds \"$3\" --urlsession-child \"$4\"", "sh", caFile,
        CommandLine.arguments[0], String(options.seconds), server.url(host: "localhost"),
    ]
    let toChild = Pipe()
    let fromChild = Pipe()
    child.standardInput = toChild
    child.standardOutput = fromChild
    child.standardError = FileHandle.nullDevice
    func childRound() async throws -> Double? {
        toChild.fileHandleForWriting.write(Data("go\n".utf8))
        var line: [UInt8] = []
        while true {
            let byte = fromChild.fileHandleForReading.readData(ofLength: 1)
            guard let first = byte.first else { return nil }
            if first == UInt8(ascii: "\n") { break }
            line.append(first)
        }
        return Double(String(decoding: line, as: UTF8.self))
    }
    do {
        try child.run()
        _ = try await childRound()  // warm-up: connection and handshake
        for round in 0..<options.rounds {
            let order = round % 2 == 0 ? [true, false] : [false, true]
            for isPinned in order {
                if isPinned {
                    keepAliveRates.append(
                        try await rate(seconds: options.seconds) { _ = try await keepAlive.send(request) })
                } else if let value = try await childRound() {
                    urlSessionRates.append(value)
                }
            }
        }
    } catch {
        urlSessionNote = "URLSession comparison unavailable: \(error)"
    }
    try? toChild.fileHandleForWriting.close()
    if child.isRunning { child.waitUntilExit() }
    if urlSessionRates.count < options.rounds {
        urlSessionNote = "URLSession comparison unavailable (needs root for a private mount namespace)"
    }
    // The API client over the same keep-alive transport: its overhead per request.
    let apiServer = try LabTLSServer(identity: try pki.leaf(["api.example.com"])) { request in
        request.target == "/v1/auth/token"
            ? .json(#"{"accessToken": "a", "refreshToken": "r"}"#) : .json(#"{"name": "Ada", "ok": true}"#)
    }
    defer { apiServer.stop() }
    struct Profile: Codable, Sendable {
        let name: String
        let ok: Bool
    }
    var apiConfiguration = APIClient.Configuration(
        baseURL: URL(string: apiServer.url(host: "api.example.com"))!,
        policy: policy,
        credentials: InMemoryCredentialStore()
    )
    let apiResolve = [apiServer.resolveEntry(for: "api.example.com")]
    apiConfiguration.transport = { settings in
        settings.trustStore = .caFile(caFile)
        settings.resolve = apiResolve
        settings.httpVersion = .http1Only
    }
    let api = try APIClient(apiConfiguration)
    try await api.login(username: "bench", password: "bench")
    var bareSettings = PinnedHTTPClient.Configuration.pinned(policy)
    bareSettings.trustStore = .caFile(caFile)
    bareSettings.resolve = apiResolve
    bareSettings.httpVersion = .http1Only
    let bare = try PinnedHTTPClient(bareSettings)
    let profileRequest = HTTPRequest(url: URL(string: apiServer.url(host: "api.example.com", path: "/v1/profile"))!)
    _ = try await bare.send(profileRequest)
    var apiRates: [Double] = []
    var bareRates: [Double] = []
    for round in 0..<options.rounds {
        for useAPI in round % 2 == 0 ? [true, false] : [false, true] {
            if useAPI {
                apiRates.append(
                    try await rate(seconds: options.seconds) { _ = try await api.get("/v1/profile", as: Profile.self) })
            } else {
                bareRates.append(try await rate(seconds: options.seconds) { _ = try await bare.send(profileRequest) })
            }
        }
    }
    let handshakeRatio = median(ratios)
    let sTimeRatio = sTimeRate > 0 ? median(pinnedRates) / sTimeRate : 0
    let keepAliveRatio = urlSessionRates.isEmpty ? 0 : median(keepAliveRates) / median(urlSessionRates)
    report.append(
        (
            "transport",
            [
                "pinnedHandshakesPerSecond": number(median(pinnedRates), digits: 1),
                "unpinnedHandshakesPerSecond": number(median(unpinnedRates), digits: 1),
                "pinnedOverUnpinned": number(handshakeRatio),
                "controlUnpinnedOverUnpinned": number(median(controlRatios)),
                "opensslSTimeHandshakesPerSecond": number(sTimeRate, digits: 1),
                "pinnedOverSTime": number(sTimeRatio),
                "keepAliveRequestsPerSecond": number(median(keepAliveRates), digits: 1),
                "urlSessionRequestsPerSecond": number(median(urlSessionRates), digits: 1),
                "keepAliveOverURLSession": number(keepAliveRatio),
                "urlSessionNote": .string(urlSessionNote),
                "apiClientRequestsPerSecond": number(median(apiRates), digits: 1),
                "bareTransportRequestsPerSecond": number(median(bareRates), digits: 1),
                "apiClientOverBareTransport": number(median(apiRates) / median(bareRates)),
                "goals": [
                    "pinnedOverUnpinnedAtLeast0.98": .bool(handshakeRatio >= 0.98),
                    "pinnedOverSTimeAtLeast0.8": .bool(sTimeRatio >= 0.8),
                    "keepAliveAtLeastURLSession": .bool(keepAliveRatio >= 1.0),
                ],
                "serverHandshakes": .int(server.statistics.handshakes),
            ]
        )
    )
}

if options.wants("collector") {
    report.append(("collector", try await CollectorBenchmark.run(seconds: options.seconds, rounds: options.rounds)))
}

if options.only.contains("reference") {
    report.append(
        ("reference", try await ReferenceServerBenchmark(seconds: options.seconds, rounds: options.rounds).run()))
}
print(JSONValue.object(report).serialized(pretty: true))
