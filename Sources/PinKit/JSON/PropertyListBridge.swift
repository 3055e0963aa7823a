import Foundation

/// Turns a property list into a ``JSONValue`` so that one reader serves both formats.
enum PropertyListBridge {
    static func looksLikePropertyList(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(64), as: UTF8.self).trimmingASCIIWhitespace()
        return data.starts(with: Array("bplist".utf8)) || head.hasPrefix("<?xml") || head.hasPrefix("<plist")
            || head.hasPrefix("<!DOCTYPE plist")
    }

    static func jsonValue(fromPropertyList data: Data) throws(PinKitError) -> JSONValue {
        if let duplicate = try PropertyListKeyCheck.duplicateKey(in: data) {
            throw PinKitError(
                .malformedPropertyList,
                "duplicate key \"\(duplicate)\" in one dictionary (keys equal only under Unicode equivalence count as duplicates); each key may appear once"
            )
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw PinKitError(.malformedPropertyList, "the property list could not be read: \(error)")
        }
        return try convert(object, path: "", depth: 0)
    }

    private static func convert(_ object: Any, path: String, depth: Int) throws(PinKitError) -> JSONValue {
        guard depth < JSONParser.maximumDepth else {
            throw PinKitError(.malformedPropertyList, "nesting deeper than \(JSONParser.maximumDepth) levels")
        }
        switch object {
        case let string as String: return .string(string)
        case let date as Date: return .string(RFC3339.format(date))
        case let array as [Any]:
            var elements: [JSONValue] = []
            for (index, element) in array.enumerated() {
                elements.append(try convert(element, path: "\(path)[\(index)]", depth: depth + 1))
            }
            return .array(elements)
        case let dictionary as [String: Any]:
            var members: [(key: String, value: JSONValue)] = []
            for key in dictionary.keys.sorted() {
                members.append(
                    (key, try convert(dictionary[key]!, path: DocumentReader.join(path, key), depth: depth + 1))
                )
            }
            return .object(members)
        case let number as NSNumber:
            // Booleans arrive as Swift `Bool` on Linux and as a "c"-typed NSNumber on Apple
            // platforms; an integer 1 must not be mistaken for `true`.
            if type(of: object) == Bool.self || String(cString: number.objCType) == "c" {
                return .bool(number.boolValue)
            }
            if let integer = Int64(exactly: number.doubleValue), !"\(number)".contains(".") { return .int(integer) }
            return .number("\(number.doubleValue)")
        case is Data:
            throw PinKitError(
                .malformedPropertyList,
                "\(path.isEmpty ? "the document" : path): <data> values are not part of the schema; write pins as strings"
            )
        default:
            throw PinKitError(.malformedPropertyList, "\(path): unsupported property-list value \(type(of: object))")
        }
    }
}
