import Foundation
import PinKit
import PinKitLab
import PinKitOpenSSL
import PinKitTransport

/// `--only reference`: client CPU per handshake against real reference servers (nginx and
/// `openssl s_server`, started and stopped here on loopback with the lab chain), compared with
/// `openssl s_time -new` and the curl CLI; and HTTP/2 against HTTP/1.1 (nginx, nghttpd).
///
/// The servers are separate processes, so this process's getrusage is the client's CPU alone:
/// the figure a shared two-core machine cannot distort the way wall-clock rates are distorted
/// when client and server share the cores. Opt-in (the CI smoke stays fast).
struct ReferenceServerBenchmark {
    /// Requests in flight at once on one client in the HTTP/2 section.
    static let concurrency = Int(ProcessInfo.processInfo.environment["BENCH_H2_CONCURRENCY"] ?? "") ?? 8
    let seconds: Double
    let rounds: Int
    let directory: String
    let pki: LabPKI
    let identity: LabIdentity
    let policy: PinPolicy
    let host = "api.example.com"

    init(seconds: Double, rounds: Int) throws {
        self.seconds = max(0.2, seconds)
        self.rounds = max(1, rounds)
        directory = NSTemporaryDirectory() + "pinkit-reference-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory + "/www", withIntermediateDirectories: true)
        pki = try LabPKI(name: "Reference")
        identity = try pki.leaf([host, "localhost"])
        try identity.chain.map(\.pem).joined().write(
            toFile: directory + "/chain.pem", atomically: true, encoding: .utf8)
        try identity.leaf.pem.write(toFile: directory + "/leaf.pem", atomically: true, encoding: .utf8)
        try identity.chain.dropFirst().map(\.pem).joined()
            .write(toFile: directory + "/intermediates.pem", atomically: true, encoding: .utf8)
        try identity.key.privateKeyPEM.write(toFile: directory + "/key.pem", atomically: true, encoding: .utf8)
        _ = try LabPKI.writeCAFile([pki.root.certificate], to: directory + "/ca.pem")
        try "ok\n".write(toFile: directory + "/www/index.html", atomically: true, encoding: .utf8)
        let configuration = try PinConfiguration.parse(
            Data(
                #"{"pinSets": [{"name": "r", "hosts": ["\#(host)"], "pins": [{"sha256": "\#(pki.intermediate.pin.base64)"}, {"sha256": "\#(pki.backupKey.spkiPin.base64)", "role": "backup"}]}]}"#
                    .utf8))
        policy = try PinPolicy(configuration)
    }

    func run() async throws -> JSONValue {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var sections: [(String, JSONValue)] = []
        // keepaliveRequests: nginx ends an HTTP/2 connection after 1,000 requests by default (GOAWAY),
        // the several connections seen here before; the h2 section measures one connection.
        let nginx = try LabNginx(
            identity: identity, directory: directory,
            options: .init(keepaliveRequests: 1_000_000, sessionResumption: false, okAtRoot: true))
        defer { nginx.stop() }
        let nginxPort = Int(nginx.port)
        sections.append(("nginx", try await handshakes(port: nginxPort, path: "/", sTimePath: "/")))
        let sServerPort = Int(try LabLoopback.freePort())
        let sServer = try start(
            "/usr/bin/openssl",
            [
                "s_server", "-quiet", "-accept", "127.0.0.1:\(sServerPort)", "-cert", directory + "/leaf.pem",
                "-cert_chain", directory + "/intermediates.pem", "-key", directory + "/key.pem", "-www",
                "-no_ticket",
            ], port: sServerPort)
        defer { stop(sServer) }
        sections.append(("sServer", try await handshakes(port: sServerPort, path: "/", sTimePath: "/")))
        let nghttpdPort = Int(try LabLoopback.freePort())
        let nghttpd = try start(
            "/usr/sbin/nghttpd",
            [
                "--address=127.0.0.1", "-d", directory + "/www", "\(nghttpdPort)", directory + "/key.pem",
                directory + "/chain.pem",
            ], port: nghttpdPort)
        defer { stop(nghttpd) }
        sections.append(("http2", try await multiplexing(nginxPort: nginxPort, nghttpdPort: nghttpdPort)))
        return .object(sections)
    }

    // MARK: Handshakes in client CPU

