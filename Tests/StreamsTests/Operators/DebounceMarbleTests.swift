import Streams
import StreamsTesting
import Testing

/// `debounce` on marble diagrams, including the classic published vectors (Rx.NET / RxJava test suites).
@Suite struct DebounceMarbleTests {
    /// Values at 210, 240, 270, 300 and completion at 400, debounced by 20: each value is published 20 later.
    @Test func classicVectorSpacedValuesEachComeOutAfterTheDueTime() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("210ms 1 29ms 2 29ms 3 29ms 4 99ms |")
        expectMarbles(
            input.debounce(for: scheduler.frames(20), scheduler: scheduler),
            "230ms 1 29ms 2 29ms 3 29ms 4 79ms |", on: scheduler)
    }

    /// The same vector drawn with 10-tick frames, one character per 10 ms.
    @Test func classicVectorDrawnWithTenMillisecondFrames() throws {
        let scheduler = TestScheduler(frameDuration: .milliseconds(10))
        let input = try scheduler.hot("---------------------a--b--c--d---------|")
        expectMarbles(
            input.debounce(for: scheduler.frames(2), scheduler: scheduler),
            "-----------------------a--b--c--d-------|", on: scheduler)
    }

    /// Values every 30 from 210 to 390, debounced by 40: only the last survives, flushed by the completion at
    /// 400 (Streams flushes a pending value on finish; Combine would drop it).
    @Test func classicVectorContinuousBurstKeepsOnlyTheLastAndFlushesItOnFinish() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("210ms a 29ms b 29ms c 29ms d 29ms e 29ms f 29ms g 9ms |")
        expectMarbles(
            input.debounce(for: scheduler.frames(40), scheduler: scheduler), "400ms (g|)", on: scheduler)
    }

    @Test func aBurstPublishesItsLastValueOnceTheInputIsQuiet() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b------c|")
        expectMarbles(
            input.debounce(for: scheduler.frames(3), scheduler: scheduler), "------b----(c|)", on: scheduler)
    }

    @Test func aFailureDropsThePendingValueAndFailsAtOnce() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-#", error: TimingTestError.boom)
        expectMarbles(
            input.debounce(for: scheduler.frames(3), scheduler: scheduler), "---#", error: .boom, on: scheduler)
    }

    @Test func cancellingCancelsTheUpstreamSubscription() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b-c-d|")
        expectMarbles(
            input.debounce(for: scheduler.frames(1), scheduler: scheduler), "--a-b", on: scheduler,
            subscription: "^----!")
        expectSubscriptions(input, "^----!")
    }
}
