import Streams
import StreamsTesting
import Testing

/// `RetryBackoff` and `retry(maxRetries:backoff:scheduler:shouldRetry:)`: the delays, their caps, `shouldRetry`,
/// demand carried across a back-off and cancelling during one. `RetryError` and `RetryProbe` live in
/// `RetryTests.swift`.
@Suite struct RetryBackoffTests {
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

    /// The pending back-off timer holds the subscription (as every timing operator's action does); a cancel cancels
    /// the timer and lets go of the upstream and of `shouldRetry`, with what they capture.
    @Test func cancelDuringBackoffReleasesTheUpstreamAndThePredicate() {
        let scheduler = TestScheduler()
        weak var weakUpstreamToken: Token?
        weak var weakPredicateToken: Token?
        var recorder: TestRecorder<Int, RetryError>?
        do {
            let upstreamToken = Token()
            let predicateToken = Token()
            weakUpstreamToken = upstreamToken
            weakPredicateToken = predicateToken
            recorder = Deferred { () -> Fail<Int, RetryError> in
                _ = upstreamToken
                return Fail(error: .boom)
            }
            .retry(maxRetries: 3, backoff: .constant(.seconds(1)), scheduler: scheduler) { _ in
                _ = predicateToken
                return true
            }
            .record(on: scheduler)
        }
        #expect(scheduler.pendingCount == 1)
        #expect(weakUpstreamToken != nil)
        #expect(weakPredicateToken != nil)
        recorder?.cancel()
        #expect(scheduler.pendingCount == 0)
        #expect(weakUpstreamToken == nil)
        #expect(weakPredicateToken == nil)
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