    func client(port: Int, pinned: Bool, reuse: Bool, version: PinnedHTTPClient.HTTPVersion = .http1Only) throws
        -> PinnedHTTPClient
    {
        var settings = PinnedHTTPClient.Configuration.pinned(pinned ? policy : .systemTrustOnly)
        settings.trustStore = .caFile(directory + "/ca.pem")
        settings.resolve = ["\(host):\(port):127.0.0.1"]
        settings.reuseConnections = reuse
        settings.httpVersion = version
        return try PinnedHTTPClient(settings)
    }

    /// Pinned and unpinned fresh-connection clients interleaved, CPU summed per kind; each round
    /// then runs `openssl s_time -new` twice against the same server (as is, and verifying the
    /// chain against the lab root like the client does), so every ratio compares figures taken
    /// under the same load; then the curl CLI.
    ///
    /// Like with like: s_time reports user CPU only, does no HTTP beyond one GET line, and by
    /// default verifies nothing (no CA file: the chain check stops at the first missing issuer,
    /// without the lab root's P-384 signature check the client pays). The honest reference is
    /// s_time with `-verify` and the lab root as CAfile, compared user CPU with user CPU and
    /// user+system with user+system (s_time's system CPU from RUSAGE_CHILDREN).
    func handshakes(port: Int, path: String, sTimePath: String) async throws -> JSONValue {
        let url = URL(string: "https://\(host):\(port)\(path)")!
        let pinned = try client(port: port, pinned: true, reuse: false)
        let unpinned = try client(port: port, pinned: false, reuse: false)
        defer {
            pinned.shutdown()
            unpinned.shutdown()
        }
        let warm = try await pinned.send(HTTPRequest(url: url))
        guard warm.status == 200, case .matched? = warm.pinning else {
            throw ReferenceError("the reference server on \(port) did not answer a pinned request")
        }
        _ = try await unpinned.send(HTTPRequest(url: url))
        var cpu = [CPU(), CPU()]
        var counts = [0, 0]
        var sTime = [STime(), STime()]
        var ratios: [String: [Double]] = [:]
        for round in 0..<rounds {
            var roundCPU = [CPU(), CPU()]
            var roundCount = [0, 0]
            let end = Date().addingTimeInterval(2 * seconds)
            var index = round
            while Date() < end {
                let which = index % 2
                let before = CPU.process()
                _ = try await (which == 0 ? pinned : unpinned).send(HTTPRequest(url: url))
                roundCPU[which] = roundCPU[which] + (CPU.process() - before)
                roundCount[which] += 1
                index += 1
            }
            let plain = try self.sTime(port: port, path: sTimePath, verify: false)
            let verified = try self.sTime(port: port, path: sTimePath, verify: true)
            for which in 0..<2 {
                cpu[which] = cpu[which] + roundCPU[which]
                counts[which] += roundCount[which]
            }
            sTime[0] = sTime[0] + plain
            sTime[1] = sTime[1] + verified
            let pinnedRound = roundCPU[0] / roundCount[0]
            let unpinnedRound = roundCPU[1] / roundCount[1]
            ratios["pinnedOverUnpinned", default: []].append(pinnedRound.total / unpinnedRound.total)
            if plain.connections > 0, verified.connections > 0 {
                ratios["sTimeUser", default: []].append(pinnedRound.user / plain.perConnection.user)
                ratios["sTimeVerifyUser", default: []].append(pinnedRound.user / verified.perConnection.user)
                ratios["sTimeVerifyTotal", default: []].append(pinnedRound.total / verified.perConnection.total)
            }
        }
        func median(_ name: String) -> Double {
            guard let values = ratios[name]?.sorted(), !values.isEmpty else { return 0 }
            return values[values.count / 2]
        }
        let pinnedCPU = cpu[0] / counts[0]
        let unpinnedCPU = cpu[1] / counts[1]
        let curl = try curlCPUPerRequest(port: port, path: path)
        let systemBundle = try await systemBundleCPU(url: url, port: port)
        func microseconds(_ seconds: Double) -> JSONValue { .number(String(format: "%.1f", seconds * 1e6)) }
        func ratio(_ value: Double) -> JSONValue { .number(String(format: "%.3f", value)) }
        return [
            "pinnedCPUMicrosecondsPerHandshake": microseconds(pinnedCPU.total),
            "pinnedUserCPUMicrosecondsPerHandshake": microseconds(pinnedCPU.user),
            "unpinnedCPUMicrosecondsPerHandshake": microseconds(unpinnedCPU.total),
            "pinnedHandshakesPerClientCPUSecond": .number(String(format: "%.1f", 1 / pinnedCPU.total)),
            "pinnedOverUnpinnedCPU": ratio(median("pinnedOverUnpinned")),
            "handshakes": .int(counts[0] + counts[1]),
            "sTimeConnectionsPerUserSecond": .number(String(format: "%.1f", 1 / sTime[0].perConnection.user)),
            "sTimeUserCPUMicrosecondsPerConnection": microseconds(sTime[0].perConnection.user),
            "sTimeVerifyUserCPUMicrosecondsPerConnection": microseconds(sTime[1].perConnection.user),
            "sTimeVerifyCPUMicrosecondsPerConnection": microseconds(sTime[1].perConnection.total),
            "pinnedCPUOverSTimeCPU": ratio(median("sTimeUser")),
            "pinnedUserCPUOverSTimeVerifyUserCPU": ratio(median("sTimeVerifyUser")),
            "pinnedCPUOverSTimeVerifyCPU": ratio(median("sTimeVerifyTotal")),
            "systemBundlePinnedCPUMicrosecondsPerHandshake": microseconds(systemBundle.total),
            "curlCLICPUMicrosecondsPerRequest": microseconds(curl.total),
            "curlCLIUserCPUMicrosecondsPerRequest": microseconds(curl.user),
            "note": .string(
                "client CPU = this process's getrusage (the server is another process), user and user+system; each round runs s_time -new as is (user CPU only, no chain verification: no CA file) and with -verify and the lab root as CAfile (user from s_time, system from RUSAGE_CHILDREN); ratios are medians of per-round ratios; curl is one process per 50 fresh connections, its CPU from RUSAGE_CHILDREN, process start included"
            ),
            "goals": [
                "pinnedOverUnpinnedAtMost1.02": .bool(median("pinnedOverUnpinned") <= 1.02),
                "pinnedOverSTimeAtMost1.05": .bool(median("sTimeUser") <= 1.05),
                "pinnedOverSTimeVerifyAtMost1.05": .bool(median("sTimeVerifyUser") <= 1.05),
            ],
        ]
    }

