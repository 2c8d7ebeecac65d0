// Written once, compiled twice: ConformanceOpenCombine/Interpreter.swift is a symlink to this file, so the
// two libraries run the very same pipelines (so do EventLog.swift and Tap.swift). Only `Clock` differs
// (one per target).
import ConformanceModel

#if CONFORMANCE_STREAMS
    import Streams

    /// Runs pipelines on Streams.
    public enum StreamsRunner {
        /// The event log of `pipeline` on Streams; with `upstream`, also what the pipeline does to its source.
        public static func run(_ pipeline: Pipeline, upstream: Bool = false) -> [String] {
            Interpreter.run(pipeline, upstream: upstream)
        }
    }
#else
    import OpenCombine

    /// Runs pipelines on OpenCombine.
    public enum OpenCombineRunner {
        /// The event log of `pipeline` on OpenCombine; with `upstream`, also what the pipeline does to its source.
        public static func run(_ pipeline: Pipeline, upstream: Bool = false) -> [String] {
            Interpreter.run(pipeline, upstream: upstream)
        }
    }
#endif

typealias Stream = AnyPublisher<Int, TestFailure>

/// Builds a pipeline from its description on one library, runs it on virtual time and logs what the
/// subscriber sees.
enum Interpreter {
    static func run(_ pipeline: Pipeline, upstream: Bool) -> [String] {
        let clock = Clock()
        let log = EventLog(clock: clock)
        let reentry = Reentry()
        var stream = source(pipeline.source, clock, reentry: reentry)
        if upstream { stream = Tap(upstream: stream, log: log).eraseToAnyPublisher() }
        for stage in pipeline.stages { stream = apply(stage, to: stream, clock) }
        let probe = Probe(script: pipeline.subscriber, log: log, reentry: reentry)
        for request in pipeline.subscriber.requests {
            clock.at(request.tick) { probe.request(request.count) }
        }
        if let tick = pipeline.subscriber.cancelAt { clock.at(tick) { probe.cancel() } }
        stream.subscribe(probe)
        clock.run(until: pipeline.horizon)
        return log.lines
    }

    /// The publisher for `source`; a subject source also hands `reentry` its `send`.
    static func source(_ source: Source, _ clock: Clock, reentry: Reentry? = nil) -> Stream {
        switch source {
        case .subject(let events):
            let subject = PassthroughSubject<Int, TestFailure>()
            play(events, into: subject, clock)
            reentry?.send = { subject.send($0) }
            return subject.eraseToAnyPublisher()
        case .currentValue(let initial, let events):
            let subject = CurrentValueSubject<Int, TestFailure>(initial)
            play(events, into: subject, clock)
            reentry?.send = { subject.send($0) }
            return subject.eraseToAnyPublisher()
        case .sequence(let values):
            return values.publisher.setFailureType(to: TestFailure.self).eraseToAnyPublisher()
        case .just(let value):
            return Just(value).setFailureType(to: TestFailure.self).eraseToAnyPublisher()
        case .empty:
            return Empty<Int, TestFailure>().eraseToAnyPublisher()
        case .fail(let code):
            return Fail<Int, TestFailure>(error: .boom(code)).eraseToAnyPublisher()
        case .deferred(let values):
            return Deferred { values.publisher.setFailureType(to: TestFailure.self) }.eraseToAnyPublisher()
        case .future(let value, let tick):
            let result: Result<Int, TestFailure> = value.map { .success($0) } ?? .failure(.boom(0))
            return Future<Int, TestFailure> { promise in
                if tick == 0 { promise(result) } else { clock.at(tick) { promise(result) } }
            }.eraseToAnyPublisher()
        case .timer(let interval):
            #if CONFORMANCE_STREAMS
                return clock.scheduler.timerPublisher(every: clock.interval(interval))
                    .map { _ in clock.tick }.setFailureType(to: TestFailure.self).eraseToAnyPublisher()
            #else
                return Fail(error: TestFailure.boom(-99)).eraseToAnyPublisher()  // never run: no counterpart
            #endif
        case .replaySubject(let size, let early, let events):
            #if CONFORMANCE_STREAMS
                let subject = ReplaySubject<Int, TestFailure>(bufferSize: size)
                for value in early { subject.send(value) }
                play(events, into: subject, clock)
                reentry?.send = { subject.send($0) }
                return subject.eraseToAnyPublisher()
            #else
                return Fail(error: TestFailure.boom(-99)).eraseToAnyPublisher()  // never run: no counterpart
            #endif
        case .relay(let initial, let events):
            #if CONFORMANCE_STREAMS
                let accept: (Int) -> Void
                let relay: AnyPublisher<Int, Never>
                if let initial {
                    let currentValue = CurrentValueRelay<Int>(initial)
                    (accept, relay) = ({ currentValue.accept($0) }, currentValue.eraseToAnyPublisher())
                } else {
                    let passthrough = PassthroughRelay<Int>()
                    (accept, relay) = ({ passthrough.accept($0) }, passthrough.eraseToAnyPublisher())
                }
                for case .value(let value, let tick) in events { clock.at(tick) { accept(value) } }
                reentry?.send = accept
                return relay.setFailureType(to: TestFailure.self).eraseToAnyPublisher()
            #else
                return Fail(error: TestFailure.boom(-99)).eraseToAnyPublisher()  // never run: no counterpart
            #endif
        }
    }

