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
    measureMemoryOfStatefulSubscriptions(runner)
    measureMemoryOfTimedSubscriptions(runner)
    runner.time(.chain, chain)
    runner.time(.sequence, sequence)
    runner.time(.subscribeCancel, subscribeCancel)
    runner.time(.shareFanOut, shareFanOut)
    runner.time(.debounce, debounce)
    runner.time(.throttle, throttle)
    runner.time(.timeout, timeout)
    runner.time(.delay, delay)
    runner.time(.receiveOn, receiveOn)
    runner.time(.flatMap, flatMap)
    #if BENCH_STREAMS  // OpenCombine 0.14.0 has neither merge nor combineLatest
        runner.time(.merge, merge)
        runner.time(.combineLatest, combineLatest)
    #endif
    await runner.time(.values, values)
    runAppShapedScenarios(runner)
}

/// The app-shaped scenarios: closures written inline as literals, as app code writes them.
func runAppShapedScenarios(_ runner: BenchmarkRunner) {
    runner.time(.tenStages, tenStages)
    runner.time(.chainErased, chainErased)
    runner.time(.subscribeCancelStateful, subscribeCancelStateful)
    runner.time(.search, search)
    runner.time(.stageScan, stageScan)
    runner.time(.stageRemoveDuplicates, stageRemoveDuplicates)
    runner.time(.stageHandleEvents, stageHandleEvents)
    runner.time(.stagePrefix, stagePrefix)
    runner.time(.stageDropFirst, stageDropFirst)
    runner.time(.stageTryMap, stageTryMap)
    runner.time(.stageCatch, stageCatch)
    runner.time(.stageReplaceError, stageReplaceError)
    runner.time(.stageCollect, stageCollect)
    runner.time(.stageReplaceEmpty, stageReplaceEmpty)
    runner.time(.stagePrefixUntilOutput, stagePrefixUntilOutput)
    runner.time(.currentValueSubject, currentValueSubject)
    runner.time(.published, published)
    runner.time(.multicast, multicast)
    runner.time(.tryChain, tryChain)
    runner.time(.last, last)
    runner.time(.count, count)
    runner.time(.containsWhere, containsWhere)
    #if BENCH_STREAMS  // OpenCombine 0.14.0 has no combineLatest
        runner.time(.combineLatest4, combineLatest4)
    #endif
    runner.time(.zip4, zip4)
    runner.time(.buffer, buffer)
    runner.time(.subscribeCancelOneShot, subscribeCancelOneShot)
    runner.time(.subscribeCancelFallible, subscribeCancelFallible)
    runner.time(.flatMapSerial, flatMapSerial)
    runner.time(.mapKeyPath, mapKeyPath)
    runner.time(.objectWillChange, objectWillChange)
    runner.time(.sequenceCollect, sequenceCollect)
    runner.time(.switchToCached, switchToCached)
    runner.time(.assign, assign)
    runner.time(.retryFeed, retryFeed)
    runner.time(.switchToLive, switchToLive)
    runner.time(.flatMapFuture, flatMapFuture)
    #if BENCH_STREAMS  // OpenCombine 0.14.0 has no withLatestFrom
        runner.time(.withLatestFrom, withLatestFrom)
    #endif
    runner.time(.subscribeCancelCurrentValue, subscribeCancelCurrentValue)
    runner.time(.depth1, depth1)
    runner.time(.depth5, depth5)
    runner.time(.depth10, depth10)
    runner.time(.depth20, depth20)
    runScalingScenarios(runner)
}

