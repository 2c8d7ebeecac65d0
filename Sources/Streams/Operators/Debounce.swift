extension Publisher {
    /// Publishes a value only after `dueTime` has passed with no newer value.
    ///
    /// - Timing: a value received at *t* is published at *t* + `dueTime`, unless a newer value arrives
    ///   before then (the newer one restarts the wait). Only the latest value of a burst is published.
    /// - Completion (**deliberate difference from Combine**): a `.finished` that arrives while a value is
    ///   waiting delivers that value first and then finishes, both at the instant the `.finished` arrived
    ///   (not at the timer's deadline), as RxSwift, RxJava and swift-async-algorithms do; Combine drops
    ///   the waiting value. A failure drops the waiting value and fails at the instant it arrived.
    /// - Demand: upstream is asked for `.unlimited`. A value whose time comes while the downstream has
    ///   no demand is dropped (as in Combine); a later request does not bring it back.
    /// - Threading: values and the completion are delivered on `scheduler`: each value by its timer, the
    ///   completion (with the flushed value) by an action scheduled for the instant it arrived — on a
    ///   `TestScheduler` it runs at the next `advance`, stamped with that instant. Use a serial scheduler.
    ///   The subscription is passed downstream synchronously.
    /// - Cancellation: cancels the upstream and the pending timer; nothing is delivered afterwards.
    ///
    /// ```swift
    /// let c = searchText.debounce(for: .milliseconds(500), scheduler: scheduler).sink { search($0) }
    /// ```
    @inlinable
    public func debounce(for dueTime: Duration, scheduler: any Scheduler) -> Publishers.Debounce<Self> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/debounce(for:scheduler:)``: see there for the contract.
    public struct Debounce<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are debounced.
        public let upstream: Upstream
        /// How long a value must stay the latest before it is published.
        public let dueTime: Duration
        /// Where timers run and events are delivered.
        public let scheduler: any Scheduler

        /// Creates the operator; prefer ``Publisher/debounce(for:scheduler:)``.
        @inlinable
        public init(upstream: Upstream, dueTime: Duration, scheduler: any Scheduler) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
        }

        /// Attaches `subscriber` through a debouncing subscription.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: DebounceInner<S, S?, DebounceStateMachine<S.Input, S.Failure>>(
                    downstream: subscriber, dueTime: dueTime, scheduler: scheduler))
        }
    }
}

/// The decisions of one debounce subscription, free of locks, threads and schedulers.
///
/// Each event method mutates the state and returns what the caller must do once it has released its
/// lock. A timer is identified by the `generation` it was started for: a newer value or a completion
/// bumps the generation, so a stale timer that fires anyway finds nothing to emit.
@usableFromInline
package struct DebounceStateMachine<Output, Failure: Error> {
    /// Where the subscription is in its life.
    @usableFromInline
    package enum Phase {
        /// Receiving values.
        case running
        /// Upstream completed; the completion (after a possible flush) is scheduled.
        case completing(Subscribers.Completion<Failure>)
        /// Completed or cancelled: nothing more happens.
        case terminated
    }

    /// What to do after a value arrived.
    @usableFromInline
    package enum ValueAction {
        /// Nothing (the subscription has ended).
        case none
        /// Cancel `cancelling` (the previous timer) and start a timer for `generation`.
        case startTimer(generation: UInt64, cancelling: ScheduledHandle)
    }

    /// What to do when a timer fires or the scheduled completion runs.
    @usableFromInline
    package enum EmitAction {
        /// Nothing to deliver.
        case none
        /// Deliver this value, then report the downstream's extra demand with ``delivered(additional:)``.
        case deliver(Output)
        /// Deliver this completion; the subscription is over.
        case complete(Subscribers.Completion<Failure>)
    }

    // The fields are in this order for size: with a `Never` failure, `phase` is two bytes and sits in the timer
    // handle's tail padding (75 bytes in all instead of 81, which puts a `debounce` subscription in the next smaller
    // malloc size class).

    /// The value waiting for its timer (or for the completion flush).
    @usableFromInline
    package internal(set) var pending: Output?
    /// The generation of the latest timer; only a timer of this generation may emit.
    @usableFromInline
    package internal(set) var generation: UInt64 = 0
    /// What the downstream may still receive.
    @usableFromInline
    package internal(set) var demand = Subscribers.Demand.none
    /// The live timer or scheduled completion, cancelled when superseded.
    @usableFromInline
    var timer = ScheduledHandle()
    /// The current phase.
    @usableFromInline
    package internal(set) var phase = Phase.running

    /// A state machine waiting for values.
    @inlinable
    package init() {}

    /// A value arrived: it becomes the pending one and a new timer must replace the old.
    @inlinable
    package mutating func received(_ value: Output) -> ValueAction {
        guard case .running = phase else { return .none }
        pending = value
        generation &+= 1
        return .startTimer(generation: generation, cancelling: timer.take())
    }

    /// Keeps the handle of the timer (or completion action) started for `generation`. Returns what the caller
    /// must cancel: the handle itself when it is already stale, otherwise none.
    @inlinable
    package mutating func started(_ handle: any Cancellable, generation: UInt64) -> ScheduledHandle {
        switch phase {
        case .running where generation == self.generation && pending != nil,
            .completing where generation == self.generation:
            return timer.store(handle)
        default:
            return ScheduledHandle(handle)
        }
    }

    /// The timer of `generation` fired: emit the pending value if it is still current and wanted.
    @inlinable
    package mutating func timerFired(generation: UInt64) -> EmitAction {
        guard case .running = phase, generation == self.generation, let value = pending else { return .none }
        pending = nil
        _ = timer.take()
        return take(value)
    }

    /// The downstream asked for more values.
    @inlinable
    package mutating func requested(_ more: Subscribers.Demand) {
        if case .terminated = phase { return }
        demand += more
    }

    /// The downstream returned `additional` demand from `receive(_:)`.
    @inlinable
    package mutating func delivered(additional: Subscribers.Demand) {
        requested(additional)
    }

    /// Upstream completed: a failure drops the pending value; the completion must be scheduled now
    /// for the generation returned (after cancelling the old timer).
    @inlinable
    package mutating func completed(_ completion: Subscribers.Completion<Failure>) -> ValueAction {
        guard case .running = phase else { return .none }
        if case .failure = completion { pending = nil }
        phase = .completing(completion)
        generation &+= 1
        return .startTimer(generation: generation, cancelling: timer.take())
    }

    /// The scheduled completion runs: first the pending value (if wanted), then the completion. Call
    /// again after delivering a value.
    @inlinable
    package mutating func completionDue() -> EmitAction {
        guard case .completing(let completion) = phase else { return .none }
        if let value = pending {
            pending = nil
            let action = take(value)
            if case .deliver = action { return action }
        }
        phase = .terminated
        _ = timer.take()
        return .complete(completion)
    }

    /// The downstream cancelled: returns the timer to cancel.
    @inlinable
    package mutating func cancelled() -> ScheduledHandle {
        phase = .terminated
        pending = nil
        return timer.take()
    }

    /// Spends one demand on `value`, or drops it when there is none.
    @inlinable
    mutating func take(_ value: Output) -> EmitAction {
        guard demand > .none else { return .none }
        demand -= 1
        return .deliver(value)
    }
}

