import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct CollectTests {
    @Test func collectPublishesEveryValueAsOneArrayOnFinish() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.collect().record()
        subject.send(1)
        subject.send(2)
        #expect(recorder.events.isEmpty)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value([1, 2], at: .zero), .finished(at: .zero)])
    }

    @Test func collectOfAnEmptyUpstreamPublishesAnEmptyArray() {
        let recorder = Empty<Int, Never>().collect().record()
        #expect(recorder.events == [.value([], at: .zero), .finished(at: .zero)])
    }

    @Test func collectHoldsTheArrayUntilDemandAndRequestsUnlimitedUpstream() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.collect().record(demand: .none)
        #expect(probe.requests == [.unlimited])
        probe.send(1)
        probe.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.value([1], at: .zero), .finished(at: .zero)])
    }

    @Test func collectFailureDropsTheValues() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.collect().record()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func collectByCountPublishesGroupsAndAPartialLastGroup() {
        let recorder = (1...5).publisher.collect(2).record()
        #expect(
            recorder.events == [
                .value([1, 2], at: .zero), .value([3, 4], at: .zero), .value([5], at: .zero), .finished(at: .zero),
            ])
    }

    @Test func collectByCountSendsNoEmptyGroupWhenTheCountDivides() {
        let recorder = (1...4).publisher.collect(2).record()
        #expect(recorder.values == [[1, 2], [3, 4]])
        #expect(recorder.isFinished)
    }

    @Test func collectByCountCountsDemandInGroups() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.collect(3).record(demand: .max(1))
        #expect(probe.requests == [.max(3)])
        recorder.request(.max(2))
        #expect(probe.requests == [.max(3), .max(6)])
    }

    @Test func collectByCountNeverExceedsDemand() {
        let recorder = (1...7).publisher.collect(2).record(demand: .max(2))
        #expect(recorder.values == [[1, 2], [3, 4]])
        #expect(recorder.completion == nil)
        recorder.request(.max(5))
        #expect(recorder.values == [[1, 2], [3, 4], [5, 6], [7]])
        #expect(recorder.isFinished)
    }

    @Test func collectByCountFailureDropsThePartialGroup() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.collect(2).record()
        subject.send(1)
        subject.send(2)
        subject.send(3)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value([1, 2], at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func collectByCountDeliversNothingAfterCancel() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.collect(2).record()
        probe.send(1)
        recorder.cancel()
        probe.send(2)
        probe.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        #expect(probe.cancelCount == 1)
    }

    /// Demand asked from inside `receive(subscription:)` counts groups: the upstream is asked for `count` values each.
    @Test func collectByCountMultipliesTheDemandAskedOnSubscription() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = HandWrittenSubscriber<[Int], Never>(initial: .max(2))
        subject.collect(3).subscribe(subscriber)
        for value in 1...7 { subject.send(value) }
        subject.send(completion: .finished)
        // 7 was never asked for (a subject drops what nobody asked for); the completion needs no demand.
        #expect(subscriber.events == [.subscription, .value([1, 2, 3]), .value([4, 5, 6]), .finished])
    }

    /// The demand a full group returns asks for that many more groups.
    @Test func collectByCountMultipliesTheDemandAGroupReturns() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<[Int], Never>(initial: .max(1), perValue: .max(2))
        probe.collect(2).subscribe(subscriber)
        probe.send(1)
        #expect(probe.send(2) == .max(4))
    }

    /// A cancel from inside the delivery of the partial last group: no `.finished` after it.
    @Test func collectByCountSendsNoCompletionAfterACancelInsideThePartialGroup() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = HandWrittenSubscriber<[Int], Never>(initial: .unlimited, cancelOnValue: 2)
        subject.collect(2).subscribe(subscriber)
        for value in 1...3 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value([1, 2]), .value([3])])
    }

    /// A cancel on another thread while values arrive: the groups delivered are whole and in order (the group being
    /// filled belongs to the upstream's calls; the thread sanitizer in `.ci/run` checks nothing else touches it).
    @Test func collectByCountCancelRacingValuesDeliversOnlyWholeGroupsInOrder() {
        struct Handed: @unchecked Sendable { let recorder: TestRecorder<[Int], Never> }
        for round in 0..<1_000 {
            let subject = PassthroughSubject<Int, Never>()
            let handed = Handed(recorder: subject.collect(5).record())
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == round % 2 {
                    for value in 0..<50 { subject.send(value) }
                } else {
                    handed.recorder.cancel()
                }
            }
            let groups = handed.recorder.values
            #expect(groups.allSatisfy { $0.count == 5 })
            #expect(groups.joined().elementsEqual(0..<(groups.count * 5)))
        }
    }
}
