/// Rule 2's passwords in a command's short options, as a shell trace (`set -x`), a CI log or a
/// process listing prints the command: `sshpass -p hunter2 ssh …`, `docker login -u bob -p hunter2`
/// (also `podman`, `oc`, `cf`, `az login`), `mysqldump -uroot -phunter2 db`, `7z a -phunter2 x.7z`,
/// `redis-cli -a hunter2`, `ldapsearch -x -w hunter2`, `zip -P hunter2 x.zip`, `openssl enc -k
/// hunter2` and keytool's `-storepass hunter2`. Such an option names no key (`-p` is a port to `ssh`
/// and a path to `mkdir`), so it counts only after the word of a command it is a password of
/// (``CommandPasswordWords``), anywhere before it in the input, as curl's `-u` does
/// (``CredentialRule/userOptionContext(end:)``).
///
/// The option stands at the input's start or after white space (or another control byte), `"`,
/// `'` or an escaped `\t`, `\n`, `\r` (``CredentialRule/commandOptionBoundary(before:)``); its value follows one or more spaces, tabs
/// or escaped tabs (`\t`) and does not start with `-` (another option), or, where the command
/// reads one so, is glued to it (`-phunter2`; mysql's `-p` takes nothing else: `-p db` asks for
/// the password and names the database); or, the option in quotes of its own (an argument list,
/// `["sshpass", "-p", "x"]`), the value is the next argument in the same quotes. A command's word
/// is not right after `-`, `]`, `@`, `//` or `\/` (an option's name, a placeholder, a host). The value is read as after any
/// key (a quoted one to its closing quote), and goes; the option stays.
///
/// Linear: the span pass's window finder marks a `-` before a letter (``WindowTriggers/dashPairs``),
/// and each is read over a bounded option name and the blanks after it
/// (``CredentialRule/commandOption(at:end:urlBound:words:)``; blanks hold no `-`, so no byte is read for two);
/// the words are found once an input, in one pass over its words, and only when it holds an
/// option's shape.
extension CredentialRule {
    /// A command password option found at `dash`: its name ends at `nameEnd` and its value starts
    /// at `valueStart` (after the blanks, or at `nameEnd` when glued).
    struct CommandOption {
        let dash: Int
        let nameEnd: Int
        let valueStart: Int
        /// The quote (and its backslashes) that opened the string the value is the rest of: lftp's
        /// `-u "bob,x y"` (``lftpPassword(dash:nameEnd:value:end:)``).
        var opened: (quote: UInt8, escapes: Int)? = nil
        /// lftp's comma, an empty key at which the credential starts: the user name before it is
        /// left to rules 3–7 (a token or an email as the user goes as one), as curl's is.
        var comma: Int? = nil
    }

    /// The command password option whose `-` is at `dash` (a byte lies after it), or nil. `words`:
    /// the input's command words, found at the first option's shape (nil until then); `urlBound`:
    /// the previous URL's end (htpasswd's word is not in a URL rule 1 took).
    @inline(never) func commandOption(at dash: Int, end: Int, urlBound: Int, words: inout CommandPasswordWords?)
        -> CommandOption?
    {
        guard commandOptionBoundary(before: dash) else { return nil }
        if let option = commandOption(dash: dash, letter: dash + 1, end: end, words: &words) { return option }
        // ldappasswd's `-s` where keytool's name (`-storepass`) gave nothing.
        if text.byte(dash + 1) == UInt8(ascii: "s"),
            let option = commandOption(dash: dash, letter: dash + 1, end: end, words: &words, keytool: false)
        {
            return option
        }
        // Else flags combined before ldap's `-w` or zip's `-P` in one word (`ldapsearch -xw x`, `zip
        // -rP x`; `mysql -pPass` is mysql's `-p` first): three letters or more (one table test
        // rejects `-u a`, `-p 22`).
        if dash + 2 < end, text.has(dash + 2, Classes.alphanumeric),
            let combined = combinedPasswordLetter(afterDash: dash, end: end),
            let option = commandOption(dash: dash, letter: combined, end: end, words: &words)
        {
            return option
        }
        // Else htpasswd's first option (its password is no option's value): after blanks and the
        // word's last letter, which one compare rejects for most `-`s.
        guard dash >= 9, case let before = text.byte(dash - 2),
            before == UInt8(ascii: "d") || before == 0x20 || before == 0x09 || before == UInt8(ascii: "\\")
                || before == UInt8(ascii: "t")
        else { return nil }
        return htpasswdPassword(dash: dash, end: end, bound: urlBound)
    }

