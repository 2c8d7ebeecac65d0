import Streams
import StreamsTesting
import Testing

@Suite struct BasicPublisherTests {
    @Test func justDeliversItsValueOnDemandThenFinishes() {
        let recorder = Just(1).record(demand: .none)
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func justCancelledBeforeAnyDemandDeliversNothingAndReleasesItsValue() {
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<LifetimeToken, Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = Just(token).record(demand: .none)
        }
        recorder.request(.none)
        #expect(recorder.events.isEmpty)
        #expect(weakToken != nil)
        recorder.cancel()
        #expect(weakToken == nil)
        recorder.subscription?.request(.max(1))
        #expect(recorder.events.isEmpty)
    }

    @Test func justReleasesItsValueOnceDelivered() {
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<Int, Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = Just(token).map { _ in 7 }.record(demand: .none)
        }
        recorder.request(.max(1))
        #expect(weakToken == nil)
        #expect(recorder.values == [7])
        #expect(recorder.isFinished)
        #expect(recorder.subscription.map { "\($0)" } == "Just")
    }

    @Test func justDeliversExactlyOnceWhenRequestsRaceACancelAcrossThreads() async {
        for _ in 0..<200 {
            let recorder = Just(1).record(demand: .none)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { recorder.request(.max(1)) }
                group.addTask { recorder.request(.unlimited) }
                group.addTask { recorder.cancel() }
            }
            // A cancel that lands while the value is being delivered stops the `.finished` that would follow.
            let events = recorder.events
            #expect(
                events.isEmpty || events == [.value(1, at: .zero)]
                    || events == [.value(1, at: .zero), .finished(at: .zero)])
        }
    }

    @Test func emptyFinishesAtOnceOrNever() {
        #expect(Empty<Int, Never>().record().isFinished)
        let silent = Empty<Int, Never>(completeImmediately: false).record()
        #expect(silent.events.isEmpty)
        #expect(silent.subscriptionCount == 1)
    }

    @Test func failFailsAtOnce() {
        let recorder = Fail<Int, TestError>(error: .boom).record(demand: .none)
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

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

    @Test func anyPublisherBehavesLikeTheErasedPublisher() {
        let erased: AnyPublisher<Int, Never> = [1, 2, 3].publisher.map { $0 * 2 }.eraseToAnyPublisher()
        #expect(erased.record().values == [2, 4, 6])
        let twice = erased.eraseToAnyPublisher()
        #expect(twice.record(demand: .max(1)).values == [2])
    }
}