    static func play<S: Subject>(_ events: [TimedEvent], into subject: S, _ clock: Clock)
    where S.Output == Int, S.Failure == TestFailure {
        for event in events {
            switch event {
            case .value(let value, let tick): clock.at(tick) { subject.send(value) }
            case .finished(let tick): clock.at(tick) { subject.send(completion: .finished) }
            case .failure(let code, let tick): clock.at(tick) { subject.send(completion: .failure(.boom(code))) }
            }
        }
    }

    static func inner(_ inner: Inner, _ value: Int, _ clock: Clock) -> Stream {
        switch inner {
        case .just:
            return Just(value).setFailureType(to: TestFailure.self).eraseToAnyPublisher()
        case .pair:
            return [value, value + 100].publisher.setFailureType(to: TestFailure.self).eraseToAnyPublisher()
        case .delayed(let ticks):
            return Just(value).setFailureType(to: TestFailure.self)
                .delay(for: clock.interval(ticks), scheduler: clock.scheduler).eraseToAnyPublisher()
        case .failingOn(let divisor):
            if value % divisor == 0 { return Fail<Int, TestFailure>(error: .boom(value)).eraseToAnyPublisher() }
            return Just(value).setFailureType(to: TestFailure.self).eraseToAnyPublisher()
        }
    }

