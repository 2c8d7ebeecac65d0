import Dispatch
import Streams
import Testing

/// `DispatchQueue` as a `Scheduler`, on real threads: where and when actions run, cancellation, and `now`.
///
/// Every wait is bounded (`DispatchSemaphore.wait(timeout:)`, 5 s when something must happen); delays are a few
/// milliseconds, so the suite waits well under a second. The one wait that must time out is 150 ms.
@Suite struct DispatchQueueSchedulerTests {
    /// A wait for `semaphore` of at most 5 s; `true` if it was signalled.
    static func signalled(_ semaphore: DispatchSemaphore) -> Bool {
        semaphore.wait(timeout: .now() + .seconds(5)) == .success
    }

    /// `schedule(_:)` runs the action asynchronously on the scheduler's own queue.
    @Test func scheduleRunsTheActionOnTheQueue() {
        let queue = DispatchQueue(label: "scheduler-tests.schedule")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "scheduler-tests.schedule")
        let marker = Locked<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        queue.schedule {
            marker.withLock { $0 = DispatchQueue.getSpecific(key: key) }
            done.signal()
        }
        #expect(Self.signalled(done))
        #expect(marker.withLock { $0 } == "scheduler-tests.schedule")
    }

    /// A serial queue runs actions given to `schedule(_:)` one at a time, in the order they were scheduled.
    @Test func aSerialQueueRunsScheduledActionsInOrder() {
        let queue = DispatchQueue(label: "scheduler-tests.order")
        let order = Locked<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        for index in 0..<100 {
            queue.schedule {
                order.withLock { $0.append(index) }
                if index == 99 { done.signal() }
            }
        }
        #expect(Self.signalled(done))
        #expect(order.withLock { $0 } == Array(0..<100))
    }

    /// `schedule(after:)` runs the action on the queue, and not before its deadline by the queue's own `now`.
    @Test func scheduleAfterRunsNoEarlierThanItsDeadline() {
        let queue = DispatchQueue(label: "scheduler-tests.after")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let deadline = queue.now + .milliseconds(20)
        let ran = Locked<(at: SchedulerInstant, onQueue: Bool)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let pending = queue.schedule(after: deadline) {
            ran.withLock { $0 = (queue.now, DispatchQueue.getSpecific(key: key) == true) }
            done.signal()
        }
        #expect(Self.signalled(done))
        let run = ran.withLock { $0 }
        #expect(run?.onQueue == true)
        #expect(run.map { $0.at >= deadline } == true, "ran at \(String(describing: run?.at)), deadline \(deadline)")
        pending.cancel()  // after it ran: harmless
    }

    /// `schedule(afterDelay:)` runs the action once the delay has passed, measured with the queue's `now`.
    @Test func scheduleAfterDelayRunsNoEarlierThanTheDelay() {
        let queue = DispatchQueue(label: "scheduler-tests.after-delay")
        let start = queue.now
        let ranAt = Locked<SchedulerInstant?>(nil)
        let done = DispatchSemaphore(value: 0)
        let pending = queue.schedule(afterDelay: .milliseconds(20)) {
            ranAt.withLock { $0 = queue.now }
            done.signal()
        }
        #expect(Self.signalled(done))
        let elapsed = ranAt.withLock { $0 }.map { $0 - start }
        #expect(elapsed.map { $0 >= .milliseconds(20) } == true, "ran after \(String(describing: elapsed))")
        _ = pending
    }

    /// A deadline already passed (even one before the clock's origin) runs the action at once.
    @Test func aDeadlineInThePastRunsAtOnce() {
        let queue = DispatchQueue(label: "scheduler-tests.past")
        let ran = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let recent = queue.schedule(after: queue.now - .seconds(1)) { ran.withLock { $0.append("recent") } }
        let ancient = queue.schedule(after: SchedulerInstant(offset: .seconds(-5))) {
            ran.withLock { $0.append("ancient") }
            done.signal()
        }
        #expect(Self.signalled(done))
        #expect(Set(ran.withLock { $0 }) == ["recent", "ancient"])
        _ = (recent, ancient)
    }

    /// Cancelling what `schedule(after:)` or `schedule(afterDelay:)` returned, before the deadline, means the action
    /// never runs: nothing has run 150 ms later, well past both 100 ms deadlines (long enough that a stalled test
    /// thread does not reach its cancels after the deadlines).
    @Test func cancellingBeforeTheDeadlineMeansTheActionNeverRuns() {
        let queue = DispatchQueue(label: "scheduler-tests.cancel")
        let ran = Locked<[String]>([])
        let anyRan = DispatchSemaphore(value: 0)
        let deadline = queue.now + .milliseconds(100)
        let atDeadline = queue.schedule(after: deadline) {
            ran.withLock { $0.append("after") }
            anyRan.signal()
        }
        let afterDelay = queue.schedule(afterDelay: .milliseconds(100)) {
            ran.withLock { $0.append("afterDelay") }
            anyRan.signal()
        }
        atDeadline.cancel()
        afterDelay.cancel()
        let cancelledAt = queue.now
        #expect(anyRan.wait(timeout: .now() + .milliseconds(150)) == .timedOut)
        #expect(ran.withLock { $0 } == [], "cancelled at \(cancelledAt), deadline \(deadline)")
    }

    /// `now` never moves backwards, and all queues read the same clock.
    @Test func nowNeverGoesBackwardsAndIsSharedByAllQueues() {
        let first = DispatchQueue(label: "scheduler-tests.now.first")
        let second = DispatchQueue(label: "scheduler-tests.now.second")
        var previous = first.now
        for index in 0..<1_000 {
            let current = (index.isMultiple(of: 2) ? first : second).now
            #expect(current >= previous, "now went back from \(previous) to \(current)")
            previous = current
        }
        let before = first.now
        let global = DispatchQueue.global().now
        let after = second.now
        #expect(before <= global && global <= after)
    }
}
