import Streams
import StreamsTesting
import Testing

@Suite struct DropWhileTests {
    typealias Sub = HandWrittenSubscriber<Int, Never>

    @Test func dropWhileSkipsUntilThePredicateFailsThenPublishesEverything() {
        var tested: [Int] = []
        let recorder = [1, 2, 5, 1, 7].publisher.drop { value in
            tested.append(value)
            return value < 3
        }.record()
        #expect(recorder.values == [5, 1, 7])
        #expect(recorder.isFinished)
        #expect(tested == [1, 2, 5])  // not called again once it returned false
    }

    @Test func aSkippedValueAsksUpstreamForOneMore() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub(initial: .max(1))
        probe.drop { $0 < 3 }.subscribe(subscriber)
        #expect(probe.requests == [.max(1)])
        #expect(probe.send(1) == .max(1))
        #expect(probe.send(2) == .max(1))
        #expect(probe.send(3) == .none)  // the subscriber's own answer
        #expect(subscriber.events == [.subscription, .value(3)])
    }

    @Test func theSubscriberGetsExactlyWhatItAskedFor() {
        let subscriber = Sub(initial: .max(1))
        (1...9).publisher.drop { $0 < 4 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(4)])
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription, .value(4), .value(5), .value(6)])
    }

    @Test func anUpstreamFailureIsForwarded() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.drop { $0 < 3 }.record()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func nothingArrivesAfterCancelAndThePredicateIsReleased() {
        let probe = SimpleProbe<Int, Never>(keepsSubscriber: false)
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<Int, Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = probe.drop { value in withExtendedLifetime(token) { value < 3 } }.record()
        }
        probe.send(5)
        recorder.cancel()
        #expect(weakToken == nil)
        #expect(probe.cancelCount == 1)
        probe.send(6)
        probe.send(completion: .finished)
        #expect(recorder.events == [.value(5, at: .zero)])
    }

    @Test func tryDropWhileSkipsThenPublishes() {
        let recorder = [1, 2, 5, 1].publisher.tryDrop { $0 < 3 }.record()
        #expect(recorder.values == [5, 1])
        #expect(recorder.isFinished)
    }

    @Test func tryDropWhileNeverCallsThePredicateAgainOnceItReturnedFalse() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.tryDrop { value -> Bool in
            if value == 9 { throw ProbeError.boom }  // would throw, but is no longer asked
            return value < 3
        }.record()
        probe.send(1)
        probe.send(4)
        probe.send(9)
        #expect(recorder.values == [4, 9])
        #expect(recorder.completion == nil)
    }

    @Test func tryDropWhileDemandPassesThroughWithOneMorePerSkippedValue() {
        let subscriber = HandWrittenSubscriber<Int, any Error>(initial: .max(1))
        (1...9).publisher.tryDrop { $0 < 4 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(4)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(4), .value(5)])
    }

    @Test func tryDropWhileSendsNothingAfterACancelFromInsideReceive() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, any Error>(initial: .unlimited, cancelOnValue: 1)
        probe.tryDrop { $0 < 3 }.subscribe(subscriber)
        probe.send(1)
        probe.send(3)
        probe.send(4)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(3)])
        #expect(probe.cancelCount == 1)
    }
}
