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
}
