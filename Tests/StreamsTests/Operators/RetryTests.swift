import Streams
import StreamsTesting
import Testing

/// Shared with `RetryBackoffTests`.
enum RetryError: Error, Equatable {
    case boom
    case fatal
}

/// A hand-driven upstream: records every subscription and the demand requested through it. Shared with
/// `RetryBackoffTests`.
final class RetryProbe: Publisher {
    typealias Output = Int
    typealias Failure = RetryError

    final class Link: Subscription {
        var requests: [Subscribers.Demand] = []
        var isCancelled = false
        func request(_ demand: Subscribers.Demand) { requests.append(demand) }
        func cancel() { isCancelled = true }
    }

    var links: [Link] = []
    private var subscribers: [AnySubscriber<Int, RetryError>] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == RetryError {
        let link = Link()
        links.append(link)
        let erased = AnySubscriber(subscriber)
        subscribers.append(erased)
        erased.receive(subscription: link)
    }

    /// Sends to the latest subscriber; returns the extra demand it gave back.
    @discardableResult
    func send(_ value: Int) -> Subscribers.Demand { subscribers.last?.receive(value) ?? .none }
    func fail(_ error: RetryError = .boom) { subscribers.last?.receive(completion: .failure(error)) }
    func finish() { subscribers.last?.receive(completion: .finished) }
}

@Suite struct RetryTests {
    // MARK: retry(_:)

    @Test func retrySubscribesOnePlusRetriesTimesThenForwardsTheFailure() {
        var subscriptions = 0
        let recorder = Deferred { () -> Fail<Int, RetryError> in
            subscriptions += 1
            return Fail(error: .boom)
        }.retry(3).record()
        #expect(subscriptions == 4)
        #expect(recorder.events == [.failure(.boom, at: .zero)])
        #expect(recorder.subscriptionCount == 1)
    }

    @Test func retryZeroNeverResubscribes() {
        var subscriptions = 0
        let recorder = Deferred { () -> Fail<Int, RetryError> in
            subscriptions += 1
            return Fail(error: .boom)
        }.retry(0).record()
        #expect(subscriptions == 1)
        #expect(recorder.failure == .boom)
    }

    @Test func negativeRetriesCountAsZero() {
        var subscriptions = 0
        let recorder = Deferred { () -> Fail<Int, RetryError> in
            subscriptions += 1
            return Fail(error: .boom)
        }.retry(-5).record()
        #expect(subscriptions == 1)
        #expect(recorder.failure == .boom)
    }

    @Test func retryStopsAtTheFirstAttemptThatSucceeds() {
        var subscriptions = 0
        let recorder = Deferred { () -> AnyPublisher<Int, RetryError> in
            subscriptions += 1
            if subscriptions < 3 { return Fail(error: .boom).eraseToAnyPublisher() }
            return Publishers.Sequence<[Int], RetryError>(sequence: [7, 8]).eraseToAnyPublisher()
        }.retry(5).record()
        #expect(subscriptions == 3)
        #expect(recorder.values == [7, 8])
        #expect(recorder.isFinished)
        #expect(recorder.subscriptionCount == 1)
    }

    @Test func theRetryingOperatorsNameTheirSubscriptions() {
        let scheduler = TestScheduler()
        let upstream = Fail<Int, RetryError>(error: .boom)
        let named: [(String, AnyPublisher<Int, RetryError>)] = [
            ("Retry", upstream.retry(1).eraseToAnyPublisher()),
            (
                "RetryWithBackoff",
                upstream.retry(maxRetries: 1, backoff: .constant(.seconds(1)), scheduler: scheduler)
                    .eraseToAnyPublisher()
            ),
            ("RetryWhen", upstream.retryWhen { $0.prefix(1) }.eraseToAnyPublisher()),
        ]
        for (name, publisher) in named {
            var description: String?
            publisher.subscribe(
                AnySubscriber<Int, RetryError>(receiveSubscription: { description = String(describing: $0) }))
            #expect(description == name)
        }
    }

    @Test func finishedIsForwardedWithoutRetrying() {
        let probe = RetryProbe()
        let recorder = probe.retry(3).record()
        probe.send(1)
        probe.finish()
        #expect(probe.links.count == 1)
        #expect(recorder.values == [1])
        #expect(recorder.isFinished)
    }