/// The scaling curves: fan-out (1 → 10,000 subscribers) and live subscriptions (1,000 → 1,000,000).
func runScalingScenarios(_ runner: BenchmarkRunner) {
    for (scenario, subscribers) in Scenario.fanOuts where scenario != .shareFanOut {
        runner.time(scenario) { count in fanOut(subscribers: subscribers, deliveries: count) }
    }
    for (scenario, _) in Scenario.lives { runner.time(scenario, liveSubscriptions) }
    for (scenario, _) in Scenario.liveMemories where scenario != .memoryHeap {
        var kept = Set<AnyCancellable>()
        kept.reserveCapacity(scenario.count)
        let subject = PassthroughSubject<Int, Never>()
        var received: UInt64 = 0
        runner.measureHeap(scenario) { count in
            for _ in 0..<count {
                subject.map { (value: Int) -> Int in value + 1 }.filter { (value: Int) -> Bool in value > 0 }
                    .sink { received &+= UInt64($0) }.store(in: &kept)
            }
            subject.send(1)
            return received
        }
        kept.removeAll()
    }
}

/// One subject, `share()`, `subscribers` sinks; `deliveries` deliveries in all.
func fanOut(subscribers: Int, deliveries: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.share()
    var sum: UInt64 = 0
    var cancellables: [AnyCancellable] = []
    for _ in 0..<subscribers { shared.sink { sum &+= UInt64($0) }.store(in: &cancellables) }
    for value in 0..<max(1, deliveries / subscribers) { subject.send(value) }
    subject.send(completion: .finished)
    return sum
}

