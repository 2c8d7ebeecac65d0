import Streams
import StreamsTesting
import Testing

/// Shared with `ShareReplayTests`.
enum ShareError: Error, Equatable {
    case boom
}

/// An upstream that counts its subscriptions and whether the latest one was cancelled, and hands each
/// subscriber a fresh subject to be driven by the test. Shared with `ShareReplayTests`.
final class SharedSource {
    var subjects: [PassthroughSubject<Int, ShareError>] = []
    var cancellations = 0
    var requests: [Subscribers.Demand] = []

    var subscriptions: Int { subjects.count }
    var latest: PassthroughSubject<Int, ShareError> { subjects[subjects.count - 1] }

    var publisher: AnyPublisher<Int, ShareError> {
        Deferred { [self] () -> TrackingPublisher in
            let subject = PassthroughSubject<Int, ShareError>()
            subjects.append(subject)
            return TrackingPublisher(subject: subject, source: self)
        }.eraseToAnyPublisher()
    }

    /// Forwards to a subject, recording requests and cancellation of the subscription.
    struct TrackingPublisher: Publisher {
        typealias Output = Int
        typealias Failure = ShareError
        let subject: PassthroughSubject<Int, ShareError>
        let source: SharedSource

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == ShareError {
            let source = self.source
            subject.subscribe(
                AnySubscriber<Int, ShareError>(
                    receiveSubscription: { subscription in
                        subscriber.receive(subscription: TrackingSubscription(inner: subscription, source: source))
                    },
                    receiveValue: subscriber.receive(_:),
                    receiveCompletion: subscriber.receive(completion:)))
        }
    }

    final class TrackingSubscription: Subscription {
        let inner: any Subscription
        let source: SharedSource
        init(inner: any Subscription, source: SharedSource) {
            self.inner = inner
            self.source = source
        }
        func request(_ demand: Subscribers.Demand) {
            source.requests.append(demand)
            inner.request(demand)
        }
        func cancel() {
            source.cancellations += 1
            inner.cancel()
        }
    }
}

@Suite struct ShareTests {
    // MARK: share()

    @Test func manySubscribersShareOneUpstreamSubscription() {
        let source = SharedSource()
        let shared = source.publisher.share()
        let first = shared.record()
        let second = shared.record()
        #expect(source.subscriptions == 1)
        #expect(source.requests == [.unlimited])
        source.latest.send(1)
        source.latest.send(2)
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])
        #expect(first.subscriptionCount == 1 && second.subscriptionCount == 1)
    }

    @Test func connectsOnlyWhenTheFirstSubscriberAttaches() {
        let source = SharedSource()
        let shared = source.publisher.share()
        #expect(source.subscriptions == 0)
        _ = shared.record()
        #expect(source.subscriptions == 1)
    }

    @Test func firstSubscriberGetsItsSubscriptionBeforeTheUpstreamIsConnected() {
        let shared = [1, 2, 3].publisher.share()
        let first = shared.record()
        let second = shared.record()
        #expect(first.values == [1, 2, 3])
        #expect(first.isFinished)
        #expect(second.values == [])
        #expect(second.isFinished)
    }

    @Test func lateSubscriberSeesOnlyLaterValues() {
        let source = SharedSource()
        let shared = source.publisher.share()
        let early = shared.record()
        source.latest.send(1)
        let late = shared.record()
        source.latest.send(2)
        #expect(early.values == [1, 2])
        #expect(late.values == [2])
    }

    @Test func subscriberAfterCompletionGetsTheCompletionAtOnceWithoutReconnecting() {
        let source = SharedSource()
        let shared = source.publisher.share()
        let early = shared.record()
        source.latest.send(1)
        source.latest.send(completion: .failure(.boom))
        let late = shared.record()
        #expect(early.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])
        #expect(late.events == [.failure(.boom, at: .zero)])
        #expect(late.subscriptionCount == 1)
        #expect(source.subscriptions == 1)
    }

    @Test func upstreamIsCancelledOnlyWhenEverySubscriberHasCancelled() {
        let source = SharedSource()
        let shared = source.publisher.share()
        let first = shared.record()
        let second = shared.record()
        first.cancel()
        #expect(source.cancellations == 0)
        source.latest.send(1)
        #expect(first.values == [])
        #expect(second.values == [1])
        second.cancel()
        #expect(source.cancellations == 1)
    }

    @Test func nextSubscriberAfterEveryoneCancelledReconnects() {
        let source = SharedSource()
        let shared = source.publisher.share()
        let first = shared.record()
        source.latest.send(1)
        first.cancel()
        let second = shared.record()
        #expect(source.subscriptions == 2)
        source.subjects[0].send(99)
        source.latest.send(2)
        #expect(first.values == [1])
        #expect(second.values == [2])
    }

    @Test func subscriberThatCancelsDuringItsSubscriptionDoesNotConnect() {
        let source = SharedSource()
        let shared = source.publisher.share()
        shared.subscribe(AnySubscriber<Int, ShareError>(receiveSubscription: { $0.cancel() }))
        #expect(source.subscriptions == 0)
        let recorder = shared.record()
        #expect(source.subscriptions == 1)
        source.latest.send(5)
        #expect(recorder.values == [5])
    }

    @Test func subscribersAreServedInSubscriptionOrder() {
        let source = SharedSource()
        let shared = source.publisher.share()
        var log: [String] = []
        var bag: [AnyCancellable] = []
        for name in ["a", "b", "c"] {
            shared.sink(
                receiveCompletion: { _ in log.append("\(name)|") }, receiveValue: { log.append("\(name)\($0)") }
            )
            .store(in: &bag)
        }
        source.latest.send(1)
        source.latest.send(2)
        source.latest.send(completion: .finished)
        #expect(log == ["a1", "b1", "c1", "a2", "b2", "c2", "a|", "b|", "c|"])
    }

    @Test func valueIsDroppedForASubscriberWithoutDemand() {
        let source = SharedSource()
        let shared = source.publisher.share()
        let hungry = shared.record()
        let picky = shared.record(demand: .max(1))
        source.latest.send(1)
        source.latest.send(2)
        picky.request(.max(1))
        source.latest.send(3)
        #expect(hungry.values == [1, 2, 3])
        #expect(picky.values == [1, 3])
    }

    @Test func valueSentReentrantlyIsDeliveredAfterTheCurrentOne() {
        let source = SharedSource()
        let shared = source.publisher.share()
        var log: [String] = []
        let first = shared.sink(receiveCompletion: { _ in }) { value in
            log.append("a\(value)")
            if value == 1 { source.latest.send(2) }
        }
        let second = shared.sink(receiveCompletion: { _ in }) { log.append("b\($0)") }
        source.latest.send(1)
        // The upstream subject queues the nested send until the current value reached every subscriber.
        #expect(log == ["a1", "b1", "a2", "b2"])
        _ = (first, second)
    }

    @Test func cancelIsIdempotent() {
        let source = SharedSource()
        let shared = source.publisher.share()
        let first = shared.record()
        let second = shared.record()
        let subscription = first.subscription
        subscription?.cancel()
        subscription?.cancel()
        #expect(source.cancellations == 0)
        source.latest.send(1)
        #expect(second.values == [1])
        #expect(first.values == [])
    }

    @Test func shareIsAReferenceComparedByIdentity() {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let alias = shared
        #expect(alias == shared)
        #expect(subject.share() != shared)
    }
}
