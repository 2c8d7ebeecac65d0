// conformance N SEED        run N random pipelines from SEED on Streams and on OpenCombine, compare
// conformance --case SEED I replay case I of SEED, printing the pipeline and both logs
import ConformanceModel
import ConformanceOpenCombine
import ConformanceStreams

#if canImport(Glibc)
    import Glibc
#endif

/// The reference's log, or a single line saying that OpenCombine crashed on this pipeline.
func reference(_ pipeline: Pipeline) -> [String] {
    isolated { OpenCombineRunner.run(pipeline) } ?? [openCombineCrashed]
}

/// Whether `pipeline` fails the check: the two libraries disagree on it, or, for a pipeline OpenCombine cannot
/// run, Streams breaks the contract.
func disagree(_ pipeline: Pipeline) -> Bool {
    let streams = StreamsRunner.run(pipeline)
    guard pipeline.hasReference else { return streams.contains { $0.contains(" ! ") } }
    return streams != reference(pipeline)
}

func show(_ pipeline: Pipeline) {
    print("  pipeline:    \(pipeline)")
    print("  Streams:     \(StreamsRunner.run(pipeline).joined(separator: "; "))")
    if pipeline.hasReference {
        print("  OpenCombine: \(reference(pipeline).joined(separator: "; "))")
    } else {
        print("  OpenCombine: (no counterpart: checked against the contract alone)")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--case", arguments.count == 3, let seed = UInt64(arguments[1]), let index = Int(arguments[2]) {
    var generator = PipelineGenerator(seed: seed, index: index)
    let pipeline = generator.pipeline()
    show(pipeline)
    if disagree(pipeline) {
        print("shrunk:")
        show(Shrinker.shrink(pipeline, fails: disagree))
    }
    exit(0)
}
guard arguments.count <= 2, let count = Int(arguments.first ?? "1000"), count > 0,
    let seed = UInt64(arguments.count > 1 ? arguments[1] : "1")
else {
    print("usage: conformance [N [SEED]] | conformance --case SEED INDEX")
    exit(2)
}

var agreed = 0
var streamsOnly = 0
var tagged: [String: Int] = [:]
var untagged: [(index: Int, pipeline: Pipeline)] = []
for index in 0..<count {
    var generator = PipelineGenerator(seed: seed, index: index)
    let pipeline = generator.pipeline()
    if !pipeline.hasReference { streamsOnly += 1 }
    if !disagree(pipeline) {
        agreed += 1
        continue
    }
    let minimal = Shrinker.shrink(pipeline, fails: disagree)
    if minimal.hasReference, let known = KnownDifference.explaining(
        minimal, streams: StreamsRunner.run(minimal), openCombine: reference(minimal))
    {
        tagged[known.tag, default: 0] += 1
    } else {
        untagged.append((index, minimal))
    }
}

for (index, pipeline) in untagged.prefix(30) {
    print("MISMATCH seed \(seed) case \(index) (replay: conformance --case \(seed) \(index)), shrunk to:")
    show(pipeline)
}
if untagged.count > 30 { print("… and \(untagged.count - 30) more untagged mismatches") }
print("")
print("seed \(seed): \(agreed) of \(count) agree")
print("  of which checked on Streams alone (zip, merge, combineLatest, share(replay:), back-off retry): \(streamsOnly)")
for known in KnownDifference.all where tagged[known.tag] != nil {
    print("  tagged \(known.tag): \(tagged[known.tag] ?? 0) — \(known.reason)")
}
print("  untagged mismatches: \(untagged.count)")
exit(untagged.isEmpty ? 0 : 1)
