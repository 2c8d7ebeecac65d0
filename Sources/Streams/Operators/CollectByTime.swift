extension Publisher {
    /// Collects values into groups by time, or by time or count, and publishes each group as an array.
    ///
    /// - Timing: a repeating timer starts when the subscription does and ticks every interval, at
    ///   *start* + *k* · interval (computed from the start, so it never drifts; ticks missed entirely by a busy
    ///   scheduler are skipped). Each tick publishes the values collected since the last group, if there are
    ///   any (an interval without values publishes nothing). With `.byTimeOrCount(_, _, count)` a group is
    ///   also published as soon as it holds `count` values, by an action scheduled for that instant (as in
    ///   Combine); the timer keeps its rhythm.
    /// - Completion: `.finished` publishes the group collected so far (if any), then finishes; a failure
    ///   drops the group being collected and fails. Either is delivered through the scheduler, as Combine does
    ///   since macOS 11.3 / iOS 14.5: on a `TestScheduler` at the next `advance`, stamped with the instant
    ///   it arrived.
    /// - Demand: `.byTime` asks upstream for `.max(1)` on each downstream request and gives `.max(1)`
    ///   back for every value, so it pulls without bound, as Combine does (values collect in memory while the
    ///   downstream has no demand). `.byTimeOrCount` asks upstream for `count` × every demand of the
    ///   downstream, requested or returned for a group. Each group spends one demand.
    /// - A group due without demand is kept, never dropped (Streams' choice: the specs checked against
    ///   Combine do not show what it does here): at a tick, later values join it and it is published at the
    ///   first tick after a request; a group full by count (or the last group after `.finished`) waits and is published
    ///   through the scheduler as soon as a request comes, in order, and `.finished` follows the last group.
    ///   A failure is not held back: it follows the groups already full that the demand allows and drops the
    ///   rest.
    /// - `.byTimeOrCount` also asks upstream for the demand returned for a group published by the timer
    ///   (**deliberate difference**: Combine ignores that demand, so a subscriber that asks for more groups
    ///   from one published by the timer can wait forever).
    /// - Threading: groups and the completion are delivered on the scheduler; use a serial one, not an
    ///   ``ImmediateScheduler`` (its timer would never end: rejected with a precondition). The subscription
    ///   is passed downstream synchronously.
    /// - Cancellation: cancels the upstream, the timer and any scheduled delivery (nothing stays scheduled);
    ///   nothing is delivered afterwards.
    ///
    /// ```swift
    /// let c = clicks.collect(.byTimeOrCount(scheduler, .seconds(1), 10)).sink { print($0.count) }
    /// ```
    @inlinable
    public func collect(_ strategy: Publishers.TimeGroupingStrategy) -> Publishers.CollectByTime<Self> {
        Publishers.CollectByTime(upstream: self, strategy: strategy)
    }
}

extension Publishers {
    /// How ``Publisher/collect(_:)-(Publishers.TimeGroupingStrategy)`` groups values: by time, or by time
    /// or count.
    ///
    /// The interval must be positive, the count positive, and the scheduler not an ``ImmediateScheduler``.
    ///
    /// ```swift
    /// let perSecond = values.collect(.byTime(scheduler, .seconds(1)))
    /// ```
    public enum TimeGroupingStrategy: Sendable {
        /// Publish what was collected every interval, on the scheduler.
        case byTime(any Scheduler, Duration)
        /// Publish what was collected every interval, or as soon as a group holds the count.
        case byTimeOrCount(any Scheduler, Duration, Int)

        /// The scheduler, the interval and the count (`nil` for `.byTime`).
        @inlinable
        var parts: (scheduler: any Scheduler, interval: Duration, count: Int?) {
            switch self {
            case .byTime(let scheduler, let interval): (scheduler, interval, nil)
            case .byTimeOrCount(let scheduler, let interval, let count): (scheduler, interval, count)
            }
        }
    }

    /// The publisher returned by ``Publisher/collect(_:)-(Publishers.TimeGroupingStrategy)``: see there for
    /// the contract.
    public struct CollectByTime<Upstream: Publisher>: Publisher {
        /// The values collected in one group.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are collected.
        public let upstream: Upstream
        /// How values are grouped, and where timers run and groups are delivered.
        public let strategy: Publishers.TimeGroupingStrategy

        /// Creates the operator; prefer ``Publisher/collect(_:)-(Publishers.TimeGroupingStrategy)``.
        @inlinable
        public init(upstream: Upstream, strategy: Publishers.TimeGroupingStrategy) {
            let (scheduler, interval, count) = strategy.parts
            precondition(interval > .zero, "collect(_:): the interval must be positive")
            precondition(count.map { $0 > 0 } ?? true, "collect(_:): the count must be positive")
            precondition(
                !(scheduler is ImmediateScheduler),
                "collect(_:): ImmediateScheduler runs every tick at once, so the timer would never end")
            self.upstream = upstream
            self.strategy = strategy
        }

