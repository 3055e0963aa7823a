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

    static func xmlDuplicate(_ bytes: [UInt8]) -> String? {
        var steps = 0
        return xmlDuplicate(bytes, steps: &steps)
    }

    /// The scan itself; `steps` counts the bytes looked at, so tests can check it stays linear.
    ///
    /// The input is unvalidated (Foundation reads it afterwards), so no scan may start over:
    /// a tag ends at the first `>` and cannot contain `<` (XML forbids it, even in attribute
    /// values), so a failed tag costs only the bytes up to the next `<`; a key's text runs to its
    /// `</key` *outside* CDATA sections and comments, as an XML reader sees it. Before, 40 KB of
    /// `<a` took over a minute, and `<key><![CDATA[</key><dict>]]></key>` made the scan see a
    /// dictionary there and miss a duplicate `HLPinnedHosts` after it.
    static func xmlDuplicate(_ bytes: [UInt8], steps: inout Int) -> String? {
        let lt = UInt8(ascii: "<")
        let gt = UInt8(ascii: ">")
        let slash = UInt8(ascii: "/")
        let comment = Array("<!--".utf8)
        let commentEnd = Array("-->".utf8)
        let cdata = Array("<![CDATA[".utf8)
        let cdataEnd = Array("]]>".utf8)
        let closeKey = Array("</key".utf8)
        var stack: [Set<String>] = []
        var index = 0
        func starts(_ pattern: [UInt8], at position: Int) -> Bool {
            guard position + pattern.count <= bytes.count else { return false }
            for offset in pattern.indices where bytes[position + offset] != pattern[offset] { return false }
            return true
        }
        /// The index of `pattern` at or after `position`.
        func find(_ pattern: [UInt8], from position: Int) -> Int? {
            var cursor = position
            while cursor + pattern.count <= bytes.count {
                steps += 1
                if bytes[cursor] == pattern[0], starts(pattern, at: cursor) { return cursor }
                cursor += 1
            }
            return nil
        }
        /// An element tag at `position`: `<name …>`, `</name …>` or `<name …/>`, with the index
        /// after it; nil when no `>` comes before the next `<`.
        func element(at position: Int) -> (name: String, closing: Bool, selfClosing: Bool, end: Int)? {
            var cursor = position + 1
            let closing = cursor < bytes.count && bytes[cursor] == slash
            if closing { cursor += 1 }
            let nameStart = cursor
            while cursor < bytes.count, bytes[cursor] != gt, bytes[cursor] != slash, bytes[cursor] != lt,
                !(bytes[cursor] == 0x20 || bytes[cursor] == 0x09 || bytes[cursor] == 0x0A || bytes[cursor] == 0x0D)
            {
                steps += 1
                cursor += 1
            }
            guard cursor > nameStart else { return nil }
            let name = String(decoding: bytes[nameStart..<cursor], as: UTF8.self)
            while cursor < bytes.count, bytes[cursor] != gt {
                steps += 1
                if bytes[cursor] == lt { return nil }
                cursor += 1
            }
            guard cursor < bytes.count else { return nil }
            return (name, closing, bytes[cursor - 1] == slash, cursor + 1)
        }
        /// A key's text from `start` to its `</key>`: character data with entities decoded, CDATA
        /// sections literally, comments dropped. Nil when the key never closes.
        func keyText(from start: Int) -> (text: String, end: Int)? {
            var text = ""
            var run: [UInt8] = []
            var cursor = start
            while cursor < bytes.count {
                steps += 1
                guard bytes[cursor] == lt else {
                    run.append(bytes[cursor])
                    cursor += 1
                    continue
                }
                if starts(cdata, at: cursor) {
                    text += decodeEntities(String(decoding: run, as: UTF8.self))
                    run.removeAll()
                    let body = cursor + cdata.count
                    let close = find(cdataEnd, from: body) ?? bytes.count
                    text += String(decoding: bytes[body..<close], as: UTF8.self)
                    cursor = close + cdataEnd.count
                } else if starts(comment, at: cursor) {
                    cursor = (find(commentEnd, from: cursor + comment.count) ?? bytes.count) + commentEnd.count
                } else if starts(closeKey, at: cursor), let close = element(at: cursor) {
                    return (text + decodeEntities(String(decoding: run, as: UTF8.self)), close.end)
                } else {
                    return nil
                }
            }
            return nil
        }
        while index < bytes.count {
            steps += 1
            guard bytes[index] == lt else {
                index += 1
                continue
            }
            if starts(comment, at: index) {
                index = (find(commentEnd, from: index + comment.count) ?? bytes.count) + commentEnd.count
            } else if starts(cdata, at: index) {
                index = (find(cdataEnd, from: index + cdata.count) ?? bytes.count) + cdataEnd.count
            } else if index + 1 < bytes.count,
                bytes[index + 1] == UInt8(ascii: "?") || bytes[index + 1] == UInt8(ascii: "!")
            {
                index = (find([gt], from: index + 2) ?? bytes.count) + 1
            } else if let tag = element(at: index) {
                switch (tag.name, tag.closing, tag.selfClosing) {
                case ("dict", false, false): stack.append([])
                case ("dict", true, _): if !stack.isEmpty { stack.removeLast() }
                case ("key", false, true):
                    if !stack.isEmpty, !stack[stack.count - 1].insert("").inserted { return "" }
                case ("key", false, false):
                    // Foundation refuses a key that never closes; nothing more to compare.
                    guard let key = keyText(from: tag.end) else { return nil }
                    if !stack.isEmpty, !stack[stack.count - 1].insert(key.text).inserted { return key.text }
                    index = key.end
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
