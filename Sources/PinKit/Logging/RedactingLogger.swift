public import Foundation
import Synchronization

/// The only way PinKit (and an app using it) writes log lines. Every message and metadata
/// value passes through ``LogSanitizer`` before any sink sees it, and sinks have no public
/// write method, so no call site can skip redaction.
///
/// Libraries take a `RedactingLogger`; none creates a global one. One category per subsystem.
public struct RedactingLogger: Sendable {
    public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        case trace, debug, info, notice, warning, error, critical
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
        public var description: String {
            switch self {
            case .trace: return "trace"
            case .debug: return "debug"
            case .info: return "info"
            case .notice: return "notice"
            case .warning: return "warning"
            case .error: return "error"
            case .critical: return "critical"
            }
        }
    }

    public let category: String
    let configuration: LogConfiguration

    /// - Parameters:
    ///   - category: the subsystem, e.g. `transport`, `auth`, `kill-switch`.
    public init(category: String, configuration: LogConfiguration) {
        self.category = LogSanitizer.redact(category)
        self.configuration = configuration
    }

    /// A logger that writes nothing (for callers that pass no logger).
    public static let disabled = RedactingLogger(
        category: "disabled", configuration: LogConfiguration(minimumLevel: .critical, sinks: []))

    /// The same configuration under another category.
    public func withCategory(_ category: String) -> RedactingLogger {
        RedactingLogger(category: category, configuration: configuration)
    }

    public func isEnabled(_ level: Level) -> Bool {
        level >= configuration.minimumLevel && !configuration.sinks.isEmpty
    }

    /// Logs `message` at `level`. The message is built only when the level is enabled, then redacted.
    public func log(
        _ level: Level,
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> [String: String] = [:]
    ) {
        guard isEnabled(level) else { return }
        var redactedMetadata: [String: String] = [:]
        // A value is redacted with its key in view: the record joins them (`key=value`) only after
        // redaction, so a credential key's value must go here.
        for (key, value) in metadata() {
            redactedMetadata[LogSanitizer.redact(key)] = LogSanitizer.redact(value, key: key)
        }
        let record = LogRecord(
            date: configuration.now(),
            level: level,
            category: category,
            message: LogSanitizer.redact(message()),
            metadata: redactedMetadata
        )
        for sink in configuration.sinks { sink.write(record) }
    }

    public func trace(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.trace, message(), metadata: metadata())
    }
    public func debug(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.debug, message(), metadata: metadata())
    }
    public func info(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.info, message(), metadata: metadata())
    }
    public func notice(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.notice, message(), metadata: metadata())
    }
    public func warning(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.warning, message(), metadata: metadata())
    }
    public func error(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.error, message(), metadata: metadata())
    }
    public func critical(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.critical, message(), metadata: metadata())
    }

    /// Logs a request or response body, redacted, at `level` (debug by default) — and only when
    /// the configuration allows bodies. A release configuration refuses them at every level.
    public func body(_ label: String, _ bytes: some Collection<UInt8>, level: Level = .debug) {
        guard configuration.allowsBodies, isEnabled(level) else { return }
        let text = String(decoding: LogSanitizer.redact(bytes: bytes), as: UTF8.self)
        log(level, "\(label) body (\(bytes.count) bytes): \(text)")
    }
}

/// How logging behaves: the minimum level, whether bodies may be logged, and the sinks.
public struct LogConfiguration: Sendable {
    public var minimumLevel: RedactingLogger.Level
    /// Off in ``production(sinks:)``: bodies are never logged in a release build.
    public var allowsBodies: Bool
    public var sinks: [LogSink]
    public var now: @Sendable () -> Date

    public init(
        minimumLevel: RedactingLogger.Level,
        allowsBodies: Bool = false,
        sinks: [LogSink],
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.minimumLevel = minimumLevel
        self.allowsBodies = allowsBodies
        self.sinks = sinks
        self.now = now
    }

    /// Release builds: info and above, never a body.
    public static func production(sinks: [LogSink]) -> LogConfiguration {
        LogConfiguration(minimumLevel: .info, allowsBodies: false, sinks: sinks)
    }

    /// Debug builds: debug and above; bodies allowed (still redacted).
    public static func development(sinks: [LogSink]) -> LogConfiguration {
        LogConfiguration(minimumLevel: .debug, allowsBodies: true, sinks: sinks)
    }
}

/// One redacted log line.
public struct LogRecord: Sendable, Hashable {
    public var date: Date
    public var level: RedactingLogger.Level
    public var category: String
    public var message: String
    public var metadata: [String: String]

    /// `2026-11-29T22:40:00Z [info] transport: message key=value`
    public var text: String {
        let pairs = metadata.keys.sorted().map { " \($0)=\(metadata[$0]!)" }.joined()
        return "\(RFC3339.format(date)) [\(level)] \(category): \(message)\(pairs)"
    }

    /// One JSON object, for JSON-lines files.
    public var json: JSONValue {
        [
            "date": .string(RFC3339.format(date)), "level": .string(level.description), "category": .string(category),
            "message": .string(message),
            "metadata": .object(metadata.keys.sorted().map { (key: $0, value: .string(metadata[$0]!)) }),
        ]
    }
}
