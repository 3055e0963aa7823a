/// The words of a command line, consumed by the option parsers of one subcommand.
///
/// Accepted shapes: `--flag`, `--option VALUE`, `--option=VALUE`, repeated options, options that
/// take several values (`--pem A B`, until the next word starting with `-`), and `--` to end
/// options. Anything left unconsumed is an error, so a misspelt option never goes unnoticed.
struct Arguments {
    private var words: [String]
    private var consumed: [Bool]
    private var endOfOptions: Int
    /// Every option name a parser asked for, for the "did you mean" of an unknown option.
    private var known: [String] = []

    init(_ words: [String]) {
        var list = words
        let end = list.firstIndex(of: "--") ?? list.count
        if end < list.count { list.remove(at: end) }
        self.words = list
        self.consumed = Array(repeating: false, count: list.count)
        self.endOfOptions = end
    }

    /// True when `--name` (or a short alias) is present; consumes it.
    mutating func flag(_ names: String...) throws(UsageError) -> Bool {
        known += names
        var found = false
        for index in 0..<endOfOptions where !consumed[index] && names.contains(words[index]) {
            consumed[index] = true
            found = true
        }
        for index in 0..<endOfOptions where !consumed[index] {
            for name in names where words[index].hasPrefix(name + "=") {
                throw UsageError("\(name) takes no value")
            }
        }
        return found
    }

    /// Every value given to `--name`, as `--name V`, `--name=V` or (with `multiple`) `--name V1 V2`.
    mutating func values(_ name: String, multiple: Bool = false) throws(UsageError) -> [String] {
        known.append(name)
        var values: [String] = []
        var index = 0
        while index < endOfOptions {
            defer { index += 1 }
            guard !consumed[index] else { continue }
            let word = words[index]
            if word.hasPrefix(name + "=") {
                consumed[index] = true
                values.append(String(word.dropFirst(name.count + 1)))
            } else if word == name {
                consumed[index] = true
                guard index + 1 < words.count, !consumed[index + 1], index + 1 < endOfOptions || !multiple,
                    !words[index + 1].hasPrefix("--")
                else { throw UsageError("\(name) needs a value") }
                index += 1
                consumed[index] = true
                values.append(words[index])
                while multiple, index + 1 < endOfOptions, !words[index + 1].hasPrefix("-") {
                    index += 1
                    consumed[index] = true
                    values.append(words[index])
                }
            }
        }
        return values
    }

    /// The single value of `--name`, or nil; giving it twice is an error.
    mutating func value(_ name: String) throws(UsageError) -> String? {
        let all = try values(name)
        guard all.count <= 1 else { throw UsageError("\(name) was given \(all.count) times; give it once") }
        return all.first
    }

    /// The remaining positional words. Call last: any leftover `--option` is reported as unknown.
    mutating func positionals() throws(UsageError) -> [String] {
        var result: [String] = []
        for index in words.indices where !consumed[index] {
            if index < endOfOptions, words[index].hasPrefix("-"), words[index] != "-" {
                throw UsageError("unknown option \(words[index])\(suggestion(for: words[index]))")
            }
            consumed[index] = true
            result.append(words[index])
        }
        return result
    }

    /// " (did you mean --x?)" for the closest option this command takes, or the list of them.
    private func suggestion(for word: String) -> String {
        let name = String(word.prefix { $0 != "=" })
        let options = known.filter { $0.hasPrefix("--") }.reduce(into: [String]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        guard !options.isEmpty else { return "" }
        let ranked = options.map { ($0, Self.distance(name, $0)) }.min { $0.1 < $1.1 }
        if let (best, distance) = ranked, distance <= max(2, best.count / 3) { return " (did you mean \(best)?)" }
        return "; this command takes \(options.sorted().joined(separator: ", "))"
    }

    /// Levenshtein distance over characters (option names are short).
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