    /// ``commandOption(at:end:urlBound:words:)`` with the option's letter at `letterIndex` (right after the
    /// `-`, or after flags combined with it).
    @inline(__always) func commandOption(
        dash: Int, letter letterIndex: Int, end: Int, words: inout CommandPasswordWords?, keytool: Bool = true
    )
        -> CommandOption?
    {
        let letter = text.byte(letterIndex)
        var nameEnd = letterIndex + 1
        // The command words the option needs: glued to its value, and apart from it.
        var glued = Int.max
        var apart = Int.max
        switch letter {
        case UInt8(ascii: "p"), UInt8(ascii: "a"), UInt8(ascii: "w"), UInt8(ascii: "P"), UInt8(ascii: "k"),
            UInt8(ascii: "U"), UInt8(ascii: "N"):
            if letter == UInt8(ascii: "k"), nameEnd < end, text.byte(nameEnd) == UInt8(ascii: "e") {
                fallthrough
            }
            if words?.complete != true { words = commandPasswordWords(end: end) }
            let found = words!
            switch letter {
            case UInt8(ascii: "p"): (apart, glued) = (found.passwordApart, found.passwordGlued)
            case UInt8(ascii: "a"): (apart, glued) = (found.redis, found.ldappasswd)
            case UInt8(ascii: "U"): apart = found.smbclient
            case UInt8(ascii: "w"): (apart, glued) = (found.ldap, found.ldap)
            case UInt8(ascii: "P"): (apart, glued) = (found.zip, found.sshKeygen)
            case UInt8(ascii: "N"): (apart, glued) = (found.sshKeygen, found.sshKeygen)
            default: apart = found.openssl
            }
        case UInt8(ascii: "s"), UInt8(ascii: "d"):
            // keytool's and jarsigner's `-storepass`, `-keypass`, `-srcstorepass`, `-deststorepass`,
            // `-srckeypass`, `-destkeypass`.
            if keytool, let length = keytoolPasswordOptionLength(at: letterIndex, end: end) {
                nameEnd = letterIndex + length
                if words?.complete != true { words = commandPasswordWords(end: end) }
                apart = words!.keytool
            } else {
                // ldappasswd's `-s newPassword` (its `-a oldPassword` is redis-cli's letter).
                guard letter == UInt8(ascii: "s") else { return nil }
                if words?.complete != true { words = commandPasswordWords(end: end) }
                (apart, glued) = (words!.ldappasswd, words!.ldappasswd)
            }
        case UInt8(ascii: "h"):
            // rar's and unrar's `-hp` (the headers encrypted too), glued only.
            guard nameEnd + 1 < end, text.byte(nameEnd) == UInt8(ascii: "p") else { return nil }
            nameEnd += 1
            if words?.complete != true { words = commandPasswordWords(end: end) }
            glued = words!.rar
        case UInt8(ascii: "u"):
            // lftp's `-u user,password` (``lftpPassword(dash:nameEnd:value:end:)``), apart only.
            // (After keytool's case: `-keypass` falls through to that one from `k`.)
            if words == nil { words = lftpWord(end: end) }
            apart = words!.lftp
        default:
            return nil
        }
        guard nameEnd < end, min(apart, glued) < dash else { return nil }
        // The option in quotes of its own, an argument of a list (`["sshpass", "-p", "x"]`; in a
        // JSON string, `[\"sshpass\", \"-p\", \"x\"]`) or of a shell (`'-p' 'x'`): the value is the
        // next argument, in the same quotes (`,` and a space at most, or blanks, between).
        if let quoted = quotedOption(dash: dash, nameEnd: nameEnd, end: end) {
            guard apart < dash else { return nil }
            var v = nameEnd + quoted
            if v < end, text.byte(v) == UInt8(ascii: ",") {
                v += 1
                if v < end, text.byte(v) == 0x20 { v += 1 }
            } else {
                let separator = v
                while v < end, text.byte(v) == 0x20 || text.byte(v) == 0x09 { v += 1 }
                guard v > separator else { return nil }
            }
            guard v + quoted < end, exactly(at: v, as: nameEnd, count: quoted, end: end),
                optionValueMayStart(at: v + quoted, end: end)
            else { return nil }
            if letter == UInt8(ascii: "u") { return lftpPassword(dash: dash, nameEnd: nameEnd, value: v, end: end) }
            return CommandOption(dash: dash, nameEnd: nameEnd, valueStart: v)
        }
        // Apart: spaces, tabs and escaped tabs (`\t`, a command in a JSON string), then no `-`.
        var v = nameEnd
        while v < end, case let length = blankUnit(at: v, end: end), length > 0 { v += length }
        if v > nameEnd {
            guard apart < dash, v < end, optionValueMayStart(at: v, end: end) else { return nil }
            if letter == UInt8(ascii: "u") { return lftpPassword(dash: dash, nameEnd: nameEnd, value: v, end: end) }
            return CommandOption(dash: dash, nameEnd: nameEnd, valueStart: v)
        }
        guard glued < dash, !escapedLetterStartsURL(before: dash, end: end) else { return nil }
        return CommandOption(dash: dash, nameEnd: nameEnd, valueStart: nameEnd)
    }

