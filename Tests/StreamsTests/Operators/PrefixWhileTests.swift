import Streams
import StreamsTesting
import Testing

@Suite struct PrefixWhileTests {
    typealias Sub = HandWrittenSubscriber<Int, Never>

    @Test func prefixWhilePublishesUntilThePredicateFailsThenFinishes() {
        let recorder = [1, 2, 5, 1].publisher.prefix { $0 < 3 }.record()
        #expect(recorder.events == [.value(1, at: .zero), .value(2, at: .zero), .finished(at: .zero)])
    }

    @Test func theFailingValueCancelsUpstreamBeforeTheFinish() {
        let probe = SimpleProbe<Int, Never>()
        var events: [String] = []
        probe.handleEvents(receiveCancel: { events.append("cancel") }).prefix { $0 < 3 }.subscribe(
            AnySubscriber<Int, Never>(
                receiveSubscription: { $0.request(.unlimited) },
                receiveValue: {
                    events.append("value \($0)")
                    return .none
                },
                receiveCompletion: { _ in events.append("finished") }))
        probe.send(1)
        probe.send(7)
        #expect(events == ["value 1", "cancel", "finished"])
        #expect(probe.cancelCount == 1)
        probe.send(2)
        probe.send(completion: .finished)
        #expect(events == ["value 1", "cancel", "finished"])
    }

    @Test func demandPassesStraightThrough() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub(initial: .max(1), perValue: .max(2))
        probe.prefix { $0 < 9 }.subscribe(subscriber)
        #expect(probe.requests == [.max(1)])
        #expect(probe.send(1) == .max(2))
        subscriber.request(.max(3))
        #expect(probe.requests == [.max(1), .max(3)])
    }

    @Test func theSubscriberGetsExactlyWhatItAskedFor() {
        let subscriber = Sub(initial: .max(1))
        (1...9).publisher.prefix { $0 < 4 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(5))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func anEarlierUpstreamCompletionIsForwarded() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.prefix { $0 < 3 }.record()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func noFinishAfterACancelOnTheLastValue() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub(initial: .unlimited, cancelOnValue: 1)
        probe.prefix { $0 < 3 }.subscribe(subscriber)
        probe.send(1)
        probe.send(5)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(probe.cancelCount == 1)
    }

    @Test func endingReleasesThePredicate() {
        let probe = SimpleProbe<Int, Never>(keepsSubscriber: false)
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<Int, Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = probe.prefix { value in withExtendedLifetime(token) { value < 3 } }.record()
        }
        probe.send(1)
        #expect(weakToken != nil)
        probe.send(3)
        #expect(weakToken == nil)
        #expect(recorder.values == [1])
        #expect(recorder.isFinished)
    }

    @Test func tryPrefixWhilePublishesUntilThePredicateFails() {
        let recorder = [1, 2, 5, 1].publisher.tryPrefix { $0 < 3 }.record()
        #expect(recorder.values == [1, 2])
        #expect(recorder.isFinished)
    }

    @Test func tryPrefixWhileGivesTheSubscriberExactlyWhatItAskedFor() {
        let subscriber = HandWrittenSubscriber<Int, any Error>(initial: .max(1))
        (1...9).publisher.tryPrefix { $0 < 4 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(3))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }
}
