/// Makes random pipelines from a seed: case `index` of seed `seed` is always the same pipeline.
public struct PipelineGenerator {
    private var random: SeededRandom

    /// The generator of case `index` under `seed`.
    public init(seed: UInt64, index: Int) {
        random = SeededRandom(seed: seed &* 0x1000_0001 &+ UInt64(index))
    }

    /// A random pipeline: a source, 1–6 stages, a subscriber.
    public mutating func pipeline() -> Pipeline {
        let source = source(depth: 0)
        let count = random.int(1...6)
        var stages: [Stage] = []
        for _ in 0..<count {
            stages.append(stage())
        }
        var subscriber = subscriber()
        // A re-entrant send needs a subject to send into (drawn always, so the rest stays the same).
        let sendOnValue = random.chance(15) ? random.int(1...2) : nil
        switch source {
        case .subject, .currentValue, .replaySubject, .relay: subscriber.sendOnValue = sendOnValue
        default: break
        }
        return Pipeline(source: source, stages: stages, subscriber: subscriber)
    }

    mutating func values() -> [Int] { (0..<random.int(0...4)).map { _ in random.int(0...9) } }

    mutating func timeline() -> [TimedEvent] {
        var events: [TimedEvent] = []
        var tick = 0
        for _ in 0..<random.int(0...6) {
            tick += random.pick([0, 1, 1, 2, 3, 5])
            events.append(.value(random.int(0...9), at: max(tick, 1)))
        }
        if random.chance(80) {
            tick += random.int(0...4)
            events.append(random.chance(75) ? .finished(at: max(tick, 1)) : .failure(random.int(1...3), at: max(tick, 1)))
        }
        return events
    }

    mutating func source(depth: Int) -> Source {
        switch random.int(0...9) {
        case 0, 1, 2:
            // One subject source in ten (at the top only) is one of Streams' own: a `ReplaySubject` or a relay.
            if depth == 0 && random.chance(10) {
                random.chance(50)
                    ? .replaySubject(bufferSize: random.int(1...3), early: values(), timeline())
                    : .relay(initial: random.chance(50) ? random.int(0...9) : nil, timeline())
            } else {
                .subject(timeline())
            }
        case 3: .currentValue(random.int(0...9), timeline())
        case 4, 5: .sequence(values())
        case 6: .just(random.int(0...9))
        case 7: random.chance(50) ? .empty : .fail(random.int(1...3))
        case 8: .deferred(values())
        default:
            depth == 0 && random.chance(15)
                ? .timer(every: random.int(1...3))
                : .future(random.chance(80) ? random.int(0...9) : nil, at: random.pick([0, 1, 3]))
        }
    }

    mutating func inner() -> Inner {
        switch random.int(0...3) {
        case 0: .just
        case 1: .pair
        case 2: .delayed(random.int(1...4))
        default: .failingOn(random.int(2...5))
        }
    }

    mutating func stage() -> Stage {
        // Stages without an OpenCombine counterpart (checked on Streams alone) are drawn less often, so
        // most cases stay differential; the reducing, filtering, replacing and positional operators
        // (`count()` … `ignoreOutput()`) one time in five, so the older stages are still most of a pipeline.
        // The timing, buffering, connectable and CombineExt-style operators are drawn one time in seven (those
        // OpenCombine lacks among them, one time in twenty-five), so about 30 % of the cases are checked on
        // Streams alone.
        let roll = random.int(0...99)
        if roll < 5 { return streamsOnlyStage() }
        if roll < 9 { return streamsOnlyAddedStage() }
        if roll < 29 { return reducingOrFilteringStage() }
        if roll < 43 { return addedStage() }
        switch random.int(0...29) {
        case 0: return .map(random.int(1...9))
        case 1: return .tryMap(failOnMultipleOf: random.int(2...7))
        case 2: return .filter(keepMultipleOf: random.int(1...3))
        case 3: return .compactMap(nilOnMultipleOf: random.int(2...4))
        case 4: return .mapError
        case 5: return .removeDuplicates
        case 6: return .scan
        case 7: return .reduce
        case 8: return .collect
        case 9: return .collectCount(random.int(1...3))
        case 10: return .prefix(random.int(0...3))
        case 11: return .first
        case 12: return .firstWhere(greaterThan: random.int(0...6))
        case 13: return .dropFirst(random.int(0...3))
        case 14: return .handleEvents
        case 15: return .catchJust(random.int(0...9))
        case 16: return .replaceError(random.int(0...9))
        case 17: return .retry(random.int(0...2))
        case 18: return .share
        case 19: return .flatMap(maxPublishers: random.chance(50) ? random.int(1...2) : nil, inner())
        case 20: return .switchToLatest(inner())
        case 21: return .handleEvents
        case 22: return .prepend(values())
        case 23: return .append(values())
        case 24: return .debounce(random.int(1...4))
        case 25: return .throttle(random.int(1...4), latest: random.chance(50))
        case 26: return .delay(random.int(1...4))
        case 27: return .timeout(random.int(2...8))
        case 28: return .receiveOn
        default: return .subscribeOn
        }
    }

