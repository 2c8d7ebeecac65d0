// bench-baseline: the floor. The closures of the chain, sequence and share fan-out scenarios called in a
// plain loop, with no library in between.
//
// The closures are stored in an object and called through it, as any stream library must store and call
// them (an indirect call each); that keeps the optimiser from inlining them into the loop, which no
// library could do either.
import BenchmarkKit

/// The closures of one pipeline, called through their stored references.
final class Stages {
    let first: (Int) -> Int
    let isIncluded: (Int) -> Bool
    let second: (Int) -> Int
    let sink: (Int) -> Void

    init(
        first: @escaping (Int) -> Int, isIncluded: @escaping (Int) -> Bool, second: @escaping (Int) -> Int,
        sink: @escaping (Int) -> Void
    ) {
        self.first = first
        self.isIncluded = isIncluded
        self.second = second
        self.sink = sink
    }
}

/// 1. The chain's closures: map, filter, map, sink.
@inline(never)
func runChain(_ stages: Stages, _ count: Int) {
    for value in 0..<count {
        let mapped = stages.first(value)
        if stages.isIncluded(mapped) { stages.sink(stages.second(mapped)) }
    }
}

/// 2. The sequence scenario's closures: map, filter, sink.
@inline(never)
func runSequence(_ stages: Stages, _ count: Int) {
    for value in 0..<count {
        let mapped = stages.first(value)
        if stages.isIncluded(mapped) { stages.sink(mapped) }
    }
}

/// 4. Every value to every subscriber's closure.
@inline(never)
func runFanOut(_ sinks: [(Int) -> Void], _ count: Int) {
    for value in 0..<count {
        for sink in sinks { sink(value) }
    }
}

let runner = BenchmarkRunner(library: "baseline")
runner.time(.chain) { count in
    var sum: UInt64 = 0
    runChain(
        Stages(
            first: Closures.triple, isIncluded: Closures.isEven, second: Closures.increment,
            sink: { sum &+= UInt64($0) }), count)
    return sum
}
runner.time(.sequence) { count in
    var sum: UInt64 = 0
    runSequence(
        Stages(
            first: Closures.triple, isIncluded: Closures.isEven, second: { $0 }, sink: { sum &+= UInt64($0) }), count)
    return sum
}
runner.time(.shareFanOut) { count in
    var sum: UInt64 = 0
    let sinks: [(Int) -> Void] = (0..<Scenario.fanOutSubscribers).map { _ in { sum &+= UInt64($0) } }
    runFanOut(sinks, count / Scenario.fanOutSubscribers)
    return sum
}