    /// The length of the quote that closes the option whose `-` is at `dash` and whose name ends at
    /// `nameEnd`, where it stands in quotes of its own (an argument of a list): the same `"` or `'`
    /// before and after it (1), or `"` after the same run of 1, 3 or 7 backslashes on both sides
    /// (a list in a JSON string, escaped once, twice or three times: `\"`, `\\\"`), the run and
    /// the quote; else nil.
    @inline(__always) func quotedOption(dash: Int, nameEnd: Int, end: Int) -> Int? {
        guard dash > 0, case let quote = text.byte(dash - 1), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")
        else { return nil }
        let closing = text.byte(nameEnd)
        if closing == quote { return 1 }
        guard quote == UInt8(ascii: "\""), closing == UInt8(ascii: "\\") else { return nil }
        var escapes = 0
        while escapes < 8, dash - 2 - escapes >= 0, text.byte(dash - 2 - escapes) == UInt8(ascii: "\\") { escapes += 1 }
        guard escapes == 1 || escapes == 3 || escapes == 7, nameEnd + escapes < end else { return nil }
        for k in 0..<escapes where text.byte(nameEnd + k) != UInt8(ascii: "\\") { return nil }
        return text.byte(nameEnd + escapes) == quote ? escapes + 1 : nil
    }

    /// Whether the `count` bytes at `start` are those at `other` (both before `end`).
    @inline(__always) func exactly(at start: Int, as other: Int, count: Int, end: Int) -> Bool {
        guard start + count <= end, other + count <= end else { return false }
        for k in 0..<count where text.byte(start + k) != text.byte(other + k) { return false }
        return true
    }

    /// The length of the blank at `p` (below `end`) between an option and its value, or between
    /// htpasswd's words: a space or a tab (1), an escaped tab `\t` (2; a command in a JSON string)
    /// but not where its `t` starts a URL's scheme (`\thttps://h`: rule 1 took the `t`), else 0.
    @inline(__always) func blankUnit(at p: Int, end: Int) -> Int {
        let byte = text.byte(p)
        if byte == 0x20 || byte == 0x09 { return 1 }
        guard byte == UInt8(ascii: "\\"), p + 1 < end, text.byte(p + 1) == UInt8(ascii: "t"),
            !escapedLetterStartsURL(before: p + 2, end: end)
        else { return 0 }
        return 2
    }

    /// Whether an option's value may start at `v` (below `end`): not at a `-` (another option), nor
    /// at what rules 4 and 7 leave of a run that starts with one (`sshpass -p -888…é` →
    /// `-p [redacted-token]é`, found by FuzzSanitizer), a token's or an email's placeholder, or a `\`
    /// before one: a second pass must read no value there either.
    @inline(__always) func optionValueMayStart(at v: Int, end: Int) -> Bool {
        let byte = text.byte(v)
        if byte == UInt8(ascii: "-") { return false }
        if byte == UInt8(ascii: "[") { return !text.laterRulePlaceholder(at: v, end: end) }
        // (Nor a `\` before one: an escaped blank, `\t` or `\u00a0`, whose letter rules 4 and 7
        // took with the run from the `-`, the third review of the twenty-second session.)
        return !(byte == UInt8(ascii: "\\") && v + 1 < end && text.laterRulePlaceholder(at: v + 1, end: end))
    }

