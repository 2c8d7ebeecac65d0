import Streams
import StreamsTesting
import Testing

private enum RetryError: Error, Equatable {
    case boom
    case fatal
}

/// A hand-driven upstream: records every subscription and the demand requested through it.
private final class RetryProbe: Publisher {
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

    // MARK: retry(maxRetries:backoff:scheduler:shouldRetry:)

    @Test func exponentialBackoffResubscribesAtExactVirtualTimes() {
        let scheduler = TestScheduler()
        var times: [Duration] = []
        let recorder = Deferred { () -> Fail<Int, RetryError> in
            times.append(scheduler.now.offset)
            return Fail(error: .boom)
        }
        .retry(maxRetries: 3, backoff: .exponential(initial: .milliseconds(100)), scheduler: scheduler)
        .record(on: scheduler)
        #expect(times == [.zero])
        scheduler.advance(by: .milliseconds(99))
        #expect(times == [.zero])
        scheduler.advance(by: .seconds(10))
        #expect(times == [.zero, .milliseconds(100), .milliseconds(300), .milliseconds(700)])
        #expect(recorder.events == [.failure(.boom, at: .milliseconds(700))])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func constantBackoffWaitsTheSameBeforeEveryRetry() {
        let scheduler = TestScheduler()
        var times: [Duration] = []
        let recorder = Deferred { () -> Fail<Int, RetryError> in
            times.append(scheduler.now.offset)
            return Fail(error: .boom)
        }
        .retry(maxRetries: 2, backoff: .constant(.milliseconds(50)), scheduler: scheduler)
        .record(on: scheduler)
        scheduler.run()
        #expect(times == [.zero, .milliseconds(50), .milliseconds(100)])
        #expect(recorder.events == [.failure(.boom, at: .milliseconds(100))])
    }

