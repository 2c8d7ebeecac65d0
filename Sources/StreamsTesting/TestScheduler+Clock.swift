import Streams

/// `TestScheduler` is a `Clock`: async code that sleeps on it and streams scheduled on it share one virtual
/// time, which moves only under ``advance(by:)``, ``advance(to:)`` and ``run(limit:)``.
///
/// A sleeper is a scheduled action like any other: it is woken in deadline order among the stream actions,
/// with ``now`` at its deadline. Code that uses the scheduler as its clock takes `some Clock<Duration>`
/// (or `any Clock<Duration>`), so production passes `ContinuousClock()` and tests pass the scheduler.
///
/// - Running the woken code deterministically: `TestScheduler` is also a `TaskExecutor`. Start the task
///   with `Task(executorPreference: scheduler)` and its jobs, the first one and every resumption, run
///   inside `advance` on the advancing thread, at the virtual time they were woken, before later actions.
///   So the synchronous ``advance(by:)`` drives the task: it runs it to its first sleep, wakes it at the
///   deadline and runs what follows the sleep (a `send`, a new sleep) at that very instant. A task that
///   awaits something other than this scheduler (an actor, I/O) leaves the scheduler's executor for that
///   work. A task started without the preference runs on the global pool: advance wakes it at the right
///   time, but the test must then wait for it (`await task.value`); never use real sleeps.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let task = Task(executorPreference: scheduler) {
///     try await scheduler.sleep(for: .seconds(1))
///     subject.send("a")                               // at 1 s of virtual time
/// }
/// scheduler.advance(by: .seconds(1))                  // the task ran to its sleep, woke and sent "a"
/// ```
extension TestScheduler: Clock {
    /// The smallest interval the clock distinguishes: any, since virtual time is exact.
    public var minimumResolution: Duration { .zero }

    /// Suspends until the virtual time reaches `deadline`, that is until an ``advance(by:)``,
    /// ``advance(to:)`` or ``run(limit:)`` passes it; returns at once for a deadline not in the future.
    ///
    /// The wake-up is an action scheduled at `deadline`, so it counts in ``pendingCount`` and runs in
    /// deadline order among the other actions (sleepers with the same deadline in the order they slept).
    /// Cancelling the task throws `CancellationError` at once, without advancing, and cancels the
    /// scheduled wake-up. `tolerance` is ignored: virtual time is exact.
    ///
    /// ```swift
    /// let task = Task { try await scheduler.sleep(until: scheduler.now + .seconds(2)) }
    /// task.cancel()                                   // the sleep throws CancellationError
    /// _ = await task.result
    /// #expect(scheduler.pendingCount == 0)
    /// ```
    public func sleep(until deadline: SchedulerInstant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        if deadline <= now { return }
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleeper.install(continuation) else { return }
                if let timer = schedule(ifAfterNow: deadline, { sleeper.wake() }) {
                    sleeper.attach(timer)
                } else {
                    sleeper.wake()  // the clock passed the deadline meanwhile
                }
            }
        } onCancel: {
            sleeper.cancel()
        }
    }
}

/// `TestScheduler` is a `TaskExecutor`: a task started with `Task(executorPreference: scheduler)` runs its jobs
/// inside ``advance(by:)``, on the advancing thread, in virtual time.
///
/// Each job the task enqueues (its start, the resumption after a sleep or a `Task.yield()`) is scheduled like
/// ``schedule(_:)``: it runs at the current virtual time, after the actions already due, in the same advance.
/// Nothing of the task runs until the test advances.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let task = Task(executorPreference: scheduler) { try await scheduler.sleep(for: .seconds(1)); return 42 }
/// scheduler.advance(by: .seconds(1))                  // the task ran, slept and finished
/// #expect(try await task.value == 42)
/// ```
extension TestScheduler: TaskExecutor {
    /// Queues `job` to run at the current virtual time, in the next advance; it is dropped (and its task never
    /// resumes) if the scheduler goes away first.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        schedule { [weak self] in
            guard let self else { return }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// One `sleep(until:)` call: the continuation to resume and the scheduled wake-up, guarded by a lock.
/// Whoever takes the continuation first, the wake-up or the cancellation, resumes it, outside the lock.
private final class Sleeper: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var timer: (any Cancellable & Sendable)?
        var cancelled = false
    }

    /// Guarded by the package's pthread lock (not `Synchronization.Mutex`, which the thread sanitizer cannot see).
    private let state = Locked(State())

    /// Stores the continuation; `false` (after resuming it with `CancellationError`) if the task was
    /// cancelled already.
    func install(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let cancelled = state.withLock { state in
            if !state.cancelled { state.continuation = continuation }
            return state.cancelled
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Keeps the scheduled wake-up so that a cancellation can cancel it; cancels it at once if the sleep
    /// already ended.
    func attach(_ timer: any Cancellable & Sendable) {
        let ended = state.withLock { state in
            if state.continuation == nil { return true }
            state.timer = timer
            return false
        }
        if ended { timer.cancel() }
    }

    /// The deadline came: resumes the sleeper.
    func wake() {
        let continuation = state.withLock { state in
            state.timer = nil
            return state.continuation.take()
        }
        continuation?.resume()
    }

    /// The task was cancelled: cancels the wake-up and resumes the sleeper with `CancellationError`.
    func cancel() {
        let (continuation, timer) = state.withLock { state in
            state.cancelled = true
            defer { state.timer = nil }
            return (state.continuation.take(), state.timer)
        }
        timer?.cancel()
        continuation?.resume(throwing: CancellationError())
    }
}
