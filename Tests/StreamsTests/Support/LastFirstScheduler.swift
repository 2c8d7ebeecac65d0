import Streams

/// A scheduler that holds every action, immediate or timed, until the test runs them last-first: the worst order a
/// concurrent scheduler could run a burst of due actions in. Its clock stands still.
final class LastFirstScheduler: Scheduler {
    private let actions = Locked<[@Sendable () -> Void]>([])

    var now: SchedulerInstant { .zero }

    var heldCount: Int { actions.withLock { $0.count } }

    func schedule(_ action: @escaping @Sendable () -> Void) {
        actions.withLock { $0.append(action) }
    }

    func schedule(after deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void) -> any Cancellable {
        actions.withLock { $0.append(action) }
        return AnyCancellable {}
    }

    /// Runs the most recently scheduled held action; returns `false` if none is held.
    @discardableResult
    func runLast() -> Bool {
        guard let action = actions.withLock({ $0.popLast() }) else { return false }
        action()
        return true
    }
}