    /// Whether the option at `dash` follows an escaped `\t`, `\n` or `\r` whose letter starts a URL's
    /// scheme: rule 1 reads `\t-phttps://h` as the URL `t-phttps://h` (a scheme of 1 to 32
    /// `[A-Za-z0-9+.-]` from a letter after no such byte, then `://`, `:\/\/`, `%3A%2F%2F` or
    /// `%253A%252F%252F`), which goes first, so no option stands in it. (After a blank, a glued
    /// value's scheme cannot start before the `-`.) Linear: at most 32 bytes and a separator, once
    /// an option.
    @inline(__always) func escapedLetterStartsURL(before dash: Int, end: Int) -> Bool {
        let letter = dash - 1
        guard letter >= 0, afterEscapedBreak(letter) else { return false }
        var p = letter
        while p < end, p - letter < 32, text.has(p, Classes.scheme) { p += 1 }
        guard p < end, !text.has(p, Classes.scheme) else { return false }
        return exactly("://", at: p, end: end) || exactly(#":\/\/"#, at: p, end: end)
            || text.matches("%3a%2f%2f", at: p, end: end) || text.matches("%253a%252f%252f", at: p, end: end)
    }

    /// lftp's `-u user,password` whose value starts at `v`: an optional opening quote (`"`, `'`, or
    /// JSON's `\"`, also escaped twice or three times; in an argument list, the list's), a user name of 1 to
    /// ``CredentialRule/maximumUserName`` `[A-Za-z0-9._@+~!$%\-]`, and `,`; the password starts after
    /// the `,` (after a quote, it is the rest of that quote's string, which the same quote right
    /// after the `,` leaves empty: none; unquoted, so does a blank). Else nil (`lftp -u bob` asks for the password). The user
    /// name stays, as curl's does. Linear: a bounded run from one option.
    @inline(__always) func lftpPassword(dash: Int, nameEnd: Int, value v: Int, end: Int) -> CommandOption? {
        var p = v
        var opened: (quote: UInt8, escapes: Int)?
        let first = text.byte(p)
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            opened = (first, 0)
            p += 1
        } else if first == UInt8(ascii: "\\") {
            // JSON's `\"`, or a list's quote escaped twice or three times (``quotedOption(dash:nameEnd:end:)``).
            var escapes = 0
            while escapes < 8, p + escapes < end, text.byte(p + escapes) == UInt8(ascii: "\\") { escapes += 1 }
            guard escapes == 1 || escapes == 3 || escapes == 7, p + escapes < end,
                text.byte(p + escapes) == UInt8(ascii: "\"")
            else { return nil }
            opened = (UInt8(ascii: "\""), escapes)
            p += escapes + 1
        }
        let nameStart = p
        while p < end, p - nameStart < Self.maximumUserName, userNameByte(at: p) { p += 1 }
        // (Unquoted, a blank right after the `,` ends the word: the password is empty.)
        guard p > nameStart, p + 1 < end, text.byte(p) == UInt8(ascii: ","),
            opened != nil
                || (text.blanksEnd(from: p + 1, end: end, stop: Int.max) == p + 1
                    && !(text.byte(p + 1) == UInt8(ascii: "\\") && p + 2 < end
                        && text.laterRulePlaceholder(at: p + 2, end: end)))
        else { return nil }
        if let opened {
            // (The same quote right after the `,`: a `"` after at most as many backslashes as the
            // opening one's, or one.)
            let next = text.byte(p + 1)
            if next == opened.quote { return nil }
            if opened.quote == UInt8(ascii: "\""), next == UInt8(ascii: "\\") {
                var run = 0
                while run < 8, p + 1 + run < end, text.byte(p + 1 + run) == UInt8(ascii: "\\") { run += 1 }
                if p + 1 + run < end, text.byte(p + 1 + run) == opened.quote, run <= max(1, opened.escapes) {
                    return nil
                }
            }
        }
        return CommandOption(dash: dash, nameEnd: nameEnd, valueStart: p + 1, opened: opened, comma: p)
    }

    /// The most blanks between htpasswd's words (``htpasswdPassword(dash:end:bound:)``).
    static var maximumHTPasswdBlanks: Int { 64 }
    /// The longest of htpasswd's file and user names (``htpasswdPassword(dash:end:bound:)``).
    static var maximumHTPasswdWord: Int { 255 }
    /// The most option words before htpasswd's file (``htpasswdPassword(dash:end:bound:)``).
    static var maximumHTPasswdOptions: Int { 8 }

