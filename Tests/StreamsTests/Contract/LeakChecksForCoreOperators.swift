import Streams
import StreamsTesting
import Testing

/// The operators not yet covered by `LeakChecks` and `LeakChecksForCombineParity` (and the newer ones, which
/// have leak tests in their own suites): each subscribed, fed, then cancelled or completed with its sources kept
/// alive outside the checked body; the subscriber, the subscription it received and the closures' tokens must
/// all be freed.
@Suite struct LeakChecksForCoreOperators {
    enum Operator: String, CaseIterable, Sendable {
        case compactMap, tryMap, mapError, removeDuplicatesBy, handleEvents, prefix, dropFirst, collectCount
        case throttle, delay, timeout, receiveOn, subscribeOn, switchToLatest, mergeWith, firstWhere, reduce
        case replaceError, breakpoint, setFailureTypeCatch, prepend, append, shareReplay, currentValueSubject
    }

    @Test(arguments: Operator.allCases, LeakCheckEnding.allCases)
    func everyObjectIsFreed(_ op: Operator, _ ending: LeakCheckEnding) {
        let source = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        let current = CurrentValueSubject<Int, Never>(0)
        let scheduler = TestScheduler()
        expectNoLeaks { tracker in
            let token = tracker.token("\(op) closure")
            let pipeline: AnyPublisher<String, any Error> =
                switch op {
                case .compactMap: LeakCheckPipeline.erase(source.compactMap { token(Optional($0)) })
                case .tryMap: LeakCheckPipeline.erase(source.tryMap { token($0) })
                case .mapError:
                    LeakCheckPipeline.erase(source.setFailureType(to: TestError.self).mapError { token($0) })
                case .removeDuplicatesBy: LeakCheckPipeline.erase(source.removeDuplicates { token($0 == $1) })
                case .handleEvents: LeakCheckPipeline.erase(source.handleEvents(receiveOutput: { _ in token() }))
                case .prefix: LeakCheckPipeline.erase(source.map { token($0) }.prefix(5))
                case .dropFirst: LeakCheckPipeline.erase(source.map { token($0) }.dropFirst())
                case .collectCount: LeakCheckPipeline.erase(source.map { token($0) }.collect(2))
                case .throttle:
                    LeakCheckPipeline.erase(source.map { token($0) }.throttle(for: .milliseconds(10), scheduler: scheduler, latest: true))
                case .delay: LeakCheckPipeline.erase(source.map { token($0) }.delay(for: .milliseconds(10), scheduler: scheduler))
                case .timeout: LeakCheckPipeline.erase(source.map { token($0) }.timeout(.seconds(5), scheduler: scheduler))
                case .receiveOn: LeakCheckPipeline.erase(source.map { token($0) }.receive(on: scheduler))
                case .subscribeOn: LeakCheckPipeline.erase(source.map { token($0) }.subscribe(on: scheduler))
                case .switchToLatest: LeakCheckPipeline.erase(source.map { value in token(Just(value)) }.switchToLatest())
                case .mergeWith: LeakCheckPipeline.erase(source.map { token($0) }.merge(with: other))
                case .firstWhere: LeakCheckPipeline.erase(source.first { token($0 > 5) })
                case .reduce: LeakCheckPipeline.erase(source.reduce(0) { token($0 + $1) })
                case .replaceError:
                    LeakCheckPipeline.erase(source.setFailureType(to: TestError.self).map { token($0) }.replaceError(with: 0))
                case .breakpoint: LeakCheckPipeline.erase(source.breakpoint(receiveOutput: { _ in token(false) }))
                case .setFailureTypeCatch:
                    LeakCheckPipeline.erase(source.setFailureType(to: TestError.self).catch { _ in token(Just(0)) })
                case .prepend: LeakCheckPipeline.erase(source.map { token($0) }.prepend(0))
                case .append: LeakCheckPipeline.erase(source.map { token($0) }.append(9))
                case .shareReplay: LeakCheckPipeline.erase(source.map { token($0) }.share(replay: 1))
                case .currentValueSubject: LeakCheckPipeline.erase(current.map { token($0) })
                }
            let recorder = tracker.record(pipeline)
            other.send(1)
            source.send(1)
            current.send(1)
            source.send(2)
            scheduler.advance(by: .seconds(1))
            if ending == .cancel {
                recorder.cancel()
                // subscribe(on:) forwards the cancel on its scheduler, as Combine does: run it.
                scheduler.advance(by: .seconds(1))
            } else {
                source.send(completion: .finished)
                other.send(completion: .finished)
                current.send(completion: .finished)
                scheduler.advance(by: .seconds(1))
            }
        }
        withExtendedLifetime((source, other, current, scheduler)) {}
    }
}
