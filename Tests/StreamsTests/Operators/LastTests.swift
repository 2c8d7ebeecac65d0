import Streams
import StreamsTesting
import Testing

@Suite struct LastTests {
    typealias Sub = HandWrittenSubscriber<Int, Never>

    @Test func lastPublishesTheLastValueWhenUpstreamFinishes() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.last().record()
        subject.send(1)
        subject.send(2)
        #expect(recorder.events.isEmpty)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(2, at: .zero), .finished(at: .zero)])
    }

    @Test func lastOfAnEmptyUpstreamFinishesWithoutAValue() {
        #expect(Empty<Int, Never>().last().record().events == [.finished(at: .zero)])
        #expect(Empty<Int, Never>().last { _ in true }.record().events == [.finished(at: .zero)])
        let tried = Empty<Int, Never>().tryLast { _ in true }.record()
        #expect(tried.events.count == 1)
        #expect(tried.isFinished)
    }

    @Test func lastWhereKeepsTheLastMatch() {
        #expect((1...9).publisher.last { $0 < 5 }.record().values == [4])
        #expect((1...9).publisher.tryLast { $0 < 5 }.record().values == [4])
        let none = (1...9).publisher.last { $0 > 10 }.record()
        #expect(none.events == [.finished(at: .zero)])
    }

    @Test func lastRequestsUnlimitedAndHoldsTheValueUntilTheSubscriberAsks() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub()
        probe.last().subscribe(subscriber)
        #expect(probe.requests == [.unlimited])
        #expect(probe.send(4) == .none)
        #expect(probe.send(5) == .none)
        #expect(probe.cancelCount == 0)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(5), .finished])
        #expect(probe.requests == [.unlimited])
    }

    @Test func lastForwardsAFailureAtOnceAndDropsTheValue() {
        let probe = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, ProbeError>()
        probe.last().subscribe(subscriber)
        probe.send(1)
        probe.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription, .failure("boom")])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .failure("boom")])
    }

    @Test func lastDeliversNothingAfterCancelAndReleasesThePredicate() {
        let probe = SimpleProbe<Int, Never>(keepsSubscriber: false)
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<Int, Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = probe.last { value in withExtendedLifetime(token) { value > 0 } }.record()
        }
        probe.send(1)
        recorder.cancel()
        #expect(weakToken == nil)
        #expect(probe.cancelCount == 1)
        probe.send(2)
        probe.send(completion: .finished)
        #expect(recorder.events.isEmpty)
    }

    @Test func lastSendsNoFinishedToASubscriberThatCancelsOnTheValue() {
        let subscriber = Sub(initial: .max(1), cancelOnValue: 1)
        [1, 2].publisher.last().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(2)])
    }
}
