import Streams

/// A scheduler with a virtual clock that moves only when a test says so.
///
/// Nothing runs until you call ``advance(by:)``, ``advance(to:)`` or ``run(limit:)``. Then every action due
/// by the target time runs, in deadline order, and actions with the same deadline in the order they
/// were scheduled; ``now`` is set to each action's deadline while it runs (never backwards), and to the
/// target at the end. Actions may schedule more actions, which run in the same call if they are due.
/// A cancelled action never runs and is released at once.
///
/// - Threading: safe to schedule from any thread; actions run on the thread that advances.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let c = subject.debounce(for: .milliseconds(500), scheduler: scheduler).sink { print($0) }
/// subject.send("a")
/// scheduler.advance(by: .milliseconds(500))   // prints "a"
/// ```
public final class TestScheduler: Scheduler, @unchecked Sendable {
    private struct Item {
        let deadline: SchedulerInstant
        let sequence: UInt64
        let action: @Sendable () -> Void
    }

    private struct State {
        var now: SchedulerInstant
        var nextSequence: UInt64 = 0
        /// Pending actions by sequence number (cancellation removes them and releases the closure).
        var items: [UInt64: Item] = [:]
    }

    private let state: Locked<State>

    /// The length of one frame of the marble diagrams written for this scheduler (default 1 ms).
    public let frameDuration: Duration

    /// A scheduler whose clock starts at `now` (default `.zero`), with marble frames of `frameDuration`
    /// (default 1 ms; must be positive).
    ///
    /// ```swift
    /// let scheduler = TestScheduler(frameDuration: .milliseconds(10))  // "--a" puts a at 20 ms
    /// ```
    public init(now: SchedulerInstant = .zero, frameDuration: Duration = .milliseconds(1)) {
        precondition(frameDuration > .zero, "a marble frame must last longer than zero")
        state = Locked(State(now: now))
        self.frameDuration = frameDuration
    }

    /// `count` frames of virtual time, for timing arguments that line up with marble diagrams.
    ///
    /// ```swift
    /// input.debounce(for: scheduler.frames(3), scheduler: scheduler)
    /// ```
    public func frames(_ count: Int) -> Duration { frameDuration * count }

    /// The virtual time.
    public var now: SchedulerInstant { state.withLock { $0.now } }

    /// How many actions are waiting to run.
    public var pendingCount: Int { state.withLock { $0.items.count } }

    /// Schedules `action` at the current virtual time; it runs at the next `advance`.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        _ = enqueue(at: nil, action)
    }

    /// Schedules `action` at `deadline`. A past deadline counts as now: the action runs at the next
    /// `advance`, after the actions already due now.
    public func schedule(after deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void)
        -> any Cancellable
    {
        let sequence = enqueue(at: deadline, action)
        return ScheduledAction { [weak self] in
            guard let self else { return }
            let removed = self.state.withLock { $0.items.removeValue(forKey: sequence) }
            _ = removed  // the closure is released here, outside the lock
        }
    }

    private func enqueue(at deadline: SchedulerInstant?, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            let sequence = state.nextSequence
            state.nextSequence += 1
            // A past deadline counts as now, so it keeps its place behind actions already due now.
            let due = max(deadline ?? state.now, state.now)
            state.items[sequence] = Item(deadline: due, sequence: sequence, action: action)
            return sequence
        }
    }

    /// Moves the clock forward by `duration` (default `.zero`: run what is due now), running every
    /// action due by then. A negative duration is treated as `.zero`.
    public func advance(by duration: Duration = .zero) {
        let target = now + max(duration, .zero)
        advance(to: target)
    }

    /// Moves the clock to `instant`, running every action due by then. An instant in the past runs
    /// what is due now and leaves the clock where it is.
    public func advance(to instant: SchedulerInstant) {
        while let item = nextItem(dueBy: instant) {
            item.action()
        }
        state.withLock { $0.now = max($0.now, instant) }
    }

    /// Runs every pending action, including those they schedule, moving the clock to each deadline,
    /// until nothing is pending. Stops after `limit` actions to guard against endless timers.
    public func run(limit: Int = 1_000_000) {
        var count = 0
        while count < limit, let item = nextItem(dueBy: nil) {
            item.action()
            count += 1
        }
    }

    /// Runs pending actions in order, moving the clock to each one's deadline, until nothing is pending or the
    /// next action is due after `limit`; the clock stays at the last action run (unlike ``advance(to:)``).
    func runUntilIdle(notAfter limit: SchedulerInstant) {
        while let item = nextItem(dueBy: limit) {
            item.action()
        }
    }

    /// Removes the earliest item due by `limit` (any item when `nil`) and moves the clock to it.
    private func nextItem(dueBy limit: SchedulerInstant?) -> Item? {
        state.withLock { state in
            var best: Item?
            for item in state.items.values {
                if let current = best {
                    if item.deadline < current.deadline
                        || (item.deadline == current.deadline && item.sequence < current.sequence)
                    {
                        best = item
                    }
                } else {
                    best = item
                }
            }
            guard let chosen = best else { return nil }
            if let limit, chosen.deadline > max(limit, state.now) { return nil }
            state.items.removeValue(forKey: chosen.sequence)
            state.now = max(state.now, chosen.deadline)
            return chosen
        }
    }
}

/// The handle of a scheduled action; cancelling removes it from its scheduler.
private final class ScheduledAction: Cancellable, @unchecked Sendable {
    private let onCancel: Locked<(() -> Void)?>
    init(_ onCancel: @escaping () -> Void) { self.onCancel = Locked(onCancel) }
    func cancel() {
        let action = onCancel.withLock { action -> (() -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }
}
