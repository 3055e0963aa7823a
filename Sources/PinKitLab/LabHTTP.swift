public import Foundation

/// An HTTP/1.1 request as the lab server received it.
public struct LabRequest: Sendable {
    public var method: String
    public var target: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The SNI name the client sent, if any.
    public var serverName: String?
    /// The index of the TLS connection on this server that carried the request (0-based).
    public var connection: Int

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A scripted response.
public struct LabResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Wait this long before answering (slow-server and timeout tests).
    public var delay: TimeInterval
    /// Close the connection without answering.
    public var dropConnection: Bool
    /// How the body's end is marked.
    public var framing: Framing
    /// Send only this many bytes of the serialized response (head included), then close the TCP
    /// connection without a TLS close_notify: an on-path attacker cutting the response short.
    public var truncateAfter: Int?
    /// Send a TLS close_notify before closing the connection (off: a bare TCP FIN).
    public var closeNotify: Bool

    /// How a response marks where its body ends.
    public enum Framing: Sendable {
        /// A Content-Length header.
        case contentLength
        /// No length: the body ends when the connection closes (HTTP/1.1 section 6.3, rule 8).
        case closeDelimited
        /// `Transfer-Encoding: chunked`, the body in one chunk and the last-chunk marker.
        case chunked
    }

    public init(
        status: Int = 200,
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = [],
        delay: TimeInterval = 0,
        dropConnection: Bool = false,
        framing: Framing = .contentLength,
        truncateAfter: Int? = nil,
        closeNotify: Bool = true
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.dropConnection = dropConnection
        self.framing = framing
        self.truncateAfter = truncateAfter
        self.closeNotify = closeNotify
    }

    public static func text(_ text: String, status: Int = 200) -> LabResponse {
        LabResponse(status: status, headers: [("Content-Type", "text/plain")], body: Array(text.utf8))
    }

    public static func json(_ json: String, status: Int = 200) -> LabResponse {
        LabResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(json.utf8))
    }

    public static func redirect(to location: String, status: Int = 302) -> LabResponse {
        LabResponse(status: status, headers: [("Location", location)])
    }
}

/// The size of a lab response's head, so a test can cut a response inside its body.
public enum LabHTTPHead {
    /// Bytes of the status line and headers (up to and including the blank line), as sent on a
    /// connection that closes after the response.
    public static func size(of response: LabResponse) -> Int {
        LabHTTPParser.serialize(response, keepAlive: false, isHead: true).count
    }
}

/// Minimal HTTP/1.1 framing for the lab: request head + Content-Length body.
enum LabHTTPParser {
    /// Parses one request from the front of `buffer`, consuming it; nil when incomplete.
    /// Throws on a request the lab refuses (too large, malformed).
    static func parse(_ buffer: inout [UInt8]) throws -> (LabRequest, keepAlive: Bool)? {
        guard let headEnd = find([13, 10, 13, 10], in: buffer) else {
            if buffer.count > 64 * 1024 { throw LabError("request head larger than 64 KiB") }
            return nil
        }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { throw LabError("malformed request line") }
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw LabError("malformed header line") }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            )
        }
        let length = Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? -1
        guard length >= 0, length <= 16 * 1024 * 1024 else { throw LabError("bad Content-Length") }
        let bodyStart = headEnd + 4
        guard buffer.count >= bodyStart + length else { return nil }
        let body = Array(buffer[bodyStart..<bodyStart + length])
        buffer.removeFirst(bodyStart + length)
        let connectionHeader = headers.first { $0.0.lowercased() == "connection" }?.1.lowercased()
        // HTTP/1.0 closes after each response unless asked to keep the connection.
        let keepAlive =
            requestLine[2] == "HTTP/1.0" ? connectionHeader == "keep-alive" : connectionHeader != "close"
        let request = LabRequest(
            method: String(requestLine[0]),
            target: String(requestLine[1]),
            headers: headers,
            body: body,
            serverName: nil,
            connection: 0
        )
        return (request, keepAlive)
    }

    static func serialize(_ response: LabResponse, keepAlive: Bool, isHead: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        var body = isHead ? [] : response.body
        switch response.framing {
        case .contentLength:
            head += "Content-Length: \(response.body.count)\r\n"
        case .closeDelimited:
            break
        case .chunked:
            head += "Transfer-Encoding: chunked\r\n"
            if !isHead {
                body =
                    Array(String(response.body.count, radix: 16).utf8) + [13, 10] + response.body
                    + Array("\r\n0\r\n\r\n".utf8)
            }
        }
        if !keepAlive { head += "Connection: close\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    private static func reason(_ status: Int) -> String {
        [
            200: "OK", 201: "Created", 204: "No Content", 301: "Moved Permanently", 302: "Found", 303: "See Other",
            307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
            403: "Forbidden", 404: "Not Found", 500: "Internal Server Error", 503: "Service Unavailable",
        ][status]
            ?? "Status"
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<start + needle.count]) == needle { return start }
        }
        return nil
    }
}

/// An error of the lab's own machinery (socket, TLS context, framing).
public struct LabError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
