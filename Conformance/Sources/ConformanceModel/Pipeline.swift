/// One random case: a source, up to six operator stages, and a subscriber with scripted demand and cancel.
///
/// Time is counted in *ticks* of virtual time (a tick is one millisecond on Streams' `TestScheduler`, one
/// unit on the OpenCombine side's virtual scheduler). The subscriber subscribes at tick 0; timelines start
/// at tick 1. Every value is an `Int` and every failure a ``TestFailure``.
public struct Pipeline: Equatable, Sendable, CustomStringConvertible {
    /// Where the values come from.
    public var source: Source
    /// The operators, applied in order.
    public var stages: [Stage]
    /// The subscriber at the end.
    public var subscriber: SubscriberScript

    /// A pipeline.
    public init(source: Source, stages: [Stage], subscriber: SubscriberScript) {
        self.source = source
        self.stages = stages
        self.subscriber = subscriber
    }

    /// The pipeline written as Swift-like code, e.g. `subject(1@2, |@5).dropFirst(2).first()` and the
    /// subscriber's script.
    public var description: String {
        ([source.description] + stages.map(\.description)).joined(separator: ".") + "  ⇢ " + subscriber.description
    }

    /// Whether OpenCombine can serve as the reference (see ``Stage/hasReference``).
    public var hasReference: Bool { source.hasReference && stages.allSatisfy(\.hasReference) }

    /// The last tick anything is scheduled at (timelines, subscriber actions, operator intervals), so a run
    /// knows how far to advance virtual time.
    public var horizon: Int {
        var end = source.horizon
        for stage in stages { end = end + stage.horizon + 1 }
        return max(end, subscriber.horizon) + 20
    }
}

/// The one failure type of every pipeline.
public enum TestFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// A failure with a code, so logs tell failures apart.
    case boom(Int)

    /// `boom(code)`.
    public var description: String {
        switch self { case .boom(let code): "boom(\(code))" }
    }
}

/// One event of a scripted timeline.
public enum TimedEvent: Equatable, Sendable, CustomStringConvertible {
    /// A value at a tick.
    case value(Int, at: Int)
    /// `.finished` at a tick.
    case finished(at: Int)
    /// A failure at a tick.
    case failure(Int, at: Int)

    /// The tick.
    public var tick: Int {
        switch self {
        case .value(_, let tick), .finished(let tick), .failure(_, let tick): tick
        }
    }

    /// `3@5`, `|@6`, `#1@6`.
    public var description: String {
        switch self {
        case .value(let value, let tick): "\(value)@\(tick)"
        case .finished(let tick): "|@\(tick)"
        case .failure(let code, let tick): "#\(code)@\(tick)"
        }
    }
}