    static func apply(_ stage: Stage, to stream: Stream, _ clock: Clock) -> Stream {
        switch stage {
        case .map(let n):
            return stream.map { $0 + n }.eraseToAnyPublisher()
        case .tryMap(let n):
            return stream.tryMap { value -> Int in
                if value % n == 0 { throw TestFailure.boom(value) }
                return value
            }.mapError { ($0 as? TestFailure) ?? .boom(-1) }.eraseToAnyPublisher()
        case .filter(let n):
            return stream.filter { $0 % n == 0 }.eraseToAnyPublisher()
        case .compactMap(let n):
            return stream.compactMap { $0 % n == 0 ? nil : $0 }.eraseToAnyPublisher()
        case .mapError:
            return stream.mapError { $0 }.eraseToAnyPublisher()
        case .removeDuplicates:
            return stream.removeDuplicates().eraseToAnyPublisher()
        case .scan:
            return stream.scan(0) { $0 + $1 }.eraseToAnyPublisher()
        case .reduce:
            return stream.reduce(0) { $0 + $1 }.eraseToAnyPublisher()
        case .collect:
            return stream.collect().map { $0.reduce(0, +) }.eraseToAnyPublisher()
        case .collectCount(let n):
            return stream.collect(n).map { $0.reduce(0, +) }.eraseToAnyPublisher()
        case .prefix(let n):
            return stream.prefix(n).eraseToAnyPublisher()
        case .first:
            return stream.first().eraseToAnyPublisher()
        case .firstWhere(let n):
            return stream.first { $0 > n }.eraseToAnyPublisher()
        case .dropFirst(let n):
            return stream.dropFirst(n).eraseToAnyPublisher()
        case .handleEvents:
            return stream.handleEvents(receiveOutput: { _ in }).eraseToAnyPublisher()
        case .catchJust(let n):
            return stream.catch { _ in Just(n).setFailureType(to: TestFailure.self) }.eraseToAnyPublisher()
        case .replaceError(let n):
            return stream.replaceError(with: n).setFailureType(to: TestFailure.self).eraseToAnyPublisher()
        case .retry(let n):
            return stream.retry(n).eraseToAnyPublisher()
        case .share:
            return stream.share().eraseToAnyPublisher()
        case .flatMap(let limit, let kind):
            let demand: Subscribers.Demand = limit.map { .max($0) } ?? .unlimited
            #if CONFORMANCE_STREAMS
                if case .just = kind {
                    // Typed as `Just` itself, not erased: Streams' flatMap then reads each inner's value instead of
                    // subscribing to it (`ScalarPublisherKind`), and this checks that path against OpenCombine.
                    return stream.flatMap(maxPublishers: demand) { Just($0).setFailureType(to: TestFailure.self) }
                        .eraseToAnyPublisher()
                }
            #endif
            return stream.flatMap(maxPublishers: demand) { inner(kind, $0, clock) }.eraseToAnyPublisher()
        case .switchToLatest(let kind):
            #if CONFORMANCE_STREAMS
                if case .just = kind {
                    // Typed as `Just` itself, as for `flatMap` above: Streams' switchToLatest then reads each inner's
                    // value instead of subscribing to it, and this checks that path against OpenCombine.
                    return stream.map { Just($0).setFailureType(to: TestFailure.self) }.switchToLatest()
                        .eraseToAnyPublisher()
                }
            #endif
            return stream.map { inner(kind, $0, clock) }.switchToLatest().eraseToAnyPublisher()
        case .zip(let other), .merge(let other), .combineLatest(let other):
            #if CONFORMANCE_STREAMS
                let second = source(other, clock)
                if case .merge = stage { return stream.merge(with: second).eraseToAnyPublisher() }
                if case .combineLatest = stage { return stream.combineLatest(second) { $0 + $1 }.eraseToAnyPublisher() }
                return stream.zip(second) { $0 + $1 }.eraseToAnyPublisher()
            #else
                return noReference(stage)
            #endif
        case .shareReplay(let count):
            #if CONFORMANCE_STREAMS
                return stream.share(replay: count).eraseToAnyPublisher()
            #else
                return noReference(stage)
            #endif
        case .retryBackoff(let retries, let delay):
            #if CONFORMANCE_STREAMS
                return stream.retry(
                    maxRetries: retries, backoff: .constant(clock.interval(delay)), scheduler: clock.scheduler
                ).eraseToAnyPublisher()
            #else
                return noReference(stage)
            #endif
        case .prepend(let values):
            return stream.prepend(values).eraseToAnyPublisher()
        case .append(let values):
            return stream.append(values).eraseToAnyPublisher()
        case .debounce(let ticks):
            return stream.debounce(for: clock.interval(ticks), scheduler: clock.scheduler).eraseToAnyPublisher()
        case .throttle(let ticks, let latest):
            return stream.throttle(for: clock.interval(ticks), scheduler: clock.scheduler, latest: latest)
                .eraseToAnyPublisher()
        case .delay(let ticks):
            return stream.delay(for: clock.interval(ticks), scheduler: clock.scheduler).eraseToAnyPublisher()
        case .timeout(let ticks):
            return stream.timeout(clock.interval(ticks), scheduler: clock.scheduler, customError: { .boom(99) })
                .eraseToAnyPublisher()
        case .receiveOn:
            return stream.receive(on: clock.scheduler).eraseToAnyPublisher()
        case .subscribeOn:
            return stream.subscribe(on: clock.scheduler).eraseToAnyPublisher()
        case .count:
            return stream.count().eraseToAnyPublisher()
        case .min(let byGreater):
            return (byGreater ? stream.min(by: >).eraseToAnyPublisher() : stream.min().eraseToAnyPublisher())
        case .max(let byGreater):
            return (byGreater ? stream.max(by: >).eraseToAnyPublisher() : stream.max().eraseToAnyPublisher())
        case .contains(let n):
            return stream.contains(n).map(bit).eraseToAnyPublisher()
        case .containsWhere(let n):
            return stream.contains(where: { $0 > n }).map(bit).eraseToAnyPublisher()
        case .allSatisfy(let n):
            return stream.allSatisfy { $0 < n }.map(bit).eraseToAnyPublisher()
        case .last:
            return stream.last().eraseToAnyPublisher()
        case .lastWhere(let n):
            return stream.last(where: { $0 > n }).eraseToAnyPublisher()
        case .tryFirst(let n, let m):
            return stream.tryFirst(where: { try checked($0, m) > n }).mapError(testFailure).eraseToAnyPublisher()
        case .tryLast(let n, let m):
            return stream.tryLast(where: { try checked($0, m) > n }).mapError(testFailure).eraseToAnyPublisher()
        case .tryContains(let n, let m):
            return stream.tryContains(where: { try checked($0, m) > n }).map(bit).mapError(testFailure)
                .eraseToAnyPublisher()
        case .tryAllSatisfy(let n, let m):
            return stream.tryAllSatisfy { try checked($0, m) < n }.map(bit).mapError(testFailure).eraseToAnyPublisher()
        case .tryMin(let m):
            return stream.tryMin(by: { try checked($0, m) < $1 }).mapError(testFailure).eraseToAnyPublisher()
        case .tryReduce(let m):
            return stream.tryReduce(0) { try $0 + checked($1, m) }.mapError(testFailure).eraseToAnyPublisher()
        case .dropWhile(let n):
            return stream.drop(while: { $0 < n }).eraseToAnyPublisher()
        case .prefixWhile(let n):
            return stream.prefix(while: { $0 < n }).eraseToAnyPublisher()
        case .tryDropWhile(let n, let m):
            return stream.tryDrop(while: { try checked($0, m) < n }).mapError(testFailure).eraseToAnyPublisher()
        case .tryPrefixWhile(let n, let m):
            return stream.tryPrefix(while: { try checked($0, m) < n }).mapError(testFailure).eraseToAnyPublisher()
        case .tryFilter(let k, let m):
            return stream.tryFilter { try checked($0, m) % k == 0 }.mapError(testFailure).eraseToAnyPublisher()
        case .tryCompactMap(let k, let m):
            return stream.tryCompactMap { value -> Int? in try checked(value, m) % k == 0 ? nil : value }
                .mapError(testFailure).eraseToAnyPublisher()
        case .tryScan(let m):
            return stream.tryScan(0) { try $0 + checked($1, m) }.mapError(testFailure).eraseToAnyPublisher()
        case .tryRemoveDuplicates(let m):
            return stream.tryRemoveDuplicates(by: { try $0 == checked($1, m) }).mapError(testFailure)
                .eraseToAnyPublisher()
        case .replaceEmpty(let n):
            return stream.replaceEmpty(with: n).eraseToAnyPublisher()
        case .outputAt(let index):
            return stream.output(at: index).eraseToAnyPublisher()
        case .outputIn(let lower, let upper, let closed):
            return closed
                ? stream.output(in: lower...upper).eraseToAnyPublisher()
                : stream.output(in: lower..<upper).eraseToAnyPublisher()
        case .dropUntilOutput(let other):
            return stream.drop(untilOutputFrom: source(other, clock)).eraseToAnyPublisher()
        case .prefixUntilOutput(let other):
            return stream.prefix(untilOutputFrom: source(other, clock)).eraseToAnyPublisher()
        case .ignoreOutput:
            return stream.ignoreOutput().map(absurd).eraseToAnyPublisher()
        case .zip3(let b, let c), .merge3(let b, let c), .combineLatest3(let b, let c):
            #if CONFORMANCE_STREAMS
                let (second, third) = (source(b, clock), source(c, clock))
                if case .merge3 = stage { return stream.merge(with: second, third).eraseToAnyPublisher() }
                if case .combineLatest3 = stage {
                    return stream.combineLatest(second, third) { $0 + $1 + $2 }.eraseToAnyPublisher()
                }
                return stream.zip(second, third) { $0 + $1 + $2 }.eraseToAnyPublisher()
            #else
                return noReference(stage)
            #endif
        case .collectByTime(let ticks, let count):
            #if CONFORMANCE_STREAMS
                let interval = clock.interval(ticks)
                let strategy: Publishers.TimeGroupingStrategy =
                    count.map { .byTimeOrCount(clock.scheduler, interval, $0) } ?? .byTime(clock.scheduler, interval)
                return stream.collect(strategy).map { $0.reduce(0, +) }.eraseToAnyPublisher()
            #else
                return noReference(stage)
            #endif
        case .buffer(let size, let keepFull, let whenFull):
            let strategy: Publishers.BufferingStrategy<TestFailure> =
                switch whenFull {
                case .dropOldest: .dropOldest
                case .dropNewest: .dropNewest
                case .customError: .customError { .boom(77) }
                }
            return stream.buffer(size: size, prefetch: keepFull ? .keepFull : .byRequest, whenFull: strategy)
                .eraseToAnyPublisher()
        case .measureInterval:
            return stream.measureInterval(using: clock.scheduler).map { clock.ticks($0) }.eraseToAnyPublisher()
        case .tryCatch(let m, let n):
            return stream.tryCatch { error -> Just<Int> in
                if case .boom(let code) = error, code % m == 0 { throw TestFailure.boom(code + 10) }
                return Just(n)
            }.mapError(testFailure).eraseToAnyPublisher()
        case .connectable(let kind, let connectAt):
            switch kind {
            case .makeConnectable:
                return connected(stream.replaceError(with: 0).makeConnectable(), at: connectAt, clock)
                    .setFailureType(to: TestFailure.self).eraseToAnyPublisher()
            case .multicastSubject:
                return connected(stream.multicast(subject: PassthroughSubject<Int, TestFailure>()), at: connectAt, clock)
            case .multicastFactory:
                return connected(stream.multicast { PassthroughSubject<Int, TestFailure>() }, at: connectAt, clock)
            case .multicastReplay(let size):
                #if CONFORMANCE_STREAMS
                    return connected(
                        stream.multicast { ReplaySubject<Int, TestFailure>(bufferSize: size) }, at: connectAt, clock)
                #else
                    return noReference(stage)
                #endif
            }
        case .withLatestFrom(let other):
            #if CONFORMANCE_STREAMS
                return stream.withLatestFrom(source(other, clock)) { $0 + $1 }.eraseToAnyPublisher()
            #else
                return noReference(stage)
            #endif
        case .amb(let other):
            #if CONFORMANCE_STREAMS
                return stream.amb(source(other, clock)).eraseToAnyPublisher()
            #else
                return noReference(stage)
            #endif
        case .flatMapLatest(let kind):
            #if CONFORMANCE_STREAMS
                if case .just = kind {
                    // Typed as `Just`, as for `switchToLatest` above: the scalar path of the same engine.
                    return stream.flatMapLatest { Just($0).setFailureType(to: TestFailure.self) }.eraseToAnyPublisher()
                }
                return stream.flatMapLatest { inner(kind, $0, clock) }.eraseToAnyPublisher()
            #else
                // What `flatMapLatest` is, exactly (Streams' own returns this very composition's type).
                return stream.map { inner(kind, $0, clock) }.switchToLatest().eraseToAnyPublisher()
            #endif
        case .materialize:
            #if CONFORMANCE_STREAMS
                return stream.materialize().map { event -> Int in
                    switch event {
                    case .value(let value): value
                    case .finished: -1
                    case .failure(.boom(let code)): -1000 - code
                    }
                }.setFailureType(to: TestFailure.self).eraseToAnyPublisher()
            #else
                return noReference(stage)
            #endif
        case .materializeDematerialize:
            #if CONFORMANCE_STREAMS
                return stream.materialize().dematerialize().eraseToAnyPublisher()
            #else
                return noReference(stage)
            #endif
        case .pairwise:
            #if CONFORMANCE_STREAMS
                return stream.pairwise().map { digits([$0.0, $0.1]) }.eraseToAnyPublisher()
            #else
                return windows(of: 2, stream)
            #endif
        case .nwise(let size):
            #if CONFORMANCE_STREAMS
                return stream.nwise(size).map(digits).eraseToAnyPublisher()
            #else
                return windows(of: size, stream)
            #endif
        case .retryWhen(let retries, let delay):
            #if CONFORMANCE_STREAMS
                return stream.retry(when: { failures in
                    delay == 0
                        ? failures.prefix(retries).eraseToAnyPublisher()
                        : failures.prefix(retries).delay(for: clock.interval(delay), scheduler: clock.scheduler)
                            .eraseToAnyPublisher()
                }).eraseToAnyPublisher()
            #else
                return noReference(stage)
            #endif
        }
    }

