public import Foundation

/// Writes RFC 5545 calendars: one VEVENT per key deadline, one VALARM per reminder.
public enum ICalendar {
    /// - Parameters:
    ///   - leads: reminder lead times, e.g. 90, 30 and 14 days.
    ///   - stamp: the DTSTAMP of every event (the time the calendar was made).
    public static func deadlines(_ deadlines: KeyDeadlines, leads: [TimeInterval], stamp: Date) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//PinKit//pinctl deadlines//EN", "CALSCALE:GREGORIAN"]
        for key in deadlines.keys {
            guard let deadline = key.deadline, let certificate = key.decidingCertificate else { continue }
            let name = key.label ?? key.pin.base64
            lines += [
                "BEGIN:VEVENT",
                "UID:\(PortableSHA256.hex(Array("\(key.pinSet)|\(key.pin.base64)".utf8)).prefix(32))@pinkit",
                "DTSTAMP:\(dateTime(stamp))",
                "DTSTART:\(dateTime(deadline))",
                "DTEND:\(dateTime(deadline.addingTimeInterval(3600)))",
                "SUMMARY:\(text("Pinned key expires: \(name) (\(key.pinSet))"))",
                "DESCRIPTION:\(text("The last certificate carrying pin \(key.pin.base64) (\(certificate.subject)) expires. Ship a release pinning its successor and rotate before this date; see docs/ROTATION.md."))",
            ]
            for lead in leads {
                lines += [
                    "BEGIN:VALARM", "ACTION:DISPLAY",
                    "DESCRIPTION:\(text("\(Int(lead / 86_400)) days until pinned key \(name) expires"))",
                    "TRIGGER;RELATED=START:-P\(max(0, Int(lead / 86_400)))D", "END:VALARM",
                ]
            }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// `yyyymmddThhmmssZ`.
    static func dateTime(_ date: Date) -> String {
        RFC3339.format(date).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
    }

    /// TEXT value escaping (RFC 5545 section 3.3.11). Every character some reader takes for a
    /// line break (CR alone, LF, CRLF, VT, FF, NEL, U+2028, U+2029) becomes `\n`, so no value
    /// can start a property line of its own; other control characters, which TEXT excludes,
    /// become U+FFFD.
    static func text(_ value: String) -> String {
        var output = ""
        var afterCR = false
        for scalar in value.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar {
            case "\\": output += "\\\\"
            case ";": output += "\\;"
            case ",": output += "\\,"
            case "\n" where afterCR: continue  // CRLF: one break, already written
            case "\r", "\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}": output += "\\n"
            case "\t": output.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    output += "\u{FFFD}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }

    /// Folds a content line at 75 octets without splitting a UTF-8 sequence (section 3.1).
    /// Code points, not grapheme clusters: one cluster (a letter with hundreds of combining
    /// marks) may be any length, and folding between its code points is what the RFC allows.
    static func fold(_ line: String) -> String {
        var result = String.UnicodeScalarView()
        var current = 0
        for scalar in line.unicodeScalars {
            let size = UTF8.width(scalar)
            if current + size > 75 {
                result.append(contentsOf: "\r\n ".unicodeScalars)
                current = 1
            }
            result.append(scalar)
            current += size
        }
        return String(result)
    }
}
