import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite struct PrefixUntilOutputTests {
    typealias Sub = HandWrittenSubscriber<Int, ProbeError>

    @Test func valuesArePublishedUntilTheTriggerFiresThenItFinishes() {
        let upstream = PassthroughSubject<Int, ProbeError>()
        let trigger = PassthroughSubject<Int, Never>()
        let recorder = upstream.prefix(untilOutputFrom: trigger).record()
        upstream.send(1)
        upstream.send(2)
        trigger.send(0)
        upstream.send(3)
        #expect(recorder.events == [.value(1, at: .zero), .value(2, at: .zero), .finished(at: .zero)])
    }

    @Test func theTriggerCancelsUpstreamBeforeTheFinishAndIsReleasedNotCancelled() {
        let upstream = SimpleProbe<Int, ProbeError>()
        let trigger = SimpleProbe<Int, Never>()
        var events: [String] = []
        upstream.handleEvents(receiveCancel: { events.append("upstream cancelled") })
            .prefix(untilOutputFrom: trigger)
            .subscribe(
                AnySubscriber<Int, ProbeError>(
                    receiveSubscription: { $0.request(.max(3)) }, receiveValue: { _ in .none },
                    receiveCompletion: { _ in events.append("finished") }))
        #expect(trigger.requests == [.max(1)])
        #expect(upstream.requests == [.max(3)])
        #expect(trigger.send(0) == .none)
        #expect(events == ["upstream cancelled", "finished"])
        #expect(upstream.cancelCount == 1)
        #expect(trigger.cancelCount == 0)
        trigger.send(1)
        upstream.send(completion: .finished)
        #expect(events == ["upstream cancelled", "finished"])
    }

    @Test func demandPassesStraightThrough() {
        let upstream = SimpleProbe<Int, ProbeError>()
        let subscriber = Sub(initial: .max(2), perValue: .max(3))
        upstream.prefix(untilOutputFrom: SimpleProbe<Int, Never>()).subscribe(subscriber)
        #expect(upstream.requests == [.max(2)])
        #expect(upstream.send(1) == .max(3))
        subscriber.request(.max(4))
        #expect(upstream.requests == [.max(2), .max(4)])
    }

    @Test func theSubscriberGetsExactlyWhatItAskedFor() {
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        let trigger = PassthroughSubject<Int, Never>()
        (1...9).publisher.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3)])
        trigger.send(0)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func aTriggerThatFiresAtOnceFinishesRightAfterTheSubscription() {
        let upstream = SimpleProbe<Int, ProbeError>()
        let subscriber = Sub(initial: .unlimited)
        upstream.prefix(untilOutputFrom: Just(())).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .finished])
        #expect(upstream.cancelCount == 1)  // subscribed after the trigger fired: cancelled at once
    }

    @Test func aTriggerThatCompletesWithoutAValueChangesNothing() {
        let upstream = PassthroughSubject<Int, ProbeError>()
        let trigger = PassthroughSubject<Int, ProbeError>()
        let recorder = upstream.prefix(untilOutputFrom: trigger).record()
        trigger.send(completion: .failure(.boom))
        upstream.send(1)
        #expect(recorder.events == [.value(1, at: .zero)])
        let empty = upstream.prefix(untilOutputFrom: Empty<Int, Never>()).record()
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(empty.events == [.value(2, at: .zero), .finished(at: .zero)])
    }

    @Test func anUpstreamCompletionIsForwardedAndCancelsTheTrigger() {
        let upstream = SimpleProbe<Int, ProbeError>()
        let trigger = SimpleProbe<Int, Never>()
        let subscriber = Sub(initial: .unlimited)
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(.other))
        #expect(subscriber.events == [.subscription, .value(1), .failure("other")])
        #expect(trigger.cancelCount == 1)
        trigger.send(0)
        #expect(subscriber.events == [.subscription, .value(1), .failure("other")])
    }

    @Test func aTriggerFiringDuringADeliveryFinishesAfterItReturns() {
        let upstream = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Int, Never>()
        var events: [String] = []
        var isInside = false
        let cancellable = upstream.prefix(untilOutputFrom: trigger).sink(
            receiveCompletion: { _ in events.append(isInside ? "finished inside receive" : "finished") },
            receiveValue: { value in
                isInside = true
                events.append("value \(value)")
                if value == 2 { trigger.send(0) }  // re-entrant: the finish must wait for this call to return
                isInside = false
            })
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(events == ["value 1", "value 2", "finished"])
        cancellable.cancel()
    }

    /// Counts calls to a subscriber: `inside` (atomic) sees two calls overlapping; the plain fields would be
    /// reported as a race under `--sanitize=thread` if calls were not serial.
    final class CallLog: @unchecked Sendable {
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        var values = 0
        var finishes = 0
        var valuesAfterFinish = 0
        var received: [Int] = []

        func enter() {
            if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                overlaps.add(1, ordering: .relaxed)
            }
        }

        func leave() { inside.subtract(1, ordering: .sequentiallyConsistent) }

        /// Subscribes a sink that logs every call into this log.
        func sink<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Output == Int, P.Failure == Never {
            publisher.sink(
                receiveCompletion: { _ in
                    self.enter()
                    self.finishes += 1
                    self.leave()
                },
                receiveValue: { value in
                    self.enter()
                    if self.finishes > 0 { self.valuesAfterFinish += 1 }
                    self.values += 1
                    self.received.append(value)  // plain: only serial delivery keeps it race-free
                    self.leave()
                })
        }
    }

    @Test func aTriggerFiringOnAnotherThreadNeverOverlapsADeliveryAndFinishesOnce() {
        for round in 0..<1_000 {
            let upstream = PassthroughSubject<Int, Never>()
            let trigger = PassthroughSubject<Int, Never>()
            let log = CallLog()
            let cancellable = log.sink(upstream.prefix(untilOutputFrom: trigger))
            // The calling thread usually runs its share first: the roles alternate, so both orders happen.
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == round % 2 {
                    for value in 0..<200 { upstream.send(value) }
                } else {
                    trigger.send(0)
                }
            }
            #expect(log.overlaps.load(ordering: .relaxed) == 0)
            #expect(log.finishes == 1)
            #expect(log.valuesAfterFinish == 0)
            cancellable.cancel()
        }
    }

    /// The subscriber cancelling on one thread while the trigger fires on another, values arriving on a third:
    /// at most one `.finished`, never overlapping a value (the thread sanitizer in `.ci/run` checks the rest).
    @Test func aCancelRacingTheTriggerAndValuesFinishesAtMostOnce() {
        for round in 0..<1_000 {
            let upstream = PassthroughSubject<Int, Never>()
            let trigger = PassthroughSubject<Int, Never>()
            let log = CallLog()
            let cancellable = log.sink(upstream.prefix(untilOutputFrom: trigger))
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                switch (index + round) % 3 {
                case 0: for value in 0..<50 { upstream.send(value) }
                case 1: trigger.send(0)
                default: cancellable.cancel()
                }
            }
            #expect(log.overlaps.load(ordering: .relaxed) == 0)
            #expect(log.finishes <= 1)
            #expect(log.valuesAfterFinish == 0)
        }
    }
}
