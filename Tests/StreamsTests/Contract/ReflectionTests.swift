import Streams
import StreamsTesting
import Testing

/// `dump`, `Mirror` and test-failure messages reflect objects field by field. The Swift runtime (6.3) traps
/// when it reflects a noncopyable field (an `Atomic`, say) of a generic class, so every such class in
/// Streams supplies its own mirror: reflecting any subscriber or subscription must never crash.
@Suite struct ReflectionTests {
    @Test func subscriptionsOfEveryKindCanBeDumped() {
        let subject = PassthroughSubject<Int, Never>()
        let current = CurrentValueSubject<Int, Never>(1)
        let scheduler = TestScheduler()
        let publishers: [(String, AnyPublisher<Int, Never>)] = [
            ("PassthroughSubject", subject.eraseToAnyPublisher()),
            ("CurrentValueSubject", current.eraseToAnyPublisher()),
            ("share", subject.share().eraseToAnyPublisher()),
            ("Just", Just(1).eraseToAnyPublisher()),
            ("sequence", [1, 2].publisher.eraseToAnyPublisher()),
            ("scan", subject.scan(0, +).eraseToAnyPublisher()),
            ("removeDuplicates", subject.removeDuplicates().eraseToAnyPublisher()),
            ("map/filter", subject.map { $0 + 1 }.filter { $0 > 0 }.eraseToAnyPublisher()),
            ("share(replay:)", subject.share(replay: 1).eraseToAnyPublisher()),
            ("flatMap", subject.flatMap { Just($0) }.eraseToAnyPublisher()),
            ("merge", subject.merge(with: current).eraseToAnyPublisher()),
            ("combineLatest", subject.combineLatest(current).map { $0 + $1 }.eraseToAnyPublisher()),
            ("zip", subject.zip(current).map { $0 + $1 }.eraseToAnyPublisher()),
            ("prefix", subject.prefix(2).eraseToAnyPublisher()),
            ("dropFirst", subject.dropFirst().eraseToAnyPublisher()),
            ("compactMap", subject.compactMap { $0 }.eraseToAnyPublisher()),
            ("collect", subject.collect().map(\.count).eraseToAnyPublisher()),
            ("handleEvents", subject.handleEvents(receiveOutput: { _ in }).eraseToAnyPublisher()),
            ("trace", subject.trace("t", to: TraceLog(), scheduler: scheduler).eraseToAnyPublisher()),
            ("Deferred", Deferred { Just(1) }.eraseToAnyPublisher()),
            ("switchToLatest", subject.map { Just($0) }.switchToLatest().eraseToAnyPublisher()),
            ("debounce", subject.debounce(for: .seconds(1), scheduler: scheduler).eraseToAnyPublisher()),
            ("throttle", subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).eraseToAnyPublisher()),
            ("delay", subject.delay(for: .seconds(1), scheduler: scheduler).eraseToAnyPublisher()),
            ("receive(on:)", subject.receive(on: scheduler).eraseToAnyPublisher()),
            ("subscribe(on:)", subject.subscribe(on: scheduler).eraseToAnyPublisher()),
        ]
        for (name, publisher) in publishers {
            let holder = SubscriptionHolder()
            publisher.subscribe(holder)
            scheduler.advance()  // subscribe(on:) subscribes on the scheduler
            let subscription = holder.subscription
            #expect(subscription != nil, "\(name)")
            var text = ""
            dump(subscription as Any, to: &text)
            #expect(!text.isEmpty, "\(name)")
            subscription?.cancel()
        }
    }

    @Test func sinksAssignsAndTheirCancellablesCanBeDumped() {
        final class Target { var value = 0 }
        let subject = PassthroughSubject<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        subject.subscribe(sink)
        let fromSink = subject.sink { _ in }
        let fromAssign = subject.assign(to: \.value, on: Target())
        var text = ""
        dump(sink, to: &text)
        dump(fromSink, to: &text)
        dump(fromAssign, to: &text)
        dump(AnyCancellable {}, to: &text)
        #expect(text.contains("Sink"))
        sink.cancel()
    }
}