/// The publisher a pipeline starts from.
public indirect enum Source: Equatable, Sendable, CustomStringConvertible {
    /// A `PassthroughSubject` sending the timeline.
    case subject([TimedEvent])
    /// A `CurrentValueSubject` with an initial value, then the timeline.
    case currentValue(Int, [TimedEvent])
    /// `values.publisher` (synchronous, respects demand).
    case sequence([Int])
    /// `Just(value)`.
    case just(Int)
    /// `Empty()` (finishes at once).
    case empty
    /// `Fail(error: .boom(code))`.
    case fail(Int)
    /// `Deferred { values.publisher }`.
    case deferred([Int])
    /// A `Future` resolved with `value` (or failed if `nil`) at `tick` (0: inside its closure).
    case future(Int?, at: Int)
    /// Streams' `Publishers.Timer` ticking every `interval`, each tick mapped to its tick number (Streams
    /// alone: Combine's timer is connectable, a different shape).
    case timer(every: Int)
    /// Streams' `ReplaySubject(bufferSize:)`, sent `early` before anything subscribes (so it has values to
    /// replay), then the timeline (Streams alone: CombineExt's, no OpenCombine counterpart).
    case replaySubject(bufferSize: Int, early: [Int], [TimedEvent])
    /// Streams' `PassthroughRelay` (or `CurrentValueRelay(initial)`) accepting the timeline's values; a relay
    /// cannot complete, so the timeline's completion is not sent (Streams alone: CombineExt's).
    case relay(initial: Int?, [TimedEvent])

    /// The last tick of its timeline.
    public var horizon: Int {
        switch self {
        case .subject(let events), .currentValue(_, let events), .replaySubject(_, _, let events),
            .relay(_, let events):
            events.map(\.tick).max() ?? 0
        case .future(_, let tick): tick
        case .timer(let interval): interval * 4
        default: 0
        }
    }

    /// Whether OpenCombine has a counterpart to compare with.
    public var hasReference: Bool {
        switch self {
        case .timer, .replaySubject, .relay: false
        default: true
        }
    }

    /// Whether it delivers everything synchronously on subscription/request (no virtual time).
    public var isSynchronous: Bool {
        switch self {
        case .sequence, .just, .empty, .fail, .deferred: true
        case .future(_, let tick): tick == 0
        case .subject, .currentValue, .timer, .replaySubject, .relay: false
        }
    }

    public var description: String {
        switch self {
        case .subject(let events): "subject(\(events.map(\.description).joined(separator: ", ")))"
        case .currentValue(let initial, let events):
            "currentValue(\(([String(initial)] + events.map(\.description)).joined(separator: ", ")))"
        case .sequence(let values): "\(values).publisher"
        case .just(let value): "Just(\(value))"
        case .empty: "Empty()"
        case .fail(let code): "Fail(boom(\(code)))"
        case .deferred(let values): "Deferred { \(values).publisher }"
        case .future(let value, let tick): "Future(\(value.map(String.init) ?? "#") @\(tick))"
        case .timer(let interval): "Timer(every: \(interval))"
        case .replaySubject(let size, let early, let events):
            "replaySubject(bufferSize: \(size), early: \(early), \(events.map(\.description).joined(separator: ", ")))"
        case .relay(let initial, let events):
            (initial.map { "currentValueRelay(\($0), " } ?? "passthroughRelay(")
                + events.map(\.description).joined(separator: ", ") + ")"
        }
    }
}

/// An inner publisher for `flatMap` and `switchToLatest`, made from each value `v`.
public enum Inner: Equatable, Sendable, CustomStringConvertible {
    /// `Just(v)`.
    case just
    /// `[v, v + 100].publisher`.
    case pair
    /// `Just(v).delay(for: ticks)`.
    case delayed(Int)
    /// `Fail(boom(v))` when `v` is a multiple of `divisor`, else `Just(v)`.
    case failingOn(Int)

    public var description: String {
        switch self {
        case .just: "Just(v)"
        case .pair: "[v, v+100].publisher"
        case .delayed(let ticks): "Just(v).delay(\(ticks))"
        case .failingOn(let divisor): "v%\(divisor)==0 ? Fail : Just(v)"
        }
    }

    var horizon: Int {
        if case .delayed(let ticks) = self { return ticks }
        return 0
    }
}

