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
    /// The body's fields when its Content-Type is a form (urlencoded or multipart), as
    /// libmicrohttpd's post processor parsed them; nil for any other body.
    public var form: [FormField]?
    /// The Content-Type named a form but the body was not one (a bad boundary, a truncated part).
    public var formMalformed: Bool

    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: [UInt8] = [], clientAddress: String = "127.0.0.1", bodyTooLarge: Bool = false,
        form: [FormField]? = nil, formMalformed: Bool = false
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
        self.bodyTooLarge = bodyTooLarge
        self.form = form
        self.formMalformed = formMalformed
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The first form field called `name`.
    public func formValue(_ name: String) -> FormField? { form?.first { $0.name == name } }

    /// The value of cookie `name` from the `Cookie` header; nil when it is absent or named more
    /// than once. Two values are ambiguous: one of them can be a cookie planted by another site
    /// or an earlier attacker (session fixation), and "the first one wins" lets it win.
    public func cookie(_ name: String) -> String? {
        guard let header = header("cookie") else { return nil }
        var found: String?
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            // Byte comparison: cookie names are tokens, and `==` on String would equate
            // canonically equivalent spellings.
            guard parts.count == 2, Array(parts[0].trimmingCharacters(in: .whitespaces).utf8) == Array(name.utf8)
            else { continue }
            if found != nil { return nil }
            found = parts[1].trimmingCharacters(in: .whitespaces)
        }
        return found
    }

    /// The headers the server copies from libmicrohttpd into a request.
    static let collectedHeaders = [
        "authorization", "if-none-match", "x-forwarded-for", "content-type", "content-length",
        CollectorHeaders.installation, CollectorHeaders.appVersion, "cookie", "sec-fetch-site",
    ]
    /// The query arguments the server copies.
    static let collectedQuery = ["since", "window", "token", "id"]
}

/// One field of a submitted form: a text field, or a file input with the file's name.
public struct FormField: Sendable, Equatable {
    public var name: String
    public var filename: String?
    public var value: [UInt8]

    public init(name: String, filename: String? = nil, value: [UInt8]) {
        self.name = name
        self.filename = filename
        self.value = value
    }

    public var text: String { String(decoding: value, as: UTF8.self) }
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
