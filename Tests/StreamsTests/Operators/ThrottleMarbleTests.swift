import Streams
import StreamsTesting
import Testing

@Suite struct ThrottleMarbleTests {
    @Test func latestPublishesTheFirstValueAtOnceThenTheNewestOfEachWindow() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("ab-c---d-----|")
        expectMarbles(
            input.throttle(for: scheduler.frames(4), scheduler: scheduler, latest: true), "a---c---d----|",
            on: scheduler)
    }

    @Test func notLatestPublishesTheFirstValueOfEachWindow() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("ab-c---d-----|")
        expectMarbles(
            input.throttle(for: scheduler.frames(4), scheduler: scheduler, latest: false), "a---b---d----|",
            on: scheduler)
    }

    @Test func finishWaitsForTheScheduledValue() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("ab|")
        expectMarbles(
            input.throttle(for: scheduler.frames(4), scheduler: scheduler, latest: true), "a---(b|)",
            on: scheduler)
    }

    @Test func aFailureWaitsForTheScheduledValueToo() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("ab#", error: TimingTestError.boom)
        expectMarbles(
            input.throttle(for: scheduler.frames(4), scheduler: scheduler, latest: true), "a---(b#)", error: .boom,
            on: scheduler)
    }
}
