public import Foundation
import PinKit

/// The operator tokens from `--operator-token-file`: one `name:token` a line (`#` comments).
/// The name is what the publication log records as "who".
public struct OperatorTokens: Sendable {
    private let entries: [(name: String, digest: [UInt8])]

    /// - Throws: ``CollectorError/Code/configuration`` for a malformed line or a token shorter than 16 characters.
    public init(text: String) throws(CollectorError) {
        var entries: [(String, [UInt8])] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw CollectorError(.configuration, "operator token file line \(index + 1): expected name:token")
            }
            let name = String(line[..<colon])
            let token = String(line[line.index(after: colon)...])
            guard !name.isEmpty, name.utf8.count <= 64,
                name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.@".contains($0) })
            else {
                throw CollectorError(.configuration, "operator token file line \(index + 1): bad name")
            }
            guard token.utf8.count >= 16 else {
                throw CollectorError(
                    .configuration, "operator token file line \(index + 1): the token must have ≥ 16 characters")
            }
            entries.append((name, PortableSHA256.hash(Array(token.utf8))))
        }
        guard !entries.isEmpty else { throw CollectorError(.configuration, "the operator token file holds no token") }
        self.entries = entries
    }

    public init(contentsOf path: String) throws(CollectorError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CollectorError(.configuration, "cannot read the operator token file \(path)")
        }
        try self.init(text: String(decoding: data, as: UTF8.self))
    }

    /// The operator named by `Authorization: Bearer <token>`, or nil. Every configured token is
    /// compared, each in constant time over SHA-256 digests, so the timing reveals neither which
    /// entry matched nor how much of a token was right.
    public func operatorName(authorization: String?) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return nil }
        let presented = PortableSHA256.hash(Array(authorization.dropFirst("Bearer ".count).utf8))
        var found: String?
        for entry in entries where Self.constantTimeEqual(entry.digest, presented) { found = found ?? entry.name }
        return found
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<a.count { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
