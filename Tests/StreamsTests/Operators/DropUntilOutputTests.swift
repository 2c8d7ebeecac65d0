import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct DropUntilOutputTests {
    typealias Sub = HandWrittenSubscriber<Int, ProbeError>

    @Test func valuesBeforeTheTriggerAreDroppedTheRestPublished() {
        let upstream = PassthroughSubject<Int, ProbeError>()
        let trigger = PassthroughSubject<Int, ProbeError>()
        let recorder = upstream.drop(untilOutputFrom: trigger).record()
        upstream.send(1)
        upstream.send(2)
        trigger.send(0)
        upstream.send(3)
        upstream.send(4)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.value(3, at: .zero), .value(4, at: .zero), .finished(at: .zero)])
    }

    @Test func theSubscriberGetsItsSubscriptionFirstThenTheTriggerThenTheUpstreamIsSubscribed() {
        let upstream = SimpleProbe<Int, ProbeError>()
        let trigger = SimpleProbe<Int, ProbeError>()
        var order: [String] = []
        let tracked = upstream.handleEvents(receiveSubscription: { _ in order.append("upstream") })
        let trackedTrigger = trigger.handleEvents(
            receiveSubscription: { _ in order.append("trigger") }, receiveRequest: { order.append("trigger \($0)") })
        tracked.drop(untilOutputFrom: trackedTrigger).subscribe(
            AnySubscriber<Int, ProbeError>(
                receiveSubscription: { _ in order.append("subscriber") }, receiveValue: { _ in .none },
                receiveCompletion: { _ in }))
        #expect(order == ["subscriber", "trigger", "trigger max(1)", "upstream"])
    }

    @Test func demandPassesThroughAndDroppedValuesUseItUpAsInCombine() {
        let upstream = SimpleProbe<Int, ProbeError>()
        let trigger = SimpleProbe<Int, ProbeError>()
        let subscriber = Sub(initial: .max(4), perValue: .max(1))
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(upstream.requests == [.max(4)])
        #expect(trigger.requests == [.max(1)])
        #expect(upstream.send(1) == .none)  // dropped: nothing more is asked in its place
        #expect(trigger.send(0) == .none)
        #expect(upstream.send(2) == .max(1))
        subscriber.request(.max(2))
        #expect(upstream.requests == [.max(4), .max(2)])
        #expect(subscriber.events == [.subscription, .value(2)])
    }

    @Test func theSubscriberGetsExactlyWhatItAskedForOnceTriggered() {
        let trigger = PassthroughSubject<Int, Never>()
        let upstream = PassthroughSubject<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send(0)
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        upstream.send(3)
        upstream.send(4)
        #expect(subscriber.events == [.subscription, .value(1), .value(3)])
    }

    @Test func aTriggerThatFinishesWithoutAValueFinishesTheStreamAndCancelsUpstream() {
        let upstream = SimpleProbe<Int, ProbeError>()
        let trigger = SimpleProbe<Int, ProbeError>()
        let subscriber = Sub(initial: .unlimited)
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        upstream.send(1)
        trigger.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .finished])
        #expect(upstream.cancelCount == 1)
        trigger.send(completion: .finished)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .finished])
    }

    @Test func aTriggerThatFailsWithoutAValueFailsTheStream() {
        let upstream = SimpleProbe<Int, ProbeError>()
        let subscriber = Sub(initial: .unlimited)
        upstream.drop(untilOutputFrom: Fail<Int, ProbeError>(error: .boom)).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .failure("boom")])
        #expect(upstream.cancelCount == 1)  // subscribed after the trigger failed: cancelled at once
    }

    @Test func itIsEquatableAsInCombine() {
        #expect(Just(1).drop(untilOutputFrom: Just(2)) == Just(1).drop(untilOutputFrom: Just(2)))
        #expect(Just(1).drop(untilOutputFrom: Just(2)) != Just(1).drop(untilOutputFrom: Just(3)))
    }

    @Test func anEmptyTriggerFinishesAtOnce() {
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(3))
        [1, 2].publisher.drop(untilOutputFrom: Empty<Int, Never>()).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .finished])
    }

    @Test func theTriggersCompletionAfterItFiredIsIgnored() {
        let upstream = PassthroughSubject<Int, ProbeError>()
        let trigger = SimpleProbe<Int, ProbeError>()
        let recorder = upstream.drop(untilOutputFrom: trigger).record()
        trigger.send(0)
        trigger.send(completion: .failure(.boom))
        upstream.send(5)
        #expect(recorder.events == [.value(5, at: .zero)])
        #expect(trigger.cancelCount == 0)  // released, not cancelled, as in Combine
    }

    @Test func anUpstreamFailureIsForwardedAndCancelsAnUnfiredTrigger() {
        let upstream = SimpleProbe<Int, ProbeError>()
        let trigger = SimpleProbe<Int, ProbeError>()
        let subscriber = Sub(initial: .unlimited)
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        upstream.send(completion: .failure(.other))
        #expect(subscriber.events == [.subscription, .failure("other")])
        #expect(trigger.cancelCount == 1)
        trigger.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .failure("other")])
    }

    @Test func aTriggerFiringOnAnotherThreadLetsTheLaterValuesThroughInOrder() {
        for round in 0..<1_000 {
            let upstream = PassthroughSubject<Int, Never>()
            let trigger = PassthroughSubject<Int, Never>()
            let log = PrefixUntilOutputTests.CallLog()
            let cancellable = log.sink(upstream.drop(untilOutputFrom: trigger))
            // The calling thread usually runs its share first: the roles alternate, so both orders happen.
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == round % 2 {
                    for value in 0..<200 { upstream.send(value) }
                } else {
                    trigger.send(0)
                }
            }
            upstream.send(200)
            upstream.send(completion: .finished)
            #expect(log.overlaps.load(ordering: .relaxed) == 0)
            #expect(log.finishes == 1)
            // Whatever passed is a contiguous run ending with the value sent after the trigger surely fired.
            #expect(log.received.last == 200)
            #expect(log.received == Array((log.received.first ?? 200)...200))
            cancellable.cancel()
        }
    }
}
