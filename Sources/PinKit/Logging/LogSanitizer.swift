#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Removes secrets from log text. Every log line passes through it; `pinctl redact` exposes it.
///
/// The rules, in order; a rule sees only the text that earlier rules left untouched, and each
/// replaced span is final:
/// 1. `Bearer <token>` (the word in any ASCII case, repeated or not, not right after
///    `[A-Za-z0-9._~%-]`, `]`, `/` or a non-ASCII byte; ASCII white space; an RFC 6750 token
///    `[A-Za-z0-9._~+/-]+` and its `=` padding) → `[redacted-bearer]`.
/// 2. `http://` / `https://` URLs (scheme in any case) → the scheme as written, `://` and the
///    host only (no user info, port, path, query or fragment). A URL runs until white space, a
///    control character, one of `"'<>` and backtick, or a `[` that does not open an IPv6 host
///    (first or right after `@`, then a hex digit or `:`); trailing `.,;:!?)]}` stay outside it.
///    A URL without a host becomes `[redacted-url]`.
/// 3. Email addresses `[A-Za-z0-9._%+-]+@label(.label)*.TLD` (TLD two or more letters)
///    → `[redacted-email]`.
/// 4. UUIDs, 8-4-4-4-12 hex digits in any case → `[redacted-uuid]`.
/// 5. A JSON Web Token (`eyJ…` then two more dot-joined base64url segments) as a whole, and any
///    run of 32 or more `[A-Za-z0-9_-]` → `[redacted-token]`.
///
/// Within a rule, matches are found leftmost-first, as a regular-expression engine would; the
/// test suite checks that an `NSRegularExpression` implementation of the same rules agrees byte
/// for byte on a large generated corpus.
///
/// Implementation: no regular expressions. Each rule is one forward scan over UTF-8 bytes of
/// the gaps the rules before it left; bytes are never copied until they are emitted. Redaction
/// never fails (any bytes, including invalid UTF-8 and NUL) and is idempotent: every replacement
/// ends in `]` or a host character, after which "bearer" never starts a match; a URL stops at a
/// placeholder's `[`; and a host never ends in punctuation the URL rule would trim.
public enum LogSanitizer {
    public static let bearerPlaceholder = "[redacted-bearer]"
    public static let emailPlaceholder = "[redacted-email]"
    public static let uuidPlaceholder = "[redacted-uuid]"
    public static let tokenPlaceholder = "[redacted-token]"
    /// A URL with no host: nothing of it is kept, and a bare "https://" cannot glue onto what follows.
    public static let urlPlaceholder = "[redacted-url]"

    /// The redacted form of `text`.
    public static func redact(_ text: String) -> String {
        var text = text
        return text.withUTF8 { String(decoding: redact(buffer: $0), as: UTF8.self) }
    }

