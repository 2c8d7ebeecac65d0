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
        case .subject, .currentValue: subscriber.sendOnValue = sendOnValue
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
        case 0, 1, 2: .subject(timeline())
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
        // most cases stay differential.
        switch random.chance(8) ? random.int(30...34) : random.int(0...29) {
        case 0: .map(random.int(1...9))
        case 1: .tryMap(failOnMultipleOf: random.int(2...7))
        case 2: .filter(keepMultipleOf: random.int(1...3))
        case 3: .compactMap(nilOnMultipleOf: random.int(2...4))
        case 4: .mapError
        case 5: .removeDuplicates
        case 6: .scan
        case 7: .reduce
        case 8: .collect
        case 9: .collectCount(random.int(1...3))
        case 10: .prefix(random.int(0...3))
        case 11: .first
        case 12: .firstWhere(greaterThan: random.int(0...6))
        case 13: .dropFirst(random.int(0...3))
        case 14: .handleEvents
        case 15: .catchJust(random.int(0...9))
        case 16: .replaceError(random.int(0...9))
        case 17: .retry(random.int(0...2))
        case 18: .share
        case 19: .flatMap(maxPublishers: random.chance(50) ? random.int(1...2) : nil, inner())
        case 20: .switchToLatest(inner())
        case 21: .handleEvents
        case 22: .prepend(values())
        case 23: .append(values())
        case 24: .debounce(random.int(1...4))
        case 25: .throttle(random.int(1...4), latest: random.chance(50))
        case 26: .delay(random.int(1...4))
        case 27: .timeout(random.int(2...8))
        case 28: .receiveOn
        case 29: .subscribeOn
        case 30: .zip(source(depth: 1))
        case 31: .merge(source(depth: 1))
        case 32: .combineLatest(source(depth: 1))
        case 33: .shareReplay(random.int(1...2))
        default: .retryBackoff(random.int(0...2), delay: random.int(1...3))
        }
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
