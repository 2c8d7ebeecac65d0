/// A callback a timing operator hands to its scheduler inside a `@Sendable` action.
///
/// The operators' subscriptions are generic over their downstream, and a `@Sendable` closure may not
/// capture a value whose generic metatype is not known to be sendable. The subscription therefore
/// wraps its callback (which captures it weakly, or strongly for a one-shot like `subscribe(on:)`) in
/// this non-generic box, and the scheduler action captures only the box. It is safe because every
/// subscription that uses it guards its state with a lock.
@usableFromInline
final class TimingCallback: @unchecked Sendable {
    @usableFromInline
    let body: () -> Void

    /// Wraps `body`.
    @inlinable
    init(_ body: @escaping () -> Void) { self.body = body }

    /// Runs the callback.
    @inlinable
    func run() { body() }
}

extension Scheduler {
    /// Schedules `callback` at `deadline` (see ``Scheduler/schedule(after:_:)``).
    @inlinable
    func schedule(after deadline: SchedulerInstant, _ callback: TimingCallback) -> any Cancellable {
        schedule(after: deadline) { callback.run() }
    }

    /// Schedules `callback` as soon as possible (see ``Scheduler/schedule(_:)``).
    @inlinable
    func schedule(_ callback: TimingCallback) {
        schedule { callback.run() }
    }
}

/// `body`, typed `@Sendable` without a check. For timer actions formed in an operator's specialised code:
/// capturing the generic subscription would capture its (non-`Sendable`) metatypes, which `@Sendable`
/// forbids, and a non-generic wrapper object would cost an allocation per timer. Sound only where the
/// captured subscription guards its own state (the operators' `@unchecked Sendable` classes do);
/// `@Sendable` adds no runtime representation, so this is a plain reinterpretation.
@inlinable
func assumeSendable(_ body: @escaping () -> Void) -> @Sendable () -> Void {
    unsafeBitCast(body, to: (@Sendable () -> Void).self)
}
