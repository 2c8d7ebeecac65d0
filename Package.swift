// swift-tools-version:6.0
import PackageDescription

// The root package depends on no packages: only the Swift toolchain.

/// Small runnable examples, one topic each (`swift run <name>`); CI builds and runs every one.
let playgrounds = [
  "demand", "subjects-and-share", "debounce-vs-throttle", "retry-backoff", "switch-to-latest", "async-interop",
  "marbles",
]
/// Playgrounds that also use the app layers.
let featurePlaygrounds = ["product-search", "fetch-counter"]
let package = Package(
  name: "Streams",
  products: [
    .library(name: "Streams", targets: ["Streams"]),
    .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
    .library(name: "StreamsFoundation", targets: ["StreamsFoundation"]),
    .library(name: "Networking", targets: ["Networking"]),
    .library(name: "Features", targets: ["Features"]),
    .library(name: "REPL", targets: ["REPL"]),
    .executable(name: "streams-repl", targets: ["streams-repl"]),
  ],
  targets: [
    .target(name: "Streams"),
    .target(name: "StreamsTesting", dependencies: ["Streams"]),
    .target(name: "StreamsFoundation", dependencies: ["Streams"]),
    .target(name: "Networking", dependencies: ["Streams"], resources: [.copy("Resources")]),
    .target(name: "Features", dependencies: ["Streams", "Networking"]),
    .target(name: "REPL", dependencies: ["Streams", "Networking", "Features"]),
    .executableTarget(name: "streams-repl", dependencies: ["REPL", "Features", "Streams"]),
    .target(name: "LoopbackHTTPServer", path: "Tests/Support/LoopbackHTTPServer"),
    .target(
      name: "FeatureServer", dependencies: ["LoopbackHTTPServer", "Features", "Networking"],
      path: "Tests/Support/FeatureServer"),
    .testTarget(name: "StreamsTests", dependencies: ["Streams", "StreamsTesting"]),
    .testTarget(name: "StreamsTestingTests", dependencies: ["Streams", "StreamsTesting"]),
    .testTarget(
      name: "CombineVocabularyTests",
      dependencies: ["Streams", "StreamsFoundation", "StreamsTesting", "LoopbackHTTPServer"]),
    .testTarget(
      name: "CombineVocabularySwift5Tests",
      dependencies: ["Streams", "StreamsFoundation", "StreamsTesting", "LoopbackHTTPServer"],
      swiftSettings: [.swiftLanguageMode(.v5)]),
    .testTarget(
      name: "StreamsFoundationTests", dependencies: ["StreamsFoundation", "Streams", "StreamsTesting", "LoopbackHTTPServer"]),
    .testTarget(
      name: "NetworkingTests", dependencies: ["Networking", "Streams", "StreamsTesting", "LoopbackHTTPServer"]),
    .testTarget(
      name: "FeaturesTests",
      dependencies: [
        "Features", "Networking", "Streams", "StreamsTesting", "LoopbackHTTPServer", "FeatureServer",
      ]),
    .testTarget(
      name: "REPLTests",
      dependencies: [
        "REPL", "Features", "Networking", "Streams", "StreamsTesting", "LoopbackHTTPServer", "FeatureServer",
        "streams-repl",
      ]),
  ]
    + playgrounds.map { name in
      .executableTarget(name: name, dependencies: ["Streams", "StreamsTesting"], path: "Playgrounds/\(name)")
    }
    + featurePlaygrounds.map { name in
      .executableTarget(
        name: name, dependencies: ["Streams", "StreamsTesting", "Networking", "Features"],
        path: "Playgrounds/\(name)")
    },
  swiftLanguageModes: [.v6]
)
