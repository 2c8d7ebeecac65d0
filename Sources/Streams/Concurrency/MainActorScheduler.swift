import Dispatch

/// A scheduler whose actions run on the main actor, one at a time, in the order they were scheduled:
/// `receive(on: .mainActor)`, `debounce(for: .milliseconds(300), scheduler: .mainActor)`.
///
/// It is the main dispatch queue seen as the main actor. On Linux, as on Apple platforms, the main actor's
/// executor is the main queue, so an action enqueued here runs on the main actor, and
/// `MainActor.assertIsolated()` holds inside it.
///
/// - Ordering: ``schedule(_:)`` enqueues on `DispatchQueue.main` (`async`), which is first in, first out, so
///   actions run exactly in the order they were scheduled — also relative to other main-queue work and to
///   main-actor jobs (`Task { @MainActor in … }`, `await MainActor.run { … }`) enqueued on the same queue.
///   (A `Task { @MainActor in … }` per action would not keep that order: tasks may start in any order.)
///   Never inline: scheduling from the main actor still runs the action later, after work already queued.
/// - Timing: ``schedule(after:_:)`` runs the action on the main queue at or after the deadline;
///   actions with the same deadline run in scheduling order. The clock is `DispatchQueue.main.now` (the
///   monotonic uptime), shared with every `DispatchQueue`.
/// - Cancellation: cancelling the value `schedule(after:_:)` returns before the deadline guarantees the
///   action never runs.
/// - Threading: actions run only when the main queue is drained: by the main run loop of an app, by
///   `dispatchMain()`, or by an `async` `main` (which drains it while it awaits). A program whose main
///   thread blocks never runs them.
/// - Isolation in your own code: the actions are `@Sendable () -> Void` (the ``Scheduler`` requirement),
///   not `@MainActor`. To run main-actor code from a pipeline, end it with
///   ``Publisher/sinkOnMainActor(receiveCompletion:receiveValue:)``, whose closures are `@MainActor`.
///
/// ```swift
/// let c = search.results
///     .debounce(for: .milliseconds(300), scheduler: .mainActor)
///     .receive(on: .mainActor)
///     .sink { print($0) }   // runs on the main actor
/// ```
public struct MainActorScheduler: Scheduler {
    /// The shared instance (the scheduler has no state: every instance is the main queue).
    ///
    /// ```swift
    /// let c = subject.receive(on: MainActorScheduler.shared).sink { print($0) }
    /// ```
    public static let shared = MainActorScheduler()

    /// Creates the scheduler; every instance schedules on the main queue. Prefer ``shared`` or `.mainActor`.
    ///
    /// ```swift
    /// let scheduler = MainActorScheduler()
    /// ```
    public init() {}

    /// The monotonic uptime clock (`DispatchQueue.main.now`).
    ///
    /// ```swift
    /// let deadline = MainActorScheduler.shared.now + .seconds(1)
    /// ```
    public var now: SchedulerInstant { DispatchQueue.main.now }

    /// Enqueues `action` on the main queue: it runs on the main actor after every action scheduled before it.
    ///
    /// ```swift
    /// MainActorScheduler.shared.schedule { print("on the main actor") }
    /// ```
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        DispatchQueue.main.async(execute: action)
    }

    /// Runs `action` on the main actor at or after `deadline`; cancelling the result before then stops it.
    ///
    /// ```swift
    /// let scheduler = MainActorScheduler.shared
    /// let pending = scheduler.schedule(after: scheduler.now + .seconds(1)) { print("tick") }
    /// pending.cancel()   // "tick" is never printed
    /// ```
    public func schedule(after deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void)
        -> any Cancellable
    {
        DispatchQueue.main.schedule(after: deadline, action)
    }
}

extension Scheduler where Self == MainActorScheduler {
    /// The main-actor scheduler, ``MainActorScheduler/shared``: `receive(on: .mainActor)`.
    ///
    /// ```swift
    /// let c = subject.receive(on: .mainActor).sink { print($0) }
    /// ```
    public static var mainActor: MainActorScheduler { .shared }
}
