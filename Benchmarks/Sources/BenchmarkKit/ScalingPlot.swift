#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The scaling curves as an SVG image: four panels (depth, fan-out, live subscriptions in time and in memory),
/// each with one line per library, both axes logarithmic, so that a flat line means linear growth.
/// `bench-report --svg FILE` writes it.
public enum ScalingPlot {
    /// One panel: a title, what x is, and the scenarios that give its points.
    struct Panel {
        let title: String
        let xLabel: String
        let points: [(x: Int, scenario: Scenario)]
    }

    static let panels = [
        Panel(
            title: "Depth: ns per value", xLabel: "map stages",
            points: Scenario.depths.map { ($0.stages, $0.scenario) }),
        Panel(
            title: "Fan-out (share()): ns per delivery", xLabel: "subscribers",
            points: Scenario.fanOuts.map { ($0.subscribers, $0.scenario) }),
        Panel(
            title: "Live subscriptions: ns per subscription", xLabel: "live subscriptions",
            points: Scenario.lives.map { ($0.subscriptions, $0.scenario) }),
        Panel(
            title: "Live subscriptions: heap bytes per subscription", xLabel: "live subscriptions",
            points: Scenario.liveMemories.map { ($0.subscriptions, $0.scenario) }),
    ]

    /// The libraries drawn, with their colour and dash pattern.
    static let series: [(library: String, label: String, colour: String, dash: String)] = [
        ("streams", "Streams", "#1f77b4", ""),
        ("opencombine", "OpenCombine 0.14.0", "#ff7f0e", "6,4"),
    ]

    static let panelWidth = 330.0
    static let panelHeight = 240.0
    static let margin = (left: 52.0, right: 12.0, top: 28.0, bottom: 40.0)

    /// The image for `summary`'s medians; a panel with no figures says so.
    public static func svg(_ summary: Summary, caption: String) -> String {
        let width = panelWidth * 2
        let height = panelHeight * 2 + 44
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>

            """
        for (index, panel) in panels.enumerated() {
            let originX = Double(index % 2) * panelWidth
            let originY = Double(index / 2) * panelHeight
            out += draw(panel, summary: summary, x: originX, y: originY)
        }
        // Legend and caption under the panels.
        let legendY = panelHeight * 2 + 16
        var legendX = 12.0
        for entry in series {
            out += line(legendX, legendY, legendX + 24, legendY, colour: entry.colour, dash: entry.dash, width: 2)
            out += text(entry.label, x: legendX + 30, y: legendY + 4, anchor: "start")
            legendX += 180
        }
        out += text(escape(caption), x: 12, y: legendY + 22, anchor: "start", size: 10)
        out += "</svg>\n"
        return out
    }

    static func draw(_ panel: Panel, summary: Summary, x originX: Double, y originY: Double) -> String {
        let left = originX + margin.left
        let right = originX + panelWidth - margin.right
        let top = originY + margin.top
        let bottom = originY + panelHeight - margin.bottom
        var out = text(panel.title, x: (left + right) / 2, y: originY + 16, anchor: "middle", size: 12)
        out += text(panel.xLabel, x: (left + right) / 2, y: bottom + 32, anchor: "middle")
        out += line(left, bottom, right, bottom, colour: "#444", dash: "", width: 1)
        out += line(left, top, left, bottom, colour: "#444", dash: "", width: 1)

        let values = series.flatMap { entry in
            panel.points.compactMap { summary.figures[$0.scenario]?[entry.library]?.median }
        }.filter { $0 > 0 }
        guard let minY = values.min(), let maxY = values.max(), let minX = panel.points.map(\.x).min(),
            let maxX = panel.points.map(\.x).max(), maxX > minX
        else {
            return out + text("not measured in this run", x: (left + right) / 2, y: (top + bottom) / 2, anchor: "middle")
        }
        // Whole decades around the figures, so the ticks are powers of ten.
        let lowY = floor10(minY)
        let highY = max(ceil10(maxY), lowY * 10)
        func px(_ value: Double) -> Double {
            left + (log10(value) - log10(Double(minX))) / (log10(Double(maxX)) - log10(Double(minX))) * (right - left)
        }
        func py(_ value: Double) -> Double {
            bottom - (log10(value) - log10(lowY)) / (log10(highY) - log10(lowY)) * (bottom - top)
        }
        var tick = lowY
        while tick <= highY * 1.0001 {
            out += line(left - 4, py(tick), right, py(tick), colour: "#ddd", dash: "", width: 1)
            out += text(label(tick), x: left - 6, y: py(tick) + 4, anchor: "end")
            tick *= 10
        }
        for point in panel.points {
            out += text(label(Double(point.x)), x: px(Double(point.x)), y: bottom + 14, anchor: "middle")
        }
        for entry in series {
            let points = panel.points.compactMap { point -> (Double, Double)? in
                guard let median = summary.figures[point.scenario]?[entry.library]?.median, median > 0 else {
                    return nil
                }
                return (px(Double(point.x)), py(median))
            }
            guard !points.isEmpty else { continue }
            let path = points.map { "\(round($0.0)),\(round($0.1))" }.joined(separator: " ")
            let dash = entry.dash.isEmpty ? "" : " stroke-dasharray=\"\(entry.dash)\""
            out += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(entry.colour)\" stroke-width=\"2\"\(dash)/>\n"
            for (x, y) in points {
                out += "<circle cx=\"\(round(x))\" cy=\"\(round(y))\" r=\"3\" fill=\"\(entry.colour)\"/>\n"
            }
        }
        return out
    }

    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, colour: String, dash: String, width: Int)
        -> String
    {
        let dashed = dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\""
        return "<line x1=\"\(round(x1))\" y1=\"\(round(y1))\" x2=\"\(round(x2))\" y2=\"\(round(y2))\" "
            + "stroke=\"\(colour)\" stroke-width=\"\(width)\"\(dashed)/>\n"
    }

    static func text(_ content: String, x: Double, y: Double, anchor: String, size: Int = 11) -> String {
        "<text x=\"\(round(x))\" y=\"\(round(y))\" text-anchor=\"\(anchor)\" font-size=\"\(size)\">\(content)</text>\n"
    }

    static func escape(_ string: String) -> String {
        string.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }

    /// 1, 10, 100, 1k, 10k, 100k, 1M (or the number itself when it is not a power of ten).
    static func label(_ value: Double) -> String {
        let rounded = Int(value.rounded())
        if rounded >= 1_000_000, rounded % 1_000_000 == 0 { return "\(rounded / 1_000_000)M" }
        if rounded >= 1_000, rounded % 1_000 == 0 { return "\(rounded / 1_000)k" }
        if value < 1 { return String(value) }
        return String(rounded)
    }

    static func round(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    static func log10(_ value: Double) -> Double {
        #if canImport(Glibc)
            Glibc.log10(value)
        #else
            Darwin.log10(value)
        #endif
    }

    /// The power of ten at or below `value`.
    static func floor10(_ value: Double) -> Double {
        var power = 1.0
        while power > value { power /= 10 }
        while power * 10 <= value { power *= 10 }
        return power
    }

    /// The power of ten at or above `value`.
    static func ceil10(_ value: Double) -> Double {
        let low = floor10(value)
        return low == value ? low : low * 10
    }
}

extension String {
    /// `self` with every `target` replaced (Foundation-free).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