        /// Attaches `subscriber` through a collecting subscription.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let (scheduler, interval, count) = strategy.parts
            let inner = CollectByTimeInner<Upstream.Output, S, S?, Subscribers.Completion<Failure>?>(
                downstream: subscriber, scheduler: scheduler, interval: interval, count: count)
            upstream.receive(subscriber: inner)
        }
    }
}

/// `collect(.byTime)`'s and `collect(.byTimeOrCount)`'s subscriber and subscription. Shared with the
/// scheduler's actions (the ticks and the deliveries): every `var` is guarded by `link`'s lock, the upstream
/// subscription is held by `link`, the `let`s are immutable.
///
/// Groups move from `open` (being collected) to `ready` (closed: full by count, closed by a tick with demand
/// for it, or the last group after `.finished`) and are delivered in order by ``drain()``, which runs only
/// on the scheduler (from a tick or a scheduled delivery) and one thread at a time (`isDelivering`).
///
/// The subscriber and the completion are kept in ``OptionalSlot`` parameters (`HeldDownstream` is `Downstream?`,
/// `HeldCompletion` is `Subscribers.Completion<Failure>?`), so the unspecialised `deinit` destroys them without a
/// metadata lookup; specialised code reads them as plain optionals (``downstream``, ``completion``).
@usableFromInline
final class CollectByTimeInner<
    Element, Downstream: Subscriber, HeldDownstream: OptionalSlot, HeldCompletion: OptionalSlot
