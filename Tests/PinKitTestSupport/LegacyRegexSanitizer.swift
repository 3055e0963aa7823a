public import Foundation

/// The sanitizer's rules before issue 15 (five rules, URL bodies cut at quotes and brackets), as
/// a regular-expression cascade: the deliberately unprotected variant the leak tests first show
/// leaking, so a leak test that cannot fail is caught.
public enum LegacyRegexSanitizer {
    private static func regex(_ pattern: String) -> NSRegularExpression {
        // Explicit ASCII classes instead of .caseInsensitive: ICU's case folding would also
        // match non-ASCII characters (the Kelvin sign for "k"), which the rules exclude.
        try! NSRegularExpression(pattern: pattern)
    }

    static let bearer = regex(
        #"(?<![A-Za-z0-9._~%\]/\-]|[^\x00-\x7F])(?:[Bb][Ee][Aa][Rr][Ee][Rr][\t\n\x0B\f\r ]+)+[A-Za-z0-9._~+/-]+=*"#
    )
    /// The longest body; trailing punctuation is given back by `trimmedURLEnd`.
    static let url = regex(
        #"[Hh][Tt][Tt][Pp][Ss]?://(?:\[(?=[0-9A-Fa-f:]))?(?:[^\x00-\x20\x7F"'<>`\[]|(?<=@)\[(?=[0-9A-Fa-f:]))*"#
    )
    static let trailingPunctuation = regex(#"[.,;:!?)\]}]*$"#)
    static let urlHost = regex(#"^(?:[^/?#]*@)?(\[[^\]/?#]*\]?|(?:[A-Za-z0-9._~%-]|[^\x00-\x7F])*)"#)
    static let scheme = regex(#"^[A-Za-z]+"#)
    static let email = regex(#"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"#)
    static let uuid = regex(#"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"#)
    static let token = regex(#"eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*|[A-Za-z0-9_-]{32,}"#)

    private enum Piece {
        case open(String)
        case done(String)
    }

    public static func redact(_ text: String) -> String {
        var pieces: [Piece] = [.open(text)]
        let rules: [(NSRegularExpression, (String) -> String)] = [
            (bearer, { _ in "[redacted-bearer]" }),
            (url, urlReplacement),
            (email, { _ in "[redacted-email]" }),
            (uuid, { _ in "[redacted-uuid]" }),
            (token, { _ in "[redacted-token]" }),
        ]
        let urlRule = 1
        for (index, (expression, replacement)) in rules.enumerated() {
            var next: [Piece] = []
            for piece in pieces {
                guard case .open(let fragment) = piece else {
                    next.append(piece)
                    continue
                }
                let ns = fragment as NSString
                var cursor = 0
                // A scanning loop, so that a URL's trailing punctuation, given back, is searched again.
                while cursor <= ns.length,
                    let match = expression.firstMatch(
                        in: fragment,
                        options: [.withTransparentBounds],
                        range: NSRange(location: cursor, length: ns.length - cursor)
                    )
                {
                    var range = match.range
                    if index == urlRule { range.length = trimmedURLLength(ns.substring(with: range)) }
                    if range.location > cursor {
                        next.append(
                            .open(ns.substring(with: NSRange(location: cursor, length: range.location - cursor))))
                    }
                    next.append(.done(replacement(ns.substring(with: range))))
                    cursor = range.location + range.length
                }
                if cursor < ns.length { next.append(.open(ns.substring(from: cursor))) }
            }
            pieces = next
        }
        return pieces.map {
            switch $0 {
            case .open(let text), .done(let text): return text
            }
        }.joined()
    }

    /// The URL's length without trailing sentence punctuation (never into the scheme's "://").
    private static func trimmedURLLength(_ matched: String) -> Int {
        let ns = matched as NSString
        let schemeLength =
            scheme.firstMatch(in: matched, range: NSRange(location: 0, length: ns.length))!.range.length + 3
        let body = ns.substring(from: schemeLength)
        let trailing = trailingPunctuation.firstMatch(
            in: body, range: NSRange(location: 0, length: (body as NSString).length))!
        return ns.length - trailing.range.length
    }

    private static func urlReplacement(_ matched: String) -> String {
        let ns = matched as NSString
        let schemeRange = scheme.firstMatch(in: matched, range: NSRange(location: 0, length: ns.length))!.range
        let schemeText = ns.substring(with: schemeRange)
        let body = ns.substring(from: schemeRange.length + 3)
        let bodyNS = body as NSString
        var host =
            urlHost.firstMatch(in: body, range: NSRange(location: 0, length: bodyNS.length))
            .map { bodyNS.substring(with: $0.range(at: 1)) } ?? ""
        if !host.hasPrefix("[") {
            let hostNS = host as NSString
            let trailing = trailingPunctuation.firstMatch(in: host, range: NSRange(location: 0, length: hostNS.length))!
            host = hostNS.substring(to: hostNS.length - trailing.range.length)
        }
        return host.isEmpty ? "[redacted-url]" : schemeText + "://" + host
    }
}
