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
}
