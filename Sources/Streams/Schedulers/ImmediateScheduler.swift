/// A scheduler that runs every action at once, on the calling thread.
///
/// `schedule(after:)` also runs at once, ignoring the deadline (as Combine's `ImmediateScheduler`),
/// and returns a cancellable that does nothing; a repeating `schedule(after:interval:)` runs its action once, as
/// Combine's does. Its clock never moves: ``now`` is always `.zero`.
/// Useful to make a timing operator synchronous; for controllable time use `TestScheduler`.
///
/// ```swift
/// subject.receive(on: ImmediateScheduler.shared).sink { print($0) }
/// ```
public struct ImmediateScheduler: Scheduler {
    /// The shared instance.
    public static let shared = ImmediateScheduler()

    /// Creates an immediate scheduler.
    public init() {}

    /// Always `.zero`.
    public var now: SchedulerInstant { .zero }

    /// Runs `action` now.
    public func schedule(_ action: @escaping @Sendable () -> Void) { action() }

    /// Runs `action` now, whatever the deadline.
    public func schedule(after deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void)
        -> any Cancellable
    {
        action()
        return EmptySubscription.shared
    }
}

extension Scheduler where Self == ImmediateScheduler {
    /// The immediate scheduler: `receive(on: .immediate)`.
    public static var immediate: ImmediateScheduler { .shared }
}
