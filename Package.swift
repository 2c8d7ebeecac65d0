// swift-tools-version:6.0
import PackageDescription

// The root package depends on no packages: only the Swift toolchain.
let package = Package(
  name: "Streams",
  products: [
    .library(name: "Streams", targets: ["Streams"]),
    .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
    .library(name: "Networking", targets: ["Networking"]),
  ],
  targets: [
    .target(name: "Streams"),
    .target(name: "StreamsTesting", dependencies: ["Streams"]),
    .target(name: "Networking", dependencies: ["Streams"], resources: [.copy("Resources")]),
    .target(name: "LoopbackHTTPServer", path: "Tests/Support/LoopbackHTTPServer"),
    .testTarget(name: "StreamsTests", dependencies: ["Streams", "StreamsTesting"]),
    .testTarget(name: "StreamsTestingTests", dependencies: ["Streams", "StreamsTesting"]),
    .testTarget(
      name: "NetworkingTests", dependencies: ["Networking", "Streams", "StreamsTesting", "LoopbackHTTPServer"]),
  ],
  swiftLanguageModes: [.v6]
)
