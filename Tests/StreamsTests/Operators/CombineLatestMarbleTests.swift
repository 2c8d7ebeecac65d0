import Streams
import StreamsTesting
import Testing

@Suite struct CombineLatestMarbleTests {
    @Test func emitsOnceBothHaveEmittedThenOnEveryValue() throws {
        let scheduler = TestScheduler()
        let letters = try scheduler.hot("-a---b-----|")
        let digits = try scheduler.hot("---1---2|")
        expectMarbles(
            letters.combineLatest(digits) { $0 + $1 }, "---x-y-z---|", values: ["x": "a1", "y": "b1", "z": "b2"],
            on: scheduler)
    }

    @Test func finishesAtOnceWhenASourceFinishesWithoutEverEmitting() throws {
        let scheduler = TestScheduler()
        let letters = try scheduler.hot("-a---b-----|")
        let digits = try scheduler.hot("--|")
        expectMarbles(letters.combineLatest(digits) { $0 + $1 }, "--|", on: scheduler)
        expectSubscriptions(letters, "^-!")
    }

    @Test func aFailureFailsAtOnceAndCancelsTheOtherSource() throws {
        let scheduler = TestScheduler()
        let letters = try scheduler.hot("-a---b-----|", error: TimingTestError.boom)
        let digits = try scheduler.hot("--1-#", error: TimingTestError.boom)
        expectMarbles(
            letters.combineLatest(digits) { $0 + $1 }, "--x-#", values: ["x": "a1"], error: .boom, on: scheduler)
        expectSubscriptions(letters, "^---!")
    }
}
