extension Publisher {
    /// Publishes at most one value per `interval`: a value at once when the last one published is at
    /// least `interval` old, otherwise one value when the interval since the last one is over.
    ///
    /// The rules (Combine's; checked against OpenCombine's throttle tests):
    /// 1. A value that arrives while nothing is scheduled is scheduled for publication at the later of
    ///    now and the last publication plus `interval` ("now" means an action scheduled for this
    ///    instant: on a `TestScheduler` it runs at the next `advance`, stamped with this instant).
    /// 2. A value that arrives while one is scheduled replaces it if `latest` is `true`, and is dropped
    ///    otherwise. So several values in the same instant publish once: the newest, or the first.
    /// 3. A completion while a value is scheduled is delivered right after that value, at its time (the
    ///    value is never lost, whether the completion is `.finished` or a failure); with nothing scheduled
    ///    it is delivered at once.
    /// - Demand: upstream is asked for `.unlimited`. A value is taken only if the downstream has demand
    ///   when it arrives (one demand is reserved for it then); a value arriving without demand is dropped.
    /// - Threading: everything is delivered on `scheduler`. Use a serial scheduler. The subscription is
    ///   passed downstream synchronously, *before* the upstream is asked for values (a deliberate
    ///   difference: Combine asks first, so a synchronous upstream's values arrive while the subscriber
    ///   has had no chance to request and are all dropped).
    /// - Cancellation: cancels the upstream and the scheduled publication; nothing is delivered afterwards.
    ///
    /// ```swift
    /// let c = scrollOffsets.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true)
    ///     .sink { render($0) }
    /// ```
    @inlinable
    public func throttle(for interval: Duration, scheduler: any Scheduler, latest: Bool)
        -> Publishers.Throttle<Self>
    {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/throttle(for:scheduler:latest:)``: see there for the rules.
    public struct Throttle<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are throttled.
        public let upstream: Upstream
        /// The length of a window.
        public let interval: Duration
        /// Where timers run and events are delivered.
        public let scheduler: any Scheduler
        /// Whether a window publishes its newest value (`true`) or its first (`false`).
        public let latest: Bool

        /// Creates the operator; prefer ``Publisher/throttle(for:scheduler:latest:)``.
        @inlinable
        public init(upstream: Upstream, interval: Duration, scheduler: any Scheduler, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Attaches `subscriber` through a throttling subscription.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let inner = ThrottleInner<S, S?, ThrottleStateMachine<S.Input, S.Failure>>(
                downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest)
            upstream.receive(subscriber: inner)
        }
    }
}

