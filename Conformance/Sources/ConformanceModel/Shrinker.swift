/// Shrinks a pipeline on which the libraries disagree to a smaller one on which they still disagree: fewer
/// stages, shorter timelines and value lists, a plainer subscriber. Greedy: it keeps any candidate that
/// still fails and starts over, until no candidate does.
public enum Shrinker {
    /// The smallest failing pipeline found from `pipeline`, where `fails` says whether one still disagrees.
    public static func shrink(_ pipeline: Pipeline, fails: (Pipeline) -> Bool) -> Pipeline {
        var current = pipeline
        var improved = true
        var rounds = 0
        while improved, rounds < 200 {
            improved = false
            rounds += 1
            for candidate in candidates(current) where fails(candidate) {
                current = candidate
                improved = true
                break
            }
        }
        return current
    }

    /// Smaller variants of `pipeline`, the most aggressive first.
    static func candidates(_ pipeline: Pipeline) -> [Pipeline] {
        var result: [Pipeline] = []
        // Drop a stage.
        for index in pipeline.stages.indices {
            var copy = pipeline
            copy.stages.remove(at: index)
            result.append(copy)
        }
        // Simplify a stage's own source or a value list.
        for index in pipeline.stages.indices {
            for smaller in smaller(pipeline.stages[index]) {
                var copy = pipeline
                copy.stages[index] = smaller
                result.append(copy)
            }
        }
        for source in smaller(pipeline.source) {
            var copy = pipeline
            copy.source = source
            result.append(copy)
        }
        // A plainer subscriber.
        var script = pipeline.subscriber
        if script.cancelAt != nil {
            script.cancelAt = nil
            result.append(Pipeline(source: pipeline.source, stages: pipeline.stages, subscriber: script))
        }
        script = pipeline.subscriber
        if script.cancelOnSubscription {
            script.cancelOnSubscription = false
            result.append(Pipeline(source: pipeline.source, stages: pipeline.stages, subscriber: script))
        }
        script = pipeline.subscriber
        if script.cancelOnValue != nil {
            script.cancelOnValue = nil
            result.append(Pipeline(source: pipeline.source, stages: pipeline.stages, subscriber: script))
        }
        if pipeline.subscriber.sendOnValue != nil {
            var copy = pipeline
            copy.subscriber.sendOnValue = nil
            result.append(copy)
        }
        for index in pipeline.subscriber.requests.indices {
            var copy = pipeline
            copy.subscriber.requests.remove(at: index)
            result.append(copy)
        }
        if pipeline.subscriber.perValue > 0 {
            var copy = pipeline
            copy.subscriber.perValue = 0
            result.append(copy)
        }
        if pipeline.subscriber.initial != 0 {
            var copy = pipeline
            copy.subscriber.initial = 0
            result.append(copy)
        }
        return result
    }

    static func smaller(_ source: Source) -> [Source] {
        switch source {
        case .subject(let events):
            return events.indices.map { index in
                var copy = events
                copy.remove(at: index)
                return .subject(copy)
            }
        case .currentValue(let initial, let events):
            return [.subject(events)]
                + events.indices.map { index in
                    var copy = events
                    copy.remove(at: index)
                    return .currentValue(initial, copy)
                }
        case .sequence(let values), .deferred(let values):
            var result: [Source] = values.indices.map { index in
                var copy = values
                copy.remove(at: index)
                return .sequence(copy)
            }
            if case .deferred = source { result.insert(.sequence(values), at: 0) }
            return result
        case .replaySubject(let size, let early, let events):
            return early.indices.map { index in
                var copy = early
                copy.remove(at: index)
                return .replaySubject(bufferSize: size, early: copy, events)
            }
                + events.indices.map { index in
                    var copy = events
                    copy.remove(at: index)
                    return .replaySubject(bufferSize: size, early: early, copy)
                }
        case .relay(let initial, let events):
            return (initial == nil ? [] : [.relay(initial: nil, events)])
                + events.indices.map { index in
                    var copy = events
                    copy.remove(at: index)
                    return .relay(initial: initial, copy)
                }
        case .future(let value, let tick):
            return tick == 0 ? [] : [.future(value, at: 0)]
        case .just, .empty, .fail, .timer:
            return []
        }
    }

    static func smaller(_ stage: Stage) -> [Stage] {
        switch stage {
        case .zip(let source): smaller(source).map(Stage.zip)
        case .merge(let source): smaller(source).map(Stage.merge)
        case .combineLatest(let source): smaller(source).map(Stage.combineLatest)
        case .dropUntilOutput(let source): smaller(source).map(Stage.dropUntilOutput)
        case .prefixUntilOutput(let source): smaller(source).map(Stage.prefixUntilOutput)
        case .withLatestFrom(let source): smaller(source).map(Stage.withLatestFrom)
        case .amb(let source): smaller(source).map(Stage.amb)
        // An earlier connection (never moved before the subscription, which is another case), a plainer buffer.
        case .connectable(let kind, .some(let tick)) where tick > 1: [.connectable(kind, connectAt: tick - 1)]
        case .buffer(let size, let keepFull, let whenFull):
            (size > 1 ? [.buffer(size - 1, keepFull: keepFull, whenFull: whenFull)] : [])
                + (whenFull == .dropNewest ? [] : [.buffer(size, keepFull: keepFull, whenFull: .dropNewest)])
        case .zip3(let b, let c): [.zip(b), .zip(c)] + pairs(b, c).map { .zip3($0.0, $0.1) }
        case .merge3(let b, let c): [.merge(b), .merge(c)] + pairs(b, c).map { .merge3($0.0, $0.1) }
        case .combineLatest3(let b, let c): [.combineLatest(b), .combineLatest(c)] + pairs(b, c).map { .combineLatest3($0.0, $0.1) }
        // A narrower range, fewer indices.
        case .outputIn(let lower, let upper, let closed):
            (upper > lower ? [.outputIn(lower, upper - 1, closed: closed)] : [])
                + (lower > 0 ? [.outputIn(lower - 1, upper - 1, closed: closed)] : [])
        case .outputAt(let index): index > 0 ? [.outputAt(index - 1)] : []
        case .prepend(let values): values.indices.map { index in .prepend(values.enumerated().filter { $0.offset != index }.map(\.element)) }
        case .append(let values): values.indices.map { index in .append(values.enumerated().filter { $0.offset != index }.map(\.element)) }
        default: []
        }
    }

    /// Two sources with one of them simpler.
    static func pairs(_ b: Source, _ c: Source) -> [(Source, Source)] {
        smaller(b).map { ($0, c) } + smaller(c).map { (b, $0) }
    }
}
