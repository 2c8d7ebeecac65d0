import Streams
import StreamsTesting
import Testing

/// Rule (b) of the demand contract, over every publisher and operator: a subscriber that cancels from inside
/// `receive(_:)` of its k-th value gets nothing more — no value, no completion — whatever follows upstream.
/// Each pipeline publishes `1, 2, 3` and then finishes (or fails); virtual time runs to the end.
@Suite struct NothingAfterCancelTests {
    /// A pipeline under test: a name, and how to build it on a scheduler.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable (TestScheduler) -> AnyPublisher<Int, TestError>
        var testDescription: String { name }
    }

    static let ms = Duration.milliseconds(10)

    /// `1, 2, 3`, then `.finished`, each 10 ms apart on the scheduler.
    static func timed(_ scheduler: TestScheduler, failing: Bool = false) -> AnyPublisher<Int, TestError> {
        let subject = PassthroughSubject<Int, TestError>()
        for (index, value) in [1, 2, 3].enumerated() {
            _ = scheduler.schedule(after: .zero + ms * (index + 1)) { subject.send(value) }
        }
        _ = scheduler.schedule(after: .zero + ms * 4) {
            subject.send(completion: failing ? .failure(.boom) : .finished)
        }
        return subject.eraseToAnyPublisher()
    }

    static var values: Publishers.SetFailureType<Publishers.Sequence<[Int], Never>, TestError> {
        [1, 2, 3].publisher.setFailureType(to: TestError.self)
    }

    static let cases: [Case] = [
        Case(name: "sequence") { _ in values.eraseToAnyPublisher() },
        Case(name: "subject") { timed($0) },
        Case(name: "map") { _ in values.map { $0 }.eraseToAnyPublisher() },
        Case(name: "tryMap") { _ in values.tryMap { $0 }.mapError { _ in TestError.boom }.eraseToAnyPublisher() },
        Case(name: "filter") { _ in values.filter { _ in true }.eraseToAnyPublisher() },
        Case(name: "compactMap") { _ in values.compactMap { $0 }.eraseToAnyPublisher() },
        Case(name: "removeDuplicates") { _ in values.removeDuplicates().eraseToAnyPublisher() },
        Case(name: "scan") { _ in values.scan(0) { $1 }.eraseToAnyPublisher() },
        Case(name: "handleEvents") { _ in values.handleEvents().eraseToAnyPublisher() },
        Case(name: "trace") { values.trace("t", to: TraceLog(), scheduler: $0).eraseToAnyPublisher() },
        Case(name: "materialize+dematerialize") { _ in
            [1, 2, 3].publisher.materialize().dematerialize().setFailureType(to: TestError.self).eraseToAnyPublisher()
        },
        Case(name: "pairwise") { _ in
            [0, 1, 2, 3].publisher.setFailureType(to: TestError.self).pairwise().map { $0.1 }.eraseToAnyPublisher()
        },
        Case(name: "nwise(2)") { _ in
            [0, 1, 2, 3].publisher.setFailureType(to: TestError.self).nwise(2).map { $0[1] }.eraseToAnyPublisher()
        },
        Case(name: "retry(when:)") { _ in values.retry(when: { $0 }).eraseToAnyPublisher() },
        Case(name: "withLatestFrom") { _ in
            values.withLatestFrom(Just(0).setFailureType(to: TestError.self)) { value, _ in value }.eraseToAnyPublisher()
        },
        Case(name: "amb") { _ in values.amb(Empty(completeImmediately: false)).eraseToAnyPublisher() },
        Case(name: "create") { _ in
            AnyPublisher<Int, TestError>.create { subscriber in
                for value in [1, 2, 3] { subscriber.send(value) }
                subscriber.send(completion: .finished)
                return AnyCancellable {}
            }
        },
        Case(name: "ReplaySubject") { _ in
            let subject = ReplaySubject<Int, TestError>(bufferSize: 3)
            for value in [1, 2, 3] { subject.send(value) }
            subject.send(completion: .finished)
            return subject.eraseToAnyPublisher()
        },
        Case(name: "flatMapLatest") { _ in
            values.flatMapLatest { Just($0).setFailureType(to: TestError.self) }.eraseToAnyPublisher()
        },
        Case(name: "prefix(3)") { _ in values.prefix(3).eraseToAnyPublisher() },
        Case(name: "dropFirst(0)") { _ in values.dropFirst(0).eraseToAnyPublisher() },
        Case(name: "collect(1)") { _ in values.collect(1).map { $0[0] }.eraseToAnyPublisher() },
        Case(name: "drop(while:)") { _ in values.drop { $0 < 1 }.eraseToAnyPublisher() },
        Case(name: "tryDrop(while:)") { _ in
            values.tryDrop { $0 < 1 }.mapError { _ in TestError.boom }.eraseToAnyPublisher()
        },
        Case(name: "prefix(while:)") { _ in values.prefix { $0 < 9 }.eraseToAnyPublisher() },
        Case(name: "tryPrefix(while:)") { _ in
            values.tryPrefix { $0 < 9 }.mapError { _ in TestError.boom }.eraseToAnyPublisher()
        },
        Case(name: "tryFilter") { _ in
            values.tryFilter { _ in true }.mapError { _ in TestError.boom }.eraseToAnyPublisher()
        },
        Case(name: "tryCompactMap") { _ in
            values.tryCompactMap { $0 }.mapError { _ in TestError.boom }.eraseToAnyPublisher()
        },
        Case(name: "tryScan") { _ in
            values.tryScan(0) { $1 }.mapError { _ in TestError.boom }.eraseToAnyPublisher()
        },
        Case(name: "tryRemoveDuplicates") { _ in
            values.tryRemoveDuplicates(by: ==).mapError { _ in TestError.boom }.eraseToAnyPublisher()
        },
        Case(name: "replaceNil") { _ in values.map { Optional($0) }.replaceNil(with: 0).eraseToAnyPublisher() },
        Case(name: "replaceEmpty") { _ in values.replaceEmpty(with: 0).eraseToAnyPublisher() },
        Case(name: "assertNoFailure") { _ in
            values.assertNoFailure().setFailureType(to: TestError.self).eraseToAnyPublisher()
        },
        Case(name: "map(keyPath)") { _ in values.map(\.self).eraseToAnyPublisher() },
        Case(name: "output(in:)") { _ in values.output(in: 0..<9).eraseToAnyPublisher() },
        Case(name: "drop(untilOutputFrom:)") { _ in
            values.drop(untilOutputFrom: Just(()).setFailureType(to: TestError.self)).eraseToAnyPublisher()
        },
        Case(name: "prefix(untilOutputFrom:)") { scheduler in
            timed(scheduler).prefix(untilOutputFrom: Empty<Void, Never>()).eraseToAnyPublisher()
        },
        Case(name: "append") { _ in [1, 2].publisher.setFailureType(to: TestError.self).append(3).eraseToAnyPublisher() },
        Case(name: "prepend") { _ in [2, 3].publisher.setFailureType(to: TestError.self).prepend(1).eraseToAnyPublisher() },
        Case(name: "catch") { _ in
            Fail<Int, TestError>(error: .boom).catch { _ in values }.eraseToAnyPublisher()
        },
        Case(name: "replaceError") { scheduler in
            timed(scheduler, failing: true).replaceError(with: 9).setFailureType(to: TestError.self)
                .eraseToAnyPublisher()
        },
        Case(name: "retry") { _ in values.retry(2).eraseToAnyPublisher() },
        Case(name: "share") { _ in values.share().eraseToAnyPublisher() },
        Case(name: "share(replay:)") { scheduler in timed(scheduler).share(replay: 1).eraseToAnyPublisher() },
        Case(name: "flatMap") { _ in values.flatMap { Just($0).setFailureType(to: TestError.self) }.eraseToAnyPublisher() },
        Case(name: "switchToLatest") { _ in
            values.map { Just($0).setFailureType(to: TestError.self) }.switchToLatest().eraseToAnyPublisher()
        },
        Case(name: "merge") { scheduler in
            timed(scheduler).merge(with: Empty<Int, TestError>()).eraseToAnyPublisher()
        },
        Case(name: "combineLatest") { scheduler in
            timed(scheduler).combineLatest(Just(0).setFailureType(to: TestError.self)) { a, _ in a }
                .eraseToAnyPublisher()
        },
        Case(name: "zip") { _ in values.zip([0, 0, 0].publisher.setFailureType(to: TestError.self)) { a, _ in a }.eraseToAnyPublisher() },
        Case(name: "debounce") { scheduler in
            timed(scheduler).debounce(for: .milliseconds(1), scheduler: scheduler).eraseToAnyPublisher()
        },
        Case(name: "throttle") { scheduler in
            timed(scheduler).throttle(for: .milliseconds(1), scheduler: scheduler, latest: true).eraseToAnyPublisher()
        },
        Case(name: "delay") { scheduler in timed(scheduler).delay(for: ms, scheduler: scheduler).eraseToAnyPublisher() },
        Case(name: "delay (same instant)") { scheduler in
            values.delay(for: ms, scheduler: scheduler).eraseToAnyPublisher()
        },
        Case(name: "receive(on:)") { scheduler in values.receive(on: scheduler).eraseToAnyPublisher() },
        Case(name: "subscribe(on:)") { scheduler in values.subscribe(on: scheduler).eraseToAnyPublisher() },
        Case(name: "timeout") { scheduler in
            timed(scheduler).timeout(.seconds(1), scheduler: scheduler).eraseToAnyPublisher()
        },
        Case(name: "Deferred") { _ in Deferred { values }.eraseToAnyPublisher() },
        Case(name: "Just + append") { _ in Just(1).setFailureType(to: TestError.self).append(2, 3).eraseToAnyPublisher() },
        Case(name: "Future + append") { _ in
            Future<Int, TestError> { promise in promise(.success(1)) }.append(2, 3).eraseToAnyPublisher()
        },
        Case(name: "CurrentValueSubject") { scheduler in
            let subject = CurrentValueSubject<Int, TestError>(1)
            _ = scheduler.schedule(after: .zero + ms) { subject.send(2) }
            _ = scheduler.schedule(after: .zero + ms * 2) { subject.send(3) }
            _ = scheduler.schedule(after: .zero + ms * 3) { subject.send(completion: .finished) }
            return subject.eraseToAnyPublisher()
        },
    ]

    @Test(arguments: cases)
    func nothingReachesASubscriberAfterItCancelsInsideReceive(_ pipeline: Case) {
        for k in 1...3 {
            let scheduler = TestScheduler()
            let subscriber = HandWrittenSubscriber<Int, TestError>(initial: .unlimited, cancelOnValue: k)
            pipeline.make(scheduler).subscribe(subscriber)
            scheduler.advance(to: .zero + .seconds(10))
            let events = subscriber.events
            let values = events.filter { if case .value = $0 { true } else { false } }
            #expect(values.count == k, "\(pipeline.name), cancel on value \(k): \(events)")
            #expect(events.last.map { if case .value = $0 { true } else { false } } == true,
                "\(pipeline.name), cancel on value \(k): \(events)")
        }
    }

    @Test(arguments: cases)
    func nothingReachesASubscriberThatCancelsInReceiveSubscription(_ pipeline: Case) {
        let scheduler = TestScheduler()
        let subscriber = HandWrittenSubscriber<Int, TestError>(cancelOnSubscription: true)
        pipeline.make(scheduler).subscribe(subscriber)
        scheduler.advance(to: .zero + .seconds(10))
        #expect(subscriber.events == [.subscription], "\(pipeline.name): \(subscriber.events)")
    }
}
