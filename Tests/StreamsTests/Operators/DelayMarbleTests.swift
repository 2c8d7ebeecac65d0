import Streams
import StreamsTesting
import Testing

@Suite struct DelayMarbleTests {
    @Test func everyEventIsShiftedByTheInterval() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-(bc)-|")
        expectMarbles(input.delay(for: scheduler.frames(3), scheduler: scheduler), "----a-(bc)-|", on: scheduler)
    }

    @Test func aFailureIsDelayedToo() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a#", error: TimingTestError.boom)
        expectMarbles(
            input.delay(for: scheduler.frames(2), scheduler: scheduler), "---a#", error: .boom, on: scheduler)
    }

    @Test func cancelDropsWhatIsStillWaiting() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b-c|")
        expectMarbles(
            input.delay(for: scheduler.frames(2), scheduler: scheduler), "---a", on: scheduler,
            subscription: "^----!")
        expectSubscriptions(input, "^----!")
    }
}
