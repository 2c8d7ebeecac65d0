import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct SequenceTests {
    @Test func sequenceRespectsDemandAndFinishesRightAfterTheLastElement() {
        let recorder = [1, 2, 3].publisher.record(demand: .max(2))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(
            recorder.events.map(\.description) == [
                "value(1) at 0.0 seconds", "value(2) at 0.0 seconds",
                "value(3) at 0.0 seconds", "finished at 0.0 seconds",
            ])
    }

    @Test func emptySequenceFinishesWithoutDemand() {
        let recorder = [Int]().publisher.record(demand: .none)
        #expect(recorder.isFinished)
    }

    @Test func sequenceStopsOnCancelFromInsideReceive() {
        final class CancelAtThree: Subscriber, @unchecked Sendable {
            let seen = Locked<[Int]>([])
            let completed = Locked(false)
            var subscription: (any Subscription)?
            func receive(subscription: any Subscription) {
                self.subscription = subscription
                subscription.request(.unlimited)
            }
            func receive(_ input: Int) -> Subscribers.Demand {
                seen.withLock { $0.append(input) }
                if input == 3 { subscription?.cancel() }
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) { completed.withLock { $0 = true } }
        }
        let subscriber = CancelAtThree()
        (1...1000).publisher.subscribe(subscriber)
        #expect(subscriber.seen.withLock { $0 } == [1, 2, 3])
        #expect(subscriber.completed.withLock { $0 } == false)
    }

    @Test func requestFromInsideReceiveDoesNotRecurse() {
        // One value per request, each requested from inside receive: a recursive implementation
        // would need a stack frame per element.
        final class OneAtATime: Subscriber, @unchecked Sendable {
            let count = Locked(0)
            var subscription: (any Subscription)?
            func receive(subscription: any Subscription) {
                self.subscription = subscription
                subscription.request(.max(1))
            }
            func receive(_ input: Int) -> Subscribers.Demand {
                count.withLock { $0 += 1 }
                subscription?.request(.max(1))
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) { subscription = nil }
        }
        let subscriber = OneAtATime()
        (0..<200_000).publisher.subscribe(subscriber)
        #expect(subscriber.count.withLock { $0 } == 200_000)
    }

    /// Records the values it receives and fails a test if two deliveries overlap. Requests only what the test asks.
    final class SerialRecorder: Subscriber, @unchecked Sendable {
        let values = Locked<[Int]>([])
        let completions = Locked(0)
        let overlaps = Locked(0)
        private let inFlight = Locked(false)
        private let subscriptionSlot = Locked<(any Subscription)?>(nil)
        private let perValue: (Int) -> Subscribers.Demand

        init(perValue: @escaping (Int) -> Subscribers.Demand = { _ in .none }) { self.perValue = perValue }

        var subscription: (any Subscription)? { subscriptionSlot.withLock { $0 } }

        func receive(subscription: any Subscription) { subscriptionSlot.withLock { $0 = subscription } }

        func receive(_ input: Int) -> Subscribers.Demand {
            let overlapping = inFlight.withLock { flag in
                let was = flag
                flag = true
                return was
            }
            if overlapping { overlaps.withLock { $0 += 1 } }
            values.withLock { $0.append(input) }
            inFlight.withLock { $0 = false }
            return perValue(input)
        }

        func receive(completion: Subscribers.Completion<Never>) { completions.withLock { $0 += 1 } }

        /// Drops the subscription, so that only the publisher's side can keep this subscriber alive.
        func forget() { subscriptionSlot.withLock { $0 = nil } }
    }

    /// A subscription shared with the threads of `concurrentPerform` (subscriptions are safe from any thread).
    final class SharedSubscription: @unchecked Sendable {
        let subscription: (any Subscription)?
        init(_ subscription: (any Subscription)?) { self.subscription = subscription }
        func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }
        func cancel() { subscription?.cancel() }
    }

    /// Requests of one value each from four threads at once: every element goes once, in order, one delivery at a
    /// time, and exactly as many as were requested (the thread sanitizer in `.ci/run` checks the hand-over between
    /// the emitting threads).
    @Test func concurrentRequestsDeliverEachElementOnceInOrderWithinDemand() {
        for _ in 0..<20 {
            let subscriber = SerialRecorder()
            (0..<10_000).publisher.subscribe(subscriber)
            let subscription = SharedSubscription(subscriber.subscription)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<250 { subscription.request(.max(1)) }
            }
            #expect(subscriber.values.withLock { $0 } == Array(0..<1_000))
            #expect(subscriber.overlaps.withLock { $0 } == 0)
            #expect(subscriber.completions.withLock { $0 } == 0)
            subscription.cancel()
        }
    }

    /// Demand returned from `receive(_:)` adds to what was requested, and the last element's `.finished` needs none.
    @Test func demandReturnedFromReceiveIsAdded() {
        let subscriber = SerialRecorder(perValue: { $0 < 4 ? .max(1) : .none })
        (0..<10).publisher.subscribe(subscriber)
        subscriber.subscription?.request(.max(1))
        #expect(subscriber.values.withLock { $0 } == [0, 1, 2, 3, 4])
        subscriber.subscription?.request(.max(5))
        #expect(subscriber.values.withLock { $0 } == Array(0..<10))
        #expect(subscriber.completions.withLock { $0 } == 1)
    }

    /// Bounded requests that add up past `Int.max` become unlimited, as `Subscribers.Demand` does.
    @Test func demandThatOverflowsBecomesUnlimited() {
        let subscriber = SerialRecorder()
        (0..<100).publisher.subscribe(subscriber)
        subscriber.subscription?.request(.max(Int.max - 1))
        subscriber.subscription?.request(.max(Int.max - 1))
        #expect(subscriber.values.withLock { $0 } == Array(0..<100))
        #expect(subscriber.completions.withLock { $0 } == 1)
    }

    /// A cancel while other threads request: after it returns, no more values and no completion arrive, and the
    /// subscription lets go of the subscriber.
    @Test func aCancelRacingRequestsStopsDeliveryAndReleasesTheSubscriber() {
        for round in 0..<200 {
            weak var released: SerialRecorder?
            let subscription: SharedSubscription
            do {
                let subscriber = SerialRecorder()
                released = subscriber
                (0..<1_000_000).publisher.subscribe(subscriber)
                subscription = SharedSubscription(subscriber.subscription)
                subscriber.forget()
                DispatchQueue.concurrentPerform(iterations: 3) { thread in
                    if thread == round % 3 {
                        subscription.cancel()
                    } else {
                        for _ in 0..<50 { subscription.request(.max(2)) }
                    }
                }
                let seen = subscriber.values.withLock { $0.count }
                subscription.request(.unlimited)
                #expect(subscriber.values.withLock { $0.count } == seen)
                #expect(seen <= 200)
                #expect(subscriber.completions.withLock { $0 } == 0)
                #expect(subscriber.overlaps.withLock { $0 } == 0)
            }
            #expect(released == nil, "round \(round): the cancelled subscription still holds its subscriber")
            withExtendedLifetime(subscription) {}
        }
    }

    /// Unlimited demand from one thread while another cancels: the loop stops, nothing follows, the subscriber goes.
    @Test func aCancelStopsTheUnlimitedLoopFromAnotherThread() {
        for _ in 0..<50 {
            weak var released: SerialRecorder?
            let subscription: SharedSubscription
            do {
                let subscriber = SerialRecorder()
                released = subscriber
                (0..<Int.max).publisher.subscribe(subscriber)
                subscription = SharedSubscription(subscriber.subscription)
                subscriber.forget()
                DispatchQueue.concurrentPerform(iterations: 2) { thread in
                    if thread == 0 {
                        subscription.request(.unlimited)
                    } else {
                        while subscriber.values.withLock({ $0.isEmpty }) {}
                        subscription.cancel()
                    }
                }
                #expect(subscriber.completions.withLock { $0 } == 0)
                #expect(subscriber.overlaps.withLock { $0 } == 0)
            }
            #expect(released == nil)
            withExtendedLifetime(subscription) {}
        }
    }
}