    /// htpasswd's password, the last of its arguments in batch mode (`-b`): `htpasswd -bc
    /// /etc/nginx/.htpasswd admin x` (a file, a user, the password) or, with `-n` (print, no
    /// file), `htpasswd -nbB admin x`. The first option word's `-` is at `dash`, right after the
    /// word `htpasswd` (a command's word, ``commandWordMayStart(at:)``, not before `bound`, the
    /// previous URL's end) and a separator; then 1 to ``maximumHTPasswdOptions`` option words, each
    /// a `-` and 1 to 8 of htpasswd's flags (`b c n i m s p d B D v`, not `p` first), or up to 8 and
    /// `-C` or `-r` and its number (1 to 4 digits, glued or after a separator); one holds `b`; an
    /// optional `--`; then the file (not with `n`) and the user, each 1 to ``maximumHTPasswdWord``
    /// of `[A-Za-z0-9._@+~!$/{}-]` not starting with `-`, or up to as many in `"`, `'` or `\"`; then the
    /// password, not starting with `-`, read as after any key. A separator is 1 to
    /// ``maximumHTPasswdBlanks`` spaces, tabs or escaped tabs (`\t`, a command in a JSON string).
    /// The credential starts at the separator before the password (an empty key, as lftp's at its
    /// comma): the file and the user are left to rules 3–7. Linear: a bounded walk back from one
    /// `-` and a bounded walk on.
    @inline(never) func htpasswdPassword(dash: Int, end: Int, bound: Int) -> CommandOption? {
        @inline(__always) func separator(from start: Int) -> Int? {
            var p = start
            var units = 0
            while p < end, case let length = blankUnit(at: p, end: end), length > 0 {
                p += length
                units += 1
                guard units <= Self.maximumHTPasswdBlanks else { return nil }
            }
            return units > 0 ? p : nil
        }
        // The word before: `htpasswd` and a separator. (Most `-`s follow one blank and a word's last
        // letter, which one compare rejects.)
        var w = dash
        var units = 0
        while w > 0 {
            let byte = text.byte(w - 1)
            if byte == 0x20 || byte == 0x09 {
                w -= 1
            } else if byte == UInt8(ascii: "t"), w >= 2, text.byte(w - 2) == UInt8(ascii: "\\") {
                w -= 2
            } else {
                break
            }
            units += 1
            guard units <= Self.maximumHTPasswdBlanks else { return nil }
        }
        guard units > 0, w >= 8, text.byte(w - 1) == UInt8(ascii: "d"), exactly("htpasswd", at: w - 8, end: w) else {
            return nil
        }
        let word = w - 8
        guard word >= bound else { return nil }
        if word > 0, text.has(word - 1, Classes.alphanumeric) || text.byte(word - 1) == UInt8(ascii: "-"),
            !afterEscapedBreak(word - 1)
        {
            return nil
        }
        guard commandWordMayStart(at: word) else { return nil }
        // The option words, and `--`.
        var p = dash
        var batch = false
        var print = false
        var options = 0
        while p < end, text.byte(p) == UInt8(ascii: "-") {
            if options > 0, p + 1 < end, text.byte(p + 1) == UInt8(ascii: "-") {
                guard let next = separator(from: p + 2) else { return nil }
                p = next
                break
            }
            guard options < Self.maximumHTPasswdOptions else { return nil }
            options += 1
            var l = p + 1
            // (Not `p` first: a word `-p…` may be another command's password option, which a
            // second pass would read once a rule 3–7 placeholder in the user hides htpasswd.)
            while l < end, l - p <= 8, Self.isHTPasswdFlag(text.byte(l)),
                l > p + 1 || text.byte(l) != UInt8(ascii: "p")
            {
                batch = batch || text.byte(l) == UInt8(ascii: "b")
                print = print || text.byte(l) == UInt8(ascii: "n")
                l += 1
            }
            if l < end, l - p <= 9, text.byte(l) == UInt8(ascii: "C") || text.byte(l) == UInt8(ascii: "r") {
                l += 1
                if let digits = separator(from: l) { l = digits }
                let first = l
                while l < end, l - first < 4, text.has(l, Classes.digit) { l += 1 }
                guard l > first else { return nil }
            } else {
                guard l > p + 1 else { return nil }
            }
            guard let next = separator(from: l) else { return nil }
            p = next
        }
        guard batch else { return nil }
        // The file (not with `-n`) and the user, bare or quoted.
        var last = p
        for _ in 0..<(print ? 1 : 2) {
            guard p < end else { return nil }
            let first = text.byte(p)
            // (In quotes: `"`, `'`, or JSON's `\"`, the same after it.)
            let escaped = first == UInt8(ascii: "\\") && p + 1 < end && text.byte(p + 1) == UInt8(ascii: "\"")
            if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") || escaped {
                let quote = escaped ? UInt8(ascii: "\"") : first
                let start = escaped ? p + 2 : p + 1
                p = start
                while p < end, p - start < Self.maximumHTPasswdWord, htpasswdWordByte(at: p) { p += 1 }
                if escaped {
                    guard p + 1 < end, text.byte(p) == UInt8(ascii: "\\") else { return nil }
                    p += 1
                }
                guard p < end, text.byte(p) == quote else { return nil }
                p += 1
            } else {
                guard first != UInt8(ascii: "-") else { return nil }
                let start = p
                while p < end, p - start < Self.maximumHTPasswdWord, htpasswdWordByte(at: p) { p += 1 }
                guard p > start, p < end, !htpasswdWordByte(at: p) else { return nil }
            }
            last = p
            guard let next = separator(from: p) else { return nil }
            p = next
        }
        guard p < end, optionValueMayStart(at: p, end: end) else { return nil }
        return CommandOption(dash: dash, nameEnd: last, valueStart: p, comma: last)
    }

    /// Whether `byte` names a flag of htpasswd that takes no argument: `b c n i m s p d B D v`.
    @inline(__always) static func isHTPasswdFlag(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "b"), UInt8(ascii: "c"), UInt8(ascii: "n"), UInt8(ascii: "i"), UInt8(ascii: "m"),
            UInt8(ascii: "s"), UInt8(ascii: "p"), UInt8(ascii: "d"), UInt8(ascii: "B"), UInt8(ascii: "D"),
            UInt8(ascii: "v"):
            return true
        default: return false
        }
    }

    /// Whether the byte at `index` may be in htpasswd's file or user name: `[A-Za-z0-9._@+~!$/{}-]`,
    /// a user name's bytes (``CredentialRule/userNameByte(at:)``) but `%` (a percent-encoded URL's
    /// start), and a path's `/`, `{`, `}`.
    @inline(__always) func htpasswdWordByte(at index: Int) -> Bool {
        let byte = text.byte(index)
        if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") { return true }
        return byte != UInt8(ascii: "%") && userNameByte(at: index)
    }

    /// Whether a command's short option whose `-` is at `dash` stands at a boundary: at the input's
    /// start, after white space or another control byte, `"` or `'` (``LogSanitizer/isOptionBoundary(_:)``),
    /// or after an escaped `\t`, `\n` or `\r` (a command in a JSON string, `"sshpass \\\n\t-p x"`),
    /// as curl's user options (``optionBoundary(before:bound:)``).
    @inline(__always) func commandOptionBoundary(before dash: Int) -> Bool {
        guard dash > 0 else { return true }
        return LogSanitizer.isOptionBoundary(text.byte(dash - 1)) || afterEscapedBreak(dash - 1)
    }

    /// The most flags combined before a password option's letter in one word (``combinedPasswordLetter(afterDash:end:)``).
    static var maximumCombinedCommandFlags: Int { 8 }

    /// Where ldap's `-w` or zip's `-P` is in the word of short options whose `-` is at `dash`, after
    /// 1 to ``maximumCombinedCommandFlags`` flags of the same command that take no argument
    /// (``isLDAPFlag(_:)``, ``isZipFlag(_:)``): `ldapsearch -xw x`, `zip -rP x`, `unzip -qoP x`; else
    /// nil. (A flag that takes an argument, `-D`, `-b`, `-x` to zip, takes the rest of the word.)
    /// Linear: a bounded walk on from one `-`.
    @inline(__always) func combinedPasswordLetter(afterDash dash: Int, end: Int) -> Int? {
        // A letter first: the span pass offers a `-` before a letter only (dates put one before
        // digits), and one a `memchr` found past a long run must read the same (`zip -9P x` stays,
        // `zip -r9P x` is read).
        guard dash + 1 < end, text.has(dash + 1, Classes.letter) else { return nil }
        var ldap = true
        var zip = true
        var l = dash + 1
        while l < end, l - dash <= Self.maximumCombinedCommandFlags + 1 {
            let byte = text.byte(l)
            if l > dash + 1, (ldap && byte == UInt8(ascii: "w")) || (zip && byte == UInt8(ascii: "P")) { return l }
            ldap = ldap && Self.isLDAPFlag(byte)
            zip = zip && Self.isZipFlag(byte)
            guard ldap || zip, l - dash <= Self.maximumCombinedCommandFlags else { return nil }
            l += 1
        }
        return nil
    }

    /// Whether `byte` names a flag of the OpenLDAP tools that takes no argument: `-x` (simple
    /// authentication), `-Z`, `-L`, `-M`, `-n`, `-N`, `-v`, `-W`, `-c`, `-C`, `-A`, `-r`, `-t`, `-u`,
    /// `-Q`, `-I`, `-V`. (Not `-a`: ldapmodify's add mode, but ldapsearch's `-a deref`.)
    @inline(__always) static func isLDAPFlag(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A"), UInt8(ascii: "c"), UInt8(ascii: "C"), UInt8(ascii: "I"), UInt8(ascii: "L"),
            UInt8(ascii: "M"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "Q"), UInt8(ascii: "r"),
            UInt8(ascii: "t"), UInt8(ascii: "u"), UInt8(ascii: "v"), UInt8(ascii: "V"), UInt8(ascii: "W"),
            UInt8(ascii: "x"), UInt8(ascii: "Z"):
            return true
        default: return false
        }
    }

    /// Whether `byte` names a flag of zip or unzip that takes no argument in either (`-r`, `-q`,
    /// `-j`, `-o`, …; not `-b`, `-d`, `-n`, `-s`, `-t`, `-x`, `-i`, `-O`, `-Z`, `-h`, `-B`, which
    /// take one in one of them or change what follows). A digit (`-9`, the compression level) only
    /// after a letter (``combinedPasswordLetter(afterDash:end:)``).
    @inline(__always) static func isZipFlag(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A"), UInt8(ascii: "a"), UInt8(ascii: "c"),
            UInt8(ascii: "C"), UInt8(ascii: "D"), UInt8(ascii: "e"), UInt8(ascii: "f"), UInt8(ascii: "F"),
            UInt8(ascii: "g"), UInt8(ascii: "j"), UInt8(ascii: "J"), UInt8(ascii: "k"), UInt8(ascii: "K"),
            UInt8(ascii: "l"), UInt8(ascii: "L"), UInt8(ascii: "m"), UInt8(ascii: "M"), UInt8(ascii: "N"),
            UInt8(ascii: "o"), UInt8(ascii: "p"), UInt8(ascii: "q"), UInt8(ascii: "r"), UInt8(ascii: "R"),
            UInt8(ascii: "S"), UInt8(ascii: "T"), UInt8(ascii: "u"), UInt8(ascii: "U"), UInt8(ascii: "v"),
            UInt8(ascii: "V"), UInt8(ascii: "W"), UInt8(ascii: "X"), UInt8(ascii: "y"), UInt8(ascii: "Y"),
            UInt8(ascii: "z"):
            return true
        default: return false
        }
    }

    /// The length of keytool's password option name at `start` (after its `-`) followed by a space,
    /// a tab, a quote (an argument list's, `'-storepass', 'x'`) or a `\` (an escaped `\t`), or nil;
    /// the caller reads what follows as any option's.
    @inline(__always) func keytoolPasswordOptionLength(at start: Int, end: Int) -> Int? {
        for (name, length) in [
            ("storepass", 9), ("keypass", 7), ("srcstorepass", 12), ("deststorepass", 13), ("srckeypass", 10),
            ("destkeypass", 11),
        ] as [(StaticString, Int)] {
            if exactly(name, at: start, end: end), start + length < end, case let after = text.byte(start + length),
                after == 0x20 || after == 0x09 || after == UInt8(ascii: "\"") || after == UInt8(ascii: "'")
                    || after == UInt8(ascii: "\\")
            {
                return length
            }
        }
        return nil
    }

    /// ``commandPasswordWords(end:)`` for lftp's word alone (its `-u` is the only option a `-u`
    /// asks for), marked not ``CommandPasswordWords/complete``: `-u` is common (curl's, `sort -u`,
    /// `docker run -u`) and `lftp` rare, so an input of many short words and a `-u` pays one
    /// search for the `l`s, not the pass over every word. The same word conditions. One pass.
    @inline(never) func lftpWord(end: Int) -> CommandPasswordWords {
        var words = CommandPasswordWords(complete: false)
        var p = 0
        while let l = text.find(UInt8(ascii: "l"), from: p, to: end) {
            p = l + 1
            guard l + 4 <= end, exactly("lftp", at: l, end: end) else { continue }
            if l > 0, text.has(l - 1, Classes.alphanumeric) || text.byte(l - 1) == UInt8(ascii: "-"),
                !afterEscapedBreak(l - 1)
            {
                continue
            }
            guard commandWordMayStart(at: l) else { continue }
            if l + 4 < end {
                let after = text.byte(l + 4)
                guard
                    after == 0x20 || after == 0x09 || after == UInt8(ascii: "\\") || after == UInt8(ascii: "\"")
                        || after == UInt8(ascii: "'")
                else { continue }
            }
            words.lftp = l
            break
        }
        return words
    }

    /// Where the words of the commands whose short options take a password first start in the
    /// input: a word is a run of `[A-Za-z0-9-]` not right after another such byte (a path's last
    /// part counts: `/usr/bin/mysql`), before a space, a tab, `\`, a quote or the end. One pass.
    @inline(never) func commandPasswordWords(end: Int) -> CommandPasswordWords {
        var words = CommandPasswordWords()
        var i = 0
        // The word before, when one space alone lies between (`docker login`).
        var previous = -1..<(-1)
        while i < end {
            guard text.has(i, Classes.alphanumeric) else {
                i += 1
                continue
            }
            let start = i
            while i < end, text.has(i, Classes.alphanumeric) || text.byte(i) == UInt8(ascii: "-") { i += 1 }
            let word = start..<i
            defer { previous = i < end && text.byte(i) == 0x20 ? word : -1..<(-1) }
            guard commandWordMayStart(at: start) else { continue }
            if i < end {
                let after = text.byte(i)
                guard
                    after == 0x20 || after == 0x09 || after == UInt8(ascii: "\\") || after == UInt8(ascii: "\"")
                        || after == UInt8(ascii: "'")
                else { continue }
            }
            words.note(
                word: start, length: i - start, after: previous.upperBound == start - 1 ? previous : nil, in: self)
            // Also the word after an escaped `\n`, `\t` or `\r` whose letter begins the run (a script
            // in a JSON string, `set -e\nsshpass -p x`).
            if i - start > 1, afterEscapedBreak(start) {
                words.note(word: start + 1, length: i - start - 1, after: nil, in: self)
            }
        }
        return words
    }

    /// Whether the byte at `letter` is the `n`, `t` or `r` of an escaped line break or tab (a `\`
    /// before it): a command's word may start right after it (``commandPasswordWords(end:)``).
    @inline(__always) func afterEscapedBreak(_ letter: Int) -> Bool {
        guard letter >= 1, text.byte(letter - 1) == UInt8(ascii: "\\") else { return false }
        let byte = text.byte(letter)
        return byte == UInt8(ascii: "n") || byte == UInt8(ascii: "t") || byte == UInt8(ascii: "r")
    }

    /// Whether a command's word may start at `start`: not right after `-` (an option's name), `.` (a
    /// file's extension: `backup.zip`, the twenty-first session's review), `]` (a
    /// later rule's placeholder: `[redacted-uuid]sshpass` must read as the input did), `@` or a URL's
    /// `//` or `\/` (a host, which a URL's span keeps in a second pass with a blank after it).
    @inline(__always) func commandWordMayStart(at start: Int) -> Bool {
        guard start > 0 else { return true }
        let before = text.byte(start - 1)
        if before == UInt8(ascii: "-") || before == UInt8(ascii: "]") || before == UInt8(ascii: "@")
            || before == UInt8(ascii: ".")
        {
            return false
        }
        return
            !(before == UInt8(ascii: "/") && start >= 2
            && (text.byte(start - 2) == UInt8(ascii: "/") || text.byte(start - 2) == UInt8(ascii: "\\")))
    }
}

