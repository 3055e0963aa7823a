/// Text that came from a file, a certificate or the network, made safe to print on a terminal.
///
/// A kill-switch `reason`, a `keyId`, an audit entry's fields or a certificate subject are
/// attacker-chosen. Printed raw, `\r` and ANSI escape sequences can overwrite what the operator
/// sees (a rejected document *displayed* as "ACCEPTED"). Every such string goes through
/// `TerminalText.escaped(_:)` before it reaches the human output; JSON output is escaped by the
/// JSON writer instead.
enum TerminalText {
    /// The string with every C0 control character, DEL, C1 control character and the Unicode
    /// line/paragraph separators and bidirectional overrides shown as escapes (`\r`, `\n`, `\t`,
    /// `\x1b`, `\u{202E}`), and backslashes doubled so an escape cannot be forged.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: result += "\\\\"
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x00..<0x20, 0x7F:
                result += "\\x" + hex(scalar.value, width: 2)
            case 0x80..<0xA0, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                result += "\\u{" + hex(scalar.value, width: 4) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
