import Streams
import StreamsTesting
import Testing

@Suite struct TimeoutMarbleTests {
    @Test func silenceLongerThanTheIntervalFailsWithTheCustomError() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b-------c|", error: TimingTestError.boom)
        let guarded = input.timeout(scheduler.frames(3), scheduler: scheduler, customError: { .timedOut })
        expectMarbles(guarded, "-a-b--#", error: .timedOut, on: scheduler)
        expectSubscriptions(input, "^-----!")
    }

    @Test func withoutACustomErrorTheStreamFinishes() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b-------c|")
        expectMarbles(input.timeout(scheduler.frames(3), scheduler: scheduler), "-a-b--|", on: scheduler)
    }

    @Test func aCompletionInTimeWins() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b-|")
        expectMarbles(input.timeout(scheduler.frames(3), scheduler: scheduler), "-a-b-|", on: scheduler)
    }
}
