import Streams

extension Session {
    /// How long one column of the `:trace` timeline lasts.
    static let traceFrame: Duration = .milliseconds(100)

    /// `:trace on|off`: starts a new timeline of the search pipeline (`keys` typed, the text `debounced`, each
    /// `request` and its outcome), or stops recording. While on, the timeline is shown under the live results
    /// as the person types, and after printed results (piped, or after Enter), then started anew.
    func setTracing(_ on: Bool) {
        searchTrace.isRecording = false
        searchTrace.removeAll()
        searchTrace.isRecording = on
        emit([
            .output(
                on
                    ? "tracing the search: its timeline follows the results (one column = 100 ms; :trace off to stop)"
                    : "trace off")
        ])
    }

    /// The timeline as lines (`trace:`, one marble row per tap, the legend), or none when tracing is off or
    /// nothing was recorded yet.
    func traceLines() -> [String] {
        guard searchTrace.isRecording, !searchTrace.events.isEmpty else { return [] }
        let chart = searchTrace.marbleChart(frame: Self.traceFrame)
        var lines = ["trace:"]
        for line in chart.split(separator: "\n").map(String.init) {
            guard line.hasPrefix("where ") else {
                lines.append("  " + line)
                continue
            }
            // The legend, one value per line so a narrow terminal cuts none: `where a = "f", b = "fo"`.
            let entries = line.dropFirst("where ".count).split(separator: /, (?=[a-zA-Z] = )/)
            lines += entries.map { "  " + $0 }
        }
        return lines
    }

    /// Prints the timeline (after printed results) and starts a new one.
    func emitTraceAndStartAnew() {
        let lines = traceLines()
        searchTrace.removeAll()
        emit(lines.map { .output($0) })
    }
}
