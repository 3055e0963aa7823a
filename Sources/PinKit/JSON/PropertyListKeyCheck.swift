import Foundation

/// Finds duplicated dictionary keys in a property list before Foundation reads it.
///
/// `PropertyListSerialization` silently resolves a duplicated key (the XML reader keeps the last
/// value, the binary reader the first), so two tools can read one file differently. Keys are
/// compared by their UTF-8 bytes; two keys that differ in bytes but are equal to Swift `String`
/// (U+212A KELVIN SIGN and "K") are refused too, because a Swift dictionary would merge them.
enum PropertyListKeyCheck {
    /// The first duplicated key, or nil when every dictionary's keys are distinct.
    /// - Throws: ``PinKitError/Code/malformedPropertyList`` when a binary list's structure is broken.
    static func duplicateKey(in data: Data) throws(PinKitError) -> String? {
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("bplist".utf8)) { return try binaryDuplicate(bytes) }
        return xmlDuplicate(bytes)
    }

    static func firstDuplicate(_ keys: [String]) -> String? {
        // `String` hashing and `==` are canonical equivalence, so this also catches keys that
        // are equal only under it.
        var seen = Set<String>()
        for key in keys where !seen.insert(key).inserted { return key }
        return nil
    }

    // MARK: - XML

    private static func xmlDuplicate(_ bytes: [UInt8]) -> String? {
        var stack: [Set<String>] = []
        var index = 0
        func starts(_ text: String, at position: Int) -> Bool {
            let pattern = Array(text.utf8)
            return position + pattern.count <= bytes.count
                && Array(bytes[position..<position + pattern.count]) == pattern
        }
        func find(_ text: String, from position: Int) -> Int? {
            let pattern = Array(text.utf8)
            guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
            var cursor = position
            while cursor + pattern.count <= bytes.count {
                if bytes[cursor] == pattern[0], Array(bytes[cursor..<cursor + pattern.count]) == pattern {
                    return cursor
                }
                cursor += 1
            }
            return nil
        }
        /// An element tag at `position`: `<name …>`, `</name …>` or `<name …/>`, with the index after it.
        func element(at position: Int) -> (name: String, closing: Bool, selfClosing: Bool, end: Int)? {
            var cursor = position + 1
            let closing = cursor < bytes.count && bytes[cursor] == UInt8(ascii: "/")
            if closing { cursor += 1 }
            let nameStart = cursor
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: ">"), bytes[cursor] != UInt8(ascii: "/"),
                !(bytes[cursor] == 0x20 || bytes[cursor] == 0x09 || bytes[cursor] == 0x0A || bytes[cursor] == 0x0D)
            {
                cursor += 1
            }
            guard cursor > nameStart, let close = find(">", from: cursor) else { return nil }
            let name = String(decoding: bytes[nameStart..<cursor], as: UTF8.self)
            return (name, closing, bytes[close - 1] == UInt8(ascii: "/"), close + 1)
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if starts("<!--", at: index) {
                index = (find("-->", from: index + 4) ?? bytes.count) + 3
            } else if starts("<![CDATA[", at: index) {
                index = (find("]]>", from: index + 9) ?? bytes.count) + 3
            } else if starts("<?", at: index) || starts("<!", at: index) {
                index = (find(">", from: index + 2) ?? bytes.count) + 1
            } else if let tag = element(at: index) {
                switch (tag.name, tag.closing, tag.selfClosing) {
                case ("dict", false, false): stack.append([])
                case ("dict", true, _): if !stack.isEmpty { stack.removeLast() }
                case ("key", false, true):
                    if !stack.isEmpty, !stack[stack.count - 1].insert("").inserted { return "" }
                case ("key", false, false):
                    // The key's text runs to </key>: character data, entities and CDATA sections.
                    guard let end = find("</key", from: tag.end), let close = element(at: end) else { return nil }
                    let key = keyText(String(decoding: bytes[tag.end..<end], as: UTF8.self))
                    if !stack.isEmpty, !stack[stack.count - 1].insert(key).inserted { return key }
                    index = close.end
                    continue
                default: break
                }
                index = tag.end
            } else {
                index += 1
            }
        }
        return nil
    }

    /// A key element's text: CDATA sections literally, entities decoded elsewhere.
    private static func keyText(_ raw: String) -> String {
        var result = ""
        var rest = Substring(raw)
        while let open = rest.range(of: "<![CDATA[") {
            result += decodeEntities(String(rest[..<open.lowerBound]))
            let after = rest[open.upperBound...]
            guard let close = after.range(of: "]]>") else { return result + after }
            result += after[..<close.lowerBound]
            rest = after[close.upperBound...]
        }
        return result + decodeEntities(String(rest))
    }

    private static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else {
                result += rest[amp...]
                return result
            }
            let name = rest[rest.index(after: amp)..<semicolon]
            switch name {
            case "lt": result += "<"
            case "gt": result += ">"
            case "amp": result += "&"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let scalar: UInt32? =
                    name.hasPrefix("#x")
                    ? UInt32(name.dropFirst(2), radix: 16)
                    : name.hasPrefix("#") ? UInt32(name.dropFirst(), radix: 10) : nil
                if let scalar, let value = Unicode.Scalar(scalar) {
                    result.unicodeScalars.append(value)
                } else {
                    result += rest[amp...semicolon]
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    // MARK: - Binary (bplist00)

    private static func binaryDuplicate(_ bytes: [UInt8]) throws(PinKitError) -> String? {
        func broken(_ detail: String) -> PinKitError {
            PinKitError(.malformedPropertyList, "the binary property list is malformed: \(detail)")
        }
        guard bytes.count >= 8 + 32 else { throw broken("too short") }
        let trailer = Array(bytes[(bytes.count - 32)...])
        let offsetSize = Int(trailer[6])
        let referenceSize = Int(trailer[7])
        func integer(_ slice: ArraySlice<UInt8>) -> Int? {
            guard slice.count <= 8 else { return nil }
            var value: UInt64 = 0
            for byte in slice { value = value << 8 | UInt64(byte) }
            return value > UInt64(Int.max) ? nil : Int(value)
        }
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let objectCount = integer(trailer[8..<16]), let top = integer(trailer[16..<24]),
            let tableOffset = integer(trailer[24..<32]), objectCount <= bytes.count, top < objectCount,
            tableOffset <= bytes.count - 32, objectCount * offsetSize <= bytes.count - 32 - tableOffset
        else { throw broken("the trailer is inconsistent") }
        var offsets: [Int] = []
        for object in 0..<objectCount {
            let start = tableOffset + object * offsetSize
            guard let offset = integer(bytes[start..<start + offsetSize]), offset < tableOffset else {
                throw broken("object \(object) lies outside the object area")
            }
            offsets.append(offset)
        }
        /// The element count of the object at `position` and where its contents start.
        func count(at position: Int) throws(PinKitError) -> (count: Int, start: Int) {
            let low = Int(bytes[position] & 0x0F)
            guard low == 0x0F else { return (low, position + 1) }
            guard position + 1 < tableOffset, bytes[position + 1] >> 4 == 0x1 else { throw broken("bad count") }
            let size = 1 << Int(bytes[position + 1] & 0x0F)
            guard size <= 8, position + 2 + size <= tableOffset,
                let value = integer(bytes[position + 2..<position + 2 + size])
            else { throw broken("bad count") }
            return (value, position + 2 + size)
        }
        func references(_ start: Int, _ count: Int) throws(PinKitError) -> [Int] {
            guard count <= tableOffset, start + count * referenceSize <= tableOffset else {
                throw broken("references run past the object area")
            }
            var result: [Int] = []
            for index in 0..<count {
                let at = start + index * referenceSize
                guard let reference = integer(bytes[at..<at + referenceSize]), reference < objectCount else {
                    throw broken("a reference names no object")
                }
                result.append(reference)
            }
            return result
        }
        func string(_ object: Int) throws(PinKitError) -> String? {
            let position = offsets[object]
            switch bytes[position] >> 4 {
            case 0x5:
                let (length, start) = try count(at: position)
                guard start <= tableOffset, length <= tableOffset - start else {
                    throw broken("a string runs past the object area")
                }
                return String(decoding: bytes[start..<start + length], as: UTF8.self)
            case 0x6:
                let (length, start) = try count(at: position)
                guard start <= tableOffset, length <= (tableOffset - start) / 2 else {
                    throw broken("a string runs past the object area")
                }
                var units: [UInt16] = []
                for index in 0..<length {
                    units.append(UInt16(bytes[start + 2 * index]) << 8 | UInt16(bytes[start + 2 * index + 1]))
                }
                return String(decoding: units, as: UTF16.self)
            default: return nil
            }
        }
        var visited = Set<Int>()
        var pending = [top]
        while let object = pending.popLast() {
            guard visited.insert(object).inserted else { continue }
            let position = offsets[object]
            switch bytes[position] >> 4 {
            case 0xD:
                let (entries, start) = try count(at: position)
                let keys = try references(start, entries)
                let values = try references(start + entries * referenceSize, entries)
                var names: [String] = []
                for key in keys {
                    guard let name = try string(key) else { throw broken("a dictionary key is not a string") }
                    names.append(name)
                }
                if let duplicate = firstDuplicate(names) { return duplicate }
                pending += values
            case 0xA, 0xC:
                let (elements, start) = try count(at: position)
                pending += try references(start, elements)
            default: break
            }
        }
        return nil
    }
}