/// One operator stage (every output stays an `Int`: a `Bool` result becomes 1 or 0, `ignoreOutput()`'s `Never`
/// is mapped to `Int` by a closure that never runs).
///
/// The `try` stages throw `boom(v)` on a value `v` that is a multiple of their divisor (as `tryMap` does), and
/// their `any Error` is mapped back to ``TestFailure``.
///
/// Some stages have no working counterpart in OpenCombine 0.14 (``hasReference`` is `false`): `merge` and
/// `combineLatest` (with one other or two) do not exist there, `share(replay:)` and the back-off `retry` are
/// Streams' own, and OpenCombine's `zip` crashes (an
/// unowned reference to its freed subscription) when a source delivers after the zip has ended. A pipeline
/// with such a stage is checked on Streams alone, against the contract (see `Probe`).
public indirect enum Stage: Equatable, Sendable, CustomStringConvertible {
    case map(Int)
    case tryMap(failOnMultipleOf: Int)
    case filter(keepMultipleOf: Int)
    case compactMap(nilOnMultipleOf: Int)
    case mapError
    case removeDuplicates
    case scan
    case reduce
    case collect
    case collectCount(Int)
    case prefix(Int)
    case first
    case firstWhere(greaterThan: Int)
    case dropFirst(Int)
    case handleEvents
    case catchJust(Int)
    case replaceError(Int)
    case retry(Int)
    case share
    case flatMap(maxPublishers: Int?, Inner)
    case switchToLatest(Inner)
    case zip(Source)
    case merge(Source)
    case combineLatest(Source)
    case shareReplay(Int)
    case retryBackoff(Int, delay: Int)
    case prepend([Int])
    case append([Int])
    case debounce(Int)
    case throttle(Int, latest: Bool)
    case delay(Int)
    case timeout(Int)
    case receiveOn
    case subscribeOn
    // Reducing to one value, filtering, replacing and picking by position (the `try` forms throw on a
    // multiple of `failOnMultipleOf`).
    case count
    /// `min()`, or `min(by: >)` (the largest).
    case min(byGreater: Bool)
    /// `max()`, or `max(by: >)` (the smallest).
    case max(byGreater: Bool)
    case contains(Int)
    case containsWhere(greaterThan: Int)
    case allSatisfy(lessThan: Int)
    case last
    case lastWhere(greaterThan: Int)
    case tryFirst(greaterThan: Int, failOnMultipleOf: Int)
    case tryLast(greaterThan: Int, failOnMultipleOf: Int)
    case tryContains(greaterThan: Int, failOnMultipleOf: Int)
    case tryAllSatisfy(lessThan: Int, failOnMultipleOf: Int)
    /// `tryMin(by: <)`, throwing on the new value (its first argument, in both libraries).
    case tryMin(failOnMultipleOf: Int)
    case tryReduce(failOnMultipleOf: Int)
    case dropWhile(lessThan: Int)
    case prefixWhile(lessThan: Int)
    case tryDropWhile(lessThan: Int, failOnMultipleOf: Int)
    case tryPrefixWhile(lessThan: Int, failOnMultipleOf: Int)
    case tryFilter(keepMultipleOf: Int, failOnMultipleOf: Int)
    case tryCompactMap(nilOnMultipleOf: Int, failOnMultipleOf: Int)
    case tryScan(failOnMultipleOf: Int)
    /// `tryRemoveDuplicates(by: ==)`, throwing on the new value (its second argument, in both libraries).
    case tryRemoveDuplicates(failOnMultipleOf: Int)
    case replaceEmpty(Int)
    case outputAt(Int)
    /// `output(in: lower...upper)`, or `lower..<upper` when not `closed`.
    case outputIn(Int, Int, closed: Bool)
    case dropUntilOutput(Source)
    case prefixUntilOutput(Source)
    /// `ignoreOutput()`, its `Never` mapped to `Int`.
    case ignoreOutput
    case zip3(Source, Source)
    case merge3(Source, Source)
    case combineLatest3(Source, Source)
    // Timing, buffering, recovering and connectable operators.
    /// `collect(.byTime(scheduler, interval))`, or `.byTimeOrCount(scheduler, interval, count)` (Streams alone:
    /// OpenCombine 0.14 has no time-grouped `collect`).
    case collectByTime(Int, count: Int?)
    /// `buffer(size:prefetch:whenFull:)`, `.keepFull` or `.byRequest`.
    case buffer(Int, keepFull: Bool, whenFull: BufferFull)
    /// `measureInterval(using: scheduler)`, each interval as its number of ticks.
    case measureInterval
    /// `tryCatch { e in throw boom(code + 10) if code % divisor == 0; Just(value) }`.
    case tryCatch(throwOnMultipleOf: Int, Int)
    /// A connectable publisher (``Connectable``), connected at `connectAt` (0: as soon as it is built, before the
    /// subscriber subscribes; later: at that tick) or, when `nil`, by `autoconnect()`.
    case connectable(Connectable, connectAt: Int?)
    // CombineExt-style operators Streams adds.
    /// `withLatestFrom(other, +)` (Streams alone).
    case withLatestFrom(Source)
    /// `amb(other)` (Streams alone).
    case amb(Source)
    /// `flatMapLatest { inner }`: OpenCombine runs `map { inner }.switchToLatest()`, which it is exactly.
    case flatMapLatest(Inner)
    /// `materialize()`, each event as an `Int` (a value as itself, `.finished` as -1, `boom(c)` as -1000 - c)
    /// (Streams alone).
    case materialize
    /// `materialize().dematerialize()` (Streams alone).
    case materializeDematerialize
    /// `pairwise()`, each pair as `100 * a + b`: OpenCombine runs `scan` over a window and a `compactMap` that
    /// drops the first value, which is what `pairwise()` is (the dropped value asks one more, as `compactMap`).
    case pairwise
    /// `nwise(n)`, each window as its digits in base 100: OpenCombine runs the same `scan` + `compactMap`.
    case nwise(Int)
    /// `retry(when: { $0.prefix(retries).delay(for: delay) })` (no `delay` when 0) (Streams alone).
    case retryWhen(Int, delay: Int)

    /// Whether OpenCombine 0.14 has a working counterpart to compare with.
    public var hasReference: Bool {
        switch self {
        case .zip, .merge, .combineLatest, .shareReplay, .retryBackoff, .zip3, .merge3, .combineLatest3: false
        case .collectByTime, .withLatestFrom, .amb, .materialize, .materializeDematerialize, .retryWhen: false
        case .connectable(let kind, _): kind.hasReference
        default: true
        }
    }

    /// How far the stage can push events in time (for ``Pipeline/horizon``).
    var horizon: Int {
        switch self {
        case .debounce(let ticks), .throttle(let ticks, _), .delay(let ticks), .timeout(let ticks),
            .collectByTime(let ticks, _):
            ticks
        case .retryWhen(let retries, let delay): retries * delay
        case .connectable(_, let connectAt): connectAt ?? 0
        case .withLatestFrom(let source), .amb(let source): source.horizon
        case .flatMapLatest(let inner): inner.horizon
        case .retryBackoff(let retries, let delay): retries * delay
        case .zip(let source), .merge(let source), .combineLatest(let source), .dropUntilOutput(let source),
            .prefixUntilOutput(let source):
            source.horizon
        case .zip3(let b, let c), .merge3(let b, let c), .combineLatest3(let b, let c): Swift.max(b.horizon, c.horizon)
        case .flatMap(_, let inner), .switchToLatest(let inner): inner.horizon
        default: 0
        }
    }

    public var description: String {
        switch self {
        case .map(let n): "map { $0 + \(n) }"
        case .tryMap(let n): "tryMap { throw if $0 % \(n) == 0 }"
        case .filter(let n): "filter { $0 % \(n) == 0 }"
        case .compactMap(let n): "compactMap { $0 % \(n) == 0 ? nil : $0 }"
        case .mapError: "mapError { $0 }"
        case .removeDuplicates: "removeDuplicates()"
        case .scan: "scan(0, +)"
        case .reduce: "reduce(0, +)"
        case .collect: "collect().map(sum)"
        case .collectCount(let n): "collect(\(n)).map(sum)"
        case .prefix(let n): "prefix(\(n))"
        case .first: "first()"
        case .firstWhere(let n): "first { $0 > \(n) }"
        case .dropFirst(let n): "dropFirst(\(n))"
        case .handleEvents: "handleEvents()"
        case .catchJust(let n): "catch { _ in Just(\(n)) }"
        case .replaceError(let n): "replaceError(with: \(n))"
        case .retry(let n): "retry(\(n))"
        case .share: "share()"
        case .flatMap(let max, let inner): "flatMap(maxPublishers: \(max.map { ".max(\($0))" } ?? ".unlimited")) { \(inner) }"
        case .switchToLatest(let inner): "map { \(inner) }.switchToLatest()"
        case .zip(let source): "zip(\(source), +)"
        case .merge(let source): "merge(with: \(source))"
        case .combineLatest(let source): "combineLatest(\(source), +)"
        case .shareReplay(let count): "share(replay: \(count))"
        case .retryBackoff(let retries, let delay): "retry(maxRetries: \(retries), backoff: .constant(\(delay)))"
        case .prepend(let values): "prepend(\(values))"
        case .append(let values): "append(\(values))"
        case .debounce(let ticks): "debounce(for: \(ticks))"
        case .throttle(let ticks, let latest): "throttle(for: \(ticks), latest: \(latest))"
        case .delay(let ticks): "delay(for: \(ticks))"
        case .timeout(let ticks): "timeout(\(ticks))"
        case .receiveOn: "receive(on: scheduler)"
        case .subscribeOn: "subscribe(on: scheduler)"
        case .count: "count()"
        case .min(let byGreater): byGreater ? "min(by: >)" : "min()"
        case .max(let byGreater): byGreater ? "max(by: >)" : "max()"
        case .contains(let n): "contains(\(n)).map(bit)"
        case .containsWhere(let n): "contains { $0 > \(n) }.map(bit)"
        case .allSatisfy(let n): "allSatisfy { $0 < \(n) }.map(bit)"
        case .last: "last()"
        case .lastWhere(let n): "last { $0 > \(n) }"
        case .tryFirst(let n, let m): "tryFirst { throw if $0 % \(m) == 0; $0 > \(n) }"
        case .tryLast(let n, let m): "tryLast { throw if $0 % \(m) == 0; $0 > \(n) }"
        case .tryContains(let n, let m): "tryContains { throw if $0 % \(m) == 0; $0 > \(n) }.map(bit)"
        case .tryAllSatisfy(let n, let m): "tryAllSatisfy { throw if $0 % \(m) == 0; $0 < \(n) }.map(bit)"
        case .tryMin(let m): "tryMin { throw if $0 % \(m) == 0; $0 < $1 }"
        case .tryReduce(let m): "tryReduce(0) { throw if $1 % \(m) == 0; $0 + $1 }"
        case .dropWhile(let n): "drop { $0 < \(n) }"
        case .prefixWhile(let n): "prefix { $0 < \(n) }"
        case .tryDropWhile(let n, let m): "tryDrop { throw if $0 % \(m) == 0; $0 < \(n) }"
        case .tryPrefixWhile(let n, let m): "tryPrefix { throw if $0 % \(m) == 0; $0 < \(n) }"
        case .tryFilter(let k, let m): "tryFilter { throw if $0 % \(m) == 0; $0 % \(k) == 0 }"
        case .tryCompactMap(let k, let m): "tryCompactMap { throw if $0 % \(m) == 0; $0 % \(k) == 0 ? nil : $0 }"
        case .tryScan(let m): "tryScan(0) { throw if $1 % \(m) == 0; $0 + $1 }"
        case .tryRemoveDuplicates(let m): "tryRemoveDuplicates { throw if $1 % \(m) == 0; $0 == $1 }"
        case .replaceEmpty(let n): "replaceEmpty(with: \(n))"
        case .outputAt(let index): "output(at: \(index))"
        case .outputIn(let lower, let upper, let closed): "output(in: \(lower)\(closed ? "..." : "..<")\(upper))"
        case .dropUntilOutput(let source): "drop(untilOutputFrom: \(source))"
        case .prefixUntilOutput(let source): "prefix(untilOutputFrom: \(source))"
        case .ignoreOutput: "ignoreOutput().map(never)"
        case .zip3(let b, let c): "zip(\(b), \(c), +)"
        case .merge3(let b, let c): "merge(with: \(b), \(c))"
        case .combineLatest3(let b, let c): "combineLatest(\(b), \(c), +)"
        case .collectByTime(let ticks, let count):
            count.map { "collect(.byTimeOrCount(scheduler, \(ticks), \($0))).map(sum)" }
                ?? "collect(.byTime(scheduler, \(ticks))).map(sum)"
        case .buffer(let size, let keepFull, let whenFull):
            "buffer(size: \(size), prefetch: \(keepFull ? ".keepFull" : ".byRequest"), whenFull: \(whenFull))"
        case .measureInterval: "measureInterval(using: scheduler).map(ticks)"
        case .tryCatch(let m, let n): "tryCatch { throw if code % \(m) == 0; Just(\(n)) }"
        case .connectable(let kind, let connectAt):
            "\(kind)" + (connectAt.map { $0 == 0 ? " connect() at once" : " connect() @\($0)" } ?? ".autoconnect()")
        case .withLatestFrom(let source): "withLatestFrom(\(source), +)"
        case .amb(let source): "amb(\(source))"
        case .flatMapLatest(let inner): "flatMapLatest { \(inner) }"
        case .materialize: "materialize().map(code)"
        case .materializeDematerialize: "materialize().dematerialize()"
        case .pairwise: "pairwise().map(digits)"
        case .nwise(let n): "nwise(\(n)).map(digits)"
        case .retryWhen(let retries, let delay):
            "retry(when: { $0.prefix(\(retries))\(delay > 0 ? ".delay(for: \(delay))" : "") })"
        }
    }
}

