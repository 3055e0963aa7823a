#if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
    import _Builtin_intrinsics.intel
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts the bytes a scan examines, so tests can check linearity by operation count instead of
/// wall time. Production scans use ``LogSanitizer/Uncounted``, which the compiler removes.
protocol LogSanitizerCounting {
    func tick(_ count: Int)
}

extension LogSanitizer {
    /// Whether a command's short option may follow `byte` (``CredentialRule/commandOption(at:end:urlBound:words:)``):
    /// white space or another control byte, `"` or `'`.
    @inline(__always) static func isOptionBoundary(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    struct Uncounted: LogSanitizerCounting {
        @inline(__always) func tick(_ count: Int) {}
    }

    /// A test-only counter. Not shared between threads: one per scan.
    final class OperationCounter: LogSanitizerCounting {
        var operations = 0
        @inline(__always) func tick(_ count: Int) { operations += count }
    }

    // MARK: - Character classes (one table lookup per byte)

    enum Classes {
        static let token: UInt32 = 1 << 0  // [A-Za-z0-9_-]
        static let base64: UInt32 = 1 << 1  // [A-Za-z0-9+/=_-]
        static let bearerToken: UInt32 = 1 << 2  // [A-Za-z0-9._~+/=-]
        static let emailLocal: UInt32 = 1 << 3  // [A-Za-z0-9._%+!#$'*^~-]
        static let label: UInt32 = 1 << 4  // [A-Za-z0-9-]
        static let hex: UInt32 = 1 << 5  // [0-9A-Fa-f]
        static let letter: UInt32 = 1 << 6  // [A-Za-z]
        static let scheme: UInt32 = 1 << 7  // [A-Za-z0-9+.-]
        static let host: UInt32 = 1 << 8  // [A-Za-z0-9._~%-]
        static let trailingPunctuation: UInt32 = 1 << 9  // [.,;:!?]
        /// What may follow a quote that closes a string in running text: white space, control, `,;}])>`.
        /// Not `:`, with which a URL's output can start (a second pass must see the same quote).
        static let afterClosingQuote: UInt32 = 1 << 10
        /// What ends an unquoted credential value: white space, control, `&,;"'<>)]}` and backtick.
        static let valueStop: UInt32 = 1 << 11
        static let digit: UInt32 = 1 << 12
        static let upper: UInt32 = 1 << 13
        static let lower: UInt32 = 1 << 14
        static let alphanumeric: UInt32 = 1 << 15
        /// ASCII white space and control characters, DEL included.
        static let control: UInt32 = 1 << 16
        static let quote: UInt32 = 1 << 17  // " ' `
        /// The last letter of a credential key, any case: n e d t y s.
        static let keyEnd: UInt32 = 1 << 18
        /// Printable ASCII that decides nothing inside a URL's body in running text: everything but
        /// `/ ? # % ( [ { < ) ] } > @`, quotes and `\`.
        static let urlPlain: UInt32 = 1 << 19
        /// Bytes 0x80–0xFF (part of a multi-byte character): one test tells ASCII from the rest.
        static let high: UInt32 = 1 << 20
        /// `a` and `A`: what comes before the `2` of `sha256`.
        static let letterA: UInt32 = 1 << 21
        /// `e` (lower case): what comes before the `x` of `expected`.
        static let lowerE: UInt32 = 1 << 22
        /// `y` (lower case): what comes before the `J` of a JWT's `eyJ`.
        static let lowerY: UInt32 = 1 << 23
        /// A URL separator's second byte after a `:` (`/`, `\`) and after a `%` (`3`, or `2` of `%25`)…
        static let afterColon: UInt32 = 1 << 24
        static let afterPercent: UInt32 = 1 << 25
        /// …and its first byte, two bits higher: `table[first] >> 2 & table[second]` is not zero
        /// exactly when the two may start a separator (`:/`, `:\`, `%3`, `%2`).
        static let colonFirst: UInt32 = 1 << 26
        static let percentFirst: UInt32 = 1 << 27
        /// What the text before a credential separator may end in: a key's last letter (`keyEnd`),
        /// a form suffix's `]`, the `2` or `7` of a key's encoded quote (`%22`, `%27`, `\u0022`), the
        /// `;` of an HTML one (`&quot;`), or the first quote of a doubled one (`""`, `''`).
        static let keyTailEnd: UInt32 = 1 << 28
        /// `\`: with a `/` after it (`\/`, as `JSONEncoder` writes `/`), a base64 character of rule 7.
        static let backslash: UInt32 = 1 << 29
        /// What a key's closing quote may end in (``CredentialRule/keyQuoteStart(before:bound:doubled:)``):
        /// `"`, `'`, a backtick, the `;` of an HTML quote and the `2` or `7` of an encoded or
        /// escaped one (`%22`, `\x27`, `\u0022`).
        static let keyQuoteEnd: UInt32 = 1 << 30
        /// With `control`, `high` and `digit`, what a run of blanks read backwards may end in
        /// (``CredentialRule/blanksStart(before:bound:escaped:)``): the `m` of an ANSI colour code
        /// and the last hex digits of a Unicode space's JSON escape (`\u00a0`, `\u200A`, `\u202f`).
        static let blankTail: UInt32 = 1 << 31

        /// The second half of ``table``, `table[keyPairs + byte]`: which two bytes may end a key word
        /// before a credential separator (``CredentialRule/keyMayEnd(before:bound:)``). Bits 0–9 say
        /// what a byte is as the one before the last (`o e i s u m r w 5 l`, any case), bits 16–25
        /// which of those the byte admits as the last: `n` after `o` or `e` (`authorization`,
        /// `token`), `e` after `i s u m` (`cookie`, `passphrase`, a pair's `value`, a form part's
        /// `name`), `d` after `r w i 5` (`password`, `passwd`, `pwd`, `sessionid`, a `%5D`), `t` and `y`
        /// after `e` (`secret`, `…key`), `s` after `l` or `s` (`credentials`, `pass`). So
        /// `table[keyPairs + prev] & table[keyPairs + last] >> 16` is not zero exactly then.
        static var keyPairs: Int { 256 }

        /// After the class table and ``keyPairs``, rule 1's plain-byte tables as bytes (1: plain),
        /// `table + plainBytes` as `UInt8`s: a URL's authority's (``urlPlain``), then its path's (those
        /// and `/ ? # % @`), so a URL body reaches them through the table it already holds (each
        /// global of its own cost a `swift_once` a call).
        static var plainBytes: Int { 512 }

        /// Allocated once and never freed or written after initialisation, so sharing it is safe.
        /// The byte classes, then ``keyPairs``, then ``plainBytes``.
        nonisolated(unsafe) static let table: UnsafePointer<UInt32> = {
            let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 512 + 128)
            table.initialize(repeating: 0, count: 512 + 128)
            func mark(_ characters: String, _ flag: UInt32) {
                for byte in characters.utf8 { table[Int(byte)] |= flag }
            }
            let upperCase = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
            let lowerCase = "abcdefghijklmnopqrstuvwxyz"
            let letters = upperCase + lowerCase
            let digits = "0123456789"
            mark(letters + digits + "_-", token)
            mark(letters + digits + "+/=_-", base64)
            mark(letters + digits + "._~+/=-", bearerToken)
            mark(letters + digits + "._%+!#$'*^~-", emailLocal)
            mark(letters + digits + "-", label)
            mark(digits + "ABCDEFabcdef", hex)
            mark(letters, letter)
            mark(letters + digits + "+.-", scheme)
            mark(letters + digits + "._~%-", host)
            mark(".,;:!?", trailingPunctuation)
            mark(",;}])>", afterClosingQuote)
            mark("&,;\"'<>)]}`", valueStop)
            mark(digits, digit)
            mark(upperCase, upper)
            mark(lowerCase, lower)
            mark(letters + digits, alphanumeric)
            mark("\"'`", quote)
            mark("nedtysNEDTYS", keyEnd)
            mark("nedtysNEDTYS]27;\"'", keyTailEnd)
            for byte in 0x21...0x7E { table[byte] |= urlPlain }
            for byte in "/?#%([{<)]}>@\"'`\\".utf8 { table[Int(byte)] &= ~urlPlain }
            for byte in 0...0x20 { table[byte] |= control | afterClosingQuote | valueStop }
            for byte in 0x80...0xFF { table[byte] |= high }
            mark("aA", letterA)
            mark("e", lowerE)
            mark("y", lowerY)
            mark("/\\", afterColon)
            mark("32", afterPercent)
            mark(":", colonFirst)
            mark("%", percentFirst)
            mark("\\", backslash)
            mark("\"'`;27", keyQuoteEnd)
            mark("maAfF", blankTail)
            table[0x7F] |= control | afterClosingQuote | valueStop
            let before = Array("oeisumrw5l".utf8)
            func pairs(_ last: Character, after previous: String) {
                var admitted: UInt32 = 0
                for byte in previous.utf8 { admitted |= 1 << UInt32(before.firstIndex(of: byte)!) }
                for byte in Set([last.lowercased(), last.uppercased()]).flatMap(\.utf8) {
                    table[keyPairs + Int(byte)] |= admitted << 16
                }
            }
            for (index, byte) in before.enumerated() {
                for cased in Set([byte, byte >= 0x61 ? byte - 0x20 : byte]) {
                    table[keyPairs + Int(cased)] |= 1 << UInt32(index)
                }
            }
            pairs("n", after: "oe")
            pairs("e", after: "isum")
            pairs("d", after: "rwi5")
            pairs("t", after: "e")
            pairs("y", after: "e")
            pairs("s", after: "ls")
            let plain = UnsafeMutableRawPointer(table + plainBytes).assumingMemoryBound(to: UInt8.self)
            for byte in 0..<256 where table[byte] & urlPlain != 0 {
                plain[byte] = 1
                plain[256 + byte] = 1
            }
            for byte in "/?#%@".utf8 { plain[256 + Int(byte)] = 1 }
            return UnsafePointer(table)
        }()
    }

