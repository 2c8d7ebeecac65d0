import Streams
import StreamsTesting
import Testing

@Suite struct RetryMarbleTests {
    @Test func retryResubscribesAtOnceUntilAnAttemptSucceeds() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("--#", "--#", "--a|", error: TimingTestError.boom)
        expectMarbles(source.retry(2), "------a|", on: scheduler)
        expectSubscriptions(source, "^", "--^", "----^")
    }

    @Test func retryForwardsTheFailureOnceTheRetriesAreUsedUp() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("-a#", error: TimingTestError.boom)
        expectMarbles(source.retry(2), "-a-a-a#", error: .boom, on: scheduler)
        expectSubscriptions(source, "^", "--^", "----^")
    }

    @Test func exponentialBackoffWaitsLongerBeforeEachRetry() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("--#", error: TimingTestError.boom)
        let retried = source.retry(
            maxRetries: 2, backoff: .exponential(initial: scheduler.frames(3)), scheduler: scheduler)
        // Fails at 2, waits 3, retries at 5, fails at 7, waits 6, retries at 13, fails at 15.
        expectMarbles(retried, "---------------#", error: .boom, on: scheduler)
        expectSubscriptions(source, "^", "-----^", "-------------^")
    }

    @Test func constantBackoffThenSuccess() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("--#", "-a|", error: TimingTestError.boom)
        let retried = source.retry(maxRetries: 3, backoff: .constant(scheduler.frames(3)), scheduler: scheduler)
        expectMarbles(retried, "------a|", on: scheduler)
        expectSubscriptions(source, "^", "-----^")
    }

    @Test func cancellingDuringTheBackoffNeverResubscribes() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("--#", error: TimingTestError.boom)
        let retried = source.retry(maxRetries: 3, backoff: .constant(scheduler.frames(5)), scheduler: scheduler)
        expectMarbles(retried, "", on: scheduler, subscription: "^---!")
        expectSubscriptions(source, "^")  // the failed attempt ended by failing, not by a cancel
    }
}