/// What `buffer` does with a value that finds it full.
public enum BufferFull: Equatable, Sendable, CustomStringConvertible {
    case dropOldest
    case dropNewest
    /// `.customError { boom(77) }`.
    case customError

    public var description: String {
        switch self {
        case .dropOldest: ".dropOldest"
        case .dropNewest: ".dropNewest"
        case .customError: ".customError { boom(77) }"
        }
    }
}

/// A connectable publisher made from the stream.
public enum Connectable: Equatable, Sendable, CustomStringConvertible {
    /// `replaceError(with: 0).makeConnectable()` (`makeConnectable()` needs a `Never` failure).
    case makeConnectable
    /// `multicast(subject: PassthroughSubject())`.
    case multicastSubject
    /// `multicast { PassthroughSubject() }`.
    case multicastFactory
    /// `multicast { ReplaySubject(bufferSize: n) }` (Streams alone).
    case multicastReplay(Int)

    /// Whether OpenCombine has it.
    var hasReference: Bool {
        if case .multicastReplay = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .makeConnectable: "replaceError(with: 0).makeConnectable()"
        case .multicastSubject: "multicast(subject: PassthroughSubject())"
        case .multicastFactory: "multicast { PassthroughSubject() }"
        case .multicastReplay(let n): "multicast { ReplaySubject(bufferSize: \(n)) }"
        }
    }
}

