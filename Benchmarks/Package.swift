// swift-tools-version:6.0
import PackageDescription

// The benchmarks live in their own package so that the root package stays dependency-free.
// Run them with `Benchmarks/run.sh` (release build, every library alternately, a table of medians).

// The root package is the parent directory, unless STREAMS_PACKAGE_PATH names another checkout of it:
// `Benchmarks/compare.sh` builds the same scenarios against two commits (git worktrees) that way.
let streamsPath = Context.environment["STREAMS_PACKAGE_PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? ".."

let package = Package(
    name: "StreamsBenchmarks",
    dependencies: [
        .package(name: "Streams", path: streamsPath),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        // Scenario names and sizes, the clock, the memory probes and the output format: shared by every
        // executable so that they run identical scenarios and print identical lines.
        .target(name: "BenchmarkKit", dependencies: ["CMallocInfo"]),
        .target(name: "CMallocInfo"),
        .executableTarget(
            name: "bench-streams",
            dependencies: [
                "BenchmarkKit",
                .product(name: "Streams", package: "Streams"),
                .product(name: "StreamsTesting", package: "Streams"),
            ],
            swiftSettings: [.define("BENCH_STREAMS")]
        ),
        .executableTarget(
            name: "bench-opencombine",
            dependencies: ["BenchmarkKit", .product(name: "OpenCombine", package: "OpenCombine")],
            swiftSettings: [.define("BENCH_OPENCOMBINE")]
        ),
        .executableTarget(name: "bench-baseline", dependencies: ["BenchmarkKit"]),
        .executableTarget(name: "bench-report", dependencies: ["BenchmarkKit"]),
    ],
    swiftLanguageModes: [.v6]
)