    /// The placeholders, each a `[`, lower-case letters and `-`, and a `]`: no rule matches inside
    /// one, and the bearer rule does not start right after one.
    static let placeholders = [
        bearerPlaceholder, urlPlaceholder, emailPlaceholder, uuidPlaceholder, tokenPlaceholder, secretPlaceholder,
    ].map { Array($0.utf8) }
}

/// Byte-level views shared by the rules. Every read goes through `byte(_:)` so that a counted
/// scan sees each examination.
struct SanitizerInput<Counter: LogSanitizerCounting> {
    let input: UnsafeBufferPointer<UInt8>
    let counter: Counter
    let table = LogSanitizer.Classes.table

    var count: Int { input.count }

    @inline(__always) func byte(_ index: Int) -> UInt8 {
        counter.tick(1)
        return input[index]
    }

    @inline(__always) func has(_ index: Int, _ flag: UInt32) -> Bool { table[Int(byte(index))] & flag != 0 }

    /// Whether `literal` (exactly, case and all) starts at `index` and ends by `end`.
    @inline(__always) func exactly(_ literal: StaticString, at index: Int, end: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index + length <= end else { return false }
        for offset in 0..<length where byte(index + offset) != literal.utf8Start[offset] { return false }
        return true
    }

    /// Whether what rules 4 or 7 leave of a match (`[redacted-email]`, `[redacted-token]`) starts at
    /// `index`: after the `\` of an escaped line break whose letter such a match began at, it stands
    /// where the line break stood, and ends a header value or a URL as the line break did.
    @inline(__always) func laterRulePlaceholder(at index: Int, end: Int) -> Bool {
        exactly("[redacted-email]", at: index, end: end) || exactly("[redacted-token]", at: index, end: end)
    }

