/// An error thrown by PinKit for bad input or failed I/O.
///
/// A failed *check* (a pin mismatch, an invalid configuration that was read successfully) is a
/// result value, not an error; errors are for input that cannot be understood at all.
///
/// The code is an extensible struct rather than an enum so that new cases never break the
/// source of callers that switch over it.
public struct PinKitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable identifier for the kind of failure.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A pin string that is not one of the accepted forms or not 32 bytes.
        public static let invalidPin = Code(rawValue: "invalid-pin")
        /// JSON that is not well formed.
        public static let malformedJSON = Code(rawValue: "malformed-json")
        /// A property list that could not be read.
        public static let malformedPropertyList = Code(rawValue: "malformed-plist")
        /// A document whose structure does not match the schema (unknown key, wrong type).
        public static let invalidDocument = Code(rawValue: "invalid-document")
        /// A date that is not RFC 3339 / ISO 8601.
        public static let invalidDate = Code(rawValue: "invalid-date")
        /// A file that could not be read or written.
        public static let io = Code(rawValue: "io")
        /// PEM text that is not a well-formed certificate block.
        public static let malformedPEM = Code(rawValue: "malformed-pem")
        /// DER bytes that are not a certificate.
        public static let malformedDER = Code(rawValue: "malformed-der")
        /// A raw public key (PKCS#1 RSAPublicKey or X9.63 point) or SubjectPublicKeyInfo that is
        /// not well formed for its key type.
        public static let malformedPublicKey = Code(rawValue: "malformed-public-key")
        /// Input that contains no certificate at all.
        public static let noCertificate = Code(rawValue: "no-certificate")
        /// A configuration that failed validation; `problems` lists every problem.
        public static let invalidConfiguration = Code(rawValue: "invalid-configuration")
        /// An error reported by the OpenSSL library.
        public static let openSSL = Code(rawValue: "openssl")
    }

    public var code: Code
    /// What was expected and what was seen. May name input values; never secrets.
    public var reason: String
    /// For ``Code/invalidConfiguration``: every problem found, in document order.
    public var problems: [ConfigurationProblem]

    public init(_ code: Code, _ reason: String, problems: [ConfigurationProblem] = []) {
        self.code = code
        self.reason = reason
        self.problems = problems
    }

    /// A short, bounded description without input values, for metrics and reports.
    public var shortDescription: String { code.rawValue }

    public var description: String {
        if problems.isEmpty { return "\(code): \(reason)" }
        return "\(code): \(reason)\n" + problems.map { "  " + $0.description }.joined(separator: "\n")
    }
}
