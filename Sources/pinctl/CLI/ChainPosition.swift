/// How every command names a certificate's place in a chain: openssl's depth (the leaf is 0)
/// followed by its role, e.g. `0 leaf`, `1 intermediate`, `2 root`.
///
/// One numbering for `spki`, `check`, `rotation-check`, `lab` and their JSON (`depth`, 0-based,
/// as `openssl s_client` and `openssl verify` print it).
enum ChainPosition {
    /// - Parameters:
    ///   - depth: 0 for the leaf.
    ///   - length: the chain's length; its last certificate is called the root when self-issued
    ///     chains are not known, so pass `isRoot` when the caller knows better.
    static func name(depth: Int, length: Int, isRoot: Bool? = nil) -> String {
        if depth == 0 { return "0 leaf" }
        let root = isRoot ?? (depth == length - 1)
        return "\(depth) \(root ? "root" : "intermediate")"
    }
}
