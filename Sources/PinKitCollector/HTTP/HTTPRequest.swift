/// One complete HTTP request as the collector's handlers see it: no connection, no C.
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    public var query: [String: String]
    /// Header names lower-cased; only the headers the collector reads are collected.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The peer address (or the forwarded one from a trusted proxy); used for rate limits only,
    /// never stored.
    public var clientAddress: String
    /// The body was larger than the limit (and was discarded).
    public var bodyTooLarge: Bool

    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: [UInt8] = [], clientAddress: String = "127.0.0.1", bodyTooLarge: Bool = false
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
        self.bodyTooLarge = bodyTooLarge
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The headers the server copies from libmicrohttpd into a request.
    static let collectedHeaders = [
        "authorization", "if-none-match", "x-forwarded-for", "content-type", "content-length",
        CollectorHeaders.installation, CollectorHeaders.appVersion,
    ]
    /// The query arguments the server copies.
    static let collectedQuery = ["since", "window", "token"]
}

/// The headers a device sends with every upload.
public enum CollectorHeaders {
    /// A random per-installation identifier the client creates and keeps (never a user id).
    public static let installation = "x-pinkit-installation"
    public static let appVersion = "x-pinkit-app-version"
}

/// An HTTP response: status, headers, body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.map { $0.0 + ":" + $0.1 }
                == rhs.headers.map { $0.0 + ":" + $0.1 }
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// A response can end a handler early: a rejection carried as a `Result` failure.
extension HTTPResponse: Error {}
