import Dispatch
import Streams
import StreamsTesting
import Testing

/// Collects strings from scheduled actions (which are `@Sendable`).
final class Log: Sendable {
    private let entries = Locked<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

@Suite struct TestSchedulerTests {
    @Test func nothingRunsUntilTheClockIsAdvanced() {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.schedule { log.append("now") }
        _ = scheduler.schedule(afterDelay: .seconds(1)) { log.append("later") }
        #expect(log.all.isEmpty)
        scheduler.advance()
        #expect(log.all == ["now"])
        scheduler.advance(by: .milliseconds(999))
        #expect(log.all == ["now"])
        scheduler.advance(by: .milliseconds(1))
        #expect(log.all == ["now", "later"])
        #expect(scheduler.now == .zero + .seconds(1))
    }

    @Test func actionsAtTheSameInstantRunInSchedulingOrder() {
        let scheduler = TestScheduler()
        let log = Log()
        for name in ["a", "b", "c"] {
            _ = scheduler.schedule(after: .zero + .seconds(2)) { log.append(name) }
        }
        _ = scheduler.schedule(after: .zero + .seconds(1)) { log.append("first") }
        scheduler.advance(by: .seconds(5))
        #expect(log.all == ["first", "a", "b", "c"])
    }

    @Test func nowIsTheDeadlineWhileAnActionRuns() {
        let scheduler = TestScheduler()
        let log = Log()
        _ = scheduler.schedule(after: .zero + .milliseconds(300)) { log.append("\(scheduler.now)") }
        scheduler.advance(by: .seconds(1))
        #expect(log.all == ["\(SchedulerInstant.zero + .milliseconds(300))"])
        #expect(scheduler.now == .zero + .seconds(1))
    }

    @Test func cancelledActionsNeverRun() {
        let scheduler = TestScheduler()
        let log = Log()
        let pending = scheduler.schedule(afterDelay: .seconds(1)) { log.append("cancelled") }
        pending.cancel()
        pending.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.run()
        #expect(log.all.isEmpty)
    }

    @Test func actionsMayScheduleMoreActionsThatRunInTheSameAdvance() {
        let scheduler = TestScheduler()
        let log = Log()
        _ = scheduler.schedule(afterDelay: .seconds(1)) {
            log.append("outer")
            _ = scheduler.schedule(afterDelay: .seconds(1)) { log.append("inner") }
        }
        scheduler.advance(by: .seconds(2))
        #expect(log.all == ["outer", "inner"])
    }

    @Test func theClockNeverMovesBackwards() {
        let scheduler = TestScheduler()
        scheduler.advance(by: .seconds(3))
        scheduler.advance(to: .zero + .seconds(1))
        scheduler.advance(by: .seconds(-5))
        #expect(scheduler.now == .zero + .seconds(3))
        let log = Log()
        _ = scheduler.schedule(after: .zero + .seconds(1)) { log.append("\(scheduler.now)") }
        scheduler.advance()
        #expect(log.all == ["\(SchedulerInstant.zero + .seconds(3))"])
    }

    @Test func runDrainsEverythingMovingTheClockToTheLastDeadline() {
        let scheduler = TestScheduler()
        let log = Log()
        _ = scheduler.schedule(afterDelay: .seconds(10)) { log.append("ten") }
        _ = scheduler.schedule(afterDelay: .seconds(2)) { log.append("two") }
        scheduler.run()
        #expect(log.all == ["two", "ten"])
        #expect(scheduler.now == .zero + .seconds(10))
    }

    @Test func aPastDeadlineKeepsItsPlaceBehindActionsAlreadyDueNow() {
        let scheduler = TestScheduler()
        scheduler.advance(by: .seconds(10))
        let log = Log()
        scheduler.schedule { log.append("now") }
        _ = scheduler.schedule(after: .zero + .seconds(5)) { log.append("past") }
        scheduler.advance()
        #expect(log.all == ["now", "past"])
    }

