import Streams
import StreamsTesting
import Testing

@Suite struct CountTests {
    typealias Sub = HandWrittenSubscriber<Int, Never>

    @Test func countPublishesTheNumberOfValuesWhenUpstreamFinishes() {
        let subject = PassthroughSubject<String, Never>()
        let recorder = subject.count().record()
        subject.send("a")
        subject.send("b")
        subject.send("c")
        #expect(recorder.events.isEmpty)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(3, at: .zero), .finished(at: .zero)])
    }

    @Test func countOfAnEmptyUpstreamPublishesZero() {
        let recorder = Empty<String, Never>().count().record()
        #expect(recorder.events == [.value(0, at: .zero), .finished(at: .zero)])
    }

    @Test func countRequestsUnlimitedAndHoldsTheCountUntilTheSubscriberAsks() {
        let probe = SimpleProbe<String, Never>()
        let subscriber = Sub()
        probe.count().subscribe(subscriber)
        #expect(probe.requests == [.unlimited])
        #expect(probe.send("a") == .none)
        #expect(probe.send("b") == .none)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(2), .finished])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(2), .finished])
        #expect(probe.requests == [.unlimited])
    }
}
