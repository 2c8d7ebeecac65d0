import Streams
import StreamsTesting
import Testing

@Suite struct SwitchToLatestMarbleTests {
    @Test func aNewInnerCancelsThePreviousOne() throws {
        let scheduler = TestScheduler()
        let first = try scheduler.cold("-a-b-c|")
        let second = try scheduler.cold("--x|")
        let outer = try scheduler.hot("-1---2----|", values: ["1": first, "2": second])
        expectMarbles(outer.switchToLatest(), "--a-b--x--|", on: scheduler)
        expectSubscriptions(first, "-^---!")
        expectSubscriptions(second, "-----^")
    }

    @Test func aStaleResponseNeverOverwritesANewerOne() throws {
        let scheduler = TestScheduler()
        // A slow response to the first query, a fast one to the second: only the second arrives.
        let slow = try scheduler.cold("------(s|)")
        let fast = try scheduler.cold("-(f|)")
        let queries = try scheduler.hot("-1-2-----|", values: ["1": slow, "2": fast])
        expectMarbles(queries.switchToLatest(), "----f----|", on: scheduler)
        expectSubscriptions(slow, "-^-!")
    }

    @Test func anInnerFailureFailsTheWholeAndCancelsTheOuter() throws {
        let scheduler = TestScheduler()
        let failing = try scheduler.cold("-a#", error: TimingTestError.boom)
        let outer = try scheduler.hot("-1------|", values: ["1": failing], error: TimingTestError.boom)
        expectMarbles(outer.switchToLatest(), "--a#", error: .boom, on: scheduler)
        expectSubscriptions(outer, "^--!")
    }
}
