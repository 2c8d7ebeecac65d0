import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct PassthroughSubjectTests {
    /// Found by the differential check: a subject subscribed to a synchronous upstream before anyone asked asks it
    /// only at the first request; when that request is made inside `receive(subscription:)`, the values it pulls
    /// must reach that subscriber (they were lost while it was still being handed its subscription).
    @Test(arguments: [Subscribers.Demand.max(1), .unlimited])
    func theFirstRequestInsideReceiveSubscriptionGetsTheValuesItPulls(_ demand: Subscribers.Demand) {
        let subject = PassthroughSubject<Int, Never>()
        let connection = [6, 7].publisher.subscribe(subject)
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: demand)
        subject.subscribe(subscriber)
        let expected: [HandWrittenSubscriber<Int, Never>.Event] =
            demand == .unlimited ? [.subscription, .value(6), .value(7), .finished] : [.subscription, .value(6), .finished]
        #expect(subscriber.events == expected)
        connection.cancel()
    }

    @Test func aMulticastConnectedFirstServesTheRequestMadeInsideReceiveSubscription() {
        let multicast = [6, 7].publisher.multicast(subject: PassthroughSubject<Int, Never>())
        let connection = multicast.connect()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        multicast.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(6), .finished])
        connection.cancel()
    }

    @Test func subscribersAreServedInSubscriptionOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let log = Locked<[String]>([])
        let a = subject.sink { value in log.withLock { $0.append("a\(value)") } }
        let b = subject.sink { value in log.withLock { $0.append("b\(value)") } }
        subject.send(1)
        subject.send(2)
        #expect(log.withLock { $0 } == ["a1", "b1", "a2", "b2"])
        _ = (a, b)
    }

    @Test func valuesSentWithoutDemandAreDroppedForThatSubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.record(demand: .none)
        subject.send(1)
        recorder.request(.max(2))
        subject.send(2)
        subject.send(3)
        subject.send(4)
        #expect(recorder.values == [2, 3])
        recorder.request(.max(1))
        subject.send(5)
        #expect(recorder.values == [2, 3, 5])
    }

    @Test func demandReturnedFromReceiveIsHonoured() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.record(demand: .max(1), demandPerValue: .max(1))
        for value in 1...4 { subject.send(value) }
        #expect(recorder.values == [1, 2, 3, 4])
    }

    @Test func lateSubscribersSeeOnlyLaterValues() {
        let subject = PassthroughSubject<Int, Never>()
        let early = subject.record()
        subject.send(1)
        let late = subject.record()
        subject.send(2)
        #expect(early.values == [1, 2])
        #expect(late.values == [2])
    }

    @Test func nothingIsDeliveredAfterCompletion() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = subject.record()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func subscribingAfterCompletionGetsTheCompletionAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        subject.send(completion: .finished)
        let recorder = subject.record()
        #expect(recorder.subscriptionCount == 1)
        #expect(recorder.events == [.finished(at: .zero)])
    }

    @Test func completionIsDeliveredEvenWithoutDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.record(demand: .none)
        subject.send(completion: .finished)
        #expect(recorder.isFinished)
    }

    @Test func nothingIsDeliveredAfterCancelAndCancelIsIdempotent() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.record()
        subject.send(1)
        recorder.cancel()
        recorder.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(1, at: .zero)])
    }

    @Test func cancelReleasesTheSubscriberAndItsClosures() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: Token?
        var cancellable: AnyCancellable?
        do {
            let token = Token()
            weakToken = token
            cancellable = subject.sink { _ in _ = token }
        }
        #expect(weakToken != nil)
        cancellable?.cancel()
        #expect(weakToken == nil)
        _ = cancellable
    }

    @Test func completionReleasesTheSubscriberAndItsClosures() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: Token?
        var cancellable: AnyCancellable?
        do {
            let token = Token()
            weakToken = token
            cancellable = subject.sink { _ in _ = token }
        }
        subject.send(completion: .finished)
        #expect(weakToken == nil)
        _ = cancellable
    }

    @Test func reentrantSendFromInsideReceiveIsDeliveredAfterTheCurrentValue() {
        let subject = PassthroughSubject<Int, Never>()
        let log = Locked<[String]>([])
        let c = subject.sink { value in
            log.withLock { $0.append("begin \(value)") }
            if value < 3 { subject.send(value + 1) }
            log.withLock { $0.append("end \(value)") }
        }
        subject.send(1)
        #expect(log.withLock { $0 } == ["begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3"])
        c.cancel()
    }

    @Test func reentrantCancelFromInsideReceiveStopsDelivery() {
        let subject = PassthroughSubject<Int, Never>()
        let seen = Locked<[Int]>([])
        var cancellable: AnyCancellable?
        cancellable = subject.sink { value in
            seen.withLock { $0.append(value) }
            cancellable?.cancel()
        }
        subject.send(1)
        subject.send(2)
        #expect(seen.withLock { $0 } == [1])
        _ = cancellable
    }

    @Test func droppingTheLastReferenceFromInsideReceiveReleasesTheSubscriberOnlyAfterTheDelivery() {
        // The subject hands values to its subscriber without retaining it per value: only the delivering
        // thread may release it, after the delivery returns. Here the handler drops the only
        // AnyCancellable (cancel + release) while it runs; its captures must outlive the call.
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: LifetimeToken?
        let aliveDuringDelivery = Locked<[Bool]>([])
        var cancellable: AnyCancellable?
        do {
            let token = LifetimeToken()
            weakToken = token
            cancellable = subject.map { $0 + 1 }.filter { $0 > 0 }.sink { _ in
                withExtendedLifetime(token) {}
                cancellable = nil
                aliveDuringDelivery.withLock { $0.append(weakToken != nil) }
            }
        }
        subject.send(1)
        #expect(aliveDuringDelivery.withLock { $0 } == [true])
        #expect(weakToken == nil)
        subject.send(2)
        #expect(aliveDuringDelivery.withLock { $0 } == [true])
        #expect(cancellable == nil)
    }

    @Test func aSubscriberAttachedReentrantlyDoesNotSeeSendsQueuedBeforeIt() {
        let subject = PassthroughSubject<Int, Never>()
        let late = Locked<TestRecorder<Int, Never>?>(nil)
        let c = subject.sink { value in
            guard value == 1 else { return }
            subject.send(2)
            late.withLock { $0 = subject.record() }
        }
        subject.send(1)
        subject.send(3)
        #expect(late.withLock { $0 }?.values == [3])
        c.cancel()
    }

    @Test func aStructSubscriberMayCancelInsideReceiveSubscription() {
        struct CancelOnSubscribe: Subscriber {
            let received = Locked(0)
            func receive(subscription: any Subscription) { subscription.cancel() }
            func receive(_ input: Int) -> Subscribers.Demand {
                received.withLock { $0 += 1 }
                return .unlimited
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let subject = PassthroughSubject<Int, Never>()
        let direct = CancelOnSubscribe()
        let mapped = CancelOnSubscribe()
        subject.subscribe(direct)
        subject.map { $0 }.subscribe(mapped)
        subject.send(1)
        let current = CurrentValueSubject<Int, Never>(0)
        let fromCurrent = CancelOnSubscribe()
        current.subscribe(fromCurrent)
        current.send(1)
        #expect(direct.received.withLock { $0 } == 0)
        #expect(mapped.received.withLock { $0 } == 0)
        #expect(fromCurrent.received.withLock { $0 } == 0)
    }

    @Test func aCompletionSentWhileASubscriberIsBeingSubscribedArrivesAfterItsSubscription() {
        // The subscriber is already in the subject's list while it receives its subscription; a completion
        // handled meanwhile (here sent from inside `receive(subscription:)`) must wait for that call to
        // return, never reach the subscriber before or inside it.
        final class CompletesTheSubjectOnSubscribe: Subscriber, @unchecked Sendable {
            let subject: PassthroughSubject<Int, Never>
            let events = Locked<[String]>([])
            let insideSubscribe = Locked(false)
            init(_ subject: PassthroughSubject<Int, Never>) { self.subject = subject }
            func receive(subscription: any Subscription) {
                insideSubscribe.withLock { $0 = true }
                events.withLock { $0.append("subscription") }
                subscription.request(.unlimited)
                subject.send(completion: .finished)
                insideSubscribe.withLock { $0 = false }
            }
            func receive(_ input: Int) -> Subscribers.Demand {
                events.withLock { $0.append("value") }
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) {
                let nested = insideSubscribe.withLock { $0 }
                events.withLock { $0.append(nested ? "completion inside receive(subscription:)" : "completion") }
            }
        }
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = CompletesTheSubjectOnSubscribe(subject)
        subject.subscribe(subscriber)
        #expect(subscriber.events.withLock { $0 } == ["subscription", "completion"])
    }

    @Test func aSendFromAnotherThreadDuringADeliveryIsQueuedAndDeliveredByTheDeliveringThread() {
        // Thread A is inside the subscriber with value 1; the test thread sends 2. That send returns at once
        // without delivering (nothing may overlap A's delivery) and A delivers 2 once 1 is done.
        let subject = PassthroughSubject<Int, Never>()
        let deliveries = Locked<[(value: Int, onSender: Bool)]>([])
        let inFirstDelivery = DispatchSemaphore(value: 0)
        let finishFirstDelivery = DispatchSemaphore(value: 0)
        let firstSendReturned = DispatchSemaphore(value: 0)
        let firstSender = Locked<pthread_t?>(nil)
        let c = subject.sink { value in
            let onFirstSender = firstSender.withLock { $0 }.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            deliveries.withLock { $0.append((value, onFirstSender)) }
            if value == 1 {
                inFirstDelivery.signal()
                _ = finishFirstDelivery.wait(timeout: .now() + 10)
            }
        }
        DispatchQueue.global().async {
            firstSender.withLock { $0 = pthread_self() }
            subject.send(1)
            firstSendReturned.signal()
        }
        #expect(inFirstDelivery.wait(timeout: .now() + 10) == .success)
        subject.send(2)
        #expect(deliveries.withLock { $0.map(\.value) } == [1])
        finishFirstDelivery.signal()
        #expect(firstSendReturned.wait(timeout: .now() + 10) == .success)
        let delivered = deliveries.withLock { $0 }
        #expect(delivered.map(\.value) == [1, 2])
        #expect(delivered.allSatisfy { $0.onSender })
        c.cancel()
    }

    @Test func aSubjectCanBeFedByAnUpstreamPublisher() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.record()
        let link = [1, 2, 3].publisher.subscribe(subject)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.isFinished)
        link.cancel()
    }

    // A send into the subject from inside a subscriber's `receive(subscription:)` (a request handler that starts
    // the work whose results it observes) is a re-entrant send: it reaches every subscriber, this one included,
    // once that call returns, in order, with the demand the subscriber has by then (Combine nests the delivery
    // inside the call; it used to be lost for this subscriber).

    @Test func valuesSentFromInsideReceiveSubscriptionReachTheSubscriberAfterTheCall() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = HandshakeSubscriber<Int, Never>(initial: .unlimited) {
            subject.send(5)
            subject.send(6)
        }
        subject.subscribe(subscriber)
        subject.send(7)
        #expect(subscriber.events == ["subscription", "value(5)", "value(6)", "value(7)"])
    }

    @Test func valuesSentFromInsideReceiveSubscriptionHonourTheDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = HandshakeSubscriber<Int, Never>(initial: .max(1)) {
            subject.send(5)
            subject.send(6)
        }
        subject.subscribe(subscriber)
        subscriber.request(.max(1))
        subject.send(7)
        #expect(subscriber.events == ["subscription", "value(5)", "value(7)"])
    }

    @Test func valuesSentFromInsideReceiveSubscriptionReachTheOtherSubscribersInOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let earlier = subject.record()
        let subscriber = HandshakeSubscriber<Int, Never>(initial: .unlimited) { subject.send(5) }
        subject.subscribe(subscriber)
        subject.send(6)
        #expect(earlier.values == [5, 6])
        #expect(subscriber.events == ["subscription", "value(5)", "value(6)"])
    }

    @Test func aValueAndACompletionSentFromInsideReceiveSubscriptionArriveInOrderAfterIt() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = HandshakeSubscriber<Int, Never>(initial: .unlimited) {
            subject.send(5)
            subject.send(completion: .finished)
        }
        subject.subscribe(subscriber)
        #expect(subscriber.events == ["subscription", "value(5)", "finished"])
    }

    @Test func aSubscriberThatCancelsInsideReceiveSubscriptionGetsNothingSentThere() {
        let subject = PassthroughSubject<Int, Never>()
        final class Box: @unchecked Sendable { var subscriber: HandshakeSubscriber<Int, Never>? }
        let box = Box()
        let subscriber = HandshakeSubscriber<Int, Never>(initial: .unlimited) {
            subject.send(5)
            box.subscriber?.cancelForTest()
        }
        box.subscriber = subscriber
        subject.subscribe(subscriber)
        subject.send(6)
        #expect(subscriber.events == ["subscription"])
        box.subscriber = nil
    }
}
