import Foundation
import PinKit
import PinKitLab
import PinKitTransport
import Testing

@Suite("PinnedHTTPClient behaviour")
struct ClientBehaviourTests {
    let lab = TransportLab.shared

    func echoServer() throws -> LabTLSServer {
        try LabTLSServer(identity: try lab.pki.leaf(["api.example.com"])) { request in
            switch request.target {
            case "/status/503": return .text("down", status: 503)
            case "/big": return LabResponse(body: [UInt8](repeating: 0x41, count: 300_000))
            case "/slow": return LabResponse(body: Array("late".utf8), delay: 3)
            case "/loop": return .redirect(to: "/loop")
            case "/drop": return LabResponse(dropConnection: true)
            default:
                let headers = request.headers.map { "\($0.name.lowercased())=\($0.value)" }.joined(separator: "\n")
                return .text(
                    "\(request.method) \(request.target)\n\(headers)\n\n"
                        + String(decoding: request.body, as: UTF8.self))
            }
        }
    }

    @Test("methods, headers and bodies arrive as sent", arguments: ["GET", "POST", "PUT", "PATCH", "DELETE"])
    func methods(_ method: String) async throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server)
        let body: [UInt8]? = method == "GET" ? nil : Array("{\"x\":1}".utf8)
        let response = try await client.send(
            HTTPRequest(
                method: method, url: URL(string: server.url(host: "api.example.com", path: "/items?id=7"))!,
                headers: ["X-Trace": "abc", "Content-Type": "application/json"], body: body)
        )
        #expect(response.status == 200)
        #expect(response.bodyText.hasPrefix("\(method) /items?id=7\n"))
        #expect(response.bodyText.contains("x-trace=abc"))
        if body != nil { #expect(response.bodyText.hasSuffix("{\"x\":1}")) }
        #expect(response.headers["content-type"] == "text/plain")
        guard case .matched(let match)? = response.pinning else {
            Issue.record("expected a pin match, got \(String(describing: response.pinning))")
            return
        }
        #expect(match.depth == 2)
    }

    @Test("an HTTP error status is a response, not a transport error")
    func errorStatus() async throws {
        let server = try echoServer()
        defer { server.stop() }
        let response = try await lab.client(try lab.policy(), server: server).get(
            server.url(host: "api.example.com", path: "/status/503"))
        #expect(response.status == 503)
        #expect(response.bodyText == "down")
    }

    @Test("a response over the size limit fails with response-too-large")
    func sizeLimit() async throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server) { $0.maximumResponseSize = 100_000 }
        let error = await transportError { try await client.get(server.url(host: "api.example.com", path: "/big")) }
        #expect(error?.code == .responseTooLarge)
        let roomy = try lab.client(try lab.policy(), server: server) { $0.maximumResponseSize = 1_000_000 }
        #expect(try await roomy.get(server.url(host: "api.example.com", path: "/big")).body.count == 300_000)
    }

    @Test("a slow server times out")
    func timeout() async throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server) { $0.requestTimeout = .milliseconds(300) }
        // Without the timeout the slow server would answer 200 after 3 s: the code proves it fired.
        let error = await transportError { try await client.get(server.url(host: "api.example.com", path: "/slow")) }
        #expect(error?.code == .timeout)
    }

    @Test("a refused connection and a dropped connection are network errors")
    func networkErrors() async throws {
        let server = try echoServer()
        let port = server.port
        let dropped = await transportError {
            try await lab.client(try lab.policy(), server: server).get(
                server.url(host: "api.example.com", path: "/drop"))
        }
        #expect(dropped?.code == .network)
        server.stop()
        let client = try lab.client(try lab.policy(), server: server)
        let refused = await transportError { try await client.get("https://api.example.com:\(port)/") }
        #expect(refused?.code == .connectionRefused)
        #expect(refused?.isNetwork == true)
    }

    @Test("cancelling the task cancels the running request")
    func cancellation() async throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server)
        let task = Task {
            await transportError { try await client.get(server.url(host: "api.example.com", path: "/slow")) }
        }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        // Uncancelled, the slow server would answer 200: the code proves the request was stopped.
        let error = await task.value
        #expect(error?.code == .cancelled)
    }

    @Test("many concurrent requests complete on one session without a thread each")
    func concurrency() async throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server)
        let url = server.url(host: "api.example.com", path: "/n")
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { try await client.get(url).status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.count == 50 && statuses.allSatisfy { $0 == 200 })
        #expect(server.statistics.handshakes <= 8, "connections are capped per host and reused")
    }

    @Test("only https is allowed, and redirect loops stop")
    func refusals() async throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server) { $0.followRedirects = true }
        #expect(await transportError { try await client.get("http://api.example.com/") }?.code == .invalidRequest)
        let loop = await transportError { try await client.get(server.url(host: "api.example.com", path: "/loop")) }
        #expect(loop?.code == .tooManyRedirects)
    }

    @Test("redirects are not followed unless asked")
    func noRedirects() async throws {
        let server = try echoServer()
        defer { server.stop() }
        let response = try await lab.client(try lab.policy(), server: server).get(
            server.url(host: "api.example.com", path: "/loop"))
        #expect(response.status == 302)
        #expect(response.headers["location"] == "/loop")
    }

    @Test("handshake() reports both chains and where the pin matched")
    func handshake() async throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try lab.client(try lab.policy(), server: server)
        let report = try await client.handshake(host: "api.example.com", port: Int(server.port))
        #expect(report.servedChain.count == 2)
        #expect(report.verifiedChain.count == 3)
        #expect(report.verifiedChain.last?.spki == lab.pki.root.pin)
        guard case .matched(let match) = report.pinning else {
            Issue.record("expected a match, got \(report.pinning)")
            return
        }
        #expect(match.depth == 2)
        #expect(match.label == "pin 0")
    }
}

