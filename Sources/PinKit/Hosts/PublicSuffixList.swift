import Foundation

/// The Public Suffix List (https://publicsuffix.org), as Debian's `publicsuffix` package ships it.
///
/// The guard uses it to refuse pinning a registry suffix such as `com`, `co.uk` or `github.io`:
/// with `includeSubdomains` that would pin every site below it.
public struct PublicSuffixList: Sendable {
    /// Where Debian's `publicsuffix` package installs the list.
    public static let debianPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    private var rules: Set<String> = []
    private var wildcardParents: Set<String> = []
    private var exceptions: Set<String> = []

    /// The number of rules read.
    public var ruleCount: Int { rules.count + wildcardParents.count + exceptions.count }

    /// Parses the list's text format: one rule a line, `//` comments, `*.` wildcards, `!` exceptions.
    /// Unicode rules are also stored in their `xn--` form, since pinned hosts must be ASCII.
    public init(text: String) {
        for line in text.split(whereSeparator: \.isNewline) {
            guard let token = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first,
                !token.hasPrefix("//")
            else { continue }
            let rule = String(token).lowercased()
            for form in Set([rule, Punycode.toASCII(rule) ?? rule]) {
                if form.hasPrefix("!") {
                    exceptions.insert(String(form.dropFirst()))
                } else if form.hasPrefix("*.") {
                    wildcardParents.insert(String(form.dropFirst(2)))
                } else {
                    rules.insert(form)
                }
            }
        }
    }

    /// Reads the list from `path`.
    /// - Throws: ``PinKitError/Code/io`` when the file cannot be read or holds no rules.
    public init(contentsOf path: String) throws(PinKitError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PinKitError(.io, "cannot read the public suffix list at \(path)")
        }
        self.init(text: String(decoding: data, as: UTF8.self))
        guard ruleCount > 0 else { throw PinKitError(.io, "the public suffix list at \(path) holds no rules") }
    }

    /// Debian's list when installed, otherwise nil (the guard then warns that the check was reduced).
    public static let system: PublicSuffixList? = try? PublicSuffixList(contentsOf: debianPath)

    /// True when `name` (normalised) is itself a public suffix, under which unrelated parties
    /// register names. A single label is always one (the list's implicit `*` rule).
    public func isPublicSuffix(_ name: String) -> Bool {
        if exceptions.contains(name) { return false }
        if rules.contains(name) { return true }
        guard let dot = name.firstIndex(of: ".") else { return true }
        return wildcardParents.contains(String(name[name.index(after: dot)...]))
    }
}

/// RFC 3492 punycode, encoding only: turns the list's Unicode rules into the `xn--` form.
enum Punycode {
    static func toASCII(_ name: String) -> String? {
        var labels: [String] = []
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            if label.unicodeScalars.allSatisfy(\.isASCII) {
                labels.append(String(label))
            } else {
                guard let encoded = encode(Array(label.unicodeScalars)) else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }

    private static func encode(_ input: [Unicode.Scalar]) -> String? {
        let base = 36
        let tMin = 1
        let tMax = 26
        func digit(_ value: Int) -> Character {
            Character(Unicode.Scalar(UInt8(value < 26 ? value + 97 : value - 26 + 48)))
        }
        func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
            var delta = first ? delta / 700 : delta / 2
            delta += delta / count
            var k = 0
            while delta > ((base - tMin) * tMax) / 2 {
                delta /= base - tMin
                k += base
            }
            return k + (base - tMin + 1) * delta / (delta + 38)
        }
        var output = String(String.UnicodeScalarView(input.filter(\.isASCII)))
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = 128
        var delta = 0
        var bias = 72
        while handled < input.count {
            guard let m = input.map({ Int($0.value) }).filter({ $0 >= n }).min() else { return nil }
            delta += (m - n) * (handled + 1)
            n = m
            for scalar in input {
                let value = Int(scalar.value)
                if value < n { delta += 1 }
                if value == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return output
    }
}
