import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct ReplaceErrorTests {
    @Test func failureIsReplacedByTheValueThenFinished() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.replaceError(with: 0).record()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1, at: .zero), .value(0, at: .zero), .finished(at: .zero)])
    }

    @Test func finishedIsForwardedWithoutTheReplacement() {
        let recorder = [1, 2].publisher.setFailureType(to: ProbeError.self).replaceError(with: 0).record()
        #expect(recorder.events == [.value(1, at: .zero), .value(2, at: .zero), .finished(at: .zero)])
    }

    @Test func replacementWaitsForDemand() {
        let probe = SimpleProbe<Int, ProbeError>()
        let recorder = probe.replaceError(with: 0).record(demand: .max(1))
        probe.send(1)
        probe.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1, at: .zero)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1, at: .zero), .value(0, at: .zero), .finished(at: .zero)])
    }

    @Test func demandReturnedFromReceiveCountsForTheReplacement() {
        let probe = SimpleProbe<Int, ProbeError>()
        let recorder = probe.replaceError(with: 0).record(demand: .max(1), demandPerValue: .max(1))
        probe.send(1)
        probe.send(completion: .failure(.boom))
        #expect(recorder.values == [1, 0])
        #expect(recorder.isFinished)
    }

    @Test func nothingArrivesAfterCancelWhileHolding() {
        let probe = SimpleProbe<Int, ProbeError>()
        let recorder = probe.replaceError(with: 0).record(demand: .none)
        probe.send(completion: .failure(.boom))
        let subscription = recorder.subscription
        subscription?.cancel()
        subscription?.request(.max(1))
        #expect(recorder.events.isEmpty)
    }

    @Test func nothingArrivesAfterCancel() {
        let probe = SimpleProbe<Int, ProbeError>()
        let recorder = probe.replaceError(with: 0).record()
        recorder.subscription?.cancel()
        probe.send(1)
        probe.send(completion: .failure(.boom))
        #expect(recorder.events.isEmpty)
        #expect(probe.cancelCount == 1)
    }

    @Test func aFailureRacingTheFirstRequestDeliversTheReplacementExactlyOnce() {
        for _ in 0..<2_000 {
            let subject = PassthroughSubject<Int, ProbeError>()
            let subscriber = HandWrittenSubscriber<Int, Never>()
            subject.replaceError(with: 9).subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    subject.send(completion: .failure(.boom))
                } else {
                    subscriber.request(.max(1))
                }
            }
            #expect(subscriber.events == [.subscription, .value(9), .finished])
        }
    }

    @Test func valuesCountAgainstDemandSoAFailureWithoutDemandWaitsForTheNextRequest() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(2))
        subject.replaceError(with: 0).subscribe(subscriber)
        subject.send(1)
        subject.send(2)  // demand used up
        subject.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(0), .finished])
    }

    /// The failure, the first request and a cancel on three threads, in every order: the replacement goes at most
    /// once, `.finished` only after it, and the subscription lets go of its subscriber and replacement (a class
    /// here, to see it released). The thread sanitizer in `.ci/run` checks the hand-over.
    @Test func theFailureTheFirstRequestAndACancelRacingDeliverAtMostOnceAndReleaseEverything() {
        final class Replacement: Equatable, @unchecked Sendable {
            static func == (lhs: Replacement, rhs: Replacement) -> Bool { lhs === rhs }
        }
        for round in 0..<2_000 {
            weak var releasedReplacement: Replacement?
            weak var releasedSubscriber: HandWrittenSubscriber<Replacement, Never>?
            do {
                let replacement = Replacement()
                releasedReplacement = replacement
                let subject = PassthroughSubject<Replacement, ProbeError>()
                let subscriber = HandWrittenSubscriber<Replacement, Never>()
                releasedSubscriber = subscriber
                subject.replaceError(with: replacement).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: 3) { thread in
                    switch (thread + round) % 3 {
                    case 0: subject.send(completion: .failure(.boom))
                    case 1: subscriber.request(.max(1))
                    default: subscriber.cancel()
                    }
                }
                let events = subscriber.events
                let allowed: [[HandWrittenSubscriber<Replacement, Never>.Event]] = [
                    [.subscription], [.subscription, .value(replacement)],
                    [.subscription, .value(replacement), .finished],
                ]
                #expect(allowed.contains(events), "round \(round): \(events)")
            }
            #expect(releasedReplacement == nil, "round \(round): the replacement is still held")
            #expect(releasedSubscriber == nil, "round \(round): the subscriber is still held")
        }
    }
}
