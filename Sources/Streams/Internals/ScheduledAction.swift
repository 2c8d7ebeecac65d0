/// How an operator hands work to its scheduler: the one way every timing operator and `Timer` hold a scheduled
/// action.
///
/// A scheduler takes `@Sendable` actions, and an operator's subscription is generic over its downstream: a
/// `@Sendable` closure may not capture it, because its generic metatypes are not known to be sendable. So the
/// operator forms the action in its own specialised code, as a plain closure over the subscription, and schedules it
/// with these methods, which type it `@Sendable` without a check (`@Sendable` adds no runtime representation: this
/// is a reinterpretation, with no allocation beyond the closure's own context; see ``assumingSendable(_:)``).
///
/// - Soundness: only for actions whose captures guard their own state. The subscriptions that schedule are
///   `@unchecked Sendable` classes whose state is under their `Lock`, and the other captures are plain values (a
///   generation, a sequence number, a count).
/// - Lifetime: the action captures the subscription strongly (`[self]`) and holds it until it runs or is
///   cancelled. Every timing operator cancels its pending timers when it is cancelled or ends; a delivery
///   (`receive(on:)`, `timeout`) runs as soon as the scheduler can, and after a cancel finds nothing to deliver. A
///   scheduler that cannot drop a cancelled action before its deadline (`DispatchQueue`) keeps the subscription
///   until then, without its subscriber. Not `[weak self]`, although that would free a cancelled subscription at
///   once: the first weak reference gives the object a side table, and from then on every retain and release of
///   it takes the runtime's slow path. `perf` put about 14 % of the time per value of `timeout` and
///   `receive(on:)` on virtual time in those paths and the weak references themselves.
///
/// ```swift
/// let handle = scheduler.scheduleAction(after: deadline) { [self] in timerFired(generation: generation) }
/// ```
extension Scheduler {
    /// Runs `action` as soon as possible on this scheduler (see ``Scheduler/schedule(_:)``).
    @inlinable
    func scheduleAction(_ action: consuming @escaping () -> Void) {
        schedule(assumingSendable(action))
    }

    /// Runs `action` at `deadline` (see ``Scheduler/schedule(after:_:)``); the handle cancels it.
    @inlinable
    func scheduleAction(after deadline: SchedulerInstant, _ action: consuming @escaping () -> Void) -> any Cancellable {
        schedule(after: deadline, assumingSendable(action))
    }

    /// Runs `action` `delay` from now (see ``Scheduler/schedule(afterDelay:_:)``); the handle cancels it.
    @inlinable
    func scheduleAction(afterDelay delay: Duration, _ action: consuming @escaping () -> Void) -> any Cancellable {
        schedule(afterDelay: delay, assumingSendable(action))
    }
}

/// `action`, typed `@Sendable` without a check: sound only under the rule of ``Scheduler/scheduleAction(_:)``
/// (its captures guard their own state).
///
/// The closure crosses `unsafeBitCast` inside a struct: passed to it bare, as a generic value, it would be wrapped in
/// a reabstraction thunk on the way in and another on the way out, two allocations per scheduled action. A struct
/// keeps its layout whatever it is passed as.
@inlinable
func assumingSendable(_ action: consuming @escaping () -> Void) -> @Sendable () -> Void {
    unsafeBitCast(PlainAction(action), to: SendableAction.self).run
}

/// A closure, for ``assumingSendable(_:)``: the same layout as ``SendableAction``.
@usableFromInline
struct PlainAction {
    @usableFromInline
    let run: () -> Void

    @inlinable
    init(_ run: consuming @escaping () -> Void) { self.run = run }
}

/// A `@Sendable` closure, for ``assumingSendable(_:)``: the same layout as ``PlainAction``.
@usableFromInline
struct SendableAction {
    @usableFromInline
    let run: @Sendable () -> Void
}

/// The handle of a scheduled action an operator may have to cancel, or no handle (``isEmpty``): how a timing
/// operator's state keeps its pending timer.
///
/// Not an `Optional<any Cancellable>`: testing, copying and clearing an optional existential goes through the
/// runtime's value witnesses, which cost `debounce` about a tenth of its time per value. No handle is the trivial
/// `NoSubscription` placeholder, moved in and out in place.
///
/// ```swift
/// var timer = ScheduledHandle()
/// timer.take().cancel()          // cancels the pending action, if any, and leaves none
/// timer.store(scheduler.scheduleAction(afterDelay: .milliseconds(300)) { … }).cancel()
/// ```
@usableFromInline
package struct ScheduledHandle {
    /// The action's handle; the placeholder when ``isEmpty``.
    @usableFromInline
    var cancellable: any Cancellable
    /// No handle is held.
    @usableFromInline
    package private(set) var isEmpty: Bool

    /// No handle.
    @inlinable
    package init() {
        cancellable = NoSubscription()
        isEmpty = true
    }

    /// Holds `cancellable`.
    @inlinable
    package init(_ cancellable: any Cancellable) {
        self.cancellable = cancellable
        isEmpty = false
    }

    /// Cancels the scheduled action; does nothing without a handle.
    @inlinable
    package func cancel() {
        if !isEmpty { cancellable.cancel() }
    }

    /// Moves the handle out, leaving none.
    @inlinable
    package mutating func take() -> ScheduledHandle {
        guard !isEmpty else { return ScheduledHandle() }
        isEmpty = true
        return withUnsafeMutablePointer(to: &cancellable) { field in
            let taken = field.move()
            field.initialize(to: NoSubscription())
            return ScheduledHandle(taken)
        }
    }

    /// Holds `cancellable` from now on; returns the handle held before (to cancel), or none.
    @inlinable
    package mutating func store(_ cancellable: any Cancellable) -> ScheduledHandle {
        let previous = take()
        // The field holds the trivial placeholder: nothing to destroy, so initialise it in place.
        withUnsafeMutablePointer(to: &self.cancellable) { $0.initialize(to: cancellable) }
        isEmpty = false
        return previous
    }
}
