public import Foundation
public import PinKit

/// Header fields in order, looked up without regard to case.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [Field]

    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
    }

    public init(_ fields: [(String, String)] = []) { self.fields = fields.map { Field(name: $0.0, value: $0.1) } }
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        let lowered = name.lowercased()
        return fields.first { $0.name.lowercased() == lowered }?.value
    }

    /// Every value of `name`.
    public func values(_ name: String) -> [String] {
        let lowered = name.lowercased()
        return fields.filter { $0.name.lowercased() == lowered }.map(\.value)
    }

    /// Replaces every field named `name` with one `value` (or removes them with nil).
    public mutating func set(_ name: String, _ value: String?) {
        let lowered = name.lowercased()
        fields.removeAll { $0.name.lowercased() == lowered }
        if let value { fields.append(Field(name: name, value: value)) }
    }

    public mutating func add(_ name: String, _ value: String) { fields.append(Field(name: name, value: value)) }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}

/// An HTTPS request.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: HTTPHeaders
    public var body: [UInt8]?
    /// Overrides the client's request timeout for this request.
    public var timeout: Duration?
    /// Send on a new connection, never a kept-alive one. libcurl silently sends a request again
    /// when the reused connection it went out on closes before any answer; a request that must
    /// not reach the server twice (a token refresh that rotates the refresh token) sets this.
    public var requiresFreshConnection = false

    public init(
        method: String = "GET",
        url: URL,
        headers: HTTPHeaders = [:],
        body: [UInt8]? = nil,
        timeout: Duration? = nil
    ) {
        self.method = method.uppercased()
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// An HTTP response; any status is a response, not an error.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The URL that answered (after redirects).
    public var url: URL
    /// "1.1" or "2".
    public var httpVersion: String
    /// How pinning decided for the connection that carried the response; nil when an existing
    /// connection of the same session (same policy) was reused and no handshake ran.
    public var pinning: PinEvaluation?

    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
