/// The few DER pieces ``SubjectPublicKeyInfo`` needs: definite lengths in minimal form, and a
/// reader that refuses anything a second encoder could spell differently.
enum DER {
    enum Tag {
        static let integer: [UInt8] = [0x02]
        static let bitString: [UInt8] = [0x03]
        static let oid: [UInt8] = [0x06]
        static let sequence: [UInt8] = [0x30]
    }

    static let null: [UInt8] = [0x05, 0x00]

    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    static func element(_ tag: [UInt8], _ content: [UInt8]) -> [UInt8] { tag + length(content.count) + content }

    static func sequence(_ content: [UInt8]) -> [UInt8] { element(Tag.sequence, content) }

    /// Reads tag-length-value elements in order from a slice.
    struct Reader {
        private(set) var bytes: ArraySlice<UInt8>

        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

        /// The next element, which must carry `tag`; a reader over its content.
        mutating func read(_ tag: UInt8, _ what: String) throws(PinKitError) -> Reader {
            guard let found = bytes.first else { throw SubjectPublicKeyInfo.error("\(what) is missing") }
            guard found == tag else {
                throw SubjectPublicKeyInfo.error("\(what): expected tag 0x\(hex(tag)), saw 0x\(hex(found))")
            }
            var index = bytes.startIndex + 1
            guard index < bytes.endIndex else { throw SubjectPublicKeyInfo.error("\(what) has no length") }
            let first = bytes[index]
            index += 1
            var count = 0
            if first < 0x80 {
                count = Int(first)
            } else {
                let octets = Int(first & 0x7F)
                // 0x80 is BER's indefinite length; four octets already mean 4 GiB.
                guard octets >= 1, octets <= 4 else {
                    throw SubjectPublicKeyInfo.error("\(what) has an indefinite or oversized length")
                }
                guard bytes.endIndex - index >= octets else { throw SubjectPublicKeyInfo.error("\(what) is truncated") }
                for _ in 0..<octets {
                    count = count << 8 | Int(bytes[index])
                    index += 1
                }
                guard count >= 0x80, count >> (8 * (octets - 1)) != 0 else {
                    throw SubjectPublicKeyInfo.error("\(what) has a length not in minimal form")
                }
            }
            guard bytes.endIndex - index >= count else {
                throw SubjectPublicKeyInfo.error("\(what) is truncated: \(count) bytes announced")
            }
            let content = bytes[index..<index + count]
            bytes = bytes[(index + count)...]
            return Reader(content)
        }

        func expectEnd(_ what: String) throws(PinKitError) {
            guard bytes.isEmpty else { throw SubjectPublicKeyInfo.error("\(bytes.count) trailing bytes \(what)") }
        }

        private func hex(_ byte: UInt8) -> String {
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
        }
    }
}