    /// The redacted form of arbitrary bytes (invalid UTF-8 passes through where no rule applies).
    public static func redact<Bytes: Collection>(bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ redact(buffer: $0) }) { return result }
        return Array(bytes).withUnsafeBufferPointer { redact(buffer: $0) }
    }

    static func redact(buffer: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var scanner = Scanner(input: buffer)
        scanner.output.reserveCapacity(buffer.count)
        scanner.apply(rule: 0, from: 0, to: buffer.count)
        return scanner.output
    }

    // MARK: - Character classes (one table lookup per byte)

    struct Classes {
        /// The characters of a URL host PinKit keeps (with every non-ASCII byte).
        static let hostCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~%-"
        /// What may not stand right before "bearer": a host character, the "/" of "://" before a
        /// host, or a placeholder's "]" (with every non-ASCII byte).
        static let bearerBoundaryCharacters = hostCharacters + "]/"
        static let token: UInt8 = 1  // [A-Za-z0-9_-]
        static let bearerToken: UInt8 = 2  // [A-Za-z0-9._~+/-]
        static let emailLocal: UInt8 = 4  // [A-Za-z0-9._%+-]
        static let label: UInt8 = 8  // [A-Za-z0-9-]
        static let hex: UInt8 = 16  // [0-9A-Fa-f]
        static let letter: UInt8 = 32  // [A-Za-z]
        static let urlBody: UInt8 = 64  // not [\x00-\x20\x7F"'<>`]
        static let trailingPunctuation: UInt8 = 128  // [.,;:!?)\]}]

        /// Allocated once and never freed or written after initialisation, so sharing it is safe.
        nonisolated(unsafe) static let boundaryTable = lookup(bearerBoundaryCharacters)
        nonisolated(unsafe) static let hostTable = lookup(hostCharacters)

        /// A 256-entry membership table, true for `characters` and every byte from 0x80.
        static func lookup(_ characters: String) -> UnsafePointer<Bool> {
            let table = UnsafeMutablePointer<Bool>.allocate(capacity: 256)
            table.initialize(repeating: false, count: 256)
            for byte in characters.utf8 { table[Int(byte)] = true }
            for byte in 0x80..<256 { table[byte] = true }
            return UnsafePointer(table)
        }

        /// Allocated once and never freed or written after initialisation, so sharing it is safe.
        nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
            let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
            table.initialize(repeating: 0, count: 256)
            func mark(_ characters: String, _ flag: UInt8) {
                for byte in characters.utf8 { table[Int(byte)] |= flag }
            }
            let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
            let digits = "0123456789"
            mark(letters + digits + "_-", token)
            mark(letters + digits + "._~+/-", bearerToken)
            mark(letters + digits + "._%+-", emailLocal)
            mark(letters + digits + "-", label)
            mark(digits + "ABCDEFabcdef", hex)
            mark(letters, letter)
            mark(".,;:!?)]}", trailingPunctuation)
            for byte in 0..<256 {
                let excluded = byte <= 0x20 || byte == 0x7F || "\"'<>`".utf8.contains(UInt8(byte))
                if !excluded { table[byte] |= urlBody }
            }
            return UnsafePointer(table)
        }()
    }

    struct Scanner {
        let input: UnsafeBufferPointer<UInt8>
        var output: [UInt8] = []
        let table = Classes.table

        @inline(__always) func has(_ index: Int, _ flag: UInt8) -> Bool { table[Int(input[index])] & flag != 0 }

        /// Applies rules `rule…4` to `[start, end)`, emitting the result.
        mutating func apply(rule: Int, from start: Int, to end: Int) {
            guard start < end else { return }
            guard rule < 5 else {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<end]))
                return
            }
            var cursor = start
            var search = start
            while let match = next(rule: rule, searchFrom: search, regionStart: start, regionEnd: end) {
                apply(rule: rule + 1, from: cursor, to: match.start)
                emit(match)
                cursor = match.end
                search = match.end
            }
            apply(rule: rule + 1, from: cursor, to: end)
        }

        struct Match {
            var start: Int
            var end: Int
            var placeholder: String?
            /// For URLs: the scheme's end and the host's range, emitted in place of the match.
            var scheme: Range<Int> = 0..<0
            var host: Range<Int> = 0..<0
        }

        mutating func emit(_ match: Match) {
            if let placeholder = match.placeholder {
                output.append(contentsOf: placeholder.utf8)
            } else {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: input[match.scheme]))
                output.append(contentsOf: "://".utf8)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: input[match.host]))
            }
        }

        func next(rule: Int, searchFrom: Int, regionStart: Int, regionEnd: Int) -> Match? {
            switch rule {
            case 0: return nextBearer(searchFrom, regionEnd)
            case 1: return nextURL(searchFrom, regionEnd)
            case 2: return nextEmail(searchFrom, regionEnd)
            case 3: return nextUUID(searchFrom, regionEnd)
            default: return nextToken(searchFrom, regionEnd)
            }
        }

        // MARK: Rule 1: Bearer

        func nextBearer(_ from: Int, _ end: Int) -> Match? {
            var search = from
            while let candidate = find(either: UInt8(ascii: "b"), UInt8(ascii: "B"), from: search, to: end) {
                let s = candidate
                search = s + 1
                guard s + 6 < end else { return nil }
                // Not right after a host or placeholder character: what another rule leaves behind
                // ends in one of those, so a replacement can never create a new "bearer" boundary.
                if s > from, Classes.boundaryTable[Int(input[s - 1])] { continue }
                // One or more "bearer<space>" groups, then the token: "Bearer bearer s3cret" is
                // one match, so the secret cannot hide behind a repeated keyword.
                guard var p = bearerGroupEnd(s, end) else { continue }
                var lastGroup = s
                var groups = 1
                while let next = bearerGroupEnd(p, end) {
                    lastGroup = p
                    groups += 1
                    p = next
                }
                var tokenEnd = p
                while tokenEnd < end, has(tokenEnd, Classes.bearerToken) { tokenEnd += 1 }
                if tokenEnd == p {
                    // Nothing after the last group: as a regex backtracks, its "bearer" is the token.
                    guard groups >= 2 else { continue }
                    tokenEnd = lastGroup + 6
                }
                while tokenEnd < end, input[tokenEnd] == UInt8(ascii: "=") { tokenEnd += 1 }
                return Match(start: s, end: tokenEnd, placeholder: bearerPlaceholder)
            }
            return nil
        }

        /// The end of "bearer" (any case) and its white space at `p`, or nil.
        @inline(__always) func bearerGroupEnd(_ p: Int, _ end: Int) -> Int? {
            guard p + 6 < end, input[p] | 0x20 == UInt8(ascii: "b"), input[p + 1] | 0x20 == UInt8(ascii: "e"),
                input[p + 2] | 0x20 == UInt8(ascii: "a"), input[p + 3] | 0x20 == UInt8(ascii: "r"),
                input[p + 4] | 0x20 == UInt8(ascii: "e"), input[p + 5] | 0x20 == UInt8(ascii: "r"),
                isSpace(input[p + 6])
            else { return nil }
            var q = p + 7
            while q < end, isSpace(input[q]) { q += 1 }
            return q
        }

        @inline(__always) func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
        }

        // MARK: Rule 2: URLs

        func nextURL(_ from: Int, _ end: Int) -> Match? {
            var search = from
            while let candidate = find(either: UInt8(ascii: "h"), UInt8(ascii: "H"), from: search, to: end) {
                let s = candidate
                search = s + 1
                guard s + 7 <= end else { return nil }
                guard input[s + 1] | 0x20 == UInt8(ascii: "t"), input[s + 2] | 0x20 == UInt8(ascii: "t"),
                    input[s + 3] | 0x20 == UInt8(ascii: "p")
                else { continue }
                var p = s + 4
                if input[p] | 0x20 == UInt8(ascii: "s") { p += 1 }
                guard p + 3 <= end, input[p] == UInt8(ascii: ":"), input[p + 1] == UInt8(ascii: "/"),
                    input[p + 2] == UInt8(ascii: "/")
                else { continue }
                let schemeEnd = p
                let bodyStart = p + 3
                var bodyEnd = bodyStart
                while bodyEnd < end {
                    if input[bodyEnd] == UInt8(ascii: "[") {
                        // Only an IPv6 host's bracket: first or after "@", then a hex digit or ":".
                        guard bodyEnd == bodyStart || input[bodyEnd - 1] == UInt8(ascii: "@"), bodyEnd + 1 < end,
                            has(bodyEnd + 1, Classes.hex) || input[bodyEnd + 1] == UInt8(ascii: ":")
                        else { break }
                    } else if !has(bodyEnd, Classes.urlBody) {
                        break
                    }
                    bodyEnd += 1
                }
                while bodyEnd > bodyStart, has(bodyEnd - 1, Classes.trailingPunctuation) { bodyEnd -= 1 }
                let hostRange = host(bodyStart, bodyEnd)
                guard !hostRange.isEmpty else { return Match(start: s, end: bodyEnd, placeholder: urlPlaceholder) }
                return Match(start: s, end: bodyEnd, placeholder: nil, scheme: s..<schemeEnd, host: hostRange)
            }
            return nil
        }

        /// The host within a URL body: after the last `@` of the authority, up to a port.
        func host(_ start: Int, _ end: Int) -> Range<Int> {
            var authorityEnd = start
            while authorityEnd < end {
                let byte = input[authorityEnd]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                authorityEnd += 1
            }
            var hostStart = start
            for index in stride(from: authorityEnd - 1, through: start, by: -1) where input[index] == UInt8(ascii: "@")
            {
                hostStart = index + 1
                break
            }
            var hostEnd = hostStart
            if hostStart < authorityEnd, input[hostStart] == UInt8(ascii: "[") {
                hostEnd = hostStart + 1
                while hostEnd < authorityEnd, input[hostEnd] != UInt8(ascii: "]") { hostEnd += 1 }
                if hostEnd < authorityEnd { hostEnd += 1 }
            } else {
                // Only real host characters: what follows the host in the output is then always
                // a boundary before which "bearer" cannot start a new match.
                while hostEnd < authorityEnd, Classes.hostTable[Int(input[hostEnd])] { hostEnd += 1 }
                // The host never ends in sentence punctuation ("a.com." → "a.com"), so the output,
                // scanned again, trims nothing and redaction stays idempotent.
                while hostEnd > hostStart, has(hostEnd - 1, Classes.trailingPunctuation) { hostEnd -= 1 }
            }
            return hostStart..<hostEnd
        }

        // MARK: Rule 3: email addresses

        /// The index of the next `byte` in `[from, end)`, found with the C library's vectorised memchr.
        @inline(__always) func find(_ byte: UInt8, from: Int, to end: Int) -> Int? {
            guard from < end, let base = input.baseAddress,
                let found = memchr(base + from, Int32(byte), end - from)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }

        /// The index of the next `lower` or `upper` (the two cases of a letter) in `[from, end)`.
        @inline(__always) func find(either lower: UInt8, _ upper: UInt8, from: Int, to end: Int) -> Int? {
            let first = find(lower, from: from, to: end)
            return find(upper, from: from, to: first ?? end) ?? first
        }

        func nextEmail(_ from: Int, _ end: Int) -> Match? {
            var at = from
            while let next = find(UInt8(ascii: "@"), from: at, to: end) {
                at = next
                defer { at += 1 }
                var localStart = at
                while localStart > from, has(localStart - 1, Classes.emailLocal) { localStart -= 1 }
                guard localStart < at, let domainEnd = domainEnd(at + 1, end) else { continue }
                return Match(start: localStart, end: domainEnd, placeholder: emailPlaceholder)
            }
            return nil
        }

        /// `label(.label)*.TLD`: the end after the last label that starts with two letters.
        func domainEnd(_ start: Int, _ end: Int) -> Int? {
            var p = start
            while p < end, has(p, Classes.label) { p += 1 }
            guard p > start else { return nil }
            var best: Int?
            while p + 1 < end, input[p] == UInt8(ascii: "."), has(p + 1, Classes.label) {
                let labelStart = p + 1
                var letters = labelStart
                while letters < end, has(letters, Classes.letter) { letters += 1 }
                if letters - labelStart >= 2 { best = letters }
                p = labelStart
                while p < end, has(p, Classes.label) { p += 1 }
            }
            return best
        }

        // MARK: Rule 4: UUIDs

        func nextUUID(_ from: Int, _ end: Int) -> Match? {
            // A UUID at s has its first "-" at s + 8: visit only the positions eight before a dash.
            var dashSearch = from + 8
            while let dash = find(UInt8(ascii: "-"), from: dashSearch, to: end) {
                dashSearch = dash + 1
                let s = dash - 8
                guard s + 36 <= end else { return nil }
                guard input[s + 13] == UInt8(ascii: "-"),
                    input[s + 18] == UInt8(ascii: "-"), input[s + 23] == UInt8(ascii: "-")
                else { continue }
                var valid = true
                for offset in 0..<36 where offset != 8 && offset != 13 && offset != 18 && offset != 23 {
                    if !has(s + offset, Classes.hex) {
                        valid = false
                        break
                    }
                }
                if valid { return Match(start: s, end: s + 36, placeholder: uuidPlaceholder) }
            }
            return nil
        }

        // MARK: Rule 5: tokens

        func nextToken(_ from: Int, _ end: Int) -> Match? {
            var s = from
            while s < end {
                guard has(s, Classes.token) else {
                    s += 1
                    continue
                }
                if let jwt = jwtEnd(s, end) { return Match(start: s, end: jwt, placeholder: tokenPlaceholder) }
                var runEnd = s
                while runEnd < end, has(runEnd, Classes.token) { runEnd += 1 }
                if runEnd - s >= 32 { return Match(start: s, end: runEnd, placeholder: tokenPlaceholder) }
                // A short run holds no long token, but a JWT may still start inside it.
                var q = s + 1
                while q < runEnd {
                    if let jwt = jwtEnd(q, end) { return Match(start: q, end: jwt, placeholder: tokenPlaceholder) }
                    q += 1
                }
                s = runEnd
            }
            return nil
        }

        /// `eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*` at `s`.
        func jwtEnd(_ s: Int, _ end: Int) -> Int? {
            guard s + 3 < end, input[s] == UInt8(ascii: "e"), input[s + 1] == UInt8(ascii: "y"),
                input[s + 2] == UInt8(ascii: "J")
            else { return nil }
            var p = s + 3
            while p < end, has(p, Classes.token) { p += 1 }
            guard p > s + 3, p < end, input[p] == UInt8(ascii: ".") else { return nil }
            let second = p + 1
            p = second
            while p < end, has(p, Classes.token) { p += 1 }
            guard p > second, p < end, input[p] == UInt8(ascii: ".") else { return nil }
            p += 1
            while p < end, has(p, Classes.token) { p += 1 }
            return p
        }
    }
}