    /// A pinned client on the system trust store (the distribution's bundle with the lab root
    /// added, about 140 roots): what production clients pay per fresh connection, the bundle's
    /// parsing included when a connection builds its own store.
    func systemBundleCPU(url: URL, port: Int) async throws -> CPU {
        let bundle = directory + "/system-and-lab.pem"
        let system = (try? String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8)) ?? ""
        try (system + pki.root.certificate.pem).write(toFile: bundle, atomically: true, encoding: .utf8)
        var settings = PinnedHTTPClient.Configuration.pinned(policy)
        settings.trustStore = .system
        settings.systemTrustBundleOverrideForTesting = bundle
        settings.resolve = ["\(host):\(port):127.0.0.1"]
        settings.reuseConnections = false
        settings.httpVersion = .http1Only
        let client = try PinnedHTTPClient(settings)
        defer { client.shutdown() }
        let count = 40
        let before = CPU.process()
        for _ in 0..<count { _ = try await client.send(HTTPRequest(url: url)) }
        return (CPU.process() - before) / count
    }

    /// CPU seconds, user and user+system.
    struct CPU {
        var user = 0.0
        var total = 0.0

        static func + (left: CPU, right: CPU) -> CPU {
            CPU(user: left.user + right.user, total: left.total + right.total)
        }
        static func - (left: CPU, right: CPU) -> CPU {
            CPU(user: left.user - right.user, total: left.total - right.total)
        }
        static func / (left: CPU, count: Int) -> CPU {
            CPU(user: left.user / Double(max(1, count)), total: left.total / Double(max(1, count)))
        }

        static func process() -> CPU { usage(RUSAGE_SELF) }
        static func children() -> CPU { usage(RUSAGE_CHILDREN) }

        private static func usage(_ who: __rusage_who) -> CPU {
            var usage = rusage()
            getrusage(who.rawValue, &usage)
            let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
            return CPU(user: user, total: user + system)
        }
    }

    /// One `openssl s_time -new` run: its connections, its own user CPU for them, and the
    /// system CPU of the process.
    struct STime {
        var connections = 0
        var cpu = CPU()

        static func + (left: STime, right: STime) -> STime {
            STime(connections: left.connections + right.connections, cpu: left.cpu + right.cpu)
        }

        var perConnection: CPU { cpu / connections }
    }

    func sTime(port: Int, path: String, verify: Bool) throws -> STime {
        var arguments = [
            "s_time", "-connect", "127.0.0.1:\(port)", "-new", "-time", "\(max(1, Int(seconds)))", "-www", path,
        ]
        if verify { arguments += ["-verify", "4", "-CAfile", directory + "/ca.pem"] }
        let before = CPU.children()
        let output = try capture("/usr/bin/openssl", arguments)
        let system = (CPU.children() - before).total - (CPU.children() - before).user
        // "N connections in T.TTs; R connections/user sec, bytes read B"
        for line in output.split(separator: "\n") where line.contains("connections/user sec") {
            let words = line.split(separator: " ")
            guard let connections = words.first.flatMap({ Int($0) }),
                let index = words.firstIndex(of: "in"), index + 1 < words.count,
                let user = Double(words[index + 1].trimmingCharacters(in: CharacterSet(charactersIn: "s;")))
            else { continue }
            return STime(connections: connections, cpu: CPU(user: user, total: user + system))
        }
        return STime()
    }

    /// One curl process making 50 fresh connections (no keep-alive, no session reuse).
    func curlCPUPerRequest(port: Int, path: String) throws -> CPU {
        let count = 50
        var config = ""
        for _ in 0..<count { config += "url = \"https://\(host):\(port)\(path)\"\noutput = \"/dev/null\"\n" }
        try config.write(toFile: directory + "/curl.conf", atomically: true, encoding: .utf8)
        let before = CPU.children()
        _ = try capture(
            "/usr/bin/curl",
            [
                "-s", "--http1.1", "--no-sessionid", "-H", "Connection: close", "--cacert", directory + "/ca.pem",
                "--resolve",
                "\(host):\(port):127.0.0.1", "-K", directory + "/curl.conf",
            ])
        return (CPU.children() - before) / count
    }

    // MARK: HTTP/2

    /// Many concurrent requests on one pinned client: h2 multiplexes them on one connection (one
    /// pin check), HTTP/1.1 needs a connection per request in flight.
    func multiplexing(nginxPort: Int, nghttpdPort: Int) async throws -> JSONValue {
        var results: [(String, JSONValue)] = []
        for (name, port, version) in [
            ("nghttpdH2", nghttpdPort, PinnedHTTPClient.HTTPVersion.http2IfAvailable),
            ("nginxH2", nginxPort, .http2IfAvailable), ("nginxHTTP11", nginxPort, .http1Only),
        ] {
            let client = try client(port: port, pinned: true, reuse: true, version: version)
            defer { client.shutdown() }
            let url = URL(string: "https://\(host):\(port)/index.html")!
            var requests = 0
            var pinChecks = 0
            var versions = Set<String>()
            let start = Date()
            let startCPU = CPU.process()
            let end = start.addingTimeInterval(Double(rounds) * seconds)
            while Date() < end {
                let batch = try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
                    for _ in 0..<Self.concurrency { group.addTask { try await client.send(HTTPRequest(url: url)) } }
                    var responses: [HTTPResponse] = []
                    for try await response in group { responses.append(response) }
                    return responses
                }
                requests += batch.count
                pinChecks += batch.filter { $0.pinning != nil }.count
                versions.formUnion(batch.map(\.httpVersion))
            }
            let elapsed = Date().timeIntervalSince(start)
            let cpu = (CPU.process() - startCPU) / requests
            results.append(
                (
                    name,
                    [
                        "requestsPerSecond": .number(String(format: "%.1f", Double(requests) / elapsed)),
                        "clientCPUMicrosecondsPerRequest": .number(String(format: "%.1f", cpu.total * 1e6)),
                        "requests": .int(requests), "pinChecks": .int(pinChecks),
                        "tlsConnections": .int(client.tlsConnectionsOpened),
                        "httpVersions": .array(versions.sorted().map(JSONValue.string)),
                    ]
                ))
        }
        return .object(results)
    }

    // MARK: Processes

    func start(_ executable: String, _ arguments: [String], port: Int) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        for _ in 0..<200 {
            if LabLoopback.accepts(port: UInt16(port)) { return process }
            usleep(25_000)
        }
        stop(process)
        throw ReferenceError("\(executable) did not listen on 127.0.0.1:\(port)")
    }

    func stop(_ process: Process) {
        guard process.isRunning else { return }
        // nginx without a master process and nghttpd may not act on SIGTERM at once.
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<40 where process.isRunning { usleep(25_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    func capture(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output
    }
}

struct ReferenceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
