import Foundation
import PinKit
import PinKitClient
import PinKitLab
import PinKitTestSupport
import PinKitTransport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 12 §6: no request path, query or identifier reaches a log line or an error message.
@Suite("No path, query or identifier in logs or errors", .serialized)
struct NoPathInLogsTests {
    /// Points file descriptor 2 at a file while a session runs, so the `.standardError` sink's
    /// bytes can be read back.
    final class StandardErrorCapture {
        let path: String
        private let saved: Int32

        init(path: String) {
            self.path = path
            fflush(nil)
            saved = dup(2)
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            dup2(fd, 2)
            close(fd)
        }

        func finish() -> String {
            fflush(nil)
            dup2(saved, 2)
            close(saved)
            return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }
    }

    @Test("the sanitizer alone keeps a bare path (no rule can tell it from prose): the client must not write it")
    func sanitizerIsNotEnough() {
        #expect(LogSanitizer.redact("GET /v1/patients/48213/records?name=jane answered 401").contains("48213"))
        // A full URL, even one with a quote in its path, is the sanitizer's to reduce (issue 15).
        #expect(
            LogSanitizer.redact("GET https://api.example.com/v1/patients/o'brien-7/notes -> 200")
                == "GET https://api.example.com -> 200")
    }

    @Test("a whole session through every sink: no path segment, query value, token, email or UUID")
    func wholeSession() async throws {
        let tag = String(Int.random(in: 100_000...999_999))
        let patient = "4\(tag)"
        let surname = "o'brien-\(tag)"
        let queryName = "jane\(tag)"
        let email = "jane.doe.\(tag)@example.org"
        let visit = UUID().uuidString.lowercased()
        let outage = Locked(false)
        let logDirectory = try TemporaryDirectory()
        defer { logDirectory.remove() }
        let logs = InMemoryLogStore()
        let logger = RedactingLogger(
            category: "app",
            configuration: LogConfiguration(
                minimumLevel: .trace, allowsBodies: true,
                sinks: [.memory(logs), try .jsonLinesFile(path: logDirectory.file("session.log")), .standardError])
        )
        let h = try APIClientTests.harness(
            handler: { api in
                { request in
                    if request.target.hasPrefix("/v1/auth/refresh") && outage.withLock({ $0 }) {
                        return .json(#"{"title": "down"}"#, status: 503)
                    }
                    if request.target.contains("/missing") {
                        // RFC 9457: "instance" is typically the request's own path and query.
                        let problem: JSONValue = ["title": "no such record", "instance": .string(request.target)]
                        return .json(problem.serialized(), status: 404)
                    }
                    if request.target.contains("/odd") { return .json(#"{"unexpected": true}"#) }
                    return api.handle(request)
                }
            },
            configure: { configuration in
                configuration.auditUploadURL = nil
                configuration.logger = logger
            })
        defer {
            h.server.stop()
            h.state.remove()
        }
        let capture = StandardErrorCapture(path: logDirectory.file("stderr.txt"))
        var errors: [String] = []
        var problems: [String] = []
        do {
            let client = h.client
            func record(_ body: () async throws -> Void) async {
                do { try await body() } catch {
                    errors.append(String(describing: error))
                    if let problem = (error as? APIError)?.problem { problems.append(problem) }
                }
            }
            try await client.login(username: email, password: AuthServer.password)
            _ = try await client.get(
                "/v1/patients/\(patient)/records?name=\(queryName)&email=\(email)", route: "/v1/patients/{id}/records",
                as: Profile.self)
            _ = try await client.get("/v1/patients/\(surname)/notes", as: Profile.self)
            h.api.expireAccessTokens()  // the next request meets 401 and refreshes
            struct Note: Codable, Sendable { let text: String }
            _ = try await client.post(
                "/v1/patients/\(patient)/visits?visit=\(visit)", body: Note(text: "ok"), as: Profile.self)
            await record {
                _ = try await client.get("/v1/patients/\(patient)/missing?name=\(queryName)", as: Profile.self)
            }
            await record { _ = try await client.get("/v1/patients/\(surname)/odd?visit=\(visit)", as: Profile.self) }
            outage.withLock { $0 = true }
            h.api.expireAccessTokens()
            await record {
                _ = try await client.get("/v1/patients/\(patient)/records?name=\(queryName)", as: Profile.self)
            }
            outage.withLock { $0 = false }
            h.api.state.withLock { $0.alwaysUnauthorized = true }
            await record {
                _ = try await client.get("/v1/patients/\(patient)/records?visit=\(visit)", as: Profile.self)
            }
            // Transport failures: a base URL the transport refuses, and a server that is gone.
            var plain = APIClient.Configuration(
                baseURL: URL(string: "http://api.example.com")!, policy: try APIClientTests.policy(),
                credentials: InMemoryCredentialStore(Tokens(accessToken: "a", refreshToken: "r")))
            plain.logger = logger
            let insecure = try APIClient(plain)
            await record {
                _ = try await insecure.get("/v1/patients/\(patient)/records?name=\(queryName)", as: Profile.self)
            }
            h.api.state.withLock { $0.alwaysUnauthorized = false }
            try await client.login(username: email, password: AuthServer.password)
            h.server.stop()
            await record {
                _ = try await client.get("/v1/patients/\(surname)/records?visit=\(visit)", as: Profile.self)
            }
        } catch {
            Issue.record("the session failed: \(error)")
        }
        let standardError = capture.finish()
        #expect(errors.count == 6, "\(errors)")
        #expect(errors.last?.hasPrefix("transport: ") == true, "the last request met a server that is gone")
        #expect(problems.contains { $0.contains("no such record") && $0.contains("[path]") }, "\(problems)")

        let served = h.server.requests
        // Every token the session used: bearer headers, refresh bodies, and those still live.
        let tokens = Set(
            served.compactMap { $0.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "") }
                + served.compactMap { request -> String? in
                    guard case .string(let token)? = (try? JSONParser.parse(request.body))?["refreshToken"] else {
                        return nil
                    }
                    return token
                }
                + h.api.state.withLock { Array($0.accessTokens) + Array($0.refreshTokens) })
        let keys = served.compactMap { $0.header("Idempotency-Key") }
        #expect(!keys.isEmpty && tokens.count >= 4, "\(tokens)")
        let secrets =
            [patient, surname, "brien-\(tag)", queryName, email, visit, visit.uppercased(), AuthServer.password]
            + tokens + keys
            + served.map(\.target).filter { $0.contains(tag) }
        var outputs = [
            (
                "memory sink",
                logs.records.map { $0.text + " " + $0.metadata.values.joined(separator: " ") }.joined(separator: "\n")
            ),
            ("standard error sink", standardError),
            ("error descriptions", errors.joined(separator: "\n")),
            ("problem documents", problems.joined(separator: "\n")),
        ]
        for directory in [h.state, logDirectory] {
            guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { continue }
            for case let file as String in enumerator where file != "stderr.txt" {
                outputs.append((file, (try? String(contentsOfFile: directory.file(file), encoding: .utf8)) ?? ""))
            }
        }
        #expect(outputs.contains { $0.0 == "session.log" } && outputs.contains { $0.0 == "audit.jsonl" })
        #expect(logs.records.count > 10, "the session logged")
        #expect(standardError.contains("answered 401"), "the standard error sink was captured")
        for (name, text) in outputs {
            for secret in Set(secrets) { #expect(!text.contains(secret), "\(secret) in \(name)") }
        }
        // The caller's route template is what names the request.
        #expect(logs.records.contains { $0.message.contains("/v1/patients/{id}/records") })
    }
}
