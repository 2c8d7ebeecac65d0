extension Publishers {
    /// A publisher that emits the scheduler's time at a regular interval, forever.
    ///
    /// - Timing: each subscription starts its own clock when it is subscribed: ticks are due at
    ///   *start* + *k* · `interval` (*k* = 1, 2, …), computed from the start, so they never drift; a tick
    ///   that comes late (a busy real scheduler) does not shift the ones after it, and ticks missed
    ///   entirely are skipped rather than emitted in a rush. Each tick emits `scheduler.now`.
    /// - Demand: a tick that finds the subscriber without demand is dropped (the clock keeps going).
    /// - Threading: ticks are delivered on `scheduler`. Never completes, never fails.
    /// - Cancellation: cancels the pending tick (nothing remains scheduled) and releases the subscriber.
    ///   Until then the pending tick keeps the subscription alive, so ticks continue even if the
    ///   subscriber does not store its subscription.
    /// - **Difference from Combine:** `Timer.publish(every:on:in:)` returns a `ConnectablePublisher` that
    ///   ticks only after `connect()` / `autoconnect()`, shared by all subscribers. This one is an ordinary
    ///   cold publisher: every subscriber gets its own ticks, starting at its subscription.
    ///
    /// ```swift
    /// let c = scheduler.timerPublisher(every: .seconds(1)).sink { print("tick at", $0) }
    /// ```
    public struct Timer: Publisher {
        /// The scheduler's time at each tick.
        public typealias Output = SchedulerInstant
        /// A timer never fails.
        public typealias Failure = Never

        /// The time between ticks; positive.
        public let interval: Duration
        /// How late a tick may be. Kept for familiarity with Combine's `Timer.publish`: ``Scheduler``
        /// has no tolerance option, so schedulers currently fire as close to the deadline as they can.
        public let tolerance: Duration
        /// Where ticks are scheduled and delivered.
        public let scheduler: any Scheduler

        /// A timer ticking every `interval` (which must be positive) on `scheduler` (not an
        /// ``ImmediateScheduler``, on which the ticks would never end).
        @inlinable
        public init(every interval: Duration, tolerance: Duration = .zero, scheduler: any Scheduler) {
            precondition(interval > .zero, "Publishers.Timer: the interval must be positive")
            precondition(
                !(scheduler is ImmediateScheduler),
                "Publishers.Timer: ImmediateScheduler runs every tick at once, so a timer on it would never end")
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
        }

        /// Starts ticking for `subscriber`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            TimerSubscription<S, S?>(downstream: subscriber, interval: interval, scheduler: scheduler).start()
        }
    }
}

extension Scheduler {
    /// A publisher of this scheduler's time every `interval`, starting when subscribed: see
    /// ``Publishers/Timer`` (it differs from Combine's connectable `Timer.publish`).
    ///
    /// ```swift
    /// let c = scheduler.timerPublisher(every: .milliseconds(100)).sink { print($0) }
    /// ```
    @inlinable
    public func timerPublisher(every interval: Duration, tolerance: Duration = .zero) -> Publishers.Timer {
        Publishers.Timer(every: interval, tolerance: tolerance, scheduler: self)
    }
}

/// `Publishers.Timer`'s subscription. Shared with the scheduled ticks: every `var` is guarded by `lock`;
/// `interval` and `scheduler` are immutable. The subscriber is kept in an ``OptionalSlot`` parameter (`HeldDownstream`
/// is `Downstream?`), so `request(_:)`, `cancel()` and `deinit`, which run unspecialised, test, clear and destroy it
/// without a metadata lookup.
@usableFromInline
final class TimerSubscription<Downstream: Subscriber, HeldDownstream: OptionalSlot>: Subscription,
    HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where
    Downstream.Input == SchedulerInstant, Downstream.Failure == Never, HeldDownstream.Wrapped == Downstream
{
    /// Guards every `var` below (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let lock = Lock()
    /// The subscriber (``HoldsDownstreamInSlot/downstream`` in specialised code); `nil` once cancelled. Guarded by
    /// `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    /// What the subscriber may still receive. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    /// The scheduled tick, cancelled on cancel. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var tick = ScheduledHandle()
    /// Which tick (`k`) is scheduled; a stale action never emits. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var count = 0
    /// When the subscription started: tick `k` is due at `origin + k · interval`. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var origin = SchedulerInstant.zero
    @usableFromInline
    let interval: Duration
    @usableFromInline
    let scheduler: any Scheduler

    @inlinable
    init(downstream: Downstream, interval: Duration, scheduler: any Scheduler) {
        held = HeldDownstream(holding: downstream)
        self.interval = interval
        self.scheduler = scheduler
    }

    @usableFromInline
    var description: String { "Timer" }

    @inlinable
    func start() {
        let start = scheduler.now
        lock.withLock { origin = start }
        lock.withLock { downstream }?.receive(subscription: self)
        schedule(count: 1)
    }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        lock.withLock { if !held.isNil { demand += more } }
    }

    @inlinable
    func cancel() {
        // Plain lock and unlock, no tuple: this runs unspecialised (reached through `any Subscription`), where a
        // tuple type would be looked up at run time.
        lock.lock()
        let tick = self.tick.take()
        let released = held
        held = nil
        lock.unlock()
        tick.cancel()
        _ = released  // destroyed here, outside the lock
    }

    /// Schedules tick `count` at `start + count · interval`.
    @inlinable
    func schedule(count: Int) {
        let deadline = lock.withLock { () -> SchedulerInstant? in
            guard downstream != nil else { return nil }
            self.count = count
            return origin + interval * count
        }
        guard let deadline else { return }
        // The pending tick keeps the subscription alive (as Combine's timer does), so a subscriber that
        // does not store its subscription still gets ticks; `cancel()` cancels the tick and breaks the cycle.
        let handle = scheduler.scheduleAction(after: deadline) { [self] in fire(count: count) }
        let stale = lock.withLock { () -> ScheduledHandle in
            guard downstream != nil, count == self.count else { return ScheduledHandle(handle) }
            return tick.store(handle)  // none: a tick's handle is dropped when it fires
        }
        stale.cancel()
    }

    @inlinable
    func fire(count: Int) {
        let now = scheduler.now
        lock.lock()
        guard let downstream, count == self.count else { return lock.unlock() }
        _ = tick.take()
        // The next tick after `now` (skipping any missed entirely), never earlier than count + 1.
        let elapsed = Int(((now - origin) / interval).rounded(.down))
        let next = Swift.max(count + 1, elapsed + 1)
        let wanted = demand > .none
        if wanted { demand -= 1 }
        lock.unlock()
        schedule(count: next)
        guard wanted else { return }
        let more = downstream.receive(now)
        if more > .none { request(more) }
    }
}
