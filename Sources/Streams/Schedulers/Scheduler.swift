/// A point in time on a scheduler's clock: an offset from that clock's origin.
///
/// Every scheduler uses this one time type, with `Duration` as the interval, so code
/// takes `any Scheduler` and tests pass a virtual-time `TestScheduler` with no type erasure.
///
/// ```swift
/// let deadline = scheduler.now + .milliseconds(500)
/// ```
public struct SchedulerInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The offset from the clock's origin.
    public var offset: Duration

    /// The instant at `offset` from the clock's origin.
    @inlinable
    public init(offset: Duration) { self.offset = offset }

    /// The clock's origin (where a `TestScheduler` starts).
    public static let zero = SchedulerInstant(offset: .zero)

    // The arithmetic and comparisons below go through `attoseconds` (an `Int128`, inlined) rather than `Duration`'s
    // own operators, which are calls into the standard library: a virtual-time scheduler compares instants several
    // times per scheduled action.

    /// The instant `rhs` later.
    @inlinable
    public static func + (lhs: SchedulerInstant, rhs: Duration) -> SchedulerInstant {
        SchedulerInstant(offset: Duration(attoseconds: lhs.offset.attoseconds + rhs.attoseconds))
    }

    /// The instant `rhs` earlier.
    @inlinable
    public static func - (lhs: SchedulerInstant, rhs: Duration) -> SchedulerInstant {
        SchedulerInstant(offset: Duration(attoseconds: lhs.offset.attoseconds - rhs.attoseconds))
    }

    /// The interval between two instants.
    @inlinable
    public static func - (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Duration {
        Duration(attoseconds: lhs.offset.attoseconds - rhs.offset.attoseconds)
    }

    /// Moves the instant later by `rhs`.
    @inlinable
    public static func += (lhs: inout SchedulerInstant, rhs: Duration) { lhs = lhs + rhs }

    /// Chronological order.
    @inlinable
    public static func < (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Bool {
        lhs.offset.attoseconds < rhs.offset.attoseconds
    }

    /// The same instant.
    @inlinable
    public static func == (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Bool {
        lhs.offset.attoseconds == rhs.offset.attoseconds
    }

    /// The offset, e.g. `0.5 seconds`.
    public var description: String { offset.description }
}

/// Runs actions now or at a deadline: the one abstraction for time in Streams.
///
/// Timing operators (`debounce`, `throttle`, `delay`, `timeout`, `receive(on:)`, retry back-off, timers)
/// take `any Scheduler`. Use a `DispatchQueue` for real time, ``ImmediateScheduler`` to run inline,
/// and `TestScheduler` (StreamsTesting) for virtual time in tests.
///
/// - Contract: actions run one at a time per serial scheduler, in deadline order, and actions with
///   the same deadline in the order they were scheduled. A cancelled action never runs.
///
/// ```swift
/// let timer = scheduler.schedule(after: scheduler.now + .seconds(1)) { print("tick") }
/// timer.cancel()   // "tick" is never printed
/// ```
public protocol Scheduler: Sendable {
    /// The scheduler's current time. Never moves backwards.
    var now: SchedulerInstant { get }

    /// Runs `action` as soon as possible (for queues: asynchronously, after already scheduled work).
    func schedule(_ action: @escaping @Sendable () -> Void)

    /// Runs `action` once, at or after `deadline` (at once if the deadline has passed).
    /// Cancelling the returned value before then guarantees it never runs.
    func schedule(after deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void) -> any Cancellable

    /// Runs `action` once, `delay` from now. Cancelling the returned value before then stops it.
    /// The default reads ``now`` and calls ``schedule(after:_:)``; a scheduler may do both in one step
    /// (`TestScheduler` does, under one lock).
    ///
    /// ```swift
    /// let pending = scheduler.schedule(afterDelay: .milliseconds(300)) { print("later") }
    /// ```
    func schedule(afterDelay delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Cancellable
}

extension Scheduler {
    /// Runs `action` once, `delay` from now: `schedule(after: now + delay, action)`.
    ///
    /// ```swift
    /// let pending = scheduler.schedule(afterDelay: .milliseconds(300)) { print("later") }
    /// ```
    @inlinable
    public func schedule(afterDelay delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Cancellable {
        schedule(after: now + delay, action)
    }
}