/// The decisions of one throttle subscription, free of locks, threads and schedulers.
///
/// At most one publication is scheduled at a time: `scheduled` is the value it will publish (replaced by a
/// newer value when `latest`), `completion` the completion that follows it. Event methods return what the
/// caller must do after releasing its lock. Each scheduled publication carries a generation, so a stale
/// one (after a cancel) never publishes.
@usableFromInline
package struct ThrottleStateMachine<Output, Failure: Error> {
    /// What to schedule after an event.
    @usableFromInline
    package enum ScheduleAction {
        /// Nothing.
        case none
        /// Schedule ``publicationDue(generation:at:)`` for `generation` at `deadline`.
        case schedule(generation: UInt64, at: SchedulerInstant)
    }

    /// What a due publication delivers.
    @usableFromInline
    package struct Publication {
        /// The value, if any; then report the extra demand with ``delivered(additional:)``.
        @usableFromInline
        package var value: Output?
        /// The completion that follows it, if any: the subscription is then over.
        @usableFromInline
        package var completion: Subscribers.Completion<Failure>?

        @inlinable
        init(value: Output?, completion: Subscribers.Completion<Failure>?) {
            self.value = value
            self.completion = completion
        }
    }

    // The fields are in this order for size: the flags (and, with a `Never` failure, `completion`) fill the padding
    // that wider fields would otherwise leave (126 bytes in all instead of 129, the next smaller stride).

    /// The length of the interval between publications.
    @usableFromInline
    package let interval: Duration
    /// The value the scheduled publication will deliver.
    @usableFromInline
    package internal(set) var scheduled: Output?
    /// The completion the scheduled publication will deliver after `scheduled`.
    @usableFromInline
    package internal(set) var completion: Subscribers.Completion<Failure>?
    /// When the last value was published.
    @usableFromInline
    package internal(set) var lastPublication: SchedulerInstant?
    /// The generation of the scheduled publication; only its action may act.
    @usableFromInline
    package internal(set) var generation: UInt64 = 0
    /// What the downstream may still receive, less the demand reserved for `scheduled`.
    @usableFromInline
    package internal(set) var demand = Subscribers.Demand.none
    /// The handle of the scheduled publication.
    @usableFromInline
    var timer = ScheduledHandle()
    /// Whether a newer value replaces the scheduled one.
    @usableFromInline
    package let latest: Bool
    /// Whether a publication is scheduled.
    @usableFromInline
    package internal(set) var isScheduled = false
    /// Upstream completed: values are ignored.
    @usableFromInline
    package internal(set) var isCompleting = false
    /// Completed or cancelled.
    @usableFromInline
    package internal(set) var isTerminated = false
    /// The downstream cancelled.
    @usableFromInline
    package internal(set) var isCancelled = false

    /// A state machine with nothing scheduled.
    @inlinable
    package init(latest: Bool, interval: Duration) {
        self.latest = latest
        self.interval = interval
    }

    /// A value arrived at `now` (rules 1 and 2).
    @inlinable
    package mutating func received(_ value: Output, now: SchedulerInstant) -> ScheduleAction {
        guard !isTerminated, !isCompleting, demand > .none else { return .none }
        if isScheduled {
            if latest { scheduled = value }
            return .none
        }
        demand -= 1
        scheduled = value
        return schedule(at: lastPublication.map { max(now, $0 + interval) } ?? now)
    }

    /// Upstream completed at `now` (rule 3).
    @inlinable
    package mutating func completed(_ completion: Subscribers.Completion<Failure>, now: SchedulerInstant)
        -> ScheduleAction
    {
        guard !isTerminated, !isCompleting else { return .none }
        isCompleting = true
        self.completion = completion
        return isScheduled ? .none : schedule(at: now)
    }

    @inlinable
    mutating func schedule(at deadline: SchedulerInstant) -> ScheduleAction {
        isScheduled = true
        generation &+= 1
        return .schedule(generation: generation, at: deadline)
    }

    /// Keeps the handle of the publication `generation`. Returns what the caller must cancel: the handle itself
    /// when it is already stale, otherwise none.
    @inlinable
    package mutating func publicationScheduled(_ handle: any Cancellable, generation: UInt64) -> ScheduledHandle {
        guard !isTerminated, isScheduled, generation == self.generation else { return ScheduledHandle(handle) }
        return timer.store(handle)
    }

    /// The publication `generation` is due at `now`: what to deliver (`nil` if stale).
    @inlinable
    package mutating func publicationDue(generation: UInt64, at now: SchedulerInstant) -> Publication? {
        guard !isTerminated, isScheduled, generation == self.generation else { return nil }
        isScheduled = false
        _ = timer.take()
        let publication = Publication(value: scheduled, completion: completion)
        if publication.value != nil { lastPublication = now }
        scheduled = nil
        completion = nil
        if publication.completion != nil { isTerminated = true }
        return publication
    }

    /// The downstream asked for more values.
    @inlinable
    package mutating func requested(_ more: Subscribers.Demand) {
        if isTerminated { return }
        demand += more
    }

    /// The downstream returned `additional` demand from `receive(_:)`.
    @inlinable
    package mutating func delivered(additional: Subscribers.Demand) {
        requested(additional)
    }

    /// The downstream cancelled: returns the timer to cancel.
    @inlinable
    package mutating func cancelled() -> ScheduledHandle {
        isTerminated = true
        isCancelled = true
        isScheduled = false
        scheduled = nil
        completion = nil
        return timer.take()
    }
}