    /// `publisher`, connected at `tick` (0: now, before anything subscribes; later: at that tick) or by
    /// `autoconnect()` when `tick` is `nil`. The connection lives until the run ends.
    static func connected<C: ConnectablePublisher>(_ publisher: C, at tick: Int?, _ clock: Clock)
        -> AnyPublisher<C.Output, C.Failure>
    {
        guard let tick else { return publisher.autoconnect().eraseToAnyPublisher() }
        if tick == 0 {
            clock.keep(publisher.connect())
        } else {
            clock.at(tick) { clock.keep(publisher.connect()) }
        }
        return publisher.eraseToAnyPublisher()
    }

    /// A window of values as one `Int`: its values as digits in base 100, oldest first (wrapping, never trapping).
    static func digits(_ window: [Int]) -> Int { window.reduce(0) { $0 &* 100 &+ $1 } }

    #if CONFORMANCE_OPENCOMBINE
        /// `nwise(size).map(digits)` as a composition: a `scan` keeps the last `size` values, and a `compactMap`
        /// drops the windows not yet full (asking one more for each, as `nwise` does).
        static func windows(of size: Int, _ stream: Stream) -> Stream {
            stream.scan([Int]()) { window, value in Array((window + [value]).suffix(size)) }
                .compactMap { $0.count == size ? digits($0) : nil }.eraseToAnyPublisher()
        }
    #endif

