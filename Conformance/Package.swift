// swift-tools-version:6.0
import PackageDescription

// The randomized differential check lives in its own package so that the root package stays dependency-free.
// Run it with `Conformance/run.sh N SEED` (release build): N random pipelines, run on Streams and on
// OpenCombine on virtual time, their event logs compared; see Conformance/README.md.
let package = Package(
    name: "StreamsConformance",
    dependencies: [
        .package(name: "Streams", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        // Pipelines as plain values: the generator, the printer, the shrinker, the known differences.
        .target(name: "ConformanceModel"),
        // The interpreter, written once (Interpreter.swift) and compiled against each library: the
        // OpenCombine target's copy is a symlink to the Streams target's file.
        .target(
            name: "ConformanceStreams",
            dependencies: [
                "ConformanceModel",
                .product(name: "Streams", package: "Streams"),
                .product(name: "StreamsTesting", package: "Streams"),
            ],
            swiftSettings: [.define("CONFORMANCE_STREAMS")]
        ),
        .target(
            name: "ConformanceOpenCombine",
            dependencies: ["ConformanceModel", .product(name: "OpenCombine", package: "OpenCombine")],
            swiftSettings: [.define("CONFORMANCE_OPENCOMBINE")]
        ),
        .executableTarget(
            name: "conformance", dependencies: ["ConformanceModel", "ConformanceStreams", "ConformanceOpenCombine"]),
    ],
    swiftLanguageModes: [.v6]
)