    @Test func backoffIsCappedByMaxDelay() {
        let scheduler = TestScheduler()
        var times: [Duration] = []
        _ = Deferred { () -> Fail<Int, RetryError> in
            times.append(scheduler.now.offset)
            return Fail(error: .boom)
        }
        .retry(
            maxRetries: 4,
            backoff: .exponential(initial: .milliseconds(100), multiplier: 3, maxDelay: .milliseconds(500)),
            scheduler: scheduler
        )
        .record(on: scheduler)
        scheduler.run()
        // Waits 100, 300, 500 (not 900), 500 (not 2700).
        #expect(
            times == [.zero, .milliseconds(100), .milliseconds(400), .milliseconds(900), .milliseconds(1400)])
    }

    @Test func backoffDelaysFollowTheDocumentedFormula() {
        let exponential = RetryBackoff.exponential(initial: .milliseconds(100))
        #expect(exponential.delay(beforeRetry: 1) == .milliseconds(100))
        #expect(exponential.delay(beforeRetry: 2) == .milliseconds(200))
        #expect(exponential.delay(beforeRetry: 4) == .milliseconds(800))
        #expect(exponential.delay(beforeRetry: 0) == .milliseconds(100))
        let gentle = RetryBackoff.exponential(initial: .seconds(1), multiplier: 1.5, maxDelay: .seconds(2))
        #expect(gentle.delay(beforeRetry: 2) == .milliseconds(1500))
        #expect(gentle.delay(beforeRetry: 3) == .seconds(2))
        #expect(RetryBackoff.constant(.seconds(3)).delay(beforeRetry: 10) == .seconds(3))
        #expect(RetryBackoff.constant(.seconds(-3)).delay(beforeRetry: 1) == .zero)
    }

    @Test func hugeRetryNumbersSaturateInsteadOfOverflowing() {
        let capped = RetryBackoff.exponential(initial: .seconds(1), maxDelay: .seconds(30))
        #expect(capped.delay(beforeRetry: 1_000_000) == .seconds(30))
        let uncapped = RetryBackoff.exponential(initial: .seconds(1))
        #expect(uncapped.delay(beforeRetry: 1_000_000) == .seconds(1_000_000_000))
        #expect(RetryBackoff.exponential(initial: .zero).delay(beforeRetry: 5000) == .zero)
    }

    @Test func shouldRetryFalseForwardsTheFailureAtOnce() {
        let scheduler = TestScheduler()
        var subscriptions = 0
        var asked: [RetryError] = []
        let recorder = Deferred { () -> Fail<Int, RetryError> in
            subscriptions += 1
            return Fail(error: subscriptions == 1 ? .boom : .fatal)
        }
        .retry(maxRetries: 5, backoff: .constant(.seconds(1)), scheduler: scheduler) { error in
            asked.append(error)
            return error != .fatal
        }
        .record(on: scheduler)
        scheduler.run()
        #expect(subscriptions == 2)
        #expect(asked == [.boom, .fatal])
        #expect(recorder.events == [.failure(.fatal, at: .seconds(1))])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func shouldRetryIsNotAskedOnceTheRetriesAreUsedUp() {
        let scheduler = TestScheduler()
        var asked = 0
        let recorder = Fail<Int, RetryError>(error: .boom)
            .retry(maxRetries: 1, backoff: .constant(.seconds(1)), scheduler: scheduler) { _ in
                asked += 1
                return true
            }
            .record(on: scheduler)
        scheduler.run()
        #expect(asked == 1)
        #expect(recorder.events == [.failure(.boom, at: .seconds(1))])
    }

    @Test func cancelDuringBackoffNeverResubscribes() {
        let scheduler = TestScheduler()
        var subscriptions = 0
        let recorder = Deferred { () -> Fail<Int, RetryError> in
            subscriptions += 1
            return Fail(error: .boom)
        }
        .retry(maxRetries: 3, backoff: .constant(.seconds(1)), scheduler: scheduler)
        .record(on: scheduler)
        #expect(scheduler.pendingCount == 1)
        recorder.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(10))
        #expect(subscriptions == 1)
        #expect(recorder.events.isEmpty)
    }

    @Test func backoffCarriesDemandOverAndKeepsValues() {
        let scheduler = TestScheduler()
        let probe = RetryProbe()
        let recorder = probe.retry(maxRetries: 1, backoff: .constant(.seconds(2)), scheduler: scheduler)
            .record(on: scheduler, demand: .max(3))
        probe.send(1)
        probe.send(2)
        probe.fail()
        #expect(probe.links.count == 1)
        scheduler.advance(by: .seconds(2))
        #expect(probe.links.count == 2)
        #expect(probe.links[1].requests == [.max(1)])
        probe.send(3)
        probe.finish()
        #expect(
            recorder.events == [
                .value(1, at: .zero), .value(2, at: .zero), .value(3, at: .seconds(2)), .finished(at: .seconds(2)),
            ])
    }

    @Test func demandRequestedDuringBackoffReachesTheNextAttempt() {
        let scheduler = TestScheduler()
        let probe = RetryProbe()
        let recorder = probe.retry(maxRetries: 1, backoff: .constant(.seconds(1)), scheduler: scheduler)
            .record(on: scheduler, demand: .max(1))
        probe.fail()
        recorder.request(.max(2))
        scheduler.advance(by: .seconds(1))
        #expect(probe.links[1].requests == [.max(3)])
    }

    @Test func immediateSchedulerBackoffDoesNotGrowTheStack() {
        var subscriptions = 0
        let recorder = Deferred { () -> Fail<Int, RetryError> in
            subscriptions += 1
            return Fail(error: .boom)
        }
        .retry(maxRetries: 100_000, backoff: .constant(.zero), scheduler: ImmediateScheduler.shared)
        .record()
        #expect(subscriptions == 100_001)
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func backoffZeroMaxRetriesFailsAtOnceWithoutScheduling() {
        let scheduler = TestScheduler()
        let recorder = Fail<Int, RetryError>(error: .boom)
            .retry(maxRetries: 0, backoff: .constant(.seconds(1)), scheduler: scheduler)
            .record(on: scheduler)
        #expect(recorder.events == [.failure(.boom, at: .zero)])
        #expect(scheduler.pendingCount == 0)
    }
}
