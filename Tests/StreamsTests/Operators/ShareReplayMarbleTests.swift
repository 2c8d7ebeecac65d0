import Streams
import StreamsTesting
import Testing

@Suite struct ShareReplayMarbleTests {
    @Test func aLateSubscriberGetsTheLatestValuesThenLiveOnes() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b-c---d|")
        let shared = input.share(replay: 2)
        let early = shared.record(on: scheduler)
        scheduler.advance(by: scheduler.frames(6))
        let late = shared.record(on: scheduler)
        expectMarbles(early, "-a-b-c---d|")
        expectMarbles(late, "------(bc)--d|")
        expectSubscriptions(input, "^")
    }

    @Test func aSubscriberAfterCompletionGetsTheReplayAndTheCompletion() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b|")
        let shared = input.share(replay: 1)
        _ = shared.record(on: scheduler)
        scheduler.advance(by: scheduler.frames(6))
        let late = shared.record(on: scheduler)
        expectMarbles(late, "------(b|)")
        expectSubscriptions(input, "^")
    }

    @Test func shareWithoutReplayGivesALateSubscriberOnlyLaterValues() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b-c|")
        let shared = input.share()
        let early = shared.record(on: scheduler)
        scheduler.advance(by: scheduler.frames(2))
        let late = shared.record(on: scheduler)
        expectMarbles(early, "-a-b-c|")
        expectMarbles(late, "---b-c|")
    }
}
