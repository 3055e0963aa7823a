/// An error from the collector: storage, server start-up, configuration.
///
/// The code is an extensible struct (new cases never break callers); the reason says what was
/// expected and what was seen, and never carries a token or a request body.
public struct CollectorError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The database refused a statement or could not be reached.
        public static let database = Code(rawValue: "database")
        /// The HTTP server could not start.
        public static let server = Code(rawValue: "server")
        /// A configuration file or option is unusable.
        public static let configuration = Code(rawValue: "configuration")
        /// An upload that does not match its schema.
        public static let invalidUpload = Code(rawValue: "invalid-upload")
        /// Another writer won: a kill-switch serial that is not above the published one.
        public static let conflict = Code(rawValue: "conflict")
    }

    public var code: Code
    public var reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code): \(reason)" }
}