    @inline(__always) func lowered(_ index: Int) -> UInt8 {
        let value = byte(index)
        return value >= 0x41 && value <= 0x5A ? value | 0x20 : value
    }

    /// True when `[index, index + text.count)` lies below `end` and equals the lower-case ASCII `text`
    /// ignoring ASCII case.
    @inline(__always) func matches(_ text: StaticString, at index: Int, end: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        guard index >= 0, index + length <= end else { return false }
        let pointer = text.utf8Start
        // Eight bytes at a time, each word read from the input, its letters' case bit set where the
        // literal has a letter (`| 0x20` maps exactly `a` and `A` onto `a`), and compared with the
        // literal's word: a key or a scheme's name costs one or two compares, not a loop a byte
        // (the literal's words fold to constants where the call is inlined).
        if index &+ (length &+ 7) & ~7 <= input.count, let base = input.baseAddress {
            counter.tick(length)
            var offset = 0
            while offset < length {
                var word: UInt64 = 0
                var fold: UInt64 = 0
                var mask: UInt64 = 0
                for lane in 0..<min(8, length &- offset) {
                    let byte = pointer[offset &+ lane]
                    assert(!(0x41...0x5A).contains(byte), "matches(_:at:end:) takes a lower-case literal")
                    word |= UInt64(byte) &<< UInt64(8 &* lane)
                    mask |= 0xFF &<< UInt64(8 &* lane)
                    if byte >= 0x61 && byte <= 0x7A { fold |= 0x20 &<< UInt64(8 &* lane) }
                }
                let read = UnsafeRawPointer(base + (index &+ offset)).loadUnaligned(as: UInt64.self).littleEndian
                if (read | fold) & mask != word { return false }
                offset &+= 8
            }
            return true
        }
        for offset in 0..<length where lowered(index + offset) != pointer[offset] { return false }
        return true
    }

    /// The index of the next `byte` in `[from, end)` (the C library's vectorised memchr).
    @inline(__always) func find(_ value: UInt8, from: Int, to end: Int) -> Int? {
        guard from < end, let base = input.baseAddress,
            let found = memchr(base + from, Int32(value), end - from)
        else {
            counter.tick(max(0, end - from))
            return nil
        }
        let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        counter.tick(index - from + 1)
        return index
    }

    /// The first position in `[start, limit)` whose byte `stops` marks, or `limit`: sixteen bytes a
    /// step while a block fits before `limit`, then the block that ends at `limit` with its lanes
    /// before the position left out (or `start` itself in an input under sixteen bytes: the
    /// caller's byte loop takes them). Each byte is read once a call, the last block's at most once
    /// more. (A header value's and a quoted URL body's scans step over the bytes that decide
    /// nothing with it.)
    @inline(__always) func firstStop(
        from start: Int, limit: Int, _ stops: (ByteBlock.Bytes) -> ByteBlock.Lanes
    ) -> Int {
        guard limit >= 16, let base = input.baseAddress else { return start }
        var p = start
        while p &+ 16 <= limit {
            counter.tick(16)
            if let lane = ByteBlock.firstLane(stops(ByteBlock.load(base, p))) { return p &+ lane }
            p &+= 16
        }
        guard p < limit else { return limit }
        let block = limit &- 16
        counter.tick(16)
        let lanes = stops(ByteBlock.load(base, block)) .& ByteBlock.lanes(from: p &- block, to: 16)
        if let lane = ByteBlock.firstLane(lanes) { return block &+ lane }
        return limit
    }

    // MARK: Unicode white space and invisible separators (UTF-8)

    /// The length of the Unicode space (U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029,
    /// U+202F, U+205F, U+3000) starting at `index`, or 0.
    @inline(__always) func unicodeSpaceLength(at index: Int, end: Int) -> Int {
        let lead = byte(index)
        guard lead >= 0xC2 else { return 0 }
        if lead == 0xC2 {
            guard index + 1 < end else { return 0 }
            let next = byte(index + 1)
            return next == 0x85 || next == 0xA0 ? 2 : 0
        }
        guard lead == 0xE1 || lead == 0xE2 || lead == 0xE3, index + 2 < end else { return 0 }
        let second = byte(index + 1)
        let third = byte(index + 2)
        switch lead {
        case 0xE1: return second == 0x9A && third == 0x80 ? 3 : 0
        case 0xE3: return second == 0x80 && third == 0x80 ? 3 : 0
        default:
            if second == 0x80 {
                // U+2000–U+200A, U+2028, U+2029, U+202F: the third byte a continuation byte (E2 80
                // then an ASCII byte is no space, forwards or backwards).
                return (third >= 0x80 && third <= 0x8A) || third == 0xA8 || third == 0xA9 || third == 0xAF ? 3 : 0
            }
            return second == 0x81 && third == 0x9F ? 3 : 0
        }
    }

    /// The length of the Unicode space whose last byte is at `index` (not reaching below `start`), or 0.
    @inline(__always) func unicodeSpaceLength(endingAt index: Int, start: Int) -> Int {
        let last = byte(index)
        guard last >= 0x80, last <= 0xAF else { return 0 }
        if last == 0x85 || last == 0xA0, index - 1 >= start, byte(index - 1) == 0xC2 { return 2 }
        guard index - 2 >= start else { return 0 }
        return unicodeSpaceLength(at: index - 2, end: index + 1) == 3 ? 3 : 0
    }

    /// The end of the blanks (spaces, tabs, Unicode spaces, also written as JSON escapes `\u00a0`,
    /// ANSI colour codes) from `start` (not past `stop`; `Int.max`: none). Rules 2 and 3 share it: the
    /// blanks around a key's separator, and those that may pad a scheme's quoted token after its
    /// opening quote and before its closing one.
    @inline(__always) func blanksEnd(from start: Int, end: Int, stop: Int) -> Int {
        // Most values start with a byte that starts no blank: one table test.
        guard start < end, start != stop,
            table[Int(byte(start))]
                & (LogSanitizer.Classes.control | LogSanitizer.Classes.high | LogSanitizer.Classes.backslash) != 0
        else { return start }
        return blanksRunEnd(from: start, end: end, stop: stop)
    }

