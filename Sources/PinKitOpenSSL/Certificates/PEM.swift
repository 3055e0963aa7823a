public import PinKit

/// One `-----BEGIN LABEL-----` … `-----END LABEL-----` block of a PEM file.
public struct PEMBlock: Hashable, Sendable {
    public var label: String
    public var der: [UInt8]
    /// 1-based line of the BEGIN line, for error messages.
    public var line: Int
}

/// A strict PEM scanner (RFC 7468): text outside blocks is ignored, so the output of
/// `openssl x509 -text` or a chain file with comments is accepted; inside a block only base64
/// lines are allowed, the END label must match and the base64 must be canonical.
public enum PEM {
    /// Every block in `text`, in order.
    /// - Throws: ``PinKitError/Code/malformedPEM`` naming the line of the bad block.
    public static func blocks(in text: String) throws(PinKitError) -> [PEMBlock] {
        var blocks: [PEMBlock] = []
        var open: (label: String, line: Int, body: String)?
        var lineNumber = 0
        // "\r\n" is a single Character in Swift, so split on every kind of line end.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for rawLine in lines {
            lineNumber += 1
            let line = rawLine.trimmed(of: [" ", "\t", "\r"])
            if let label = label(of: line, marker: "BEGIN") {
                if let open {
                    throw PinKitError(
                        .malformedPEM,
                        "line \(lineNumber): BEGIN \(label) inside the \(open.label) block opened at line \(open.line)"
                    )
                }
                open = (label, lineNumber, "")
            } else if let label = label(of: line, marker: "END") {
                guard let block = open else {
                    throw PinKitError(.malformedPEM, "line \(lineNumber): END \(label) without a BEGIN")
                }
                guard block.label == label else {
                    throw PinKitError(
                        .malformedPEM,
                        "line \(lineNumber): END \(label) closes the \(block.label) block opened at line \(block.line)"
                    )
                }
                switch Base64.decode(block.body) {
                case .success(let der) where !der.isEmpty:
                    blocks.append(PEMBlock(label: label, der: der, line: block.line))
                case .success:
                    throw PinKitError(.malformedPEM, "line \(block.line): the \(label) block is empty")
                case .failure(let failure):
                    throw PinKitError(.malformedPEM, "line \(block.line): the \(label) block is not base64: \(failure)")
                }
                open = nil
            } else if open != nil {
                if line.contains(":") {
                    throw PinKitError(
                        .malformedPEM,
                        "line \(lineNumber): encapsulated headers (\(line.prefix(40))) are not allowed in \(open!.label) blocks"
                    )
                }
                open!.body += line
            }
        }
        if let open {
            throw PinKitError(
                .malformedPEM, "the \(open.label) block opened at line \(open.line) has no END line (truncated?)")
        }
        return blocks
    }

    /// The label of a `-----BEGIN X-----` / `-----END X-----` line.
    private static func label(of line: some StringProtocol, marker: String) -> String? {
        let prefix = "-----\(marker) "
        guard line.hasPrefix(prefix), line.hasSuffix("-----"), line.count >= prefix.count + 5 else { return nil }
        return String(line.dropFirst(prefix.count).dropLast(5))
    }

    /// PEM text for DER bytes: 64 base64 characters a line.
    public static func encode(_ der: [UInt8], label: String) -> String {
        let base64 = Array(Base64.encode(der))
        var text = "-----BEGIN \(label)-----\n"
        var index = 0
        while index < base64.count {
            text += String(base64[index..<min(index + 64, base64.count)]) + "\n"
            index += 64
        }
        return text + "-----END \(label)-----\n"
    }
}

extension StringProtocol {
    fileprivate func trimmed(of set: Set<Character>) -> Substring {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return Substring(slice)
    }
}