    /// A stage OpenCombine 0.14 lacks (or crashes on): checked on Streams alone.
    mutating func streamsOnlyStage() -> Stage {
        switch random.int(0...7) {
        case 0: .zip(source(depth: 1))
        case 1: .merge(source(depth: 1))
        case 2: .combineLatest(source(depth: 1))
        case 3: .shareReplay(random.int(1...2))
        case 4: .retryBackoff(random.int(0...2), delay: random.int(1...3))
        case 5: .zip3(source(depth: 1), source(depth: 1))
        case 6: .merge3(source(depth: 1), source(depth: 1))
        default: .combineLatest3(source(depth: 1), source(depth: 1))
        }
    }

    /// A timing, buffering, recovering, connectable or CombineExt-style stage that OpenCombine can check
    /// (`flatMapLatest`, `pairwise` and `nwise` through the composition they are).
    mutating func addedStage() -> Stage {
        switch random.int(0...11) {
        case 0, 1, 2:
            .buffer(
                random.int(1...3), keepFull: random.chance(50),
                whenFull: random.pick([BufferFull.dropOldest, .dropNewest, .customError]))
        case 3: .measureInterval
        case 4, 5: .tryCatch(throwOnMultipleOf: random.int(1...3), random.int(0...9))
        case 6, 7, 8:
            .connectable(
                random.pick([Connectable.makeConnectable, .multicastSubject, .multicastFactory]),
                connectAt: random.chance(40) ? nil : random.pick([0, 0, 1, 2, 4]))
        case 9: .flatMapLatest(inner())
        case 10: .pairwise
        default: .nwise(random.int(2...3))
        }
    }

    /// A timing, connectable or CombineExt-style stage that OpenCombine 0.14 lacks: checked on Streams alone.
    mutating func streamsOnlyAddedStage() -> Stage {
        switch random.int(0...7) {
        case 0: .collectByTime(random.int(1...4), count: random.chance(50) ? random.int(1...3) : nil)
        case 1: .withLatestFrom(source(depth: 1))
        case 2: .amb(source(depth: 1))
        case 3: .materialize
        case 4: .materializeDematerialize
        case 5: .retryWhen(random.int(0...2), delay: random.int(0...2))
        default:
            .connectable(.multicastReplay(random.int(1...2)), connectAt: random.chance(50) ? nil : random.pick([0, 1, 3]))
        }
    }

    /// A reducing, filtering, replacing or positional stage (both libraries have them).
    mutating func reducingOrFilteringStage() -> Stage {
        switch random.int(0...27) {
        case 0: .count
        case 1: .min(byGreater: random.chance(30))
        case 2: .max(byGreater: random.chance(30))
        case 3: .contains(random.int(0...9))
        case 4: .containsWhere(greaterThan: random.int(0...8))
        case 5: .allSatisfy(lessThan: random.int(1...9))
        case 6: .last
        case 7: .lastWhere(greaterThan: random.int(0...6))
        case 8: .tryFirst(greaterThan: random.int(0...6), failOnMultipleOf: random.int(2...7))
        case 9: .tryLast(greaterThan: random.int(0...6), failOnMultipleOf: random.int(2...7))
        case 10: .tryContains(greaterThan: random.int(0...8), failOnMultipleOf: random.int(2...7))
        case 11: .tryAllSatisfy(lessThan: random.int(1...9), failOnMultipleOf: random.int(2...7))
        case 12: .tryMin(failOnMultipleOf: random.int(2...7))
        case 13: .tryReduce(failOnMultipleOf: random.int(2...7))
        case 14: .dropWhile(lessThan: random.int(1...8))
        case 15: .prefixWhile(lessThan: random.int(1...9))
        case 16: .tryDropWhile(lessThan: random.int(1...8), failOnMultipleOf: random.int(2...7))
        case 17: .tryPrefixWhile(lessThan: random.int(1...9), failOnMultipleOf: random.int(2...7))
        case 18: .tryFilter(keepMultipleOf: random.int(1...3), failOnMultipleOf: random.int(2...7))
        case 19: .tryCompactMap(nilOnMultipleOf: random.int(2...4), failOnMultipleOf: random.int(2...7))
        case 20: .tryScan(failOnMultipleOf: random.int(2...7))
        case 21: .tryRemoveDuplicates(failOnMultipleOf: random.int(2...7))
        case 22: .replaceEmpty(random.int(0...9))
        case 23: .outputAt(random.int(0...3))
        case 24: outputIn()
        case 25: .dropUntilOutput(source(depth: 1))
        case 26: .prefixUntilOutput(source(depth: 1))
        default: .ignoreOutput
        }
    }

    /// `output(in:)` over a closed range of one to three indices or a half-open one of none to three.
    mutating func outputIn() -> Stage {
        let lower = random.int(0...2)
        let closed = random.chance(50)
        return .outputIn(lower, lower + random.int(closed ? 0...2 : 0...3), closed: closed)
    }

    mutating func subscriber() -> SubscriberScript {
        let initial: Int? =
            switch random.int(0...9) {
            case 0, 1: nil
            case 2, 3, 4: 0
            default: random.int(1...3)
            }
        var requests: [SubscriberScript.Request] = []
        for _ in 0..<random.int(0...2) {
            requests.append(.init(tick: random.int(1...20), count: random.int(1...3)))
        }
        requests.sort { $0.tick < $1.tick }
        return SubscriberScript(
            initial: initial, perValue: random.pick([0, 0, 0, 1, 2]), cancelOnSubscription: random.chance(3),
            cancelOnValue: random.chance(20) ? random.int(1...3) : nil, requests: requests,
            cancelAt: random.chance(15) ? random.int(1...20) : nil)
    }
}