    /// ``blanksEnd(from:end:stop:)`` from a byte that may start a blank. Out of line.
    @inline(never) func blanksRunEnd(from start: Int, end: Int, stop: Int) -> Int {
        var v = start
        while v < end, v != stop {
            let value = byte(v)
            if value == 0x20 || value == 0x09 {
                v += 1
            } else if value >= 0x80, case let length = unicodeSpaceLength(at: v, end: min(end, stop)), length > 0 {
                v += length
            } else if value == 0x1B, case let length = colourCodeLength(at: v, end: min(end, stop)), length > 0 {
                v += length
            } else if value == UInt8(ascii: "\\"), v + 1 < end, byte(v + 1) == UInt8(ascii: "u"),
                case let length = escapedSpaceLength(at: v, end: min(end, stop)), length > 0
            {
                v += length
            } else {
                break
            }
        }
        return v
    }

    // MARK: The same written as JSON escapes (`\uXXXX`, Python's `json.dumps` with `ensure_ascii`)

    /// The code point of the JSON escape `\u` and four hex digits (either case) at `index`, below
    /// `end`, or nil. Reads six bytes at most.
    @inline(__always) func escapedCodePoint(at index: Int, end: Int) -> UInt32? {
        guard index &+ 5 < end, byte(index) == UInt8(ascii: "\\"), byte(index &+ 1) == UInt8(ascii: "u") else {
            return nil
        }
        var value: UInt32 = 0
        for offset in 2...5 {
            let digit = byte(index &+ offset)
            guard table[Int(digit)] & LogSanitizer.Classes.hex != 0 else { return nil }
            value = value &<< 4 | UInt32(digit <= UInt8(ascii: "9") ? digit &- 0x30 : (digit | 0x20) &- 0x57)
        }
        return value
    }