>: Subscriber, Subscription, HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where
    Downstream.Input == [Element], HeldDownstream.Wrapped == Downstream,
    HeldCompletion.Wrapped == Subscribers.Completion<Downstream.Failure>
{
    @usableFromInline
    typealias Input = Element
    @usableFromInline
    typealias Failure = Downstream.Failure

    /// The upstream subscription, and the one lock of this subscription: it guards every `var` below
    /// (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let link = UpstreamLink()
    /// The subscriber (``HoldsDownstreamInSlot/downstream``), until the completion is delivered or the downstream
    /// cancels. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    /// The group being collected. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var open: [Element] = []
    /// Closed groups waiting for delivery, oldest first. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var ready: [[Element]] = []
    /// What the downstream may still receive, in groups. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    /// The upstream's completion (``completion``), once it came (delivered after the groups before it). Guarded by
    /// `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var heldCompletion: HeldCompletion = nil
    /// A thread is in ``drain()``. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var isDelivering = false
    /// When the subscription started: tick `k` is due at `origin + k · interval`. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var origin = SchedulerInstant.zero
    /// Which tick is scheduled; a stale tick does nothing. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var tickIndex = 0
    /// The scheduled tick, cancelled on cancel and completion. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var tick = ScheduledHandle()
    /// A delivery action is scheduled and has not run yet. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var drainPending = false
    /// Identifies the scheduled delivery; bumped when it is forgotten. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var drainGeneration: UInt64 = 0
    /// The scheduled delivery, cancelled on cancel and completion. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var drainHandle = ScheduledHandle()
    @usableFromInline
    let scheduler: any Scheduler
    @usableFromInline
    let interval: Duration
    /// The size of a full group (`nil`: by time only).
    @usableFromInline
    let count: Int?

    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``): their bodies test and clear
    /// `Optional`s of generic types, each a runtime metadata lookup if run unspecialised. Immutable.
    @usableFromInline
    let specialised: (CollectByTimeInner, SpecialisedCall) -> Void

    @inlinable
    init(downstream: Downstream, scheduler: any Scheduler, interval: Duration, count: Int?) {
        held = HeldDownstream(holding: downstream)
        self.scheduler = scheduler
        self.interval = interval
        self.count = count
        specialised = SpecialisedCall.forwarding()
    }

    /// ``heldCompletion`` as a plain `Optional`, for specialised code. Guarded by `link`'s lock.
    @inlinable
    var completion: Subscribers.Completion<Failure>? {
        get { heldCompletion.wrapped }
        set { heldCompletion.wrapped = newValue }
    }

    @usableFromInline
    var description: String { "CollectByTime" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        let start = scheduler.now
        let downstream = link.withLock { () -> Downstream? in
            origin = start
            return self.downstream
        }
        downstream?.receive(subscription: self)
        scheduleTick(index: 1)
    }

    @inlinable
    func receive(_ input: Element) -> Subscribers.Demand {
        link.lock()
        guard downstream != nil, completion == nil else {
            link.unlock()
            return .none
        }
        open.append(input)
        var deliver = false
        if let count, open.count >= count {
            ready.append(open)
            open = []
            deliver = demand > .none
        }
        link.unlock()
        if deliver { scheduleDrain() }
        return count == nil ? .max(1) : .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        link.lock()
        guard downstream != nil else { return link.unlock() }
        self.completion = completion
        var dropped: [Element] = []
        if !open.isEmpty {
            if case .finished = completion { ready.append(open) } else { dropped = open }
            open = []
        }
        let tick = self.tick.take()
        tickIndex += 1
        link.unlock()
        tick.cancel()
        _ = dropped  // released here, outside the lock
        scheduleDrain()
    }

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    func requestNow(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        link.lock()
        guard downstream != nil else { return link.unlock() }
        demand += more
        let waiting = !ready.isEmpty || completion != nil
        link.unlock()
        if let count { link.request(more * count) } else { link.request(.max(1)) }
        if waiting { scheduleDrain() }
    }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    func cancelNow() {
        link.lock()
        let upstream = link.cancelLocked()
        let released = (downstream, open, ready)
        let timers = (tick.take(), drainHandle.take())
        downstream = nil
        open = []
        ready = []
        drainPending = false
        tickIndex += 1
        drainGeneration &+= 1
        link.unlock()
        upstream?.cancel()
        timers.0.cancel()
        timers.1.cancel()
        _ = released  // destroyed here, outside the lock
    }

    /// Schedules tick `index` at `origin + index · interval`, unless the subscription has ended. The action
    /// holds `self` until it runs or is cancelled (cancel and completion cancel it), as Combine's timers do.
    @inlinable
    func scheduleTick(index: Int) {
        let deadline = link.withLock { () -> SchedulerInstant? in
            guard downstream != nil, completion == nil else { return nil }
            tickIndex = index
            return origin + interval * index
        }
        guard let deadline else { return }
        let handle = scheduler.scheduleAction(after: deadline) { [self] in fire(index: index) }
        let stale = link.withLock { () -> ScheduledHandle in
            guard downstream != nil, completion == nil, index == tickIndex else { return ScheduledHandle(handle) }
            return tick.store(handle)  // none: a tick's handle is dropped when it fires
        }
        stale.cancel()
    }

    /// Tick `index` is due: closes the open group if the downstream has demand for it, schedules the next
    /// tick and delivers.
    @inlinable
    func fire(index: Int) {
        let now = scheduler.now
        link.lock()
        guard downstream != nil, completion == nil, index == tickIndex else { return link.unlock() }
        _ = tick.take()
        // The next tick after `now` (skipping any missed entirely), never earlier than index + 1.
        let elapsed = Int(((now - origin) / interval).rounded(.down))
        let next = Swift.max(index + 1, elapsed + 1)
        if !open.isEmpty, demand > ready.count {
            ready.append(open)
            open = []
        }
        link.unlock()
        scheduleTick(index: next)
        drain()
    }

    /// Schedules a delivery for the current instant, unless one is scheduled, a thread is delivering (it
    /// will see the new work) or the subscription has ended. The action holds `self` until it runs or is
    /// cancelled.
    @inlinable
    func scheduleDrain() {
        link.lock()
        guard downstream != nil, !drainPending, !isDelivering else { return link.unlock() }
        drainPending = true
        drainGeneration &+= 1
        let generation = drainGeneration
        link.unlock()
        let handle = scheduler.scheduleAction(afterDelay: .zero) { [self] in drainDue(generation: generation) }
        let stale = link.withLock { () -> ScheduledHandle in
            guard downstream != nil, drainPending, generation == drainGeneration else { return ScheduledHandle(handle) }
            return drainHandle.store(handle)  // none: the previous delivery's handle went when it ran or was forgotten
        }
        stale.cancel()
    }

    /// The scheduled delivery `generation` runs.
    @inlinable
    func drainDue(generation: UInt64) {
        link.withLock {
            if generation == drainGeneration {
                drainPending = false
                _ = drainHandle.take()
            }
        }
        drain()
    }

    /// Delivers the ready groups the demand allows, in order, then the completion when it is due (a
    /// `.finished` after the last group, a failure once no group can be delivered). One thread at a time;
    /// called only on the scheduler.
    @inlinable
    func drain() {
        link.lock()
        guard !isDelivering else { return link.unlock() }
        isDelivering = true
        while true {
            guard let downstream else {
                isDelivering = false
                return link.unlock()
            }
            if demand > .none, !ready.isEmpty {
                let group = ready.removeFirst()
                demand -= 1
                link.unlock()
                let more = downstream.receive(group)
                if more > .none {
                    link.withLock { demand += more }
                    if let count { link.request(more * count) }
                }
                link.lock()
                continue
            }
            guard let completion, ready.isEmpty || Self.isFailure(completion) else {
                isDelivering = false
                return link.unlock()
            }
            self.downstream = nil
            let released = ready
            let pending = drainHandle.take()
            ready = []
            drainPending = false
            drainGeneration &+= 1
            isDelivering = false
            link.unlock()
            pending.cancel()
            _ = released  // groups a failure drops, released here, outside the lock
            downstream.receive(completion: completion)
            return
        }
    }

    /// Whether `completion` is a failure.
    @inlinable
    static func isFailure(_ completion: Subscribers.Completion<Failure>) -> Bool {
        if case .failure = completion { return true }
        return false
    }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension CollectByTimeInner: SpecialisedSubscription {}
