import PinKit

/// The words of a command line, consumed by the option parsers of one subcommand.
///
/// Accepted shapes: `--flag`, `--option VALUE`, `--option=VALUE`, repeated options, options that
/// take several values (`--pem A B`, until the next word starting with `-`), and `--` to end
/// options. Anything left unconsumed is an error, so a misspelt option never goes unnoticed.
struct Arguments {
    private var words: [String]
    private var consumed: [Bool]
    private var endOfOptions: Int
    /// Every option name the command asked about, for "did you mean" on an unknown one.
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

    /// The first word not consumed yet, when it is not an option: a command group's action
    /// (`killswitch sign`; a group's own flags such as `--json` may come before it).
    mutating func leadingWord() -> String? {
        guard let index = (0..<endOfOptions).first(where: { !consumed[$0] }), !words[index].hasPrefix("-") else {
            return nil
        }
        consumed[index] = true
        return words[index]
    }

    /// The remaining positional words. Call last: any leftover `--option` is reported as unknown.
    mutating func positionals() throws(UsageError) -> [String] {
        var result: [String] = []
        for index in words.indices where !consumed[index] {
            if index < endOfOptions, words[index].hasPrefix("-"), words[index] != "-" {
                let name = String(words[index].prefix { $0 != "=" })
                throw UsageError("unknown option \(name)\(suggestion(for: name))")
            }
            consumed[index] = true
            result.append(words[index])
        }
        return result
    }

    /// " (did you mean --x?)" for the closest option this command takes, or the list of them.
    private func suggestion(for name: String) -> String {
        var options: [String] = []
        for option in known where option.hasPrefix("--") && !options.contains(option) { options.append(option) }
        guard !options.isEmpty else { return "" }
        if let best = DocumentReader.closest(to: name, in: options) { return " (did you mean \(best)?)" }
        return "; this command takes \(options.sorted().joined(separator: ", "))"
    }
}