/// `count` subscriptions (subject → map → filter → sink) kept in a `Set<AnyCancellable>`, as an app keeps
/// them; one value reaches every one; then the set is emptied, which cancels them all (in the set's order).
func liveSubscriptions(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    var cancellables = Set<AnyCancellable>()
    for _ in 0..<count {
        subject.map { (value: Int) -> Int in value + 1 }.filter { (value: Int) -> Bool in value > 0 }
            .sink { sum &+= UInt64($0) }.store(in: &cancellables)
    }
    subject.send(1)
    cancellables.removeAll()
    subject.send(2)  // reaches nobody: every subscription was cancelled
    return sum
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

/// Memory of another shape, as a view model keeps a live subscription: `CurrentValueSubject` → `removeDuplicates`
/// → `scan` (a running total) → `sink` with both handlers; `count` live subscriptions on one subject.
func measureMemoryOfStatefulSubscriptions(_ runner: BenchmarkRunner) {
    let subject = CurrentValueSubject<Int, Never>(0)
    var kept: [AnyCancellable] = []
    kept.reserveCapacity(Scenario.memoryHeapStateful.count)
    runner.measureHeap(.memoryHeapStateful) { count in
        var received: UInt64 = 0
        var finished: UInt64 = 0
        for _ in 0..<count {
            subject.removeDuplicates().scan(0) { $0 &+ $1 }
                .sink(receiveCompletion: { _ in finished &+= 1 }, receiveValue: { received &+= UInt64($0) })
                .store(in: &kept)
        }
        subject.send(1)
        return received &+ finished
    }
    subject.send(completion: .finished)
    kept.removeAll()
}

/// Memory of a search box's live subscription, timing operators included: a query subject → `removeDuplicates` →
/// `debounce` → `map` → `receive(on:)` → `sink`, on a virtual-time scheduler that is never run; `count` live
/// subscriptions on one subject.
func measureMemoryOfTimedSubscriptions(_ runner: BenchmarkRunner) {
    let scheduler = VirtualScheduler()
    let query = PassthroughSubject<String, Never>()
    var kept: [AnyCancellable] = []
    kept.reserveCapacity(Scenario.memoryHeapTimed.count)
    runner.measureHeap(.memoryHeapTimed) { count in
        var received: UInt64 = 0
        for _ in 0..<count {
            query.removeDuplicates()
                .debounce(for: .milliseconds(300), scheduler: scheduler)
                .map { $0.count }
                .receive(on: scheduler)
                .sink { received &+= UInt64($0) }
                .store(in: &kept)
        }
        return UInt64(kept.count) &+ received
    }
    query.send(completion: .finished)
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

/// throttle (10 ms, the latest value) on a virtual-time scheduler, as a view thins a stream of drag positions:
/// one input per millisecond, so one in ten is published.
func throttle(_ count: Int) -> UInt64 {
    let scheduler = VirtualScheduler()
    let positions = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = positions
        .throttle(for: .milliseconds(10), scheduler: scheduler, latest: true)
        .sink { sum &+= UInt64($0) }
    for position in 0..<count {
        positions.send(position)
        scheduler.advance(by: .milliseconds(1))
    }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// timeout (100 ms) on a virtual-time scheduler, as a client watches a stream of heartbeats: one input per
/// millisecond, so it never fires, and every input restarts the timer.
func timeout(_ count: Int) -> UInt64 {
    let scheduler = VirtualScheduler()
    let heartbeats = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = heartbeats
        .timeout(.milliseconds(100), scheduler: scheduler)
        .sink { sum &+= UInt64($0) }
    for beat in 0..<count {
        heartbeats.send(beat)
        scheduler.advance(by: .milliseconds(1))
    }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// delay (5 ms) on a virtual-time scheduler, as an app holds back a hint: one input per millisecond, so about
/// five values wait at any time.
func delay(_ count: Int) -> UInt64 {
    let scheduler = VirtualScheduler()
    let hints = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = hints
        .delay(for: .milliseconds(5), scheduler: scheduler)
        .sink { sum &+= UInt64($0) }
    for hint in 0..<count {
        hints.send(hint)
        scheduler.advance(by: .milliseconds(1))
    }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// receive(on:) a virtual-time scheduler, as a model hops results to the main queue: values sent in bursts of
/// ten, each burst delivered when the scheduler next runs.
func receiveOn(_ count: Int) -> UInt64 {
    let scheduler = VirtualScheduler()
    let results = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = results
        .receive(on: scheduler)
        .sink { sum &+= UInt64($0) }
    var result = 0
    while result < count {
        for _ in 0..<10 {
            results.send(result)
            result += 1
        }
        scheduler.advance(by: .milliseconds(1))
    }
    withExtendedLifetime(cancellable) {}
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

// MARK: - App-shaped scenarios

/// A temperature reading, the value type of the ten-stage pipeline.
struct Reading: Equatable {
    var sensor: Int
    var celsius: Double
}

/// The error the throwing scenarios declare (never thrown: every value is valid).
enum InputError: Error {
    case negative
}

/// subject → map, filter, compactMap, scan, removeDuplicates, map, filter, handleEvents, map, map → sink: a
/// sensor feed turned into a smoothed, logged, formatted figure. `count` values sent.
func tenStages(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var logged = 0
    var sum: UInt64 = 0
    let cancellable = subject
        .map { (value: Int) -> Reading in Reading(sensor: value % 8, celsius: Double(value % 1_000) / 10) }
        .filter { $0.sensor != 7 }
        .compactMap { (reading: Reading) -> Reading? in reading.celsius < 99 ? reading : nil }
        .scan(Reading(sensor: 0, celsius: 0)) { (previous: Reading, next: Reading) -> Reading in
            Reading(sensor: next.sensor, celsius: (previous.celsius * 3 + next.celsius) / 4)
        }
        .removeDuplicates()
        .map { (reading: Reading) -> Int in Int(reading.celsius * 10) }
        .filter { $0 >= 0 }
        .handleEvents(receiveOutput: { _ in logged += 1 })
        .map { (tenths: Int) -> Int in tenths / 10 }
        .map { (degrees: Int) -> UInt64 in UInt64(degrees) }
        .sink { sum &+= $0 }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum &+ UInt64(logged)
}

/// subject → map → filter → map → sink with every stage type-erased, as code that returns
/// `AnyPublisher` from each layer does. `count` values sent, half pass the filter.
func chainErased(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject.eraseToAnyPublisher()
        .map { $0 * 3 }.eraseToAnyPublisher()
        .filter { $0.isMultiple(of: 2) }.eraseToAnyPublisher()
        .map { (value: Int) -> Int in value + 1 }.eraseToAnyPublisher()
        .sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// Subscribe to removeDuplicates → scan → compactMap → eraseToAnyPublisher → handleEvents → map on a subject,
/// and cancel, `count` times: operators that keep state per subscription.
func subscribeCancelStateful(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    var cancelled: UInt64 = 0
    for _ in 0..<count {
        let cancellable = subject
            .removeDuplicates()
            .scan(0) { $0 + $1 }
            .compactMap { $0 > 0 ? $0 : nil }
            .eraseToAnyPublisher()
            .handleEvents(receiveCancel: { cancelled += 1 })
            .map { $0 * 2 }
            .sink { sum &+= UInt64($0) }
        cancellable.cancel()
    }
    subject.send(1)  // reaches nobody: every subscription was cancelled
    return sum &+ cancelled
}

/// A one-shot lookup, subscribed and cancelled before anything arrives (a screen closed while it waits): the first
/// valid id → its batch (an array's publisher, collected) → an empty batch if none came.
func subscribeCancelOneShot(_ count: Int) -> UInt64 {
    let ids = PassthroughSubject<Int, Never>()
    var received: UInt64 = 0
    for _ in 0..<count {
        let cancellable = ids
            .compactMap { $0 > 0 ? $0 : nil }
            .first()
            .flatMap { id in [id, id + 1, id + 2].publisher.collect() }
            .replaceEmpty(with: [])
            .sink { received &+= UInt64($0.count) }
        cancellable.cancel()
    }
    ids.send(1)  // reaches nobody: every subscription was cancelled
    return received &+ UInt64(count)
}

/// A request's pipeline, subscribed and cancelled before it answers (a screen closed while it loads): responses
/// that can fail → two retries → a fallback value on failure → the figure → the positive ones.
func subscribeCancelFallible(_ count: Int) -> UInt64 {
    let responses = PassthroughSubject<Int, InputError>()
    var received: UInt64 = 0
    for _ in 0..<count {
        let cancellable = responses
            .retry(2)
            .catch { _ in Just(0) }
            .map { $0 * 2 }
            .filter { $0 > 0 }
            .sink { received &+= UInt64($0) }
        cancellable.cancel()
    }
    responses.send(1)  // reaches nobody: every subscription was cancelled
    return received &+ UInt64(count)
}

/// A product list's items → their prices (a key path) → the ones over 10 → sink; `count` items sent.
func mapKeyPath(_ count: Int) -> UInt64 {
    let items = PassthroughSubject<BenchItem, Never>()
    var sum: UInt64 = 0
    let cancellable = items.map(\.price).filter { $0 > 10 }.sink { sum &+= UInt64($0) }
    for value in 0..<count { items.send(BenchItem(id: value, name: "item", price: value % 100)) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// An item of `map-key-path`: a struct as an app's model would be.
struct BenchItem {
    var id: Int
    var name: String
    var price: Int
}

/// A download's progress shown by a view: bytes received → percent → `assign(to:on:)` the view's model, which the
/// view reads after each update; `count` updates.
func assign(_ count: Int) -> UInt64 {
    let received = PassthroughSubject<Int, Never>()
    let progress = BenchProgress()
    var shown: UInt64 = 0
    let cancellable = received.map { $0 * 100 / 1_048_576 }.assign(to: \.percent, on: progress)
    for bytes in 0..<count {
        received.send(bytes)
        shown &+= UInt64(progress.percent)
    }
    withExtendedLifetime(cancellable) {}
    return shown
}

/// A live price feed that can fail, kept alive by retrying: quotes → up to three re-subscriptions → a fallback
/// quote once those are used up → in cents → sink; `count` quotes sent (none fails).
func retryFeed(_ count: Int) -> UInt64 {
    let quotes = PassthroughSubject<Int, InputError>()
    var total: UInt64 = 0
    let cancellable = quotes
        .retry(3)
        .catch { _ in Just(0) }
        .map { $0 * 100 }
        .sink { total &+= UInt64($0) }
    for quote in 0..<count { quotes.send(quote) }
    withExtendedLifetime(cancellable) {}
    return total
}

/// The model `assign` writes to: a class, as a view model is.
final class BenchProgress {
    var percent = 0
}

/// A view model whose `@Published` property the app sets; a view watches `objectWillChange`.
final class BenchModel: ObservableObject {
    @Published var value = 0
}

/// `count` changes of a `@Published` property, each announced to an `objectWillChange` subscriber.
func objectWillChange(_ count: Int) -> UInt64 {
    let model = BenchModel()
    var changes: UInt64 = 0
    let cancellable = model.objectWillChange.sink { changes &+= 1 }
    for value in 0..<count { model.value = value }
    withExtendedLifetime(cancellable) {}
    return changes
}

/// `count` one-shot batches: an array of 100 numbers published and collected back into one array.
func sequenceCollect(_ count: Int) -> UInt64 {
    let batch = Array(0..<100)
    var total: UInt64 = 0
    for _ in 0..<count {
        _ = batch.publisher.collect().sink { total &+= UInt64($0.count) }
    }
    return total
}

/// A lookup answered from a cache, as a view model switches to the latest query's result when it is at hand:
/// queries → `map` to a `Just` of the cached count → `switchToLatest` → sink; `count` queries.
func switchToCached(_ count: Int) -> UInt64 {
    let cache = ["milk": 12, "bread": 7, "eggs": 30, "tea": 4]
    let queries = ["milk", "bread", "eggs", "tea", "coffee"]
    let query = PassthroughSubject<String, Never>()
    var total: UInt64 = 0
    let cancellable = query
        .map { (text: String) -> Just<Int> in Just(cache[text] ?? 0) }
        .switchToLatest()
        .sink { total &+= UInt64($0) }
    for index in 0..<count { query.send(queries[index % queries.count]) }
    withExtendedLifetime(cancellable) {}
    return total
}

/// A screen that follows the selected room's live feed, as a chat view model switches to the room the user picks:
/// rooms (each feed a `PassthroughSubject`) → `switchToLatest` → `map` → sink; the user picks a new room every 100
/// messages; `count` messages.
func switchToLive(_ count: Int) -> UInt64 {
    let rooms = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
    var total: UInt64 = 0
    let cancellable = rooms
        .switchToLatest()
        .map { (message: Int) -> Int in message &* 2 }
        .sink { total &+= UInt64($0) }
    var room = PassthroughSubject<Int, Never>()
    for message in 0..<count {
        if message % 100 == 0 {
            room = PassthroughSubject()
            rooms.send(room)
        }
        room.send(message)
    }
    withExtendedLifetime(cancellable) {}
    return total
}

/// Details looked up for each id, answered from a cache, as a view model wraps a lookup that may be slow in a
/// `Deferred { Future { … } }`: a subject of ids → `flatMap` → sink; every lookup hits the cache, so each promise is
/// kept at once; `count` ids.
func flatMapFuture(_ count: Int) -> UInt64 {
    let ids = PassthroughSubject<Int, Never>()
    let cache: [Int] = (0..<64).map { (id: Int) -> Int in id &* 7 }
    var total: UInt64 = 0
    let cancellable = ids
        .flatMap { (id: Int) -> Deferred<Future<Int, Never>> in
            Deferred { Future<Int, Never> { promise in promise(.success(cache[id % 64])) } }
        }
        .sink { total &+= UInt64($0) }
    for id in 0..<count { ids.send(id) }
    withExtendedLifetime(cancellable) {}
    return total
}

#if BENCH_STREAMS
    /// A save button that sends the form's latest text: taps → `withLatestFrom` the text (changed every 50 taps) →
    /// its length → sink; `count` taps.
    func withLatestFrom(_ count: Int) -> UInt64 {
        let taps = PassthroughSubject<Void, Never>()
        let text = CurrentValueSubject<String, Never>("draft")
        var total: UInt64 = 0
        let cancellable = taps
            .withLatestFrom(text) { (_: Void, text: String) -> Int in text.utf8.count }
            .map { (length: Int) -> Int in length &* 2 }
            .sink { total &+= UInt64($0) }
        for tap in 0..<count {
            if tap % 50 == 0 { text.send(tap % 100 == 0 ? "draft" : "final draft") }
            taps.send(())
        }
        withExtendedLifetime(cancellable) {}
        return total
    }
#endif

/// A view that appears and disappears: it subscribes to its view model's state (a `CurrentValueSubject`, whose value
/// arrives at once) and cancels; `count` times.
func subscribeCancelCurrentValue(_ count: Int) -> UInt64 {
    let title = CurrentValueSubject<String, Never>("Groceries")
    var length: UInt64 = 0
    for _ in 0..<count {
        let cancellable = title
            .removeDuplicates()
            .map { $0.uppercased() }
            .sink { length &+= UInt64($0.utf8.count) }
        cancellable.cancel()
    }
    return length
}

/// Batches of four handled one at a time (`maxPublishers: .max(1)`: the next batch is subscribed when the
/// previous one finishes), each batch an array's publisher; `count` values.
func flatMapSerial(_ count: Int) -> UInt64 {
    var sum: UInt64 = 0
    let cancellable = (0..<(count / 4)).publisher
        .flatMap(maxPublishers: .max(1)) { batch in [batch, batch + 1, batch + 2, batch + 3].publisher }
        .sink { sum &+= UInt64($0) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// The queries the search box receives (a fixed set, so that the strings are built once).
let searchQueries: [String] = (0..<64).map { "swift stream \($0)" }

/// A search box: text field → removeDuplicates → debounce (10 ms, virtual time) → the results of the query
/// (a `Just`) → switchToLatest. Inputs come in bursts of four 1 ms apart — a repeat, then two new queries —
/// and bursts 20 ms apart, so one search per burst runs. `count` inputs.
func search(_ count: Int) -> UInt64 {
    let scheduler = VirtualScheduler()
    let text = PassthroughSubject<String, Never>()
    var sum: UInt64 = 0
    let cancellable = text
        .removeDuplicates()
        .debounce(for: .milliseconds(10), scheduler: scheduler)
        .map { query in Just(query.utf8.count) }
        .switchToLatest()
        .sink { sum &+= UInt64($0) }
    var input = 0
    while input < count {
        text.send(searchQueries[input % searchQueries.count])
        scheduler.advance(by: .milliseconds(1))
        text.send(searchQueries[input % searchQueries.count])  // the same text again: removed
        scheduler.advance(by: .milliseconds(1))
        text.send(searchQueries[(input + 1) % searchQueries.count])
        scheduler.advance(by: .milliseconds(1))
        text.send(searchQueries[(input + 2) % searchQueries.count])
        scheduler.advance(by: .milliseconds(20))
        input += 4
    }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject → scan (a running total) → sink; `count` values sent.
func stageScan(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject.scan(0) { $0 + $1 }.sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject → removeDuplicates → sink; every value is sent twice in a row, so half are dropped.
func stageRemoveDuplicates(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject.removeDuplicates().sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value / 2) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject → handleEvents(receiveOutput:) → sink; `count` values sent.
func stageHandleEvents(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var seen: UInt64 = 0
    var sum: UInt64 = 0
    let cancellable = subject.handleEvents(receiveOutput: { _ in seen += 1 }).sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum &+ seen
}

/// subject → prefix(1,000,000,000) (never reached) → sink; `count` values sent.
func stagePrefix(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject.prefix(1_000_000_000).sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject → dropFirst(10) → sink; `count` values sent.
func stageDropFirst(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject.dropFirst(10).sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject → tryMap (a validation that could throw) → sink; `count` values sent.
func stageTryMap(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject
        .tryMap { value in
            guard value >= 0 else { throw InputError.negative }
            return value * 2
        }
        .sink(receiveCompletion: { _ in }, receiveValue: { sum &+= UInt64($0) })
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject → setFailureType(to:) → catch (a fallback `Just`) → sink; `count` values sent, none fails.
func stageCatch(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject
        .setFailureType(to: InputError.self)
        .catch { _ in Just(-1) }
        .sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject → `collect(10)` → sink, as an app batches values (ten per write, say); `count` values sent.
func stageCollect(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject
        .collect(10)
        .sink { batch in sum &+= UInt64(batch.count &+ (batch.first ?? 0)) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject → `replaceEmpty(with: 0)` → sink, as a view shows a placeholder for an empty result; `count` values sent.
func stageReplaceEmpty(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject
        .replaceEmpty(with: 0)
        .sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject → `prefix(untilOutputFrom:)` a `Void` subject that never fires (as a screen ends its updates when it goes
/// away) → sink; `count` values sent.
func stagePrefixUntilOutput(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    let disappeared = PassthroughSubject<Void, Never>()
    var sum: UInt64 = 0
    let cancellable = subject
        .prefix(untilOutputFrom: disappeared)
        .sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// `CurrentValueSubject` (a view model's state) → `map` → sink; `count` values sent.
func currentValueSubject(_ count: Int) -> UInt64 {
    let subject = CurrentValueSubject<Int, Never>(0)
    var sum: UInt64 = 0
    let cancellable = subject
        .map { $0 * 2 }
        .sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// A view model with a `@Published` property, observed as a view would: `$count` → `map` → `removeDuplicates` →
/// sink; the property set `count` times.
final class CounterModel {
    @Published var count = 0
}

func published(_ count: Int) -> UInt64 {
    let model = CounterModel()
    var sum: UInt64 = 0
    let cancellable = model.$count
        .map { $0 / 2 }
        .removeDuplicates()
        .sink { sum &+= UInt64($0) }
    for value in 0..<count { model.count = value }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject → `multicast(subject:)` → `autoconnect()` → sink; `count` values sent.
func multicast(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject
        .multicast(subject: PassthroughSubject<Int, Never>())
        .autoconnect()
        .sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject (whose failure is an `InputError`) → replaceError(with: 0) → sink; `count` values sent.
func stageReplaceError(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, InputError>()
    var sum: UInt64 = 0
    let cancellable = subject
        .replaceError(with: 0)
        .sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject → tryFilter → tryCompactMap → tryScan → sink; `count` values sent, two thirds pass the filter.
func tryChain(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject
        .tryFilter { value in
            guard value >= 0 else { throw InputError.negative }
            return value % 3 != 0
        }
        .tryCompactMap { value in value.isMultiple(of: 5) ? nil : value * 2 }
        .tryScan(0) { total, value in
            guard value >= 0 else { throw InputError.negative }
            return total + value
        }
        .sink(receiveCompletion: { _ in }, receiveValue: { sum &+= UInt64($0) })
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// last() over `count` values of a sequence publisher. Type-erased, so the values stream through the
/// operator: OpenCombine's overloads on its sequence publisher answer last() from the collection directly.
func last(_ count: Int) -> UInt64 {
    var result: UInt64 = 0
    let cancellable = (0..<count).publisher.eraseToAnyPublisher().last().sink { result = UInt64($0) }
    withExtendedLifetime(cancellable) {}
    return result
}

/// count() over `count` values of a type-erased sequence publisher (see ``last(_:)``).
func count(_ count: Int) -> UInt64 {
    var result: UInt64 = 0
    let cancellable = (0..<count).publisher.eraseToAnyPublisher().count().sink { result = UInt64($0) }
    withExtendedLifetime(cancellable) {}
    return result
}

/// contains(where:) over `count` values of a type-erased sequence publisher (see ``last(_:)``); only the
/// last value matches, so every value is tested.
func containsWhere(_ count: Int) -> UInt64 {
    var found: UInt64 = 0
    let cancellable = (0..<count).publisher.eraseToAnyPublisher()
        .contains { $0 == count - 1 }
        .sink { found = $0 ? UInt64(count) : 0 }
    withExtendedLifetime(cancellable) {}
    return found
}

#if BENCH_STREAMS
    /// combineLatest of four subjects; `count` values sent, to each subject in turn.
    func combineLatest4(_ count: Int) -> UInt64 {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let d = PassthroughSubject<Int, Never>()
        var sum: UInt64 = 0
        let cancellable = a.combineLatest(b, c, d).sink { sum &+= UInt64($0.0 + $0.1 + $0.2 + $0.3) }
        var value = 0
        while value < count {
            a.send(value)
            b.send(value + 1)
            c.send(value + 2)
            d.send(value + 3)
            value += 4
        }
        withExtendedLifetime(cancellable) {}
        return sum
    }
#endif

/// zip of four subjects; `count` values sent, to each subject in turn (one tuple per four values).
func zip4(_ count: Int) -> UInt64 {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let c = PassthroughSubject<Int, Never>()
    let d = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = a.zip(b, c, d).sink { sum &+= UInt64($0.0 + $0.1 + $0.2 + $0.3) }
    var value = 0
    while value < count {
        a.send(value)
        b.send(value + 1)
        c.send(value + 2)
        d.send(value + 3)
        value += 4
    }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// A subscriber that asks for one value at a time, as a consumer that processes values one by one does.
final class OneAtATime: Subscriber {
    typealias Input = Int
    typealias Failure = Never

    private(set) var sum: UInt64 = 0
    private var subscription: (any Subscription)?

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        sum &+= UInt64(input)
        return .max(1)
    }

    func receive(completion: Subscribers.Completion<Never>) {
        subscription = nil
    }

    func cancel() {
        subscription?.cancel()
        subscription = nil
    }
}

/// subject → buffer(size: 16, prefetch: .byRequest, whenFull: .dropOldest) → a subscriber asking for one value
/// at a time; `count` values sent, every one delivered.
func buffer(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = OneAtATime()
    subject.buffer(size: 16, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
    for value in 0..<count { subject.send(value) }
    subscriber.cancel()
    return subscriber.sum
}

/// subject → map → sink; `count` values sent.
func depth1(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject.map { (value: Int) -> Int in value + 1 }.sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject → 5 × map → sink; `count` values sent.
func depth5(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject
        .map { (value: Int) -> Int in value + 1 }.map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }.map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }
        .sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject → 10 × map → sink; `count` values sent.
func depth10(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    let cancellable = subject
        .map { (value: Int) -> Int in value + 1 }.map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }.map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }.map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }.map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }
        .sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}

/// subject → 20 × map → sink; `count` values sent.
func depth20(_ count: Int) -> UInt64 {
    let subject = PassthroughSubject<Int, Never>()
    var sum: UInt64 = 0
    // Two statements: one 20-stage expression is more than the type checker accepts in reasonable time.
    let firstTen = subject
        .map { (value: Int) -> Int in value + 1 }.map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }.map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }.map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }.map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }
    let cancellable = firstTen
        .map { (value: Int) -> Int in value + 1 }.map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }.map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }.map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }.map { (value: Int) -> Int in value + 1 }
        .map { (value: Int) -> Int in value + 1 }
        .sink { sum &+= UInt64($0) }
    for value in 0..<count { subject.send(value) }
    withExtendedLifetime(cancellable) {}
    return sum
}
