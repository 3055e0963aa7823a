/// Rule 2's keys added in the eighteenth session (`pass` where it is no word's tail, `secret-key`,
/// `private-key`, `access_key`, `access-key`, `accesskey`) and the nineteenth (`sessid`), and their
/// near misses (`bypass`,
/// `compass`, `passes`, `]pass`), put in place of the key words of every other generator's
/// lines: plain, quoted, JSON-escaped, form keys, options, pairs, markup, glued to tokens. The
/// differential test `LogSanitizerKeyVocabularyTests` draws its lines from here (its own stream,
/// so the corpus the benchmark measures, `line()`, stays as it was).
extension LogCorpus {
    /// Another generator's line with its key words replaced.
    public mutating func keyVocabularyLine() -> String {
        var line: String
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: line = huntLine()
        case 1: line = gluedKeyLine()
        case 2: line = optionLine()
        case 3: line = separatorLine()
        case 4: line = pairMemberLine()
        default: line = huntFormLine()
        }
        for word in ["password", "Password", "PASSWORD", "passwd", "token", "Token", "secret", "api_key", "Pwd"]
        where line.contains(word) {
            line = line.replacingOccurrences(of: word, with: pick(Self.vocabulary))
        }
        return line
    }

    /// The new keys in their spellings and cases, and words that end in them without being one.
    public static let vocabulary = [
        "pass", "PASS", "Pass", "DB_PASS", "dbPass", "smtp-pass", "db.pass", "\\npass", "\\tPass", "db2pass", "bypass",
        "compass", "BYPASS", "passes", "pas", "xpass", "]pass", "]Pass", "%26pass", "%0apass", "\\u000apass", "9pass",
        "secret-key", "Secret-Key", "private-key", "PRIVATE-KEY",
        "access_key", "access-key", "accesskey", "AccessKey", "secretAccessKey", "aws_secret_access_key",
        "accessKeyId", "access_keys", "key", "password",
        // The nineteenth session: `sessid` (PHP's session cookie, also logged as a parameter).
        "PHPSESSID", "sessid", "SessId", "php_sessid", "sessids", "essid",
    ]
}
