/// A security-relevant action. Fields never carry secrets or user identifiers: hosts, flags,
/// serials and reasons only, and every string is passed through ``LogSanitizer``.
public enum AuditEvent: Hashable, Sendable {
    // Recorded by the app through ``AuditLog/record(_:)``.
    case healthKitAuthorizationChanged(read: [String], write: [String])
    case syncToggled(enabled: Bool)
    case biometricLockChanged(enabled: Bool)
    // Recorded by PinKit itself.
    case login(method: String)
    case logout(reason: String)
    case tokenRotated
    case serverChanged(fromHost: String?, toHost: String)
    case killSwitchChanged(serial: Int64, pinning: String, reason: String, hosts: [String], appVersions: String?)
    case pinSetExpired(setName: String, host: String)
    case pinFailure(host: String, port: Int, setName: String, mode: String)

    /// A short, stable name for the event type.
    public var type: String {
        switch self {
        case .healthKitAuthorizationChanged: return "healthkit-authorization-changed"
        case .syncToggled: return "sync-toggled"
        case .biometricLockChanged: return "biometric-lock-changed"
        case .login: return "login"
        case .logout: return "logout"
        case .tokenRotated: return "token-rotated"
        case .serverChanged: return "server-changed"
        case .killSwitchChanged: return "kill-switch-changed"
        case .pinSetExpired: return "pin-set-expired"
        case .pinFailure: return "pin-failure"
        }
    }

    /// The event's fields, redacted.
    public var fields: JSONValue {
        func text(_ value: String) -> JSONValue { .string(LogSanitizer.redact(value)) }
        func list(_ values: [String]) -> JSONValue { .array(values.map(text)) }
        switch self {
        case .healthKitAuthorizationChanged(let read, let write): return ["read": list(read), "write": list(write)]
        case .syncToggled(let enabled), .biometricLockChanged(let enabled): return ["enabled": .bool(enabled)]
        case .login(let method): return ["method": text(method)]
        case .logout(let reason): return ["reason": text(reason)]
        case .tokenRotated: return [:]
        case .serverChanged(let from, let to): return ["from": from.map(text) ?? .null, "to": text(to)]
        case .killSwitchChanged(let serial, let pinning, let reason, let hosts, let versions):
            return [
                "serial": .int(serial), "pinning": text(pinning), "reason": text(reason), "hosts": list(hosts),
                "appVersions": versions.map(text) ?? .null,
            ]
        case .pinSetExpired(let set, let host): return ["pinSet": text(set), "host": text(host)]
        case .pinFailure(let host, let port, let set, let mode):
            return ["host": text(host), "port": .int(port), "pinSet": text(set), "mode": text(mode)]
        }
    }
}
