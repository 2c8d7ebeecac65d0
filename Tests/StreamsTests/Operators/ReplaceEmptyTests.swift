import Dispatch
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
        let empty = Empty<Int, Never>()
        #expect(empty.replaceEmpty(with: 2) == empty.replaceEmpty(with: 2))
        #expect(empty.replaceEmpty(with: 2) != empty.replaceEmpty(with: 3))
        #expect(empty.replaceEmpty(with: 2) != Empty<Int, Never>(completeImmediately: false).replaceEmpty(with: 2))
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

    /// A subscription may be used from any thread (Combine's contract), though the protocol is not `Sendable`.
    struct Handed: @unchecked Sendable { let recorder: TestRecorder<Int, Never> }

    /// The first request racing the end of an empty stream, in both orders: the replacement and `.finished` arrive
    /// exactly once.
    @Test func theFirstRequestRacingAnEmptyEndGetsTheReplacementExactlyOnce() {
        for round in 0..<2_000 {
            let subject = PassthroughSubject<Int, Never>()
            let handed = Handed(recorder: subject.replaceEmpty(with: 42).record(demand: .none))
            // The calling thread usually runs its share first: the roles alternate, so both orders happen.
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == round % 2 {
                    subject.send(completion: .finished)
                } else {
                    handed.recorder.request(.max(1))
                }
            }
            #expect(handed.recorder.values == [42])
            #expect(handed.recorder.isFinished)
        }
    }

    /// A cancel on another thread while values arrive: a prefix of the values, never the replacement (the flag
    /// saying a value came belongs to the upstream's calls; the thread sanitizer in `.ci/run` checks it).
    @Test func aCancelRacingValuesNeverPublishesTheReplacement() {
        for round in 0..<1_000 {
            let subject = PassthroughSubject<Int, Never>()
            let handed = Handed(recorder: subject.replaceEmpty(with: -1).record())
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == round % 2 {
                    for value in 0..<20 { subject.send(value) }
                    subject.send(completion: .finished)
                } else {
                    handed.recorder.cancel()
                }
            }
            let values = handed.recorder.values
            #expect(values == Array(0..<values.count))
        }
    }
}
