import StreamsTesting
import Testing

@testable import Streams

/// The one way an operator holds a scheduled action (Sources/Streams/Internals/ScheduledAction.swift):
/// `scheduleAction` hands a plain closure to any scheduler, and `ScheduledHandle` keeps a pending timer's handle,
/// moved in and out in place. A handle is cancelled only when its holder says so: storing a new one hands the previous
/// one back, taking one leaves the holder empty, and an empty holder's `cancel()` does nothing.
@Suite struct ScheduledActionTests {
    @Test func anEmptyHandleCancelsNothingAndTakesNothing() {
        var handle = ScheduledHandle()
        #expect(handle.isEmpty)
        handle.cancel()
        #expect(handle.take().isEmpty)
        #expect(handle.isEmpty)
    }

    @Test func storingAHandleGivesBackThePreviousOneUncancelled() {
        let first = SpySubscription()
        let second = SpySubscription()
        var handle = ScheduledHandle()
        #expect(handle.store(first).isEmpty)
        #expect(!handle.isEmpty)
        let previous = handle.store(second)
        #expect(first.cancelCount == 0)  // the caller decides: cancelled outside its lock, or kept
        previous.cancel()
        #expect(first.cancelCount == 1)
        handle.cancel()
        #expect(second.cancelCount == 1)
    }

    @Test func takingAHandleLeavesTheHolderEmptyAndTheTakenOneCancelsTheTimer() {
        let timer = SpySubscription()
        var handle = ScheduledHandle(timer)
        let taken = handle.take()
        #expect(handle.isEmpty)
        handle.cancel()
        #expect(timer.cancelCount == 0)
        taken.cancel()
        #expect(timer.cancelCount == 1)
    }

    @Test func aHandleLetsGoOfItsTimerWhenTakenAndDropped() {
        weak var released: SpySubscription?
        var handle = ScheduledHandle()
        do {
            let timer = SpySubscription()
            released = timer
            _ = handle.store(timer)
        }
        #expect(released != nil)
        _ = handle.take()
        #expect(released == nil)
    }

    @Test func aDelayedActionRunsAtItsDeadlineUnlessItsHandleIsCancelled() {
        let scheduler = TestScheduler()
        var ran: [String] = []
        let kept = scheduler.scheduleAction(afterDelay: .milliseconds(10)) { ran.append("kept") }
        let cancelled = scheduler.scheduleAction(afterDelay: .milliseconds(5)) { ran.append("cancelled") }
        cancelled.cancel()
        scheduler.advance(by: .milliseconds(9))
        #expect(ran.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(ran == ["kept"])
        _ = kept
    }

    @Test func anActionAtADeadlineAndAnImmediateOneRunOnTheScheduler() {
        let scheduler = TestScheduler()
        var ran: [String] = []
        _ = scheduler.scheduleAction(after: scheduler.now + .seconds(1)) { ran.append("at 1 s") }
        scheduler.scheduleAction { ran.append("now") }
        #expect(ran.isEmpty)  // nothing runs until the scheduler does
        scheduler.advance()
        #expect(ran == ["now"])
        scheduler.advance(by: .seconds(1))
        #expect(ran == ["now", "at 1 s"])
    }
}
