import Streams
import StreamsTesting
import Testing

@Suite struct ReplaceEmptyTests {
    typealias Sub = HandWrittenSubscriber<Int, ProbeError>

    @Test func anEmptyUpstreamIsReplacedByTheValue() {
        let recorder = Empty<Int, Never>().replaceEmpty(with: 7).record()
        #expect(recorder.events == [.value(7, at: .zero), .finished(at: .zero)])
    }

    @Test func itIsEquatableAsInCombine() {
        #expect(Just(1).replaceEmpty(with: 2) == Just(1).replaceEmpty(with: 2))
        #expect(Just(1).replaceEmpty(with: 2) != Just(1).replaceEmpty(with: 3))
    }

    @Test func aNonEmptyUpstreamIsRepublishedUnchanged() {
        let recorder = [1, 2].publisher.replaceEmpty(with: 7).record()
        #expect(recorder.events == [.value(1, at: .zero), .value(2, at: .zero), .finished(at: .zero)])
    }

    @Test func aFailureIsForwardedWithoutTheReplacement() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.replaceEmpty(with: 7).record()
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func demandPassesStraightThroughAndIsNeverExceeded() {
        let probe = SimpleProbe<Int, ProbeError>()
        let subscriber = Sub(initial: .max(1), perValue: .max(2))
        probe.replaceEmpty(with: 7).subscribe(subscriber)
        #expect(probe.requests == [.max(1)])  // Combine adds `.unlimited` here
        #expect(probe.send(1) == .max(2))
        subscriber.request(.max(3))
        #expect(probe.requests == [.max(1), .max(3)])
    }

    @Test func theSubscriberGetsExactlyWhatItAskedFor() {
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        (1...5).publisher.replaceEmpty(with: 7).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }

    @Test func theReplacementWaitsForTheFirstRequest() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let subscriber = Sub()
        subject.replaceEmpty(with: 7).subscribe(subscriber)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(7), .finished])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(7), .finished])
    }

    @Test func theReplacementIsPublishedAtOnceWhenDemandIsThere() {
        let probe = SimpleProbe<Int, ProbeError>()
        let subscriber = Sub(initial: .max(1))
        probe.replaceEmpty(with: 7).subscribe(subscriber)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(7), .finished])
        probe.send(1)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(7), .finished])
    }

    @Test func aCancelDropsAHeldReplacement() {
        let probe = SimpleProbe<Int, ProbeError>()
        let subscriber = Sub()
        probe.replaceEmpty(with: 7).subscribe(subscriber)
        probe.send(completion: .finished)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
        #expect(probe.cancelCount == 0)  // the upstream had already finished
    }

    @Test func noFinishAfterACancelFromInsideTheReplacement() {
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1), cancelOnValue: 1)
        Empty<Int, Never>().replaceEmpty(with: 7).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(7)])
    }

    @Test func nothingArrivesAfterCancel() {
        let probe = SimpleProbe<Int, ProbeError>()
        let recorder = probe.replaceEmpty(with: 7).record()
        recorder.cancel()
        #expect(probe.cancelCount == 1)
        probe.send(1)
        probe.send(completion: .finished)
        #expect(recorder.events.isEmpty)
    }
}
