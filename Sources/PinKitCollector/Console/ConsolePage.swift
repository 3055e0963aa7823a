public import Foundation
import PinKit

/// The operator console as one server-rendered HTML page: kill switch, pin failures, installed
/// base and audit anomalies, with inline SVG bar charts. No script, nothing loaded from
/// elsewhere; every stored string goes through `escape`.
public struct ConsolePage: Sendable {
    /// The header every console response carries: only inline styles and data: images; forms
    /// post only to the collector itself.
    public static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; "
        + "form-action 'self'; base-uri 'none'"

    private let escape: @Sendable (String) -> String

    /// - Parameter escape: ``HTMLText/escaped(_:)``; tests swap it to show the attack it stops.
    public init(escape: @escaping @Sendable (String) -> String = HTMLText.escaped) {
        self.escape = escape
    }

    public func render(_ data: ConsoleData) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>PinKit collector console</title>
            <style>\(Self.style)</style></head><body>
            <header><h1>PinKit collector console</h1>
            <p>Generated \(time(data.now)).</p>
            <nav aria-label="Sections"><ul>
            <li><a href="#kill-switch">Kill switch</a></li><li><a href="#pin-failures">Pin failures</a></li>
            <li><a href="#installed-base">Installed base</a></li><li><a href="#anomalies">Audit anomalies</a></li>
            <li><a href="/rotation-check">Rotation check</a></li><li><a href="/deadlines">Deadlines</a></li>
            </ul></nav></header><main>