/// Where an input's command words first start (``CredentialRule/commandPasswordWords(end:)``; also
/// right after an escaped `\n`, `\t`, `\r`),
/// `Int.max` where none does, for each option they give a password: `-p` apart from its value
/// (`sshpass`, `login` of `docker`, `podman`, `oc`, `cf`, `az`; every `mongo…` word: `mongosh`,
/// `mongodump`; `useradd`, `usermod`, whose `-p` is a password's hash), `-p` glued (`sshpass`,
/// `login`, `useradd`, `usermod`, every `mysql…` and `mariadb…` word, `7z`, `7za`, `rar`, `unrar`),
/// `-a` (`redis-cli`; HTTPie's `http`, `https`: `-a user:password`; `ldappasswd`'s old password),
/// `-U` (`smbclient`: `user%password`), `-w` (`ldapsearch` and every `ldap…` word), `-s`
/// (`ldappasswd`'s new password), `-P` (`zip`, `unzip`, `sqlcmd`, `bcp`, `ssh-keygen`'s old
/// passphrase), `-N` (`ssh-keygen`'s new passphrase, also glued), `-k` (`openssl`), keytool's
/// (`keytool`, `jarsigner`), and `-u` (`lftp`: `user,password`).
struct CommandPasswordWords {
    /// Whether the word at `range` names a client whose `login` takes `-p`: `docker`, `podman`,
    /// `nerdctl`, `buildah`, `skopeo`, `oc`, `cf`, `az`, and helm's `registry`. (A `login` in prose,
    /// `user login failed`, enables nothing: `ssh -p 2222` after it keeps its port.) The name may
    /// follow an escaped `\n`, `\t` or `\r` whose letter begins the run (`\ndocker login`), as any
    /// command's word may (``CredentialRule/commandPasswordWords(end:)``).
    static func isRegistryClient<Counter>(_ range: Range<Int>, _ rule: CredentialRule<Counter>) -> Bool {
        @inline(__always) func named(_ range: Range<Int>) -> Bool {
            for name in ["docker", "podman", "nerdctl", "buildah", "skopeo", "oc", "cf", "az", "registry"]
                as [StaticString]
            where range.count == name.utf8CodeUnitCount
                && rule.exactly(name, at: range.lowerBound, end: range.upperBound)
            {
                return true
            }
            return false
        }
        // (Where a command's word may start: not right after a `-` (`-docker login`, the
        // twenty-second session's review) nor a placeholder's `]` (a UUID's, glued before it).
        if named(range), rule.commandWordMayStart(at: range.lowerBound) { return true }
        return range.count > 1 && rule.afterEscapedBreak(range.lowerBound) && named(range.dropFirst())
    }

