import Streams
import StreamsTesting
import Testing

/// Production-style code: sleeps on whatever clock it is given, then sends.
private func sendAfterOneSecond(
    _ value: String, into subject: PassthroughSubject<String, Never>, clock: some Clock<Duration>
) async throws {
    try await clock.sleep(for: .seconds(1))
    subject.send(value)
}

/// Waits (without real sleeps) until `condition` holds, for tasks on the global pool; bounded by a count.
private func yield(until condition: () -> Bool) async {
    for _ in 0..<100_000 where !condition() { await Task.yield() }
}

@Suite struct TestSchedulerClockTests {
    @Test func asyncSleepAndDebounceShareOneVirtualTime() async throws {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = subject.debounce(for: .milliseconds(500), scheduler: scheduler).record(on: scheduler)
        let task = Task(executorPreference: scheduler) {
            try await sendAfterOneSecond("a", into: subject, clock: scheduler)
        }
        scheduler.advance(by: .milliseconds(999))
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .milliseconds(1))  // wakes the task at 1 s: it sends, the debounce starts
        #expect(recorder.events.isEmpty)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .milliseconds(499))
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.events == [.value("a", at: .milliseconds(1500))])
        try await task.value
    }

    @Test func oneAdvanceRunsTheWokenCodeAtItsDeadline() async throws {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = subject.debounce(for: .milliseconds(500), scheduler: scheduler).record(on: scheduler)
        let task = Task(executorPreference: scheduler) {
            try await sendAfterOneSecond("a", into: subject, clock: scheduler)
            try await sendAfterOneSecond("b", into: subject, clock: scheduler)
        }
        scheduler.advance(by: .seconds(10))
        #expect(recorder.events == [.value("a", at: .milliseconds(1500)), .value("b", at: .milliseconds(2500))])
        #expect(scheduler.now == .zero + .seconds(10))
        try await task.value
    }

    @Test func sleepersWakeInDeadlineOrder() async throws {
        let scheduler = TestScheduler()
        let log = Log()
        var tasks: [Task<Void, any Error>] = []
        for (name, seconds) in [("a", 3), ("b", 1), ("c", 2), ("d", 1)] {
            tasks.append(
                Task(executorPreference: scheduler) {
                    try await scheduler.sleep(until: .zero + .seconds(seconds))
                    log.append("\(name)@\(scheduler.now)")
                })
        }
        scheduler.advance()  // every task runs to its sleep, in the order the tasks were made
        #expect(scheduler.pendingCount == 4)
        scheduler.advance(by: .seconds(5))
        #expect(log.all == ["b@1.0 seconds", "d@1.0 seconds", "c@2.0 seconds", "a@3.0 seconds"])
        for task in tasks { try await task.value }
    }

    @Test func sleepersAndStreamActionsInterleaveByDeadline() async throws {
        let scheduler = TestScheduler()
        let log = Log()
        _ = scheduler.schedule(afterDelay: .milliseconds(1500)) { log.append("action") }
        let task = Task(executorPreference: scheduler) {
            try await scheduler.sleep(for: .seconds(1))
            log.append("first")
            try await scheduler.sleep(for: .seconds(1))
            log.append("second")
        }
        scheduler.advance(by: .seconds(3))
        #expect(log.all == ["first", "action", "second"])
        try await task.value
    }

    @Test func aTaskOnTheGlobalPoolWakesAtTheDeadline() async throws {
        let scheduler = TestScheduler()
        let task = Task {
            try await scheduler.sleep(for: .seconds(2))
            return scheduler.now
        }
        await yield { scheduler.pendingCount == 1 }
        scheduler.advance(by: .seconds(1))
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .seconds(1))
        #expect(try await task.value == .zero + .seconds(2))
    }

    @Test func cancellingASleeperThrowsAtOnceAndRemovesItsWakeUp() async throws {
        let scheduler = TestScheduler()
        let task = Task { try await scheduler.sleep(for: .seconds(1)) }
        await yield { scheduler.pendingCount == 1 }
        task.cancel()
        let result = await task.result  // no advance: the cancellation alone resumes it
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.now == .zero)
    }

    @Test func cancellingATaskOnTheSchedulerExecutorThrowsAtTheNextAdvance() async throws {
        let scheduler = TestScheduler()
        let log = Log()
        let task = Task(executorPreference: scheduler) {
            do {
                try await scheduler.sleep(for: .seconds(1))
                log.append("woke")
            } catch {
                log.append("\(type(of: error))@\(scheduler.now)")
            }
        }
        scheduler.advance()
        task.cancel()
        scheduler.advance()
        #expect(log.all == ["CancellationError@0.0 seconds"])
        #expect(scheduler.pendingCount == 0)
        await task.value
    }

    @Test func aCancelledTaskDoesNotSleep() async {
        let scheduler = TestScheduler()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await scheduler.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aDeadlineNotInTheFutureReturnsAtOnce() async throws {
        let scheduler = TestScheduler(now: .zero + .seconds(5))
        try await scheduler.sleep(until: scheduler.now)
        try await scheduler.sleep(until: .zero + .seconds(1))
        try await scheduler.sleep(for: .zero)
        try await scheduler.sleep(for: .seconds(-1))
        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.now == .zero + .seconds(5))
    }

    @Test func theClockReadsTheSchedulersVirtualTime() {
        func now<C: Clock>(of clock: C) -> C.Instant { clock.now }
        let scheduler = TestScheduler()
        scheduler.advance(by: .seconds(3))
        #expect(now(of: scheduler) == .zero + .seconds(3))
        #expect(scheduler.minimumResolution == .zero)
        #expect(SchedulerInstant.zero.advanced(by: .seconds(2)).duration(to: .zero + .seconds(5)) == .seconds(3))
    }
}
