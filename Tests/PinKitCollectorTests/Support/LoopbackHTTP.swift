import Foundation

/// A minimal blocking HTTP/1.1 client over a raw loopback socket, so tests control every byte
/// and its timing (a slow sender, a half-sent body, a thousand connections at once).
struct LoopbackHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    let fd: Int32

    /// Connects to 127.0.0.1:port.
    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            _ = Glibc.close(fd)
            throw Failure(description: "connect: \(errno)")
        }
    }

    func close() { _ = Glibc.close(fd) }

    static func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []
    ) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// Writes all bytes; false when the peer closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// Reads one response (Content-Length framed). Nil when the connection closed first.
    func receive() -> Response? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var headerEnd: Int?
        var expected = 0
        while true {
            if let end = headerEnd, buffer.count >= end + expected { break }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            buffer += chunk[0..<count]
            if headerEnd == nil, let range = Self.find([13, 10, 13, 10], in: buffer) {
                headerEnd = range + 4
                let head = String(decoding: buffer[0..<range], as: UTF8.self)
                let length = head.split(separator: "\r\n").compactMap { line -> Int? in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                    return Int(parts[1].trimmingCharacters(in: .whitespaces))
                }.first
                expected = length ?? 0
            }
        }
        guard let end = headerEnd else { return nil }
        let lines = String(decoding: buffer[0..<(end - 4)], as: UTF8.self).split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.split(separator: " ").count >= 2,
            let status = Int(statusLine.split(separator: " ")[1])
        else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return Response(status: status, headers: headers, body: Array(buffer[end..<(end + expected)]))
    }

    /// True when the server has closed the connection (a read returns end of stream or an error).
    func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) <= 0
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count)
        where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }

    /// One request on a fresh connection.
    static func exchange(
        port: UInt16, _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []
    ) throws -> Response {
        let client = try LoopbackHTTP(port: port)
        defer { client.close() }
        client.send(request(method, path, headers: headers, body: body))
        guard let response = client.receive() else { throw Failure(description: "no response") }
        return response
    }
}
