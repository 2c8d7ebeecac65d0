#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Combine's scheduler vocabulary on Streams' one time model.
///
/// Combine gives each scheduler its own `SchedulerTimeType` with a `Stride`; in Streams every scheduler uses
/// ``SchedulerInstant`` and `Duration`. These names let code written for Combine compile unchanged:
/// `S.SchedulerTimeType.Stride` is `Duration` (so `.milliseconds(300)`, `.seconds(0.5)` and a bare number of
/// seconds work), `now.advanced(by:)` and `distance(to:)` move along the clock, and the repeating
/// ``Scheduler/schedule(after:interval:tolerance:_:)`` runs an action every interval.
///
/// ```swift
/// final class SearchModel<S: Scheduler> {
///     let interval: S.SchedulerTimeType.Stride = .milliseconds(300)
///     init(scheduler: S) { … query.debounce(for: interval, scheduler: scheduler) … }
/// }
/// ```
extension Scheduler {
    /// Combine's name for a scheduler's time type: ``SchedulerInstant`` for every Streams scheduler.
    public typealias SchedulerTimeType = SchedulerInstant

    /// The smallest tolerance the scheduler honours: Streams schedulers run actions at their deadline (a
    /// `DispatchQueue` as precisely as Dispatch does), so zero.
    public var minimumTolerance: Duration { .zero }

    /// Runs `action` once, at or after `date` (Combine's one-shot `schedule(after:tolerance:options:_:)`, which
    /// returns nothing; `tolerance` is accepted for source compatibility and not used). Use
    /// ``Scheduler/schedule(after:_:)`` to keep a handle that cancels it.
    ///
    /// ```swift
    /// scheduler.schedule(after: scheduler.now + .seconds(1), tolerance: .milliseconds(10)) { print("later") }
    /// ```
    public func schedule(after date: SchedulerInstant, tolerance: Duration, _ action: @escaping @Sendable () -> Void) {
        _ = schedule(after: date, action)
    }

    /// Runs `action` at `date`, then every `interval` after it, until the returned cancellable is cancelled
    /// (Combine's repeating `schedule(after:interval:tolerance:options:_:)`; `tolerance` is accepted for
    /// source compatibility and not used).
    ///
    /// - Timing: the n-th run is due at `date + n × interval` (no drift); a run that comes late does not
    ///   shift the later ones. A non-positive `interval` runs the action once, and so does a scheduler that runs
    ///   actions at once, inside `schedule(after:_:)` (``ImmediateScheduler``, as Combine's does: repeating at
    ///   once would never end).
    /// - Threading: each run is scheduled only after the previous one has started, so runs never overlap;
    ///   they happen wherever the scheduler runs its actions.
    /// - Lifetime: as in Combine, the runs go on until the returned cancellable is cancelled (dropping it does
    ///   not stop them); a run already under way on another thread when `cancel()` is called completes.
    ///
    /// ```swift
    /// let ticking = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { print("tick") }
    /// ```
    public func schedule(
        after date: SchedulerInstant, interval: Duration, tolerance: Duration = .zero,
        _ action: @escaping @Sendable () -> Void
    ) -> any Cancellable {
        let repeating = RepeatingAction(scheduler: self, interval: interval, action: action)
        repeating.schedule(run: 0, at: date)
        return repeating
    }
}

extension SchedulerInstant: InstantProtocol {
    /// The instant `duration` later (earlier for a negative duration).
    ///
    /// ```swift
    /// let deadline = scheduler.now.advanced(by: .seconds(1))
    /// ```
    @inlinable
    public func advanced(by duration: Duration) -> SchedulerInstant { self + duration }

    /// The interval from `self` to `other` (negative when `other` is earlier).
    @inlinable
    public func duration(to other: SchedulerInstant) -> Duration { other - self }
}

extension SchedulerInstant {
    /// Combine's name for the interval between two instants: `Duration`.
    public typealias Stride = Duration

    /// The interval from `self` to `other`: Combine's spelling of ``duration(to:)``.
    @inlinable
    public func distance(to other: SchedulerInstant) -> Duration { other - self }
}

/// The cancellable of a repeating schedule: the pending run's cancellable, replaced at each run. The pending
/// run's action holds this object, so it lives until cancelled (as Combine's). `pending`, `isCancelled` and
/// `schedulingThread` are guarded by `lock`; the rest is immutable.
final class RepeatingAction: Cancellable, @unchecked Sendable {
    private let lock = Lock()
    private let scheduler: any Scheduler
    private let interval: Duration
    private let action: @Sendable () -> Void
    private var pending: (any Cancellable)?
    private var isCancelled = false
    /// The thread inside the scheduler's `schedule(after:_:)` for the next run, while it is there: a run that
    /// starts on that thread then was run at once by the scheduler, which would run every later run at once too.
    private var schedulingThread: pthread_t?

    init(scheduler: any Scheduler, interval: Duration, action: @escaping @Sendable () -> Void) {
        self.scheduler = scheduler
        self.interval = interval
        self.action = action
    }

    /// Schedules run number `run` (0-based) at `deadline`, unless cancelled.
    func schedule(run: Int, at deadline: SchedulerInstant) {
        lock.lock()
        schedulingThread = pthread_self()
        lock.unlock()
        let next = scheduler.schedule(after: deadline) { self.fire(run: run, due: deadline) }
        lock.lock()
        schedulingThread = nil
        if isCancelled {
            lock.unlock()
            next.cancel()
        } else {
            pending = next
            lock.unlock()
        }
    }

    private func fire(run: Int, due: SchedulerInstant) {
        lock.lock()
        let cancelled = isCancelled
        let ranAtOnce = schedulingThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        lock.unlock()
        guard !cancelled else { return }
        if interval > .zero, !ranAtOnce { schedule(run: run + 1, at: due + interval) }
        action()
    }

    func cancel() {
        lock.lock()
        isCancelled = true
        let pending = self.pending
        self.pending = nil
        lock.unlock()
        pending?.cancel()
    }
}