    /// `ignoreOutput()`'s `Never` as an `Int`: never called (an empty body is all a function of `Never` needs, and
    /// unlike `switch never {}` it draws no "will never be executed" warning).
    static func absurd(_ never: Never) -> Int {}

    /// A `Bool` result as an `Int`: 1 or 0.
    static func bit(_ value: Bool) -> Int { value ? 1 : 0 }

    /// `value`, or `boom(value)` thrown when it is a multiple of `divisor` (what every `try` stage's closure does).
    static func checked(_ value: Int, _ divisor: Int) throws -> Int {
        if value % divisor == 0 { throw TestFailure.boom(value) }
        return value
    }

    /// A `try` stage's `any Error` as the pipeline's failure: what the closure threw, or the upstream's failure.
    static func testFailure(_ error: any Error) -> TestFailure { (error as? TestFailure) ?? .boom(-1) }
}

#if CONFORMANCE_OPENCOMBINE
    /// A stage without a working OpenCombine counterpart (see `Stage.hasReference`): the check never runs such
    /// a pipeline on OpenCombine; if it did, this failure would show as a mismatch rather than pass silently.
    func noReference(_ stage: Stage) -> Stream {
        Fail(error: TestFailure.boom(-99)).eraseToAnyPublisher()
    }
#endif

