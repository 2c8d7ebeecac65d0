import Streams
import StreamsTesting
import Testing

@Suite struct ImmediateSchedulerTests {
    @Test func runsActionsAtOnceOnTheCallingThreadWhateverTheDeadline() {
        let scheduler = ImmediateScheduler.shared
        let log = Locked<[String]>([])
        scheduler.schedule { log.withLock { $0.append("now") } }
        let handle = scheduler.schedule(afterDelay: .seconds(3600)) { log.withLock { $0.append("later") } }
        handle.cancel()  // too late: it already ran, and cancelling is harmless
        #expect(log.withLock { $0 } == ["now", "later"])
        #expect(scheduler.now == .zero)
    }

    @Test func makesATimingOperatorSynchronous() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.receive(on: .immediate).delay(for: .seconds(1), scheduler: .immediate).record()
        subject.send(1)
        subject.send(completion: .finished)
        #expect(recorder.values == [1])
        #expect(recorder.isFinished)
    }

    @Test func everyTimingOperatorTerminatesOnIt() {
        let subject = PassthroughSubject<Int, Never>()
        let debounced = subject.debounce(for: .seconds(1), scheduler: .immediate).record()
        let throttled = subject.throttle(for: .seconds(1), scheduler: .immediate, latest: true).record()
        let timedOut = subject.timeout(.seconds(1), scheduler: .immediate).record()
        let retried = subject.retry(maxRetries: 2, backoff: .constant(.seconds(1)), scheduler: .immediate).record()
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(debounced.isFinished)
        #expect(throttled.isFinished)
        #expect(timedOut.isFinished)
        #expect(retried.values == [1, 2])
    }

    @Test func aRepeatingScheduleRunsOnceAsInCombine() {
        // Combine's ImmediateScheduler runs a repeating action once; repeating it at once would never end (it
        // overflowed the stack).
        let count = Locked(0)
        let repeating = ImmediateScheduler.shared.schedule(after: .zero, interval: .seconds(1)) {
            count.withLock { $0 += 1 }
        }
        #expect(count.withLock { $0 } == 1)
        repeating.cancel()
        #expect(count.withLock { $0 } == 1)
    }

    @Test func anyRepeatingScheduleOnASchedulerThatRunsAtOnceRunsOnce() {
        let count = Locked(0)
        let scheduler: any Scheduler = SynchronousScheduler()
        let repeating = scheduler.schedule(after: .zero, interval: .milliseconds(1)) { count.withLock { $0 += 1 } }
        #expect(count.withLock { $0 } == 1)
        repeating.cancel()
    }
}

/// A scheduler of one's own that, like `ImmediateScheduler`, runs every action inside `schedule`.
private struct SynchronousScheduler: Scheduler {
    var now: SchedulerInstant { .zero }
    func schedule(_ action: @escaping @Sendable () -> Void) { action() }
    func schedule(after deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void) -> any Cancellable {
        action()
        return AnyCancellable {}
    }
}
