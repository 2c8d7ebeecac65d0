import Streams
import StreamsTesting
import Testing

/// The combining operators in the forms the other leak checks leave out: `combineLatest`/`zip` without a
/// transform and with four sources, `merge` with 4 to 8 sources (and the chained `Merge.merge(with:)`),
/// `MergeMany`, `prepend`/`append` of a publisher or a sequence, `flatMap(maxPublishers:)` and the
/// `switchToLatest`/`flatMap` overloads that adapt a `Never` failure. Each is subscribed, fed, then cancelled or
/// completed with every source kept alive outside the checked body.
@Suite struct LeakChecksForCombining {
    enum Operator: String, CaseIterable, Sendable {
        case combineLatest2, combineLatest3Plain, combineLatest4, combineLatest4Transform, zip2, zip3Plain, zip4
        case zip4Transform, merge4, merge5, merge6, merge7, merge8, mergeChained, mergeMany, mergeManyChained
        case prependPublisher, prependSequence, appendPublisher, appendSequence, flatMapMaxPublishers
        case flatMapNeverUpstream, flatMapNeverChild, switchToLatestNeverUpstream, switchToLatestNeverChild
    }

    @Test(arguments: Operator.allCases, LeakCheckEnding.allCases)
    func everyObjectIsFreed(_ op: Operator, _ ending: LeakCheckEnding) {
        let source = PassthroughSubject<Int, Never>()
        let others = (0..<7).map { _ in PassthroughSubject<Int, Never>() }
        let failing = PassthroughSubject<Int, TestError>()
        let failingInner = PassthroughSubject<Int, TestError>()
        let (a, b, c, d, e, f, g) = (others[0], others[1], others[2], others[3], others[4], others[5], others[6])
        expectNoLeaks { tracker in
            let token = tracker.token("\(op) closure")
            let mapped = source.map { token($0) }
            let pipeline: AnyPublisher<String, any Error> =
                switch op {
                case .combineLatest2: LeakCheckPipeline.erase(mapped.combineLatest(a).map { $0 + $1 })
                case .combineLatest3Plain: LeakCheckPipeline.erase(mapped.combineLatest(a, b).map { $0 + $1 + $2 })
                case .combineLatest4: LeakCheckPipeline.erase(mapped.combineLatest(a, b, c).map { $0 + $1 + $2 + $3 })
                case .combineLatest4Transform: LeakCheckPipeline.erase(source.combineLatest(a, b, c) { token($0 + $1 + $2 + $3) })
                case .zip2: LeakCheckPipeline.erase(mapped.zip(a).map { $0 + $1 })
                case .zip3Plain: LeakCheckPipeline.erase(mapped.zip(a, b).map { $0 + $1 + $2 })
                case .zip4: LeakCheckPipeline.erase(mapped.zip(a, b, c).map { $0 + $1 + $2 + $3 })
                case .zip4Transform: LeakCheckPipeline.erase(source.zip(a, b, c) { token($0 + $1 + $2 + $3) })
                case .merge4: LeakCheckPipeline.erase(mapped.merge(with: a, b, c))
                case .merge5: LeakCheckPipeline.erase(mapped.merge(with: a, b, c, d))
                case .merge6: LeakCheckPipeline.erase(mapped.merge(with: a, b, c, d, e))
                case .merge7: LeakCheckPipeline.erase(mapped.merge(with: a, b, c, d, e, f))
                case .merge8: LeakCheckPipeline.erase(mapped.merge(with: a, b, c, d, e, f, g))
                case .mergeChained:
                    LeakCheckPipeline.erase(mapped.merge(with: a).merge(with: b).merge(with: c).merge(with: d, e).merge(with: f, g))
                case .mergeMany:
                    LeakCheckPipeline.erase(Publishers.MergeMany([source, a, b]).map { token($0) })
                case .mergeManyChained:
                    LeakCheckPipeline.erase(Publishers.MergeMany([source, a]).merge(with: b).map { token($0) })
                case .prependPublisher: LeakCheckPipeline.erase(mapped.prepend(a))
                case .prependSequence: LeakCheckPipeline.erase(mapped.prepend([7, 8]))
                case .appendPublisher: LeakCheckPipeline.erase(mapped.append(a))
                case .appendSequence: LeakCheckPipeline.erase(mapped.append([7, 8]))
                case .flatMapMaxPublishers:
                    LeakCheckPipeline.erase(source.flatMap(maxPublishers: .max(1)) { value in token(value == 1 ? a : b) })
                case .flatMapNeverUpstream:
                    LeakCheckPipeline.erase(source.flatMap { _ in token(failingInner) })
                case .flatMapNeverChild:
                    LeakCheckPipeline.erase(failing.flatMap { value in token(value == 1 ? a : b) })
                case .switchToLatestNeverUpstream:
                    LeakCheckPipeline.erase(source.map { _ in token(failingInner) }.switchToLatest())
                case .switchToLatestNeverChild:
                    LeakCheckPipeline.erase(failing.map { value in token(value == 1 ? a : b) }.switchToLatest())
                }
            let recorder = tracker.record(pipeline)
            source.send(1)
            failing.send(1)
            for other in others { other.send(10) }
            failingInner.send(20)
            source.send(2)
            failing.send(2)
            for other in others { other.send(30) }
            if ending == .cancel {
                recorder.cancel()
            } else {
                source.send(completion: .finished)
                failing.send(completion: .finished)
                for other in others { other.send(completion: .finished) }
                failingInner.send(completion: .finished)
                #expect(recorder.completion != nil, "\(op) should have completed")
            }
            #expect(!recorder.values.isEmpty, "\(op) should have published")
        }
        withExtendedLifetime((source, others, failing, failingInner)) {}
    }

