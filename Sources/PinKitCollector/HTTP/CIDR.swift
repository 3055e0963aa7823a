import Foundation

/// An IPv4 or IPv6 network (`10.0.0.0/8`, `fd00::/8`), for `--trusted-proxy`.
public struct CIDR: Hashable, Sendable, CustomStringConvertible {
    public let network: [UInt8]
    public let prefixLength: Int

    /// - Throws: ``CollectorError/Code/configuration`` naming the text when it is not a CIDR.
    public init(parsing text: String) throws(CollectorError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard let address = parts.first.flatMap({ Self.bytes(of: String($0)) }) else {
            throw CollectorError(
                .configuration, "not an IP network: \"\(text)\" (expected e.g. 10.0.0.0/8 or fd00::/8)")
        }
        let maximum = address.count * 8
        let length = parts.count == 2 ? Int(parts[1]) : (parts.count == 1 ? maximum : nil)
        guard let length, (0...maximum).contains(length) else {
            throw CollectorError(.configuration, "bad prefix length in \"\(text)\" (0…\(maximum))")
        }
        self.network = address
        self.prefixLength = length
    }

    public var description: String {
        let family = network.count == 4 ? AF_INET : AF_INET6
        var buffer = [CChar](repeating: 0, count: 64)
        _ = network.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return "\(String(cString: buffer))/\(prefixLength)"
    }

    /// The 4 or 16 bytes of a numeric address, or nil.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    public func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address), bytes.count == network.count else { return false }
        var remaining = prefixLength
        for index in 0..<bytes.count where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if bytes[index] & mask != network[index] & mask { return false }
            remaining -= bits
        }
        return true
    }
}

/// Which address a request counts against for rate limiting.
enum ClientAddress {
    /// The peer, unless the peer is a trusted proxy: then the right-most `X-Forwarded-For` entry
    /// that is not itself a trusted proxy (entries further left are client-controlled).
    static func resolve(peer: String, forwardedFor: String?, trustedProxies: [CIDR]) -> String {
        guard let forwardedFor, trustedProxies.contains(where: { $0.contains(peer) }) else { return peer }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            guard CIDR.bytes(of: hop) != nil else { return peer }
            if !trustedProxies.contains(where: { $0.contains(hop) }) { return hop }
        }
        return hops.first.flatMap { CIDR.bytes(of: $0) != nil ? $0 : nil } ?? peer
    }
}
