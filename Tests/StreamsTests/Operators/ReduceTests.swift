import Streams
import StreamsTesting
import Testing

/// `reduce` and `tryReduce` (Sources/Streams/Operators/Reduce.swift).
@Suite struct ReduceTests {
    @Test func reducePublishesOnceWhenUpstreamFinishes() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.reduce(0, +).record()
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(recorder.events.isEmpty)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(6, at: .zero), .finished(at: .zero)])
    }

    @Test func reduceRequestsUnlimitedUpstreamWhateverTheDownstreamDemand() {
        let probe = SimpleProbe<Int, Never>()
        _ = probe.reduce(0, +).record(demand: .none)
        #expect(probe.requests == [.unlimited])
    }

    @Test func reduceHoldsTheResultUntilTheDownstreamRequests() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.reduce(0, +).record(demand: .none)
        probe.send(4)
        probe.send(5)
        probe.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.value(9, at: .zero), .finished(at: .zero)])
        recorder.request(.max(1))
        #expect(recorder.events.count == 2)
    }

    @Test func reduceOfAnEmptyUpstreamPublishesTheInitialResult() {
        let recorder = Empty<Int, Never>().reduce(42, +).record()
        #expect(recorder.events == [.value(42, at: .zero), .finished(at: .zero)])
    }

    typealias Sub = HandWrittenSubscriber<Int, any Error>

    @Test func tryReducePublishesTheFoldWhenUpstreamFinishes() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.tryReduce(1, *).record()
        for value in 1...5 { subject.send(value) }
        #expect(recorder.events.isEmpty)
        subject.send(completion: .finished)
        #expect(recorder.values == [120])
        #expect(recorder.isFinished)
    }

    @Test func tryReduceOfAnEmptyUpstreamPublishesTheInitialResult() {
        let recorder = Empty<Int, Never>().tryReduce(42, +).record()
        #expect(recorder.values == [42])
        #expect(recorder.isFinished)
    }

    @Test func tryReduceRequestsUnlimitedAndHoldsTheResultUntilTheSubscriberAsks() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub()
        probe.tryReduce(0, +).subscribe(subscriber)
        #expect(probe.requests == [.unlimited])
        #expect(probe.send(4) == .none)
        #expect(probe.send(5) == .none)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(9), .finished])
        #expect(probe.requests == [.unlimited])
    }
}