/// The source subject's `send`, for the subscriber's re-entrant send (``SubscriberScript/sendOnValue``); a
/// no-op when the source is not a subject.
final class Reentry {
    var send: (Int) -> Void = { _ in }
}

/// The hand-written subscriber: requests as scripted, logs every call with its tick, and logs a contract
/// violation it sees (a value beyond demand, an event after the completion or after its own cancel, a
/// second subscription) as a line starting with `!`.
final class Probe: Subscriber {
    typealias Input = Int
    typealias Failure = TestFailure

    let script: SubscriberScript
    let log: EventLog
    let reentry: Reentry
    var subscription: (any Subscription)?
    var demand = Subscribers.Demand.none
    var values = 0
    var isCancelled = false
    var isCompleted = false

    init(script: SubscriberScript, log: EventLog, reentry: Reentry) {
        self.script = script
        self.log = log
        self.reentry = reentry
    }

    func note(_ event: String) { log.note(event) }

    func receive(subscription: any Subscription) {
        if self.subscription != nil { note("! second subscription") }
        note("subscription")
        self.subscription = subscription
        if script.cancelOnSubscription { return cancel() }
        if let initial = script.initial { request(initial == 0 ? .unlimited : .max(initial)) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        if subscription == nil { note("! value before the subscription") }
        if isCancelled { note("! value after cancel") }
        if isCompleted { note("! value after completion") }
        if demand == .none { note("! value beyond demand") } else { demand -= 1 }
        note("value \(input)")
        values += 1
        if values == script.sendOnValue { reentry.send(100 + values) }
        if values == script.cancelOnValue {
            cancel()
            return .none
        }
        guard script.perValue > 0 else { return .none }
        demand += .max(script.perValue)
        return .max(script.perValue)
    }

    func receive(completion: Subscribers.Completion<TestFailure>) {
        if subscription == nil { note("! completion before the subscription") }
        if isCancelled { note("! completion after cancel") }
        if isCompleted { note("! second completion") }
        isCompleted = true
        switch completion {
        case .finished: note("finished")
        case .failure(let error): note("failure \(error)")
        }
    }

    func request(_ count: Int) { request(.max(count)) }

    func request(_ more: Subscribers.Demand) {
        guard !isCancelled, !isCompleted, let subscription else { return }
        demand += more
        subscription.request(more)
    }

    func cancel() {
        guard !isCancelled, !isCompleted else { return }
        isCancelled = true
        subscription?.cancel()
    }
}