    /// A failure from one source ends the combination: the other sources must let go of it too.
    enum Failing: String, CaseIterable, Sendable {
        case combineLatest4, zip4, merge8, mergeMany, prepend, append, flatMap, switchToLatest
    }

    @Test(arguments: Failing.allCases) func aFailureFromOneSourceFreesEverything(_ op: Failing) {
        let first = PassthroughSubject<Int, TestError>()
        let second = PassthroughSubject<Int, TestError>()
        expectNoLeaks { tracker in
            let token = tracker.token("\(op) closure")
            let mapped = first.map { token($0) }
            let pipeline: AnyPublisher<String, any Error> =
                switch op {
                case .combineLatest4: LeakCheckPipeline.erase(mapped.combineLatest(second, second, second) { $0 + $1 + $2 + $3 })
                case .zip4: LeakCheckPipeline.erase(mapped.zip(second, second, second) { $0 + $1 + $2 + $3 })
                case .merge8: LeakCheckPipeline.erase(mapped.merge(with: second, second, second, second, second, second, second))
                case .mergeMany: LeakCheckPipeline.erase(Publishers.MergeMany([first, second]).map { token($0) })
                case .prepend: LeakCheckPipeline.erase(mapped.prepend(second))
                case .append: LeakCheckPipeline.erase(second.append(mapped))
                case .flatMap: LeakCheckPipeline.erase(first.flatMap { _ in token(second) })
                case .switchToLatest: LeakCheckPipeline.erase(first.map { _ in token(second) }.switchToLatest())
                }
            let recorder = tracker.record(pipeline)
            first.send(1)
            second.send(2)
            if op == .prepend || op == .append { second.send(completion: .finished) }
            first.send(3)
            if op == .prepend || op == .append {
                first.send(completion: .failure(.boom))
            } else {
                second.send(completion: .failure(.boom))
            }
            #expect(recorder.failure as? TestError == .boom, "\(op) should have failed")
        }
        withExtendedLifetime((first, second)) {}
    }
}
