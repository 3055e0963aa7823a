import Foundation
import PinKit

/// An API server whose access tokens are good for one request each, so every second request
/// meets a 401 and the client refreshes: a full session rotates tokens without a test hook.
/// Serve it with `LabTLSServer(identity:) { server.handle($0) }`.
///
/// `POST /v1/auth/token` with the right password issues a pair, `POST /v1/auth/refresh` trades a
/// live refresh token for a new pair, and any other request needs a live access token.
public final class LabTokenServer: Sendable {
    public static let password = "correct horse 9"
    /// Every token issued, access and refresh: the strings that must never reach a file.
    public var issued: [String] { state.withLock { $0.issued } }
    /// How many logins (password exchanges) succeeded.
    public var logins: Int { state.withLock { $0.logins } }
    /// How many requests a live access token authorised.
    public var authorizedCalls: Int { state.withLock { $0.authorized } }

    private struct State {
        var issued: [String] = []
        var access: Set<String> = []
        var refresh: Set<String> = []
        var logins = 0
        var authorized = 0
    }
    private let state = Locked(State())

    public init() {}

    private func newPair() -> LabResponse {
        // Short and random: no redaction rule matches them, so finding one proves it was written.
        let access = "at\(UInt32.random(in: 100_000...999_999))x"
        let refresh = "rt\(UInt32.random(in: 100_000...999_999))y"
        state.withLock {
            $0.issued += [access, refresh]
            $0.access.insert(access)
            $0.refresh.insert(refresh)
        }
        return .json(#"{"accessToken": "\#(access)", "refreshToken": "\#(refresh)"}"#)
    }

    public func handle(_ request: LabRequest) -> LabResponse {
        let body = (try? JSONParser.parse(request.body)) ?? .null
        switch (request.method, request.target) {
        case ("POST", "/v1/auth/token"):
            guard body["password"] == .string(Self.password) else { return .json(#"{"title": "no"}"#, status: 401) }
            state.withLock { $0.logins += 1 }
            return newPair()
        case ("POST", "/v1/auth/refresh"):
            guard case .string(let token)? = body["refreshToken"],
                state.withLock({ $0.refresh.remove(token) }) != nil
            else { return .json(#"{"title": "refresh refused"}"#, status: 401) }
            return newPair()
        default:
            let token = request.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
            let live = state.withLock {
                guard $0.access.remove(token) != nil else { return false }
                $0.authorized += 1
                return true
            }
            guard live else { return .json(#"{"title": "unauthorized"}"#, status: 401) }
            return .json(#"{"name": "Ada"}"#)
        }
    }
}