    var passwordApart = Int.max
    var passwordGlued = Int.max
    var redis = Int.max
    var smbclient = Int.max
    var ldap = Int.max
    var zip = Int.max
    var openssl = Int.max
    var keytool = Int.max
    var lftp = Int.max
    var sshKeygen = Int.max
    var ldappasswd = Int.max
    var rar = Int.max
    /// False where only ``lftp`` was looked for (``CredentialRule/lftpWord(end:)``).
    var complete = true

    /// Counts the word of `length` bytes at `start` where it is a command's; `after`: the word one
    /// space before it, if any (`login` counts only after a registry client's name).
    mutating func note<Counter>(word start: Int, length: Int, after: Range<Int>?, in rule: CredentialRule<Counter>) {
        @inline(__always) func first(_ position: inout Int) { position = min(position, start) }
        @inline(__always) func word(_ name: StaticString) -> Bool {
            length == name.utf8CodeUnitCount && rule.exactly(name, at: start, end: start + length)
        }
        @inline(__always) func prefix(_ name: StaticString) -> Bool {
            length >= name.utf8CodeUnitCount && rule.exactly(name, at: start, end: start + length)
        }
        if word("sshpass") || (word("login") && after.map { Self.isRegistryClient($0, rule) } == true)
            || word("useradd") || word("usermod")
        {
            first(&passwordApart)
            first(&passwordGlued)
        } else if prefix("mongo") {
            first(&passwordApart)
        } else if prefix("mysql") || prefix("mariadb") || word("7z") || word("7za") {
            first(&passwordGlued)
        } else if word("rar") || word("unrar") {
            first(&passwordGlued)
            first(&rar)
        } else if word("redis-cli") || word("http") || word("https") {
            first(&redis)
        } else if prefix("ldap") {
            first(&ldap)
            if word("ldappasswd") {
                first(&ldappasswd)
                first(&redis)
            }
        } else if word("zip") || word("unzip") || word("sqlcmd") || word("bcp") {
            first(&zip)
        } else if word("ssh-keygen") {
            first(&sshKeygen)
            first(&zip)
        } else if word("smbclient") {
            first(&smbclient)
        } else if word("openssl") {
            first(&openssl)
        } else if word("keytool") || word("jarsigner") {
            first(&keytool)
        } else if word("lftp") {
            first(&lftp)
        }
    }
}
