// swift-tools-version:6.0
import PackageDescription

// The root package depends on no packages: only the Swift toolchain.
let package = Package(
  name: "Streams",
  products: [
    .library(name: "Streams", targets: ["Streams"]),
    .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
  ],
  targets: [
    .target(name: "Streams"),
    .target(name: "StreamsTesting", dependencies: ["Streams"]),
    .testTarget(name: "StreamsTests", dependencies: ["Streams", "StreamsTesting"]),
    .testTarget(name: "StreamsTestingTests", dependencies: ["Streams", "StreamsTesting"]),
  ],
  swiftLanguageModes: [.v6]
)
