extension Publisher {
    /// Delivers values and the completion on `scheduler`, in the order they were received.
    ///
    /// - Threading: each event is delivered by its own action, scheduled with `scheduler.schedule(_:)` when it
    ///   arrives (as in Combine), so it runs in scheduling order among the other actions on that scheduler and
    ///   events keep their order. The subscription, `request(_:)` and `cancel()` pass through synchronously,
    ///   as in Combine (use ``Publisher/subscribe(on:)`` to move those).
    /// - Demand: passes through; the demand the downstream returns on a value is requested upstream then.
    /// - Cancellation: cancels upstream at once; an event already queued is never delivered (the action
    ///   already scheduled still runs, and does nothing).
    /// - On an ``ImmediateScheduler``, whose actions run at once on the calling thread, each event is delivered
    ///   inside the upstream's call, as its action would be, without the queue; the demand the downstream returns
    ///   is returned upstream with the value.
    ///
    /// ```swift
    /// let c = network.results.receive(on: DispatchQueue.main).sink { render($0) }
    /// ```
    @inlinable
    public func receive(on scheduler: any Scheduler) -> Publishers.ReceiveOn<Self> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/receive(on:)``: see there for the contract.
    public struct ReceiveOn<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are moved.
        public let upstream: Upstream
        /// Where events are delivered.
        public let scheduler: any Scheduler

        /// Creates the operator; prefer ``Publisher/receive(on:)``.
        @inlinable
        public init(upstream: Upstream, scheduler: any Scheduler) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Attaches `subscriber`; its events will arrive on ``scheduler``.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            if scheduler is ImmediateScheduler {
                // That scheduler runs each action at once on the scheduling thread, so the upstream's own serial
                // call is where the action would run: a stage that publishes each value there, with no queue.
                upstream.receive(subscriber: ValueStepStage(downstream: subscriber, name: .receiveOn) { .publish($0) })
            } else {
                upstream.receive(subscriber: ReceiveOnInner<S, S?>(downstream: subscriber, scheduler: scheduler))
            }
        }
    }
}

/// `receive(on:)`'s subscriber and subscription. Shared with the scheduled drains: `held` and `queue` are guarded by
/// `link`'s lock (the link also holds the upstream subscription), `scheduler` is immutable. `HeldDownstream` is
/// `Downstream?` (see ``OptionalSlot``), so the unspecialised `cancel()` and `deinit` clear and destroy it without a
/// metadata lookup.
@usableFromInline
final class ReceiveOnInner<Downstream: Subscriber, HeldDownstream: OptionalSlot>: Subscriber, Subscription,
    HoldsDownstreamInSlot,
    TimedDelivery, CustomStringConvertible, @unchecked Sendable
where HeldDownstream.Wrapped == Downstream {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    /// The upstream subscription, and the one lock of this subscription: it guards every `var` below
    /// (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let link = UpstreamLink()
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    @usableFromInline
    @exclusivity(unchecked)
    var queue = TimingEventQueue<Input, Failure>()
    @usableFromInline
    let scheduler: any Scheduler

    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``): `cancel()` empties the
    /// event queue, a generic struct whose metadata the unspecialised body would look up at run time. Immutable.
    @usableFromInline
    let specialised: (ReceiveOnInner, SpecialisedCall) -> Void

    @inlinable
    init(downstream: Downstream, scheduler: any Scheduler) {
        held = HeldDownstream(holding: downstream)
        self.scheduler = scheduler
        specialised = SpecialisedCall.forwarding()
    }

    @usableFromInline
    var description: String { "ReceiveOn" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        link.withLock { downstream }?.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        enqueue(.value(input))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        enqueue(.completion(completion))
    }

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        link.request(demand)
    }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    func cancelNow() {
        link.lock()
        let upstream = link.cancelLocked()
        let released = held
        held = nil
        let dropped = queue.removeAll()
        link.unlock()
        upstream?.cancel()
        _ = released  // destroyed here, outside the lock
        _ = dropped
    }

    @inlinable
    func enqueue(_ event: TimingEventQueue<Input, Failure>.Event) {
        let isQueued = link.withLock { () -> Bool in
            guard downstream != nil else { return false }
            _ = queue.append(event)
            return true
        }
        guard isQueued else { return }
        // Holds `self` until it runs, as soon as the scheduler can; after a cancel it finds nothing to deliver.
        scheduler.scheduleAction { [self] in deliverNext() }
    }

}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension ReceiveOnInner: SpecialisedSubscription {}
