import Foundation
import PinKitCollector

/// A usage error: exit code 2 with the message.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// The words after the subcommand, consumed option by option; anything left is an error.
struct Options {
    private var words: [String]

    init(_ words: [String]) { self.words = words }

    mutating func flag(_ name: String) -> Bool {
        guard let index = words.firstIndex(of: name) else { return false }
        words.remove(at: index)
        return true
    }

    mutating func values(_ name: String) throws(UsageError) -> [String] {
        var found: [String] = []
        while let index = words.firstIndex(where: { $0 == name || $0.hasPrefix(name + "=") }) {
            if words[index] == name {
                guard index + 1 < words.count, !words[index + 1].hasPrefix("--") else {
                    throw UsageError("\(name) needs a value")
                }
                found.append(words[index + 1])
                words.removeSubrange(index...(index + 1))
            } else {
                found.append(String(words[index].dropFirst(name.count + 1)))
                words.remove(at: index)
            }
        }
        return found
    }

    mutating func value(_ name: String) throws(UsageError) -> String? {
        let all = try values(name)
        guard all.count <= 1 else { throw UsageError("\(name) given more than once") }
        return all.first
    }

    func finish() throws(UsageError) {
        if let first = words.first { throw UsageError("unexpected argument '\(first)'") }
    }
}

/// `--data DIR [--database URL]`, shared by every subcommand that opens the storage.
struct StorageOptions {
    var dataDirectory: String
    var databaseURL: String?

    init(_ options: inout Options) throws(UsageError) {
        guard let data = try options.value("--data") else { throw UsageError("--data DIR is required") }
        dataDirectory = data
        databaseURL = try options.value("--database")
    }

    func open() throws(CollectorError) -> SQLCollectorStorage {
        let storage = try SQLCollectorStorage.open(dataDirectory: dataDirectory, databaseURL: databaseURL)
        try storage.migrate()
        return storage
    }
}

func standardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

func standardOutput(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
