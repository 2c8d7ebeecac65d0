// bench-report: reads the RESULT lines of several benchmark runs on stdin and prints a Markdown table:
// median and min–max per library, Streams/OpenCombine and Streams/baseline ratios against the targets
// of issue 8. Exits 1 if the checksums of a scenario differ (the libraries did not do the same work)
// or if nothing was read.
import BenchmarkKit

#if canImport(Glibc)
    import Glibc
#endif

func format(_ value: Double) -> String {
    if value >= 100 { return String(Int(value.rounded())) }
    let tenths = (value * 10).rounded() / 10
    return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
}

func cell(_ figures: Summary.Figures?) -> String {
    guard let figures else { return "n/a" }
    return "\(format(figures.median)) (\(format(figures.minimum))–\(format(figures.maximum)))"
}

func ratioCell(_ ratio: Double?, target: Double?) -> String {
    guard let ratio else { return "" }
    let shown = ratio < 10 ? String((ratio * 100).rounded() / 100) : format(ratio)
    guard let target else { return shown }
    return "\(shown) \(ratio <= target ? "✅" : "❌") ≤ \(String(target))"
}

// `--svg FILE`: also write the scaling curves (ScalingPlot) to FILE.
let arguments = Array(CommandLine.arguments.dropFirst())
let svgPath: String? = arguments.firstIndex(of: "--svg").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }

var results: [ResultLine] = []
while let line = readLine() {
    if let result = ResultLine(Substring(line)) { results.append(result) }
}
guard !results.isEmpty else {
    print("bench-report: no RESULT lines on stdin")
    exit(1)
}

do {
    let summary = try Summary(results)
    let runs = summary.figures.values.flatMap { $0.values.map(\.runs) }.max() ?? 0
    print(
        "| Scenario | Unit | Streams median (min–max) | OpenCombine median (min–max) | Baseline | "
            + "Streams ÷ OpenCombine (target) | Streams ÷ baseline (target) |")
    print("| --- | --- | ---: | ---: | ---: | --- | --- |")
    for scenario in Scenario.allCases {
        guard let row = summary.figures[scenario] else { continue }
        let columns = [
            scenario.rawValue, "\(scenario.unit) \(scenario.operation)", cell(row["streams"]),
            cell(row["opencombine"]), row["baseline"].map { format($0.median) } ?? "",
            ratioCell(
                summary.ratio(scenario, "streams", over: "opencombine"),
                target: Target.streamsOverOpenCombine(scenario)),
            ratioCell(
                summary.ratio(scenario, "streams", over: "baseline"), target: Target.streamsOverBaseline(scenario)),
        ]
        print("| " + columns.joined(separator: " | ") + " |")
    }
    print("")
    let perStage = ["streams", "opencombine", "baseline"].compactMap { library in
        summary.nanosecondsPerStage(library).map { "\(library) \(format($0)) ns" }
    }
    if !perStage.isEmpty {
        print("Per map stage ((depth-20 − depth-1) ÷ 19, medians): \(perStage.joined(separator: ", ")).")
    }
    print("\(runs) runs per library, alternating; medians of the runs. n/a: OpenCombine 0.14.0 has no such operator.")
    if let svgPath {
        let image = ScalingPlot.svg(summary, caption: "Medians of \(runs) release runs per library; both axes logarithmic, so flat means linear.")
        guard let file = fopen(svgPath, "w") else {
            print("bench-report: cannot write \(svgPath): \(String(cString: strerror(errno)))")
            exit(1)
        }
        fputs(image, file)
        fclose(file)
        print("Scaling curves written to \(svgPath).")
    }
} catch {
    print("bench-report: \(error)")
    exit(1)
}