/// What the hand-written subscriber does: never `request(.none)` (Combine forbids it), so "no demand" is
/// no request at all.
public struct SubscriberScript: Equatable, Sendable, CustomStringConvertible {
    /// Requested in `receive(subscription:)`: `nil` nothing, `0` `.unlimited`, else `.max(n)`.
    public var initial: Int?
    /// Returned from each `receive(_:)` (`.max(n)`, `0`: `.none`).
    public var perValue: Int
    /// Cancels from inside `receive(subscription:)` (then requests nothing).
    public var cancelOnSubscription: Bool
    /// Cancels from inside `receive(_:)` of this value (1-based), if set.
    public var cancelOnValue: Int?
    /// Requests `.max(n)` at these ticks.
    public var requests: [Request]
    /// Cancels at this tick, if set.
    public var cancelAt: Int?
    /// Sends `100 + k` into the source subject from inside `receive(_:)` of the k-th value (1-based), if set: a
    /// re-entrant send (only for a `subject` or `currentValue` source; ignored for the others).
    public var sendOnValue: Int?

    /// A scripted request.
    public struct Request: Equatable, Sendable {
        /// When.
        public var tick: Int
        /// `.max(count)`.
        public var count: Int

        /// A request of `.max(count)` at `tick`.
        public init(tick: Int, count: Int) {
            self.tick = tick
            self.count = count
        }
    }

