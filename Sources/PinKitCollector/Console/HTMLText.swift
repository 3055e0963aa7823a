/// HTML escaping for the console: every string that came from the database (hostnames, app
/// versions, operator names, kill-switch reasons) passes through ``escaped(_:)`` before it is
/// written into a page, in element content, attribute values and SVG `<text>` alike.
public enum HTMLText {
    /// `&`, `<`, `>`, `"` and `'` as character references; control characters other than tab
    /// and newline as U+FFFD, so no byte of the input can open or close markup.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