    /// Whether `value` is a Unicode space (``unicodeSpaceLength(at:end:)``'s code points).
    @inline(__always) static func isUnicodeSpace(_ value: UInt32) -> Bool {
        switch value {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// Whether `value` is an invisible separator (``invisibleLength(at:end:)``'s code points).
    @inline(__always) static func isInvisible(_ value: UInt32) -> Bool {
        switch value {
        case 0xAD, 0x200B...0x200D, 0x2060, 0xFEFF: return true
        default: return false
        }
    }

    /// 6 when a JSON escape of a Unicode space (`\u00a0`, `\u3000`, either case) starts at `index`
    /// (a `\`), else 0: rules 2 and 3 read it as the space. Out of line: rare.
    @inline(never) func escapedSpaceLength(at index: Int, end: Int) -> Int {
        guard let value = escapedCodePoint(at: index, end: end), Self.isUnicodeSpace(value) else { return 0 }
        return 6
    }

    /// 6 when a JSON escape of a Unicode space ends at `index` (its `\` not below `start`), else 0.
    @inline(never) func escapedSpaceLength(endingAt index: Int, start: Int) -> Int {
        index &- 5 >= start ? escapedSpaceLength(at: index &- 5, end: index &+ 1) : 0
    }

    /// 6 when a JSON escape of an invisible separator (`\u200b`, `\u00ad`, `\ufeff`, either case)
    /// starts at `index` (a `\`), else 0: rules 3, 5 and 7 read it as the separator, inside a run.
    /// Out of line: rare.
    @inline(never) func escapedInvisibleLength(at index: Int, end: Int) -> Int {
        guard let value = escapedCodePoint(at: index, end: end), Self.isInvisible(value) else { return 0 }
        return 6
    }

    /// 6 when a JSON escape of an invisible separator ends at `index` (its `\` not below `start`), else 0.
    @inline(never) func escapedInvisibleLength(endingAt index: Int, start: Int) -> Int {
        index &- 5 >= start ? escapedInvisibleLength(at: index &- 5, end: index &+ 1) : 0
    }

    /// Whether `index` lies inside (after the `\` of) a JSON escape of an invisible separator that
    /// starts at or after `start`: no match of rules 5 and 7 starts there.
    @inline(never) func insideEscapedInvisible(_ index: Int, start: Int) -> Bool {
        for back in 1...5 where index &- back >= start && byte(index &- back) == UInt8(ascii: "\\") {
            if escapedInvisibleLength(at: index &- back, end: count) > 0 { return true }
        }
        return false
    }

    /// The length of an ANSI colour code (SGR: ESC, `[`, at most 16 of `[0-9;]`, `m`) at `index`
    /// (below `end`), or 0. Logs captured from a terminal carry them around keys and values.
    @inline(__always) func colourCodeLength(at index: Int, end: Int) -> Int {
        guard byte(index) == 0x1B, index + 2 < end, byte(index + 1) == UInt8(ascii: "[") else { return 0 }
        var q = index + 2
        while q < end {
            let value = byte(q)
            if value == UInt8(ascii: "m") { return q + 1 - index }
            guard value &- 0x30 < 10 || value == UInt8(ascii: ";"), q - index - 2 < 16 else { return 0 }
            q += 1
        }
        return 0
    }

    /// The length of the ANSI colour code whose `m` is at `index` (not starting below `start`), or 0.
    @inline(__always) func colourCodeLength(endingAt index: Int, start: Int) -> Int {
        guard byte(index) == UInt8(ascii: "m") else { return 0 }
        var q = index - 1
        while q >= start {
            let value = byte(q)
            if value == UInt8(ascii: "[") { return q - 1 >= start && byte(q - 1) == 0x1B ? index - q + 2 : 0 }
            guard value &- 0x30 < 10 || value == UInt8(ascii: ";"), index - q <= 16 else { return 0 }
            q -= 1
        }
        return 0
    }

    /// The length of the invisible separator (U+00AD, U+200B–U+200D, U+2060, U+FEFF) at `index`, or 0.
    @inline(__always) func invisibleLength(at index: Int, end: Int) -> Int {
        let lead = byte(index)
        switch lead {
        case 0xC2:
            return index + 1 < end && byte(index + 1) == 0xAD ? 2 : 0
        case 0xE2:
            guard index + 2 < end else { return 0 }
            let second = byte(index + 1)
            let third = byte(index + 2)
            if second == 0x80 { return third >= 0x8B && third <= 0x8D ? 3 : 0 }
            return second == 0x81 && third == 0xA0 ? 3 : 0
        case 0xEF:
            return index + 2 < end && byte(index + 1) == 0xBB && byte(index + 2) == 0xBF ? 3 : 0
        default:
            return 0
        }
    }

    /// The length of the invisible separator whose last byte is at `index` (not below `start`), or 0.
    @inline(__always) func invisibleLength(endingAt index: Int, start: Int) -> Int {
        let last = byte(index)
        if last == 0xAD, index - 1 >= start, byte(index - 1) == 0xC2 { return 2 }
        guard last == 0x8B || last == 0x8C || last == 0x8D || last == 0xA0 || last == 0xBF, index - 2 >= start
        else { return 0 }
        return invisibleLength(at: index - 2, end: index + 1) == 3 ? 3 : 0
    }
}

/// Sixteen input bytes compared at once, for every finder and block test of the rules: a
/// lane-wise comparison compiles to one vector compare (SSE2 `pcmpeqb`; NEON has the same shape),
/// and the lanes read back as a 16-bit mask (x86-64) or two 64-bit words (each lane 0 or 0xFF;
/// little-endian lane order, as on x86-64 and arm64), so a search tests sixteen positions with a handful of instructions and
/// one branch, where a call to `memchr` cost tens of instructions and a mispredicted branch or two
/// for the short distances a log line has between triggers. Every operand must be a vector: a
/// scalar operand (`bytes .< 26`) compiles to a loop over the lanes.
enum ByteBlock {
    typealias Bytes = SIMD16<UInt8>
    typealias Lanes = SIMDMask<SIMD16<Int8>>

    @inline(__always) static func load(_ base: UnsafePointer<UInt8>, _ index: Int) -> Bytes {
        UnsafeRawPointer(base + index).loadUnaligned(as: Bytes.self)
    }

    // On x86-64 the lanes become bits with SSE2's `pmovmskb` (`_mm_movemask_epi8`, from the
    // compiler's own intrinsics module: no library, nothing linked), one instruction; Swift's SIMD
    // types have no operation that compiles to it (a lane loop, a weighted sum and a select all
    // compile to shuffles or byte loops). Elsewhere the `portable` forms below, which the tests
    // compare with these on every lane pattern.

    /// The first lane that is set, or nil.
    @inline(__always) static func firstLane(_ lanes: Lanes) -> Int? {
        #if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
            let mask = bits(lanes)
            return mask != 0 ? mask.trailingZeroBitCount : nil
        #else
            return portableFirstLane(lanes)
        #endif
    }

    /// Whether any lane is set.
    @inline(__always) static func any(_ lanes: Lanes) -> Bool {
        #if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
            return bits(lanes) != 0
        #else
            return portableAny(lanes)
        #endif
    }

    /// The lanes as bits 0–15, lane `i` as bit `i`.
    /// The lanes of `bytes` that hold an ASCII byte above `@` (the letters, `[ \ ] ^ _` and the
    /// backtick, `{ | } ~` and DEL), as bits: one signed compare (the bytes from 0x80 are negative).
    @inline(__always) static func letterBits(_ bytes: Bytes) -> UInt64 {
        bits(unsafeBitCast(bytes, to: SIMD16<Int8>.self) .> SIMD16<Int8>(repeating: 0x40))
    }

    @inline(__always) static func bits(_ lanes: Lanes) -> UInt64 {
        #if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
            let mask = _mm_movemask_epi8(unsafeBitCast(lanes, to: __m128i.self))
            return UInt64(truncatingIfNeeded: UInt16(truncatingIfNeeded: mask))
        #else
            return portableBits(lanes)
        #endif
    }

    /// ``firstLane(_:)`` in portable Swift. Each lane is 0 or 0xFF, so the two halves read as
    /// 64-bit words give it as a count of trailing zero bits. (The standard library's `any(_:)`
    /// reduces with `min()`, which the optimizer leaves as a call in a function this size.)
    @inline(__always) static func portableFirstLane(_ lanes: Lanes) -> Int? {
        let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        guard words[0] | words[1] != 0 else { return nil }
        return words[0] != 0 ? words[0].trailingZeroBitCount &>> 3 : 8 &+ words[1].trailingZeroBitCount &>> 3
    }

    /// ``any(_:)`` in portable Swift.
    @inline(__always) static func portableAny(_ lanes: Lanes) -> Bool {
        let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    /// ``bits(_:)`` without the vector unit's mask instruction: each 64-bit half's lane bits (0x80
    /// of each byte) gathered into its top byte by one multiplication (the partial products land on
    /// distinct bits).
    @inline(__always) static func portableBits(_ lanes: Lanes) -> UInt64 {
        let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        let gather: UInt64 = 0x0002_0408_1020_4081
        let low = ((words[0] & 0x8080_8080_8080_8080) &* gather) &>> 56
        let high = ((words[1] & 0x8080_8080_8080_8080) &* gather) &>> 56
        return low | high &<< 8
    }

    /// `.`, `b` or `B` in each lane (what a word rule needs to match in fewer than 32 bytes).
    @inline(__always) static func shortWordBytes(_ bytes: Bytes) -> Lanes {
        (bytes .== Bytes(repeating: 0x2E)) .| ((bytes | Bytes(repeating: 0x20)) .== Bytes(repeating: 0x62))
    }

    /// The lanes `from..<to` (0–16) set.
    @inline(__always) static func lanes(from lower: Int, to upper: Int) -> Lanes {
        let index = SIMD16<Int8>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        return (index .>= SIMD16<Int8>(repeating: Int8(truncatingIfNeeded: lower)))
            .& (index .< SIMD16<Int8>(repeating: Int8(truncatingIfNeeded: upper)))
    }

    /// The lanes whose byte is in `low ..< low + count`.
    @inline(__always) static func inRange(_ bytes: Bytes, _ low: UInt8, count: UInt8) -> Lanes {
        bytes &- Bytes(repeating: low) .< Bytes(repeating: count)
    }

    /// `[0-9]` in each lane.
    @inline(__always) static func digits(_ bytes: Bytes) -> Lanes { inRange(bytes, 0x30, count: 10) }

    /// ASCII letters in either case among the first `count` of the alphabet (26: all; 6: the hex
    /// letters): `| 0x20` maps only upper-case letters onto lower-case ones.
    @inline(__always) static func letters(_ bytes: Bytes, first count: UInt8 = 26) -> Lanes {
        inRange(bytes | Bytes(repeating: 0x20), 0x61, count: count)
    }

    /// Whether every lane is set.
    @inline(__always) static func all(_ lanes: Lanes) -> Bool {
        let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        return words[0] & words[1] == UInt64.max
    }
}

/// What a ``CachedFinder`` looks for: one byte, and optionally a filter on the byte before it.
///
/// A finder may look at the byte before each occurrence and pass over those its rule would
/// reject at first sight (an `@` after no local-part character, a `-` after a letter that is not
/// a hex digit): in
/// a blob of such bytes the rejection then costs a few instructions in this loop, not a call and
/// a look from the rule for each. The filter must only drop occurrences the rule rejects.
/// When the byte before must be one letter (`a` or `A` before the `2` of `sha256`, `e` before the
/// `x` of `expected`, `y` before the `J` of `eyJ`), the block search tests that letter too, so it
/// stops only at the pair.
///
/// The word rules' patterns are constants written out (``FinderPattern/emailAt`` and the others;
/// a test derives each from its classes), passed to every search: a line's search state is then
/// two positions a finder, and the pattern's tests fold into the search's code.
struct FinderPattern: Equatable {
    let value: UInt8
    /// An occurrence counts only when the byte before it has one of these classes (0: any)…
    let requireBefore: UInt32
    /// …and none of these. An occurrence at the start of the input always counts.
    let forbidBefore: UInt32
    /// Whether the byte itself fails the filter: then in a run of it only the first can count.
    let rejectsItself: Bool
    /// When `requireBefore` admits one letter only (in one or both cases): that letter in lower
    /// case and `0x20` if both cases count, or 0 (then the block search finds the byte alone).
    let pairBefore: UInt8
    let pairFold: UInt8
    /// With a pair letter: the byte that must follow the occurrence (0: any), which the block
    /// search tests too (`5` after the `2` of `sha256`, `p` after the `x` of `expected`).
    let after: UInt8

    /// The byte alone, no filter (the previous engine's finders).
    @inline(__always) static func byte(_ value: UInt8) -> FinderPattern {
        FinderPattern(
            value: value, requireBefore: 0, forbidBefore: 0, rejectsItself: false, pairBefore: 0, pairFold: 0, after: 0)
    }

    typealias Classes = LogSanitizer.Classes

    /// `@` after a local-part character or a byte of a multi-byte character (rule 4).
    @inline(__always) static var emailAt: FinderPattern {
        FinderPattern(
            value: 0x40, requireBefore: Classes.emailLocal | Classes.high, forbidBefore: 0, rejectsItself: true,
            pairBefore: 0, pairFold: 0, after: 0)
    }

    /// `%` after a local-part character or a byte of a multi-byte character: the `%` of a `%40`
    /// (rule 4; the rule reads the `40`).
    @inline(__always) static var emailPercent: FinderPattern {
        FinderPattern(
            value: 0x25, requireBefore: Classes.emailLocal | Classes.high, forbidBefore: 0, rejectsItself: false,
            pairBefore: 0, pairFold: 0, after: 0)
    }

    /// `-` after a hex digit or a byte of a multi-byte character (rule 5).
    @inline(__always) static var uuidDash: FinderPattern {
        FinderPattern(
            value: 0x2D, requireBefore: Classes.hex | Classes.high, forbidBefore: 0, rejectsItself: true,
            pairBefore: 0, pairFold: 0, after: 0)
    }

    /// The `2` of `sha256`: after `a` or `A`, before `5` (rule 6).
    @inline(__always) static var pinTwo: FinderPattern {
        FinderPattern(
            value: 0x32, requireBefore: Classes.letterA, forbidBefore: 0, rejectsItself: true, pairBefore: 0x61,
            pairFold: 0x20, after: 0x35)
    }

    /// The `x` of `expected`: after `e`, before `p` (rule 6).
    @inline(__always) static var listX: FinderPattern {
        FinderPattern(
            value: 0x78, requireBefore: Classes.lowerE, forbidBefore: 0, rejectsItself: true, pairBefore: 0x65,
            pairFold: 0, after: 0x70)
    }

    /// The `J` of a JWT's `eyJ`: after `y` (rule 7).
    @inline(__always) static var jwtJay: FinderPattern {
        FinderPattern(
            value: 0x4A, requireBefore: Classes.lowerY, forbidBefore: 0, rejectsItself: true, pairBefore: 0x79,
            pairFold: 0, after: 0)
    }

    /// The pattern for `value` with that filter, its derived fields computed from the class table
    /// (what the constants above must equal).
    static func derived(_ value: UInt8, requireBefore: UInt32 = 0, forbidBefore: UInt32 = 0, after: UInt8 = 0)
        -> FinderPattern
    {
        var rejectsItself = false
        if requireBefore != 0 || forbidBefore != 0 {
            let own = LogSanitizer.Classes.table[Int(value)]
            rejectsItself = (requireBefore != 0 && own & requireBefore == 0) || own & forbidBefore != 0
        }
        let (pairBefore, pairFold) =
            requireBefore == 0 ? (UInt8(0), UInt8(0)) : pair(admitting: requireBefore, unless: forbidBefore)
        return FinderPattern(
            value: value, requireBefore: requireBefore, forbidBefore: forbidBefore, rejectsItself: rejectsItself,
            pairBefore: pairBefore, pairFold: pairFold, after: after)
    }

    /// The one letter the byte-before filter admits, in lower case, and `0x20` when it admits both
    /// cases; (0, 0) when it admits anything else.
    static func pair(admitting required: UInt32, unless forbidden: UInt32) -> (UInt8, UInt8) {
        let table = LogSanitizer.Classes.table
        var letter: UInt8 = 0
        var cases = 0
        for byte in 0...255 where table[byte] & required != 0 && table[byte] & forbidden == 0 {
            let lower = UInt8(byte) | 0x20
            guard lower >= 0x61, lower <= 0x7A, letter == 0 || letter == lower else { return (0, 0) }
            letter = lower
            cases += 1
        }
        return (letter, cases == 2 ? 0x20 : 0)
    }
}

/// The next occurrence of a ``FinderPattern``, remembered: a search never scans a byte twice,
/// however many times it is asked (the cure for the quadratic "memchr over the rest for every
/// candidate"). Every search of one finder passes the same pattern.
struct CachedFinder {
    var found: Int = -1
    var exhaustedFrom: Int = Int.max

    @inline(__always) mutating func next<Counter>(
        _ pattern: FinderPattern, from: Int, to end: Int, in input: SanitizerInput<Counter>
    ) -> Int? {
        if found >= from { return found }
        if from >= exhaustedFrom { return nil }
        let requireBefore = pattern.requireBefore
        let forbidBefore = pattern.forbidBefore
        var index = from
        while let candidate = Self.occurrence(pattern, from: index, to: end, in: input) {
            if candidate == 0 || (requireBefore == 0 && forbidBefore == 0) {
                found = candidate
                return candidate
            }
            let before = input.table[Int(input.byte(candidate &- 1))]
            if (requireBefore == 0 || before & requireBefore != 0) && before & forbidBefore == 0 {
                found = candidate
                return candidate
            }
            index = candidate &+ 1
            // The same byte right after is rejected too (its byte before is this one): a run of it
            // goes at one comparison a byte.
            if pattern.rejectsItself {
                while index < end, input.byte(index) == pattern.value { index &+= 1 }
            }
        }
        exhaustedFrom = from
        return nil
    }

    /// The next occurrence from `from`: of `pattern` up to `searchEnd` (the current engine), or of
    /// its byte alone up to the region's `end` (the previous engine, out of line, so the current
    /// engine's search has the pattern's constants folded in).
    @inline(__always) mutating func next<Counter>(
        _ pattern: FinderPattern, from: Int, end: Int, _ searchEnd: Int, _ regionByRegion: Bool,
        in input: SanitizerInput<Counter>
    ) -> Int? {
        if regionByRegion { return nextByte(pattern.value, from: from, to: end, in: input) }
        return next(pattern, from: from, to: searchEnd, in: input)
    }

    /// Whether a search from `from` is known to find nothing (the search would answer at once):
    /// a rule asks before it sets its search up.
    @inline(__always) func knownNone(from: Int) -> Bool { found < from && from >= exhaustedFrom }

    /// ``next(_:from:to:in:)`` for the byte alone (the previous engine's finders), out of line.
    @inline(never) mutating func nextByte<Counter>(
        _ value: UInt8, from: Int, to end: Int, in input: SanitizerInput<Counter>
    ) -> Int? {
        next(.byte(value), from: from, to: end, in: input)
    }

    /// The next `value` in `[from, end)` (with a pair letter: the next one after that letter, or
    /// at the start of the input), sixteen positions a step. The last step reads the sixteen
    /// bytes that end at `end` and leaves out the lanes already searched; a range shorter than a
    /// block in an input shorter than one goes a byte at a time.
    @inline(__always) static func occurrence<Counter>(
        _ pattern: FinderPattern, from: Int, to end: Int, in input: SanitizerInput<Counter>
    ) -> Int? {
        guard from < end, let base = input.input.baseAddress else { return nil }
        var index = from
        let value = pattern.value
        let needle = ByteBlock.Bytes(repeating: value)
        if pattern.pairBefore != 0 {
            if index == 0 {
                if input.byte(0) == value { return 0 }
                index = 1
            }
            // Two copies of the loop, each with its tests fixed (a test chosen inside the loop
            // cost more than it saved).
            return pattern.after == 0
                ? pairOccurrence(pattern, from: index, to: end, base: base, in: input, testsAfter: false)
                : pairOccurrence(pattern, from: index, to: end, base: base, in: input, testsAfter: true)
        }
        while index &+ 16 <= end {
            input.counter.tick(16)
            if let lane = ByteBlock.firstLane(ByteBlock.load(base, index) .== needle) { return index &+ lane }
            index &+= 16
        }
        guard index < end else { return nil }
        input.counter.tick(end &- index)
        if end >= 16 {
            let blockStart = end &- 16
            let hit =
                (ByteBlock.load(base, blockStart) .== needle) .& ByteBlock.lanes(from: index &- blockStart, to: 16)
            return ByteBlock.firstLane(hit).map { blockStart &+ $0 }
        }
        while index < end {
            if base[index] == value { return index }
            index &+= 1
        }
        return nil
    }

    /// ``occurrence(_:from:to:in:)`` with a pair letter, from `from >= 1`; with `testsAfter`, the
    /// byte after must be `after` too, and the last byte of the range is no occurrence.
    @inline(__always) static func pairOccurrence<Counter>(
        _ pattern: FinderPattern, from: Int, to end: Int, base: UnsafePointer<UInt8>, in input: SanitizerInput<Counter>,
        testsAfter: Bool
    ) -> Int? {
        let value = pattern.value
        let pairBefore = pattern.pairBefore
        let pairFold = pattern.pairFold
        let after = pattern.after
        var index = from
        let needle = ByteBlock.Bytes(repeating: value)
        let letter = ByteBlock.Bytes(repeating: pairBefore)
        let fold = ByteBlock.Bytes(repeating: pairFold)
        let next = ByteBlock.Bytes(repeating: after)
        let reach = testsAfter ? 17 : 16
        @inline(__always) func hits(_ at: Int) -> ByteBlock.Lanes {
            let pairs = (ByteBlock.load(base, at) .== needle) .& ((ByteBlock.load(base, at &- 1) | fold) .== letter)
            return testsAfter ? pairs .& (ByteBlock.load(base, at &+ 1) .== next) : pairs
        }
        while index &+ reach <= end {
            input.counter.tick(16)
            if let lane = ByteBlock.firstLane(hits(index)) { return index &+ lane }
            index &+= 16
        }
        guard index &+ reach &- 16 < end else { return nil }
        input.counter.tick(end &- index)
        if end &- reach >= 1 {
            let blockStart = end &- reach
            let lane = ByteBlock.firstLane(hits(blockStart) .& ByteBlock.lanes(from: index &- blockStart, to: 16))
            return lane.map { blockStart &+ $0 }
        }
        while index &+ reach &- 16 < end {
            if base[index] == value, base[index &- 1] | pairFold == pairBefore, !testsAfter || base[index &+ 1] == after
            {
                return index
            }
            index &+= 1
        }
        return nil
    }
}

/// The next `be`, `ba` or `au` in any ASCII case (where a bearer, basic or SASL `AUTH` keyword can
/// start), remembered like ``CachedFinder``'s byte. Sixteen positions a step: the bytes at `i…i+15`
/// against `b` and those at `i+1…i+16` against `e`, the first lowered with `| 0x20` (which maps only
/// `B` to `b`), the second with `| 0x24` (which maps only `a A e E` to `e`); and the same bytes
/// against `a` and `u` (`| 0x24` maps `u U q Q` to `u`: an `aq` is a candidate too, which the rule
/// rejects at its next byte). A `b` or `a` followed by none of them (most of them: `b.`, `by`,
/// `ab`, `an`) costs nothing beyond the block compare, and one search finds all cases.
struct BearerStartFinder {
    var found: Int = -1
    var exhaustedFrom: Int = Int.max

    /// Whether `first` and `second` are a pair the finder stops at: `be`, `ba`, `pa`, `pe`, `au`,
    /// `aq`, `id`, `i@`, `` i` `` (any case).
    @inline(__always) static func isPair(_ first: UInt8, _ second: UInt8) -> Bool {
        let lowered = first | 0x20
        let next = second | 0x24
        return ((lowered == UInt8(ascii: "b") || lowered == UInt8(ascii: "p")) && next == UInt8(ascii: "e"))
            || (lowered == UInt8(ascii: "a") && next == UInt8(ascii: "u"))
            || (lowered == UInt8(ascii: "i") && next == UInt8(ascii: "d"))
    }

    @inline(__always) mutating func next<Counter>(from: Int, to end: Int, in input: SanitizerInput<Counter>) -> Int? {
        if found >= from { return found }
        if from >= exhaustedFrom { return nil }
        guard let base = input.input.baseAddress else { return nil }
        let fold = ByteBlock.Bytes(repeating: 0x20)
        let b = ByteBlock.Bytes(repeating: UInt8(ascii: "b"))
        let e = ByteBlock.Bytes(repeating: UInt8(ascii: "e"))
        // `be` (bearer) or `ba` (basic), any case: `| 0x24` maps exactly `a A e E` to `e`.
        let ae = ByteBlock.Bytes(repeating: 0x24)
        let a = ByteBlock.Bytes(repeating: UInt8(ascii: "a"))
        let u = ByteBlock.Bytes(repeating: UInt8(ascii: "u"))
        let i = ByteBlock.Bytes(repeating: UInt8(ascii: "i"))
        let d = ByteBlock.Bytes(repeating: UInt8(ascii: "d"))
        let p = ByteBlock.Bytes(repeating: UInt8(ascii: "p"))
        @inline(__always) func pairs(_ at: Int) -> ByteBlock.Lanes {
            let first = ByteBlock.load(base, at) | fold
            // `| 0x24` maps `u U q Q` to `u` as well (an `aq` costs the rule one more load), and
            // `d D @` and a backtick to `d`. `pa` (`PASSWORD 'x'`) comes with `pe`, `id`
            // (`IDENTIFIED BY`) with `i@`: the rule rejects those at their second byte.
            let second = ByteBlock.load(base, at &+ 1) | ae
            return (((first .== b) .| (first .== p)) .& (second .== e)) .| ((first .== a) .& (second .== u))
                .| ((first .== i) .& (second .== d))
        }
        // A pair starts at most at end - 2: the blocks cover starts [index, end - 1).
        var index = from
        while index &+ 17 <= end {
            input.counter.tick(16)
            if let lane = ByteBlock.firstLane(pairs(index)) {
                found = index &+ lane
                return found
            }
            index &+= 16
        }
        if index &+ 1 < end {
            input.counter.tick(end &- index)
            if end >= 17 {
                let blockStart = end &- 17
                if let lane = ByteBlock.firstLane(
                    pairs(blockStart) .& ByteBlock.lanes(from: index &- blockStart, to: 16))
                {
                    found = blockStart &+ lane
                    return found
                }
            } else {
                while index &+ 1 < end {
                    if BearerStartFinder.isPair(base[index], base[index &+ 1]) {
                        found = index
                        return index
                    }
                    index &+= 1
                }
            }
        }
        exhaustedFrom = from
        return nil
    }
}
