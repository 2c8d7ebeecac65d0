// conformance [--upstream] [--show-tagged] [--all] [N [SEED]]
//     run N random pipelines from SEED on Streams and on OpenCombine, compare, shrink and classify mismatches
// conformance [--upstream] --case SEED INDEX
//     replay case INDEX of SEED: the pipeline, both logs, and the shrunk pipeline if they disagree
//
// --upstream     also log and compare what each pipeline does to its source (subscriptions, demand, cancel)
// --show-tagged  also print one shrunk example of every known difference that occurred
// --all          print every untagged mismatch (default: the first 30)
import ConformanceModel

#if canImport(Glibc)
    import Glibc
#endif

let flags: Set = ["--upstream", "--show-tagged", "--all"]
let check = Check(upstream: CommandLine.arguments.contains("--upstream"))
let showTagged = CommandLine.arguments.contains("--show-tagged")
let printLimit = CommandLine.arguments.contains("--all") ? Int.max : 30
let arguments = CommandLine.arguments.dropFirst().filter { !flags.contains($0) }

/// Prints the pipeline and both logs.
@MainActor func show(_ pipeline: Pipeline) {
    print("  pipeline:    \(pipeline)")
    print("  Streams:     \(check.streams(pipeline).joined(separator: "; "))")
    if pipeline.hasReference {
        print("  OpenCombine: \(check.reference(pipeline).joined(separator: "; "))")
    } else {
        print("  OpenCombine: (no counterpart: checked against the contract alone)")
    }
}

/// The smallest pipeline found from `pipeline` that still disagrees the same way.
@MainActor func shrink(_ pipeline: Pipeline, _ verdict: Check.Verdict) -> Pipeline {
    Shrinker.shrink(pipeline) { check.verdict($0) == verdict }
}

if arguments.first == "--case" {
    guard arguments.count == 3, let seed = UInt64(arguments[1]), let index = Int(arguments[2]) else {
        print("usage: conformance [--upstream] --case SEED INDEX")
        exit(2)
    }
    var generator = PipelineGenerator(seed: seed, index: index)
    let pipeline = generator.pipeline()
    show(pipeline)
    let verdict = check.verdict(pipeline)
    if verdict != .agree {
        print("shrunk (\(verdict)):")
        let minimal = shrink(pipeline, verdict)
        show(minimal)
        print("known difference: \(check.knownDifference(minimal, verdict)?.tag ?? "none (untagged)")")
    }
    exit(0)
}
guard arguments.count <= 2, let count = Int(arguments.first ?? "1000"), count > 0,
    let seed = UInt64(arguments.count > 1 ? arguments[1] : "1")
else {
    print("usage: conformance [--upstream] [--show-tagged] [N [SEED]] | conformance [--upstream] --case SEED INDEX")
    exit(2)
}

/// An untagged mismatch, shrunk.
struct Mismatch {
    let index: Int
    let pipeline: Pipeline
    let verdict: Check.Verdict
}

var agreed = 0
var streamsOnly = 0
var tagged: [String: Int] = [:]
var taggedExamples: [String: (index: Int, pipeline: Pipeline)] = [:]
var untagged: [Mismatch] = []
for index in 0..<count {
    var generator = PipelineGenerator(seed: seed, index: index)
    let pipeline = generator.pipeline()
    if !pipeline.hasReference { streamsOnly += 1 }
    let verdict = check.verdict(pipeline)
    if verdict == .agree {
        agreed += 1
        continue
    }
    let minimal = shrink(pipeline, verdict)
    if let known = check.knownDifference(minimal, verdict) {
        tagged[known.tag, default: 0] += 1
        if taggedExamples[known.tag] == nil { taggedExamples[known.tag] = (index, minimal) }
    } else {
        untagged.append(Mismatch(index: index, pipeline: minimal, verdict: verdict))
    }
}

let replay = "conformance\(check.upstream ? " --upstream" : "") --case \(seed)"
for mismatch in untagged.prefix(printLimit) {
    let place =
        switch mismatch.verdict {
        case .upstreamOnly: " (the source's side only)"
        case .handshakeOrder: " (the order of subscribing upstream and handing the subscription down only)"
        default: ""
        }
    print("MISMATCH\(place) seed \(seed) case \(mismatch.index) (replay: \(replay) \(mismatch.index)), shrunk to:")
    show(mismatch.pipeline)
}
if untagged.count > printLimit { print("… and \(untagged.count - printLimit) more untagged mismatches (--all prints them)") }
if showTagged {
    for known in KnownDifference.all + KnownDifference.upstream {
        guard let example = taggedExamples[known.tag] else { continue }
        print("TAGGED \(known.tag): seed \(seed) case \(example.index) (replay: \(replay) \(example.index)), shrunk to:")
        show(example.pipeline)
    }
}
print("")
print("seed \(seed)\(check.upstream ? ", upstream events compared too" : "")")
print("\(agreed) of \(count) agree")
print("  of which checked on Streams alone (Timer, ReplaySubject, relays, zip, merge, combineLatest, share(replay:), back-off retry, collect(.byTime…), withLatestFrom, amb, materialize, retry(when:), multicast into a ReplaySubject): \(streamsOnly)")
for known in KnownDifference.all + KnownDifference.upstream where tagged[known.tag] != nil {
    print("  tagged \(known.tag): \(tagged[known.tag] ?? 0) — \(known.reason)")
}
let upstreamOnly = untagged.filter { $0.verdict == .upstreamOnly }.count
let handshakeOnly = untagged.filter { $0.verdict == .handshakeOrder }.count
let sides = " (\(upstreamOnly) on the source's side only, \(handshakeOnly) in the handshake order only)"
print("  untagged mismatches: \(untagged.count)\(check.upstream ? sides : "")")
exit(untagged.isEmpty ? 0 : 1)
