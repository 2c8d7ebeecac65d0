import Streams
import StreamsTesting
import Testing

@Suite struct PrefixTests {
    @Test func prefixFinishesAndCancelsAsSoonAsTheLastValueIsDelivered() {
        let subject = PassthroughSubject<Int, Never>()
        var cancels = 0
        let recorder = subject.handleEvents(receiveCancel: { cancels += 1 }).prefix(2).record()
        subject.send(1)
        #expect(cancels == 0)
        subject.send(2)
        // Finished right after the 2nd value, without waiting for a 3rd.
        #expect(recorder.events == [.value(1, at: .zero), .value(2, at: .zero), .finished(at: .zero)])
        #expect(cancels == 1)
        subject.send(3)
        #expect(recorder.values == [1, 2])
    }

    @Test func prefixIgnoresEventsAfterItFinished() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.prefix(1).record()
        probe.send(1)
        #expect(probe.cancelCount == 1)
        probe.send(2)
        probe.send(completion: .finished)
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func prefixZeroFinishesAtOnceAndCancelsUpstream() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.prefix(0).record()
        #expect(recorder.subscriptionCount == 1)
        #expect(recorder.events == [.finished(at: .zero)])
        #expect(probe.cancelCount == 1)
        #expect(probe.requests.isEmpty)
        probe.send(1)
        #expect(recorder.events == [.finished(at: .zero)])
    }

    @Test func prefixForwardsAnEarlierUpstreamCompletion() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.prefix(3).record()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func prefixNeverExceedsDemand() {
        let recorder = (1...10).publisher.prefix(5).record(demand: .max(2))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == nil)
        recorder.request(.max(10))
        #expect(recorder.values == [1, 2, 3, 4, 5])
        #expect(recorder.isFinished)
    }

    @Test func prefixSendsNoCompletionWhenTheDownstreamCancelsOnTheLastValue() {
        let probe = SimpleProbe<Int, Never>()
        var events: [String] = []
        var subscription: (any Subscription)?
        probe.prefix(1).subscribe(
            AnySubscriber<Int, Never>(
                receiveSubscription: {
                    subscription = $0
                    $0.request(.unlimited)
                },
                receiveValue: {
                    events.append("value \($0)")
                    subscription?.cancel()
                    return .none
                },
                receiveCompletion: { _ in events.append("completion") }))
        probe.send(1)
        #expect(events == ["value 1"])
        #expect(probe.cancelCount == 1)
    }

    @Test func prefixCountsAValueSentReentrantlyFromInsideReceive() {
        let subject = PassthroughSubject<Int, Never>()
        var values: [Int] = []
        var finished = false
        let cancellable = subject.prefix(2).sink(
            receiveCompletion: { _ in finished = true },
            receiveValue: { value in
                values.append(value)
                if value == 1 { subject.send(10) }
            })
        subject.send(1)
        #expect(values == [1, 10])
        #expect(finished)
        subject.send(3)
        #expect(values == [1, 10])
        cancellable.cancel()
    }
}
