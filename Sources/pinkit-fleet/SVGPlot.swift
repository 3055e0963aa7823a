import Foundation

/// A two-panel line chart of one run, as a standalone SVG (no script, no external resource):
/// request rates by endpoint on top, queue depth and kill-switch coverage below.
enum SVGPlot {
    struct Line {
        var label: String
        var color: String
        var values: [Double]
    }

    static func render(
        title: String, binSeconds: Double, top: [Line], topUnit: String, bottom: [Line], bottomUnit: String,
        shaded: Range<Double>?, markers: [(Double, String)]
    ) -> String {
        let width = 960.0
        let panel = 260.0
        let left = 70.0
        let right = 20.0
        let plotWidth = width - left - right
        let count = max(1, (top.first?.values.count ?? 1) - 1)
        let duration = Double(count) * binSeconds
        func x(_ index: Int) -> Double { left + plotWidth * Double(index) / Double(count) }
        func xTime(_ seconds: Double) -> Double { left + plotWidth * min(1, max(0, seconds / max(1, duration))) }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(2 * panel + 110))" \
            viewBox="0 0 \(Int(width)) \(Int(2 * panel + 110))" font-family="sans-serif" font-size="12" role="img">
            <title>\(escape(title))</title>
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="\(left)" y="22" font-size="15" font-weight="bold" fill="#111">\(escape(title))</text>

            """
        for (panelIndex, (lines, unit)) in [(top, topUnit), (bottom, bottomUnit)].enumerated() {
            let y0 = 40 + Double(panelIndex) * (panel + 30)
            let maximum = max(1, lines.flatMap(\.values).max() ?? 1) * 1.1
            func y(_ value: Double) -> Double { y0 + panel - panel * value / maximum }
            if let shaded {
                svg += """
                    <rect x="\(fmt(xTime(shaded.lowerBound)))" y="\(fmt(y0))" \
                    width="\(fmt(xTime(shaded.upperBound) - xTime(shaded.lowerBound)))" height="\(fmt(panel))" \
                    fill="#f3d6d6"/>

                    """
            }
            for (time, label) in markers {
                svg += """
                    <line x1="\(fmt(xTime(time)))" y1="\(fmt(y0))" x2="\(fmt(xTime(time)))" y2="\(fmt(y0 + panel))" \
                    stroke="#555" stroke-dasharray="4 3"/>
                    <text x="\(fmt(xTime(time) + 4))" y="\(fmt(y0 + 12))" fill="#333">\(escape(label))</text>

                    """
            }
            svg += """
                <rect x="\(left)" y="\(fmt(y0))" width="\(fmt(plotWidth))" height="\(fmt(panel))" fill="none" stroke="#333"/>

                """
            for step in 0...4 {
                let value = maximum * Double(step) / 4
                svg += """
                    <text x="\(fmt(left - 6))" y="\(fmt(y(value) + 4))" text-anchor="end" fill="#333">\(compact(value))</text>

                    """
            }
            svg += """
                <text x="14" y="\(fmt(y0 + panel / 2))" transform="rotate(-90 14 \(fmt(y0 + panel / 2)))" \
                text-anchor="middle" fill="#333">\(escape(unit))</text>

                """
            for (lineIndex, line) in lines.enumerated() {
                let points = line.values.enumerated().map { "\(fmt(x($0.offset))),\(fmt(y($0.element)))" }
                svg += """
                    <polyline fill="none" stroke="\(line.color)" stroke-width="1.6" points="\(points.joined(separator: " "))"/>
                    <rect x="\(fmt(left + 10 + Double(lineIndex) * 175))" y="\(fmt(y0 + 8))" width="12" height="4" \
                    fill="\(line.color)"/>
                    <text x="\(fmt(left + 26 + Double(lineIndex) * 175))" y="\(fmt(y0 + 14))" fill="#111">\(escape(line.label))</text>

                    """
            }
        }
        let axisY = 40 + 2 * panel + 30 + 16
        let hours = Int(duration / 3600)
        for hour in stride(from: 0, through: hours, by: max(1, hours / 12)) {
            svg += """
                <text x="\(fmt(xTime(Double(hour) * 3600)))" y="\(fmt(axisY))" text-anchor="middle" fill="#333">\(hour) h</text>

                """
        }
        svg += "</svg>\n"
        return svg
    }

    private static func fmt(_ value: Double) -> String { String(format: "%.1f", value) }

    private static func compact(_ value: Double) -> String {
        value >= 10_000 ? String(format: "%.0fk", value / 1000) : String(format: value >= 10 ? "%.0f" : "%.1f", value)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
