// The scenarios of issue 8, written once against the Combine-shaped API that Streams and OpenCombine
// share. bench-opencombine compiles this very file (a symlink; run.sh checks it); only the
// import below differs, chosen by the target's define.
import BenchmarkKit

#if BENCH_STREAMS
    import Streams
    import StreamsTesting

    /// The virtual-time scheduler the debounce scenario runs on.
    typealias VirtualScheduler = TestScheduler
#elseif BENCH_OPENCOMBINE
    import OpenCombine
#endif

/// Runs every selected scenario, printing one result line each. Memory first, on a fresh heap.
func runScenarios(_ runner: BenchmarkRunner) async {
    measureMemoryPerSubscription(runner)
    measureMemoryWithStoredClosures(runner)
    runner.time(.chain, chain)
    runner.time(.sequence, sequence)
    runner.time(.subscribeCancel, subscribeCancel)
    runner.time(.shareFanOut, shareFanOut)
    runner.time(.debounce, debounce)
    runner.time(.flatMap, flatMap)
    #if BENCH_STREAMS  // OpenCombine 0.14.0 has neither merge nor combineLatest
        runner.time(.merge, merge)
        runner.time(.combineLatest, combineLatest)
    #endif
    await runner.time(.values, values)
}

/// 7. subject → map → filter → sink, `count` live subscriptions on one subject; the closures are literals
/// (the same as `Closures.increment` and `Closures.isPositive`).
func measureMemoryPerSubscription(_ runner: BenchmarkRunner) {
    let subject = PassthroughSubject<Int, Never>()
    var kept: [AnyCancellable] = []
    kept.reserveCapacity(Scenario.memoryHeap.count)
    runner.measureMemory { count in
        var received: UInt64 = 0
        for _ in 0..<count {
            subject.map { $0 &+ 1 }.filter { $0 > 0 }.sink { received &+= UInt64($0) }.store(in: &kept)
        }
        subject.send(1)
        return received
    }
    subject.send(completion: .finished)
    kept.removeAll()
}

/// 7. The same with the closures passed as stored values, which makes the caller allocate a reabstraction
/// thunk for each `map` and `filter` call (both libraries alike).
func measureMemoryWithStoredClosures(_ runner: BenchmarkRunner) {
    let subject = PassthroughSubject<Int, Never>()
    var kept: [AnyCancellable] = []
    kept.reserveCapacity(Scenario.memoryHeapStoredClosures.count)
    runner.measureHeap(.memoryHeapStoredClosures) { count in
        var received: UInt64 = 0
        for _ in 0..<count {
            subject.map(Closures.increment).filter(Closures.isPositive).sink { received &+= UInt64($0) }.store(
                in: &kept)
        }
        subject.send(1)
        return received
    }
    subject.send(completion: .finished)
    kept.removeAll()
}

/// 1. PassthroughSubject → map → filter → map → sink; `count` values sent, half pass the filter.
func chain(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject.map(Closures.triple).filter(Closures.isEven).map(Closures.increment).sink {
        sum &+= UInt64($0)
    }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// 2. (0..<count).publisher, type-erased so it streams value by value → map → filter → sink.
func sequence(_ count: Int) -> UInt64 {
    var sum: UInt64 = 0
    let cancellable = (0..<count).publisher.eraseToAnyPublisher()
        .map(Closures.triple).filter(Closures.isEven).sink { sum &+= UInt64($0) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// 3. Subscribe to a 5-operator chain on a subject and cancel it, `count` times.
func subscribeCancel(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    for _ in 0..<count {
        let cancellable = subject.map(Closures.increment).filter(Closures.isPositive).removeDuplicates()
            .scan(0, Closures.add).compactMap(Closures.positiveOrNil).sink { sum &+= UInt64($0) }
        cancellable.cancel()
        sum &+= 1
    }
    subject.send(1)  // reaches nobody: every subscription was cancelled
    return sum
}

/// 4. One subject, `share()`, `fanOutSubscribers` subscribers; `count` deliveries in all.
func shareFanOut(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.share()
    var sum: UInt64 = 0
    var cancellables: [AnyCancellable] = []
    for _ in 0..<Scenario.fanOutSubscribers { shared.sink { sum &+= UInt64($0) }.store(in: &cancellables) }
    for value in 0..<(count / Scenario.fanOutSubscribers) { subject.send(value) }
    subject.send(completion: .finished)
    return sum
}

/// 5. debounce (10 ms) on a virtual-time scheduler: inputs come in pairs 1 ms apart, pairs 20 ms apart,
/// so the second of each pair survives.
func debounce(_ count: Int) -> UInt64 {
    let scheduler = VirtualScheduler()
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject.debounce(for: .milliseconds(10), scheduler: scheduler).sink { sum &+= UInt64($0) }
    var value = 0
    while value < count {
        subject.send(value)
        scheduler.advance(by: .milliseconds(1))
        subject.send(value + 1)
        scheduler.advance(by: .milliseconds(20))
        value += 2
    }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// 6. flatMap of a sequence publisher into `count` inner `Just`s.
func flatMap(_ count: Int) -> UInt64 {
    var sum: UInt64 = 0
    let cancellable = (0..<count).publisher.flatMap { Just(Closures.increment($0)) }.sink { sum &+= UInt64($0) }
    withExtendedLifetime(cancellable) {}
    return sum
}

#if BENCH_STREAMS
    /// 6. merge of two subjects; `count` values sent, alternately into each.
    func merge(_ count: Int) -> UInt64 {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        var sum: UInt64 = 0
        let cancellable = first.merge(with: second).sink { sum &+= UInt64($0) }
        var value = 0
        while value < count {
            first.send(value)
            second.send(value + 1)
            value += 2
        }
        withExtendedLifetime(cancellable) {}
        return sum
    }

    /// 6. combineLatest of two subjects; `count` values sent, alternately into each.
    func combineLatest(_ count: Int) -> UInt64 {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        var sum: UInt64 = 0
        let cancellable = first.combineLatest(second).sink { sum &+= UInt64($0.0 &+ $0.1) }
        var value = 0
        while value < count {
            first.send(value)
            second.send(value + 1)
            value += 2
        }
        withExtendedLifetime(cancellable) {}
        return sum
    }
#endif

/// 8. The `values` async bridge: iterate `count` values of a sequence publisher.
func values(_ count: Int) async -> UInt64 {
    var sum: UInt64 = 0
    for await value in (0..<count).publisher.values { sum &+= UInt64(value) }
    return sum
}
