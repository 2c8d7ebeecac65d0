import Streams
import StreamsTesting
import Testing

@Suite struct TryFilterTests {
    typealias Sub = HandWrittenSubscriber<Int, any Error>

    @Test func tryFilterKeepsTheIncludedValues() {
        let recorder = (1...6).publisher.tryFilter { $0.isMultiple(of: 2) }.record()
        #expect(recorder.values == [2, 4, 6])
        #expect(recorder.isFinished)
    }

    @Test func aDroppedValueAsksUpstreamForOneMore() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub(initial: .max(1), perValue: .max(3))
        probe.tryFilter { $0 > 2 }.subscribe(subscriber)
        #expect(probe.requests == [.max(1)])
        #expect(probe.send(1) == .max(1))
        #expect(probe.send(5) == .max(3))
    }

    @Test func theSubscriberGetsExactlyWhatItAskedFor() {
        let subscriber = Sub(initial: .max(1))
        (1...9).publisher.tryFilter { $0.isMultiple(of: 3) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(3)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(3), .value(6)])
    }

    @Test func throwingCancelsUpstreamAndFailsOnce() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.tryFilter { value -> Bool in
            if value == 2 { throw ProbeError.boom }
            return true
        }.record()
        probe.send(1)
        probe.send(2)
        #expect(probe.cancelCount == 1)
        probe.send(3)
        probe.send(completion: .finished)
        #expect(recorder.events == [.value(1, at: .zero), .failure(ProbeError.boom, at: .zero)])
    }

    @Test func upstreamFailureIsForwardedAsAnyError() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.tryFilter { _ in true }.record()
        subject.send(1)
        subject.send(completion: .failure(.other))
        #expect(recorder.values == [1])
        #expect(recorder.failure.map { errorsMatch($0, ProbeError.other) } == true)
    }

    @Test func nothingArrivesAfterCancelAndThePredicateIsReleased() {
        let probe = SimpleProbe<Int, Never>(keepsSubscriber: false)
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<Int, any Error>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = probe.tryFilter { value in withExtendedLifetime(token) { value > 0 } }.record()
        }
        probe.send(1)
        recorder.cancel()
        #expect(weakToken == nil)
        #expect(probe.cancelCount == 1)
        probe.send(2)
        probe.send(completion: .finished)
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
    }

    @Test func filtersFuseIntoOneTryFilterAsInCombine() {
        let fromFilter: Publishers.TryFilter<Publishers.Sequence<[Int], Never>> =
            [1, 2, 3, 4, 5, 6].publisher.filter { $0 > 1 }.tryFilter { $0.isMultiple(of: 2) }
        let fused: Publishers.TryFilter<Publishers.Sequence<[Int], Never>> =
            fromFilter.filter { $0 != 4 }.tryFilter { $0 < 10 }
        let recorder = fused.record()
        #expect(recorder.values == [2, 6])
        #expect(recorder.isFinished)
    }

    @Test func aFusedFilterThatThrowsFails() {
        let recorder = [1, 2, 3].publisher.tryFilter { _ in true }.tryFilter { value -> Bool in
            if value == 2 { throw ProbeError.other }
            return true
        }.record()
        #expect(recorder.events == [.value(1, at: .zero), .failure(ProbeError.other, at: .zero)])
    }
}