    @Test func manyActionsRunInDeadlineThenSchedulingOrderWhateverOrderTheyWereScheduledIn() {
        let scheduler = TestScheduler()
        let log = Log()
        var expected: [(deadline: Int, sequence: Int)] = []
        var generator = SystemRandomNumberGenerator()
        for sequence in 0..<500 {
            let deadline = Int.random(in: 0..<40, using: &generator)
            expected.append((deadline, sequence))
            _ = scheduler.schedule(after: .zero + .milliseconds(deadline)) { log.append("\(deadline)/\(sequence)") }
        }
        // Every fifth action is cancelled, some of them at the top of the queue.
        var handles: [any Cancellable] = []
        for sequence in 500..<600 {
            let deadline = sequence % 40
            handles.append(scheduler.schedule(after: .zero + .milliseconds(deadline)) { log.append("cancelled") })
        }
        handles.forEach { $0.cancel() }
        #expect(scheduler.pendingCount == 500)
        scheduler.advance(by: .milliseconds(20))
        scheduler.advance(by: .milliseconds(20))
        expected.sort { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
        #expect(log.all == expected.map { "\($0.deadline)/\($0.sequence)" })
        #expect(scheduler.pendingCount == 0)
    }

    @Test func asSoonAsPossibleAndTimedActionsDueAtTheSameInstantRunInSchedulingOrder() {
        let scheduler = TestScheduler()
        let log = Log()
        _ = scheduler.schedule(after: .zero) { log.append("timed 1") }
        scheduler.schedule { log.append("soon 1") }
        _ = scheduler.schedule(afterDelay: .zero) { log.append("timed 2") }
        scheduler.schedule {
            log.append("soon 2")
            scheduler.schedule { log.append("soon from inside") }  // behind everything already due
            _ = scheduler.schedule(after: .zero) { log.append("timed from inside") }
        }
        _ = scheduler.schedule(after: .zero) { log.append("timed 3") }
        _ = scheduler.schedule(afterDelay: .milliseconds(1)) { log.append("later") }
        scheduler.advance()
        #expect(log.all == ["timed 1", "soon 1", "timed 2", "soon 2", "timed 3", "soon from inside", "timed from inside"])
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .milliseconds(1))
        scheduler.schedule { log.append("soon at 1 ms") }
        #expect(scheduler.pendingCount == 1)
        scheduler.advance()
        #expect(log.all.suffix(2) == ["later", "soon at 1 ms"])
        #expect(scheduler.now == .zero + .milliseconds(1))
    }

    @Test func anAsSoonAsPossibleActionIsReleasedOnceItRan() {
        final class Token: Sendable {}
        /// Written before the actions run and read by the last one, on this thread: `advance` runs them here.
        final class Watch: @unchecked Sendable { weak var token: Token? }
        let scheduler = TestScheduler()
        let watch = Watch()
        let log = Log()
        do {
            let token = Token()
            watch.token = token
            for _ in 0..<3 { scheduler.schedule { withExtendedLifetime(token) {} } }
        }
        scheduler.schedule { log.append(watch.token == nil ? "released" : "still held") }
        scheduler.schedule {}  // so that the queue is not empty yet while the check runs
        #expect(scheduler.pendingCount == 5)
        scheduler.advance()
        #expect(log.all == ["released"])  // the three before it were let go as each one ran
        #expect(scheduler.pendingCount == 0)
    }

    @Test func cancellingReleasesTheActionAtOnceAndCancellingARunActionDoesNothing() {
        final class Token: Sendable {}
        let scheduler = TestScheduler()
        weak var weakToken: Token?
        let log = Log()
        let pending: any Cancellable
        do {
            let token = Token()
            weakToken = token
            pending = scheduler.schedule(afterDelay: .seconds(1)) { withExtendedLifetime(token) { log.append("x") } }
        }
        let ran = scheduler.schedule(afterDelay: .seconds(1)) { log.append("ran") }
        #expect(weakToken != nil)
        pending.cancel()
        #expect(weakToken == nil)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .seconds(1))
        ran.cancel()
        #expect(log.all == ["ran"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func droppingTheSchedulerReleasesItsPendingActions() {
        final class Token: Sendable {}
        weak var weakToken: Token?
        var handle: (any Cancellable)?
        do {
            let scheduler = TestScheduler()
            let token = Token()
            weakToken = token
            handle = scheduler.schedule(afterDelay: .seconds(1)) { withExtendedLifetime(token) {} }
            scheduler.schedule { withExtendedLifetime(token) {} }
        }
        #expect(weakToken == nil)
        handle?.cancel()  // harmless once the scheduler is gone
    }

    @Test func anOldHandleNeverCancelsOrRunsTheTimerThatTookOverItsPlace() {
        let scheduler = TestScheduler()
        let log = Log()
        let first = scheduler.schedule(afterDelay: .seconds(1)) { log.append("first") }
        first.cancel()
        // The next timer takes the place the cancelled one left; the cancelled one is still in the queue at 1 s.
        let second = scheduler.schedule(afterDelay: .seconds(5)) { log.append("second") }
        first.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(log.all.isEmpty)  // the cancelled timer's deadline passed without running its successor
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .seconds(4))
        #expect(log.all == ["second"])
        // A timer that ran leaves its place too: its handle must not reach the next one.
        let third = scheduler.schedule(afterDelay: .seconds(1)) { log.append("third") }
        second.cancel()
        first.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(log.all == ["second", "third"])
        third.cancel()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func cancelsRacingAnAdvanceRunEachActionAtMostOnce() {
        final class Counter: @unchecked Sendable {
            let runs = Locked([Int](repeating: 0, count: 400))
            var handles: [any Cancellable] = []  // written before the threads start, then only read
        }
        let scheduler = TestScheduler()
        let counter = Counter()
        for index in 0..<400 {
            counter.handles.append(
                scheduler.schedule(afterDelay: .milliseconds(index % 20)) {
                    counter.runs.withLock { $0[index] += 1 }
                })
        }
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            if thread == 0 {
                scheduler.advance(by: .milliseconds(20))
            } else {
                for handle in counter.handles.reversed() { handle.cancel() }
            }
        }
        scheduler.advance(by: .milliseconds(20))
        let runs = counter.runs.withLock { $0 }
        #expect(runs.allSatisfy { $0 <= 1 })
        #expect(scheduler.pendingCount == 0)
    }
}