/// `debounce`'s subscriber and subscription. Shared with the scheduler's timer actions: `machine` and
/// `downstream` are guarded by `link`'s lock (the link also holds the upstream subscription), the rest is immutable.
@usableFromInline
final class DebounceInner<Downstream: Subscriber, HeldDownstream: OptionalSlot, HeldMachine: ValueSlot>: Subscriber,
    Subscription, HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where
    HeldDownstream.Wrapped == Downstream,
    HeldMachine.Value == DebounceStateMachine<Downstream.Input, Downstream.Failure>
{
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    /// The upstream subscription, and the one lock of this subscription: it guards every `var` below
    /// (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let link = UpstreamLink()
    /// The state machine, as a ``ValueSlot`` (the unspecialised `deinit` destroys it without a metadata lookup); see
    /// ``machine``. Guarded by `link`'s lock, which is what makes accesses exclusive: no dynamic exclusivity checks.
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
    let dueTime: Duration
    @usableFromInline
    let scheduler: any Scheduler
    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``): the state machine is a
    /// generic struct, whose metadata their unspecialised bodies would look up at run time. Immutable.
    @usableFromInline
    let specialised: (DebounceInner, SpecialisedCall) -> Void

    @inlinable
    init(downstream: Downstream, dueTime: Duration, scheduler: any Scheduler)
    where HeldMachine == DebounceStateMachine<Downstream.Input, Downstream.Failure> {
        held = HeldDownstream(holding: downstream)
        heldMachine = DebounceStateMachine()
        self.dueTime = dueTime
        self.scheduler = scheduler
        specialised = SpecialisedCall.forwarding()
    }

    /// ``heldMachine``'s state machine, in place. Guarded by `link`'s lock.
    @inlinable
    var machine: DebounceStateMachine<Input, Failure> {
        get { heldMachine.value }
        _modify { yield &heldMachine.value }
    }

    @usableFromInline
    var description: String { "Debounce" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        link.withLock { downstream }?.receive(subscription: self)
        link.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let action = link.withLock { machine.received(input) }
        if case .startTimer(let generation, let previous) = action {
            previous.cancel()
            start(generation: generation, completes: false, afterDelay: dueTime)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        let action = link.withLock { machine.completed(completion) }
        if case .startTimer(let generation, let previous) = action {
            previous.cancel()
            start(generation: generation, completes: true, afterDelay: .zero)
        }
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

    /// Schedules the timer (`completes == false`) or the completion of `generation` `delay` from now and hands
    /// the handle to the state machine. The action is formed here, in specialised code, and holds `self`
    /// until it runs or is cancelled: cancelling the subscription cancels it, and a stale timer that runs
    /// anyway finds nothing to emit.
    @inlinable
    func start(generation: UInt64, completes: Bool, afterDelay delay: Duration) {
        let handle = scheduler.scheduleAction(afterDelay: delay) { [self] in
            if completes { completionDue() } else { timerFired(generation: generation) }
        }
        link.withLock { machine.started(handle, generation: generation) }.cancel()
    }

    @inlinable
    func timerFired(generation: UInt64) {
        link.lock()
        let action = machine.timerFired(generation: generation)
        let downstream = self.downstream
        link.unlock()
        guard case .deliver(let value) = action, let downstream else { return }
        let more = downstream.receive(value)
        if more > .none { link.withLock { machine.delivered(additional: more) } }
    }

    @inlinable
    func completionDue() {
        while true {
            link.lock()
            let action = machine.completionDue()
            let downstream = self.downstream
            if case .complete = action { self.downstream = nil }
            link.unlock()
            guard let downstream else { return }
            switch action {
            case .none:
                return
            case .deliver(let value):
                let more = downstream.receive(value)
                link.withLock { machine.delivered(additional: more) }
            case .complete(let completion):
                downstream.receive(completion: completion)
                return
            }
        }
    }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension DebounceInner: SpecialisedSubscription {}

// The state machine is `DebounceInner`'s `HeldMachine` (see ``ValueSlot``).
extension DebounceStateMachine: ValueSlot {
    @inlinable
    var value: Self {
        get { self }
        _modify { yield &self }
    }
}
