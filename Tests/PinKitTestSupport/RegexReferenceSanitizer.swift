public import Foundation

/// The log-sanitizer rules written with `NSRegularExpression`: the reference the byte scanner
/// is checked against. Same cascade: each rule runs over the fragments earlier rules left,
/// leftmost-first, and replaced text is final.
public enum RegexReferenceSanitizer {
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

/// A deterministic generator (SplitMix64), so a failing corpus line can be reproduced.
public struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Realistic log lines, every rule, rule interactions and adversarial input.
public struct LogCorpus {
    public var generator: SeededGenerator

    public init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    public mutating func pick<T>(_ options: [T]) -> T { options.randomElement(using: &generator)! }
    public mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }
    public mutating func string(_ alphabet: String, _ lengths: ClosedRange<Int>) -> String {
        let characters = Array(alphabet)
        return String((0..<Int.random(in: lengths, using: &generator)).map { _ in pick(characters) })
    }

    public static let base64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    static let hex = "0123456789abcdefABCDEF"
    static let words = [
        "request", "GET", "POST", "failed", "ok", "user", "sync", "HealthKit", "retry", "status=200", "latency=12ms",
        "Bearer", "bearer", "BEARER", "token", "email", "id", "api.example.com", "https", "http", "eyJ", "@", "-", ".",
        "(", ")", "[", "]", "\"", "'", "é", "🚑", "\t", "a", "x", "0123", "deadbeef",
    ]

    public mutating func host() -> String {
        pick([
            "api.example.com", "EXAMPLE.org", "a.b.c.d.example.net", "127.0.0.1", "[::1]", "[2001:db8::7]", "localhost",
            "xn--bcher-kva.example", "host_with_underscore.example",
            string("abcdefghijklmnop0123456789-", 1...40) + ".com",
        ])
    }

    public mutating func url() -> String {
        var text = pick(["https", "http", "HTTPS", "Http", "hTtPs"]) + "://"
        if chance(30) { text += pick(["user:pw@", "alice:s3cr3t!@", "me@", "a@b:c@", ":@"]) }
        text += host()
        if chance(30) { text += ":" + String(Int.random(in: 1...65535, using: &generator)) }
        if chance(70) {
            text +=
                "/"
                + pick([
                    "v1/users/8812/records", "x", "", "path/with.dots/", "a@b.com/profile",
                    "550e8400-e29b-41d4-a716-446655440000",
                ])
        }
        if chance(40) {
            text += "?" + pick(["token=abc", "email=a@b.com", "q=1&r=2", "sig=" + string(Self.base64url, 40...50)])
        }
        if chance(20) { text += "#" + pick(["frag", "top", ""]) }
        if chance(20) { text += pick([".", ",", ")", ").", "!?", "]", "}", ";:"]) }
        return text
    }

    public mutating func email() -> String {
        string("abcdefghijklmnopqrstuvwxyz0123456789._%+-", 1...20) + "@"
            + pick([
                "example.com", "mail.example.co.uk", "x.io", "b.c", "sub-domain.example.org", "a.com2", "q.c0m",
                "1.2.3.4",
            ])
    }

    public mutating func uuid() -> String {
        [8, 4, 4, 4, 12].map { string(Self.hex, $0...$0) }.joined(separator: "-")
    }

    public mutating func jwt() -> String {
        "eyJ" + string(Self.base64url, 1...40) + "." + string(Self.base64url, 1...60) + "."
            + string(Self.base64url, 0...50)
    }

    public mutating func secretish() -> String {
        switch Int.random(in: 0..<9, using: &generator) {
        case 0:
            return pick(["Bearer", "bearer", "BEARER", "Bearer\t", "xBearer"]) + pick([" ", "  ", "\t", "\n"])
                + string(Self.base64url + ".~+/", 1...60) + pick(["", "=", "=="])
        case 1: return url()
        case 2: return email()
        case 3: return uuid()
        case 4: return jwt()
        case 5: return string(Self.base64url, 28...70)
        case 6: return url() + pick(["", " ", "/", "?"]) + email()
        case 7:
            return pick(["Authorization: Bearer ", "token=", "id=", "ref:"]) + pick([jwt(), uuid(), email(), url()])
        default: return string("=-_./@:?#[]()\"' \t", 1...20)
        }
    }

    public mutating func line() -> String {
        if chance(3) {
            // Adversarial: separators only, long runs, glued rules.
            return pick([
                string("-_.@:/?#", 1...300), string(Self.base64url, 100...3000), String(repeating: "@", count: 500),
                String(repeating: "https://", count: 50), uuid() + uuid() + email() + jwt(), string(".", 1...100),
                "bearer bearer bearer " + string(Self.base64url, 5...10),
            ])
        }
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...12, using: &generator) {
            parts.append(chance(35) ? secretish() : pick(Self.words))
        }
        let separator = pick([" ", " ", ", ", "", "\t", " | ", "="])
        return parts.joined(separator: separator)
    }
}