    /// A script.
    public init(
        initial: Int?, perValue: Int, cancelOnSubscription: Bool = false, cancelOnValue: Int?, requests: [Request],
        cancelAt: Int?, sendOnValue: Int? = nil
    ) {
        self.initial = initial
        self.perValue = perValue
        self.cancelOnSubscription = cancelOnSubscription
        self.cancelOnValue = cancelOnValue
        self.requests = requests
        self.cancelAt = cancelAt
        self.sendOnValue = sendOnValue
    }

    var horizon: Int { max(requests.map(\.tick).max() ?? 0, cancelAt ?? 0) }

    public var description: String {
        var parts: [String] = []
        parts.append("initial: " + (initial.map { $0 == 0 ? ".unlimited" : ".max(\($0))" } ?? "none"))
        if perValue > 0 { parts.append("perValue: .max(\(perValue))") }
        if cancelOnSubscription { parts.append("cancel on subscription") }
        if let cancelOnValue { parts.append("cancel on value \(cancelOnValue)") }
        for request in requests { parts.append("request .max(\(request.count)) @\(request.tick)") }
        if let cancelAt { parts.append("cancel @\(cancelAt)") }
        if let sendOnValue { parts.append("subject.send(\(100 + sendOnValue)) in value \(sendOnValue)") }
        return "subscriber(" + parts.joined(separator: ", ") + ")"
    }
}