@Suite("Transport logging")
struct TransportLoggingTests {
    let lab = TransportLab.shared

    @Test("the client logs through the facade: redacted URLs, pin failures named, no secrets")
    func logging() async throws {
        let server = try LabTLSServer(identity: try lab.rogue.leaf(["api.example.com"]))
        defer { server.stop() }
        let store = InMemoryLogStore()
        let logger = RedactingLogger(category: "transport", configuration: .development(sinks: [.memory(store)]))
        let unpinned = try lab.client(.systemTrustOnly, kind: .unpinned, server: server) { $0.logger = logger }
        _ = try await unpinned.get(server.url(host: "api.example.com", path: "/v1/users/42?token=s3cret"))
        let pinned = try lab.client(try lab.policy(), server: server) { $0.logger = logger }
        _ = await transportError { try await pinned.get(server.url(host: "api.example.com", path: "/v1/users/42")) }
        let text = store.records.map(\.text).joined(separator: "\n")
        #expect(text.contains("GET api.example.com:\(server.port) -> 200"), "method, host and port; never the path")
        #expect(text.contains("pinning refused api.example.com"))
        #expect(!text.contains("s3cret") && !text.contains("/v1/users"))
    }

    @Test("a real pin failure logged through the redacting logger keeps every served key and every expected pin")
    func pinFailureKeysStayReadable() async throws {
        let server = try LabTLSServer(identity: try lab.rogue.leaf(["api.example.com"]))
        defer { server.stop() }
        let store = InMemoryLogStore()
        let logger = RedactingLogger(category: "transport", configuration: .development(sinks: [.memory(store)]))
        let pinned = try lab.client(try lab.policy(), server: server) { $0.logger = logger }
        let error = await transportError {
            try await pinned.get(server.url(host: "api.example.com", path: "/v1/users/42"))
        }
        let failure = try #require(error?.pinFailure)
        let served = failure.verifiedChain.map(\.spki.base64)
        #expect(served.count >= 2, "the leaf and its issuers")
        // Without the label: the same keys printed bare, as the message did before, are taken
        // for tokens by the redaction.
        let unlabelled = LogSanitizer.redact(
            "verified chain " + served.map { "[1] CN=x \($0)" }.joined(separator: "; "))
        #expect(served.allSatisfy { !unlabelled.contains($0) }, "bare base64 keys are redacted")
        // With it: every served key survives the logger, labelled, and so does every expected pin.
        let text = store.records.map(\.text).joined(separator: "\n")
        #expect(text.contains("pinning refused api.example.com"))
        for key in served { #expect(text.contains("sha256/" + key), "served key \(key) in: \(text)") }
        for pin in failure.expectedPins { #expect(text.contains(pin.base64), "expected pin \(pin.base64)") }
    }
}