            """
        html += killSwitch(data)
        html += failures(data)
        html += installedBase(data)
        html += anomalies(data)
        html += "</main></body></html>\n"
        return html
    }

    // MARK: Sections

    private func killSwitch(_ data: ConsoleData) -> String {
        var html = "<section id=\"kill-switch\" aria-labelledby=\"kill-switch-title\">"
        html += "<h2 id=\"kill-switch-title\">Kill switch</h2>"
        if let current = data.currentKillSwitch {
            let expired = current.expiresAt <= data.now
            html += "<p class=\"state\">Current: serial \(current.serial), pinning <strong>"
            html += escape(current.pinning) + "</strong>, published by " + escape(current.operatorName)
            html += " at \(time(current.publishedAt)); "
            html += expired ? "<strong>expired</strong> at " : "expires at "
            html += time(current.expiresAt) + (expired ? " (devices enforce pins again)" : "") + ".</p>"
        } else {
            html += "<p class=\"state\">No kill-switch document is published: devices enforce their pins.</p>"
        }
        html += "<table><caption>Publications, newest first</caption><thead><tr>"
        html += Self.columnHeaders(["Serial", "Published", "Operator", "Pinning", "Expires", "Reason"])
        html += "</tr></thead><tbody>"
        for publication in data.publications.sorted(by: { $0.serial > $1.serial }) {
            html += "<tr><th scope=\"row\">\(publication.serial)</th>"
            html += cells([
                time(publication.publishedAt), escape(publication.operatorName), escape(publication.pinning),
                time(publication.expiresAt), escape(publication.reason),
            ])
            html += "</tr>"
        }
        if data.publications.isEmpty { html += "<tr><td colspan=\"6\">No publication yet.</td></tr>" }
        return html + "</tbody></table></section>\n"
    }

    private func failures(_ data: ConsoleData) -> String {
        var html = "<section id=\"pin-failures\" aria-labelledby=\"pin-failures-title\">"
        html += "<h2 id=\"pin-failures-title\">Pin failures since \(time(data.failuresSince))</h2>"
        let groups = data.failures.sorted { ($0.occurrences, $0.hostname) > ($1.occurrences, $1.hostname) }
        html += chart(
            id: "pin-failures-chart",
            title: "Pin-failure occurrences per day (received, UTC) by host, pin set and app version",
            bars: data.failuresPerDay.map {
                (
                    String(RFC3339.format($0.day).prefix(10)) + " · \($0.hostname) · \($0.pinSet) · \($0.appVersion)",
                    $0.occurrences
                )
            })
        html += "<table><caption>Pin-failure groups and the keys the servers presented</caption><thead><tr>"
        html += Self.columnHeaders([
            "Host", "Pin set", "App version", "Occurrences", "Reports", "Installations", "First seen", "Last seen",
            "Likely cause", "Served keys (SPKI SHA-256)",
        ])
        html += "</tr></thead><tbody>"
        for group in groups {
            html += "<tr><th scope=\"row\">" + escape(group.hostname) + "</th>"
            html += cells([
                escape(group.pinSet), escape(group.appVersion), "\(group.occurrences)", "\(group.reports)",
                "\(group.installations)", time(group.firstSeen), time(group.lastSeen),
                group.installations > 1 ? "server-side change" : "local interception",
                "<ul class=\"keys\">" + group.servedKeys.map { "<li><code>" + escape($0) + "</code></li>" }.joined()
                    + "</ul>",
            ])
            html += "</tr>"
        }
        if groups.isEmpty { html += "<tr><td colspan=\"10\">No pin failure reported.</td></tr>" }
        return html + "</tbody></table></section>\n"
    }

    private func installedBase(_ data: ConsoleData) -> String {
        let days = Int(data.installedBaseWindow / 86_400)
        var html = "<section id=\"installed-base\" aria-labelledby=\"installed-base-title\">"
        html += "<h2 id=\"installed-base-title\">Installed base (seen in the last \(days) days)</h2>"
        html += chart(
            id: "installed-base-chart", title: "Installations by app version",
            bars: data.installedBase.map { ($0.version, $0.installations) })
        html += "<table><caption>Installations by app version</caption><thead><tr>"
        html += Self.columnHeaders(["App version", "Installations", "Share", "Pin-set fingerprints"])
        html += "</tr></thead><tbody>"
        for version in data.installedBase {
            html += "<tr><th scope=\"row\">" + escape(version.version) + "</th>"
            html += cells([
                "\(version.installations)", String(format: "%.1f %%", version.share * 100),
                version.pinSetFingerprints.map { "<code>" + escape($0) + "</code>" }.joined(separator: "<br>"),
            ])
            html += "</tr>"
        }
        if data.installedBase.isEmpty { html += "<tr><td colspan=\"4\">No installation checked in.</td></tr>" }
        return html + "</tbody></table></section>\n"
    }

    private func anomalies(_ data: ConsoleData) -> String {
        var html = "<section id=\"anomalies\" aria-labelledby=\"anomalies-title\">"
        html += "<h2 id=\"anomalies-title\">Audit anomalies (broken chains per installation)</h2>"
        html += "<table><caption>Audit-log uploads whose hash chain did not continue</caption><thead><tr>"
        html += Self.columnHeaders([
            "Installation", "Sequence", "Kind", "App version", "Detected", "Expected hash", "Seen hash",
        ])
        html += "</tr></thead><tbody>"
        let sorted = data.anomalies.sorted { ($0.installationID, $0.seq) < ($1.installationID, $1.seq) }
        for anomaly in sorted {
            html += "<tr><th scope=\"row\">" + escape(anomaly.installationID) + "</th>"
            html += cells([
                "\(anomaly.seq)", escape(anomaly.kind.rawValue), escape(anomaly.appVersion), time(anomaly.detectedAt),
                "<code>" + escape(anomaly.expectedHash) + "</code>", "<code>" + escape(anomaly.seenHash) + "</code>",
            ])
            html += "</tr>"
        }
        if sorted.isEmpty { html += "<tr><td colspan=\"7\">No broken chain.</td></tr>" }
        return html + "</tbody></table></section>\n"
    }

    // MARK: Pieces

    /// A horizontal bar chart as inline SVG; labels are SVG `<text>`, escaped like any content.
    private func chart(id: String, title: String, bars: [(label: String, value: Int64)]) -> String {
        guard !bars.isEmpty else { return "" }
        let shown = bars.prefix(20)
        let maximum = max(shown.map(\.value).max() ?? 1, 1)
        let rowHeight = 26
        let labelWidth = 470
        let barWidth = 400
        let height = shown.count * rowHeight + 8
        var svg = "<figure><svg id=\"\(id)\" role=\"img\" aria-labelledby=\"\(id)-title\" width=\"960\" "
        svg += "height=\"\(height)\" viewBox=\"0 0 960 \(height)\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += "<title id=\"\(id)-title\">" + escape(title) + "</title>"
        for (index, bar) in shown.enumerated() {
            let y = index * rowHeight + 4
            let width = max(Int(Double(bar.value) / Double(maximum) * Double(barWidth)), 1)
            svg +=
                "<text x=\"\(labelWidth - 8)\" y=\"\(y + 17)\" text-anchor=\"end\">" + escape(Self.shortened(bar.label))
                + "</text>"
            svg += "<rect x=\"\(labelWidth)\" y=\"\(y)\" width=\"\(width)\" height=\"20\" fill=\"#1f4e8c\"></rect>"
            svg += "<text x=\"\(labelWidth + width + 6)\" y=\"\(y + 17)\">\(bar.value)</text>"
        }
        svg += "</svg><figcaption>" + escape(title)
        if bars.count > shown.count { svg += " (the \(shown.count) largest of \(bars.count))" }
        return svg + "</figcaption></figure>"
    }

    /// A chart label short enough for the label column (the table below has the full text);
    /// cut before escaping, so no character reference is split.
    static func shortened(_ label: String, to limit: Int = 56) -> String {
        label.count <= limit ? label : String(label.prefix(limit - 1)) + "…"
    }

    /// A table's column headers (`th scope="col"`); the names are the page's own, not escaped.
    static func columnHeaders(_ names: [String]) -> String {
        names.map { "<th scope=\"col\">\($0)</th>" }.joined()
    }

    /// Cells whose content is already escaped or generated.
    private func cells(_ values: [String]) -> String {
        values.map { "<td>\($0)</td>" }.joined()
    }

    private func time(_ date: Date) -> String {
        let text = RFC3339.format(date)
        return "<time datetime=\"\(text)\">\(text)</time>"
    }

    /// Dark text on white (contrast above 12:1), blue bars with black labels.
    static let style = """
        body{font-family:system-ui,sans-serif;color:#111;background:#fff;margin:1.5rem;line-height:1.4}
        h1{font-size:1.6rem}h2{font-size:1.25rem;margin-top:2rem;border-bottom:2px solid #1f4e8c}
        nav ul{list-style:none;padding:0;display:flex;gap:1.5rem}a{color:#0b3d91}
        table{border-collapse:collapse;margin:0.5rem 0;font-size:0.9rem}
        caption{text-align:left;font-weight:600;padding:0.3rem 0}
        th,td{border:1px solid #666;padding:0.25rem 0.5rem;text-align:left;vertical-align:top}
        thead th{background:#e8eef7}code{font-size:0.8rem;word-break:break-all}ul.keys{min-width:22rem}
        ul.keys{margin:0;padding-left:1rem}svg text{font-size:13px;fill:#111}
        .state{font-size:1.05rem}figure{margin:0.5rem 0}
        """
}
