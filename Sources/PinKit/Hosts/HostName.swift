/// Host-name normalisation and the syntax rules for pinned host patterns.
public enum HostName {
    /// ASCII lower case with one trailing dot stripped: the form every host comparison uses.
    ///
    /// Non-ASCII characters are left as they are; since patterns must be ASCII (`xn--` form),
    /// such a host can never match a pattern and gets system trust, like any other unpinned host.
    public static func normalize(_ host: some StringProtocol) -> String {
        var bytes = Array(host.utf8)
        if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        for index in bytes.indices where (0x41...0x5A).contains(bytes[index]) { bytes[index] |= 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True for IPv4 and IPv6 literals, including bracketed and shortened IPv4 forms (`127.1`),
    /// and for anything whose last label is numeric (no top-level domain is).
    public static func isIPLiteral(_ host: String) -> Bool {
        if host.contains(":") || host.hasPrefix("[") { return true }
        guard let last = host.split(separator: ".", omittingEmptySubsequences: false).last, !last.isEmpty else {
            return false
        }
        let lower = last.lowercased()
        if lower.allSatisfy(\.isASCIIDigitCharacter) { return true }
        return lower.hasPrefix("0x") && lower.count > 2 && lower.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    /// A syntax problem with a host pattern, before any policy rule (public suffix) applies.
    public enum SyntaxProblem: Equatable, Sendable {
        case empty
        case emptyLabel
        case ipLiteral
        case wildcard
        case nonASCII
        case invalidCharacter(Character)
        case tooLong

        var code: ConfigurationProblem.Code {
            switch self {
            case .empty: return .emptyHost
            case .emptyLabel: return .emptyLabel
            case .ipLiteral: return .ipLiteralHost
            case .wildcard: return .wildcardHost
            case .nonASCII: return .nonASCIIHost
            case .invalidCharacter, .tooLong: return .invalidHost
            }
        }

        package func message(for pattern: String) -> String {
            switch self {
            case .empty: return "expected a host name, saw an empty string"
            case .emptyLabel: return "\"\(pattern)\" has an empty label (two dots in a row or a leading dot)"
            case .ipLiteral:
                return "\"\(pattern)\" is an IP literal; pin host names, which certificates are issued for"
            case .wildcard:
                return
                    "\"\(pattern)\" contains a wildcard; write the apex and use includeSubdomains (default true) instead"
            case .nonASCII:
                return "\"\(pattern)\" contains non-ASCII characters; write the IDNA \"xn--\" form instead"
            case .invalidCharacter(let character):
                return "\"\(pattern)\" contains '\(character)'; a host name has letters, digits, '-' and '.' only"
            case .tooLong: return "\"\(pattern)\" is longer than DNS allows (253 characters, 63 per label)"
            }
        }
    }

    /// The syntax problem of a pattern after normalisation, if any.
    public static func syntaxProblem(ofPattern raw: String) -> SyntaxProblem? {
        let pattern = normalize(raw)
        if pattern.isEmpty { return .empty }
        if pattern.unicodeScalars.contains(where: { !$0.isASCII }) { return .nonASCII }
        if pattern.contains("*") { return .wildcard }
        if isIPLiteral(pattern) { return .ipLiteral }
        let labels = pattern.split(separator: ".", omittingEmptySubsequences: false)
        if labels.contains(where: \.isEmpty) { return .emptyLabel }
        if let bad = pattern.first(where: { !($0.isASCIILetterOrDigit || $0 == "-" || $0 == "." || $0 == "_") }) {
            return .invalidCharacter(bad)
        }
        if pattern.utf8.count > 253 || labels.contains(where: { $0.utf8.count > 63 }) { return .tooLong }
        return nil
    }

    /// True when `host` equals `apex` or lies below it on a label boundary.
    /// Both must already be normalised.
    @inlinable
    public static func host(_ host: String, isWithinOrEqualTo apex: String) -> Bool {
        if host == apex { return true }
        guard host.utf8.count > apex.utf8.count + 1, host.hasSuffix(apex) else { return false }
        let boundary = host.utf8.index(host.utf8.endIndex, offsetBy: -(apex.utf8.count + 1))
        return host.utf8[boundary] == UInt8(ascii: ".")
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
    var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}