    @Test func valuesDeliveredBeforeAFailureStayDelivered() {
        let subjects = [PassthroughSubject<Int, RetryError>(), PassthroughSubject<Int, RetryError>()]
        var attempt = 0
        let recorder = Deferred { () -> PassthroughSubject<Int, RetryError> in
            defer { attempt += 1 }
            return subjects[attempt]
        }.retry(1).record()
        subjects[0].send(1)
        subjects[0].send(2)
        subjects[0].send(completion: .failure(.boom))
        subjects[1].send(3)
        subjects[1].send(completion: .finished)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.isFinished)
    }

    @Test func outstandingDemandCarriesOverToTheNextAttempt() {
        let subjects = [PassthroughSubject<Int, RetryError>(), PassthroughSubject<Int, RetryError>()]
        var attempt = 0
        let recorder = Deferred { () -> PassthroughSubject<Int, RetryError> in
            defer { attempt += 1 }
            return subjects[attempt]
        }.retry(1).record(demand: .max(3))
        subjects[0].send(1)
        subjects[0].send(2)
        subjects[0].send(completion: .failure(.boom))
        // One value of the three requested is still owed: the second attempt may deliver only one.
        subjects[1].send(3)
        subjects[1].send(4)
        #expect(recorder.values == [1, 2, 3])
        recorder.request(.max(1))
        subjects[1].send(5)
        subjects[1].send(6)
        #expect(recorder.values == [1, 2, 3, 5])
    }

    @Test func eachAttemptIsAskedForExactlyTheOutstandingDemand() {
        let probe = RetryProbe()
        let recorder = probe.retry(2).record(demand: .max(3))
        #expect(probe.links[0].requests == [.max(3)])
        probe.send(1)
        probe.send(2)
        probe.fail()
        #expect(probe.links.count == 2)
        #expect(probe.links[1].requests == [.max(1)])
        recorder.request(.max(2))
        #expect(probe.links[1].requests == [.max(1), .max(2)])
        // Requests reach only the current attempt.
        #expect(probe.links[0].requests == [.max(3)])
    }

    @Test func demandReturnedFromReceiveCarriesOverToo() {
        let probe = RetryProbe()
        let recorder = probe.retry(1).record(demand: .max(1), demandPerValue: .max(1))
        probe.send(1)
        probe.send(2)
        probe.fail()
        // Requested 1 + 1 + 1, received 2: one is owed.
        #expect(probe.links[1].requests == [.max(1)])
        #expect(recorder.values == [1, 2])
    }

    @Test func unlimitedDemandStaysUnlimitedAcrossAttempts() {
        let probe = RetryProbe()
        _ = probe.retry(1).record()
        probe.send(1)
        probe.fail()
        #expect(probe.links[1].requests == [.unlimited])
    }

    @Test func noDemandMeansTheNextAttemptIsAskedForNothing() {
        let probe = RetryProbe()
        let recorder = probe.retry(1).record(demand: .max(1))
        probe.send(1)
        probe.fail()
        #expect(probe.links[1].requests == [])
        recorder.request(.max(4))
        #expect(probe.links[1].requests == [.max(4)])
    }

    @Test func synchronouslyFailingUpstreamDoesNotGrowTheStack() {
        var subscriptions = 0
        let recorder = Deferred { () -> Fail<Int, RetryError> in
            subscriptions += 1
            return Fail(error: .boom)
        }.retry(100_000).record()
        #expect(subscriptions == 100_001)
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func plainFailWithManyRetriesCompletesOnce() {
        let recorder = Fail<Int, RetryError>(error: .fatal).retry(100_000).record()
        #expect(recorder.events == [.failure(.fatal, at: .zero)])
        #expect(recorder.subscriptionCount == 1)
    }

    @Test func cancelStopsRetryingAndCancelsTheCurrentAttempt() {
        let probe = RetryProbe()
        let recorder = probe.retry(5).record()
        probe.fail()
        #expect(probe.links.count == 2)
        recorder.cancel()
        #expect(probe.links[1].isCancelled)
        probe.send(9)
        probe.fail()
        #expect(probe.links.count == 2)
        #expect(recorder.events.isEmpty)
    }

    @Test func cancelIsIdempotent() {
        let probe = RetryProbe()
        let recorder = probe.retry(1).record()
        let subscription = recorder.subscription
        subscription?.cancel()
        subscription?.cancel()
        #expect(probe.links[0].isCancelled)
        probe.fail()
        #expect(probe.links.count == 1)
    }

    @Test func cancellingFromInsideReceiveStopsEverything() {
        let probe = RetryProbe()
        var received: [Int] = []
        var subscription: (any Subscription)?
        let subscriber = AnySubscriber<Int, RetryError>(
            receiveSubscription: {
                subscription = $0
                $0.request(.unlimited)
            },
            receiveValue: { value in
                received.append(value)
                subscription?.cancel()
                return .none
            },
            receiveCompletion: { _ in received.append(-1) })
        probe.retry(3).subscribe(subscriber)
        probe.send(1)
        probe.send(2)
        probe.fail()
        #expect(received == [1])
        #expect(probe.links.count == 1)
        #expect(probe.links[0].isCancelled)
    }

    @Test func cancellingInsideReceiveSubscriptionNeverSubscribesUpstream() {
        var subscriptions = 0
        let subscriber = AnySubscriber<Int, RetryError>(receiveSubscription: { $0.cancel() })
        Deferred { () -> Fail<Int, RetryError> in
            subscriptions += 1
            return Fail(error: .boom)
        }.retry(3).subscribe(subscriber)
        #expect(subscriptions == 0)
    }

    @Test func cancelReleasesTheUpstreamAndItsCaptures() {
        let subject = PassthroughSubject<Int, RetryError>()
        weak var weakToken: Token?
        var recorder: TestRecorder<Int, RetryError>?
        do {
            let token = Token()
            weakToken = token
            recorder = Deferred { () -> PassthroughSubject<Int, RetryError> in
                _ = token
                return subject
            }.retry(2).record()
        }
        #expect(weakToken != nil)
        recorder?.cancel()
        #expect(weakToken == nil)
    }
}
