package import Foundation

/// Reads a ``JSONValue`` against a schema, collecting *every* structural problem with its path
/// instead of stopping at the first: unknown keys, missing keys, wrong types, bad dates.
///
/// Unknown keys are always problems: a misspelt key must never silently disable a protection.
package struct DocumentReader {
    package private(set) var problems: [ConfigurationProblem] = []

    package init() {}

    package mutating func report(_ code: ConfigurationProblem.Code, at path: String, _ message: String) {
        problems.append(ConfigurationProblem(code, path: path, message))
    }

    /// The object's members when `value` is an object with only `allowed` keys and every `required` one.
    package mutating func object(
        _ value: JSONValue,
        at path: String,
        allowed: [String],
        required: [String] = []
    ) -> [String: JSONValue]? {
        guard case .object(let members) = value else {
            report(.wrongType, at: path, "expected an object, saw \(value.typeName)")
            return nil
        }
        var result: [String: JSONValue] = [:]
        for member in members {
            // By UTF-8 bytes, as every other JSON tool compares keys: to Swift `String ==`,
            // "HLPinnedSP\u{212A}IHashes" (KELVIN SIGN) equals "HLPinnedSPKIHashes".
            if allowed.utf8Contains(member.key) {
                result[member.key] = member.value
            } else {
                let suggestion = Self.closest(to: member.key, in: allowed).map { " (did you mean \"\($0)\"?)" } ?? ""
                report(
                    .unknownKey,
                    at: Self.join(path, member.key),
                    "unknown key \"\(member.key)\"\(suggestion); expected one of \(allowed.joined(separator: ", "))"
                )
            }
        }
        for key in required where result[key] == nil {
            report(.missingKey, at: Self.join(path, key), "required key \"\(key)\" is missing")
        }
        return result
    }

    package mutating func string(_ value: JSONValue?, at path: String) -> String? {
        guard let value else { return nil }
        guard case .string(let string) = value else {
            report(.wrongType, at: path, "expected a string, saw \(value.typeName)")
            return nil
        }
        return string
    }

    package mutating func bool(_ value: JSONValue?, at path: String) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let bool) = value else {
            report(.wrongType, at: path, "expected true or false, saw \(value.typeName)")
            return nil
        }
        return bool
    }

    /// A whole number (no fraction, no exponent) within `Int64`.
    package mutating func integer(_ value: JSONValue?, at path: String) -> Int64? {
        guard let value else { return nil }
        guard case .number(let text) = value, let number = Int64(text) else {
            report(.wrongType, at: path, "expected a whole number, saw \(value.typeName)")
            return nil
        }
        return number
    }

    package mutating func array(_ value: JSONValue?, at path: String) -> [JSONValue]? {
        guard let value else { return nil }
        guard case .array(let elements) = value else {
            report(.wrongType, at: path, "expected an array, saw \(value.typeName)")
            return nil
        }
        return elements
    }

    package mutating func strings(_ value: JSONValue?, at path: String) -> [String]? {
        guard let elements = array(value, at: path) else { return nil }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            if let string = string(element, at: "\(path)[\(index)]") { result.append(string) }
        }
        return result
    }

    /// A date as TrustKit and Android write a pin set's expiry: `2027-06-01` (midnight UTC that
    /// day) or a full RFC 3339 time.
    package mutating func dayOrDate(_ value: JSONValue?, at path: String) -> Date? {
        guard let text = string(value, at: path) else { return nil }
        guard let date = RFC3339.parse(text) ?? RFC3339.parseDay(text) else {
            report(
                .invalidValue, at: path,
                "expected a date such as 2028-06-01 or an RFC 3339 time such as 2028-06-01T00:00:00Z, saw \"\(text)\"")
            return nil
        }
        return date
    }

    package mutating func date(_ value: JSONValue?, at path: String) -> Date? {
        guard let text = string(value, at: path) else { return nil }
        guard let date = RFC3339.parse(text) else {
            report(.invalidValue, at: path, "expected an RFC 3339 date such as 2028-06-01T00:00:00Z, saw \"\(text)\"")
            return nil
        }
        return date
    }

    package mutating func enumeration<E: RawRepresentable & CaseIterable>(
        _ value: JSONValue?,
        at path: String,
        as type: E.Type
    ) -> E? where E.RawValue == String {
        guard let text = string(value, at: path) else { return nil }
        guard let result = E.allCases.first(where: { $0.rawValue.utf8.elementsEqual(text.utf8) }) else {
            let choices = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            report(.invalidValue, at: path, "expected \(choices), saw \"\(text)\"")
            return nil
        }
        return result
    }

    package static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// A known key within edit distance 2 of a misspelling, for "did you mean" hints.
    package static func closest(to key: String, in candidates: [String]) -> String? {
        let lowered = key.lowercased()
        return candidates.map { ($0, editDistance(Array(lowered.utf8), Array($0.lowercased().utf8))) }
            .filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        if abs(a.count - b.count) > 2 || a.count > 64 { return 3 }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