/// `throttle`'s subscriber and subscription. Shared with the scheduler's timer actions: `machine` and
/// `downstream` are guarded by `link`'s lock (the link also holds the upstream subscription), `scheduler` is immutable.
@usableFromInline
final class ThrottleInner<Downstream: Subscriber, HeldDownstream: OptionalSlot, HeldMachine: ValueSlot>: Subscriber,
    Subscription, HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where
    HeldDownstream.Wrapped == Downstream,
    HeldMachine.Value == ThrottleStateMachine<Downstream.Input, Downstream.Failure>
{
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure
    @usableFromInline
    typealias Machine = ThrottleStateMachine<Input, Failure>

    /// The upstream subscription, and the one lock of this subscription: it guards every `var` below
    /// (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let link = UpstreamLink()
    /// The state machine, as a ``ValueSlot`` (the unspecialised `deinit` destroys it without a metadata lookup); see
    /// ``machine``. Guarded by `link`'s lock, like the `var`s below.
    @usableFromInline
    @exclusivity(unchecked)
    var heldMachine: HeldMachine
    /// The subscriber, as `Downstream?` (see ``OptionalSlot``: the unspecialised `cancel()` and `deinit` clear and
    /// destroy it without a metadata lookup); `nil` once completed or cancelled. Guarded by `link`'s lock, like the
    /// `var`s below.
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    @usableFromInline
    let scheduler: any Scheduler

    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``): the state machine is a
    /// generic struct, whose metadata their unspecialised bodies would look up at run time. Immutable.
    @usableFromInline
    let specialised: (ThrottleInner, SpecialisedCall) -> Void

    @inlinable
    init(downstream: Downstream, interval: Duration, scheduler: any Scheduler, latest: Bool)
    where HeldMachine == Machine {
        held = HeldDownstream(holding: downstream)
        self.scheduler = scheduler
        heldMachine = Machine(latest: latest, interval: interval)
        specialised = SpecialisedCall.forwarding()
    }

    /// ``heldMachine``'s state machine, in place. Guarded by `link`'s lock.
    @inlinable
    var machine: Machine {
        get { heldMachine.value }
        _modify { yield &heldMachine.value }
    }

    @usableFromInline
    var description: String { "Throttle" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        link.withLock { downstream }?.receive(subscription: self)
        link.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let now = scheduler.now
        perform(link.withLock { machine.received(input, now: now) })
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        let now = scheduler.now
        perform(link.withLock { machine.completed(completion, now: now) })
    }

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        link.withLock { machine.requested(demand) }
    }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    func cancelNow() {
        link.lock()
        let upstream = link.cancelLocked()
        let timer = machine.cancelled()
        let released = held
        held = nil
        link.unlock()
        upstream?.cancel()
        timer.cancel()
        _ = released  // destroyed here, outside the lock
    }

    @inlinable
    func perform(_ action: Machine.ScheduleAction) {
        guard case .schedule(let generation, let deadline) = action else { return }
        // Holds `self` until it runs or is cancelled (`cancel()` cancels it).
        let handle = scheduler.scheduleAction(after: deadline) { [self] in publicationDue(generation: generation) }
        link.withLock { machine.publicationScheduled(handle, generation: generation) }.cancel()
    }

    @inlinable
    func publicationDue(generation: UInt64) {
        let now = scheduler.now
        link.lock()
        guard let publication = machine.publicationDue(generation: generation, at: now), let downstream else {
            return link.unlock()
        }
        if publication.completion != nil { self.downstream = nil }
        link.unlock()
        if let value = publication.value {
            let more = downstream.receive(value)
            link.withLock { machine.delivered(additional: more) }
        }
        // Nothing after a cancel, even one from inside `receive(_:)` of the value.
        guard let completion = publication.completion, !link.withLock({ machine.isCancelled }) else { return }
        downstream.receive(completion: completion)
    }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension ThrottleInner: SpecialisedSubscription {}

// The state machine is `ThrottleInner`'s `HeldMachine` (see ``ValueSlot``).
extension ThrottleStateMachine: ValueSlot {
    @inlinable
    var value: Self {
        get { self }
        _modify { yield &self }
    }
}
