/// URLs in running text whose query holds a raw Windows path (the eighteenth session): a
/// backslash before `t`, `n` or `r` reads as an escaped tab or line break, and the URL goes on
/// after it only where the run of path bytes ends at `&` (or `&amp;`), a parameter name and `=`.
/// The differential test `LogSanitizerEscapeRunTests` draws its lines from here (its own stream,
/// so the corpus the benchmark measures, `line()`, stays as it was).
extension LogCorpus {
    /// A line of such URLs among escapes that end one, HTML entities, credentials and words.
    public mutating func windowsPathLine() -> String {
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            parts.append(chance(60) ? windowsPathURL() : chance(50) ? huntCredential() : pick(Self.words))
        }
        return parts.joined(separator: pick([" ", "", "\t", ", ", "\\n", "\"", "'", "\r\n", "(", ")", "&"]))
    }

    /// A URL whose query holds escapes and what may follow them: a parameter, an entity, a header,
    /// another URL, or nothing.
    public mutating func windowsPathURL() -> String {
        var url = pick(["https://", "http://", "wss://", "s3://", "https:\\/\\/"]) + host()
        url += pick(["/dl?path=", "/x?p=", "?", "/a\\b?q=", "/", ""])
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            url += windowsPathPiece()
        }
        return pick(["", "GET ", "(see ", "<", "url=", "\"", "'"]) + url
            + pick(["", " 200", ")", ">", "\"", "'", "\t"])
    }

    /// One folder of a path (its backslash before a letter that may make it an escape), then what
    /// may decide whether the URL goes on.
    public mutating func windowsPathPiece() -> String {
        let folder =
            pick(["C:", "\\\\server", "D:", "", "%5C"]) + pick(["\\", "\\\\", "\\\\\\"])
            + pick(["t", "n", "r", "temp", "new", "reports", "tokens", "Users", "u00e9", "\"", "/", "x"])
            + string("abcdefgh0123456789._~-/\\", 0...8)
        let after = pick([
            "&", "&amp;", "&AMP;", "&#39;", "&quot;", "&=", "&sig=", "&amp;sig=", "&X-Amz-Signature=", "&a.b~c-d_e=",
            "&name", "&na me=", "&n%61me=", "=", ":", ";", "@", "%26sig=", "[", "&[redacted-token]=",
            "\\nAuthorization: Basic ", "\\r\\n", "&https://b.example/x?c=", "",
        ])
        return folder + after + pick(["", string(Self.base64url, 1...20), "hunter2", jwt(), "[redacted-secret]"])
    }
}
