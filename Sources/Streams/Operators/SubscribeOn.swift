extension Publisher {
    /// Performs the upstream's `subscribe`, and every `request(_:)` and `cancel()` sent to it, on
    /// `scheduler`.
    ///
    /// - Threading: the upstream is subscribed by an action scheduled with `scheduler.schedule(_:)`;
    ///   requests and the upstream cancel are scheduled the same way, in call order. Values and the
    ///   completion are *not* moved: they arrive on whatever thread upstream sends them (combine with
    ///   ``Publisher/receive(on:)`` for that). As in Combine.
    /// - Cancellation: `cancel()` stops delivery at once (nothing reaches the downstream afterwards, even
    ///   before the scheduled upstream cancel has run) and releases the downstream.
    ///
    /// ```swift
    /// let c = expensiveWork.subscribe(on: backgroundQueue).receive(on: DispatchQueue.main).sink { show($0) }
    /// ```
    @inlinable
    public func subscribe(on scheduler: any Scheduler) -> Publishers.SubscribeOn<Self> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/subscribe(on:)``: see there for the contract.
    public struct SubscribeOn<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed on ``scheduler``.
        public let upstream: Upstream
        /// Where the upstream's subscribe, requests and cancel run.
        public let scheduler: any Scheduler

        /// Creates the operator; prefer ``Publisher/subscribe(on:)``.
        @inlinable
        public init(upstream: Upstream, scheduler: any Scheduler) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Schedules the upstream subscription of `subscriber` on ``scheduler``.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            SubscribeOnInner(upstream: upstream, downstream: subscriber, scheduler: scheduler).start()
        }
    }
}

/// The subscriber `subscribe(on:)` attaches upstream, and the downstream's subscription. Shared across threads
/// (the scheduler's and the caller's): `upstream` and `downstream` are guarded by `link`'s lock, the upstream
/// subscription is held by `link`, and `scheduler` is immutable. The publisher and the subscriber are kept in
/// ``OptionalSlot`` parameters (`HeldUpstream` is `Upstream?`, `HeldDownstream` is `Downstream?`), so that `cancel()`
/// and the `deinit`, which run unspecialised, clear and destroy them without a runtime metadata lookup.
@usableFromInline
final class SubscribeOnInner<
    Upstream: Publisher, Downstream: Subscriber, HeldUpstream: OptionalSlot, HeldDownstream: OptionalSlot
>: Subscriber, Subscription, HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where
    Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure, HeldUpstream.Wrapped == Upstream,
    HeldDownstream.Wrapped == Downstream
{
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    /// The upstream subscription, and the one lock of this subscription: it guards every `var` below
    /// (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let link = UpstreamLink()
    /// The publisher, held until the scheduled subscribe takes it. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var heldUpstream: HeldUpstream
    /// The subscriber (``HoldsDownstreamInSlot/downstream``) until the completion or a cancel. Guarded by `link`'s
    /// lock.
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    @usableFromInline
    let scheduler: any Scheduler

    @inlinable
    init(upstream: Upstream, downstream: Downstream, scheduler: any Scheduler)
    where HeldUpstream == Upstream?, HeldDownstream == Downstream? {
        heldUpstream = upstream
        held = downstream
        self.scheduler = scheduler
    }

    @usableFromInline
    var description: String { "SubscribeOn" }

    /// Schedules the upstream subscribe; the action keeps this subscription alive until it runs.
    @inlinable
    func start() {
        scheduler.scheduleAction { [self] in
            link.lock()
            let upstream = heldUpstream.wrapped
            heldUpstream = nil
            link.unlock()
            upstream?.receive(subscriber: self)
        }
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        link.withLock { downstream }?.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let downstream = link.withLock({ downstream }) else { return .none }
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        link.lock()
        let downstream = self.downstream
        held = nil
        link.unlock()
        guard let downstream else { return }
        _ = link.finish()  // releases the upstream subscription (a cancel still pending finds nothing to do)
        downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        let link = self.link
        scheduler.schedule { link.request(demand) }
    }

    @inlinable
    func cancel() {
        link.lock()
        let released = held
        held = nil
        link.unlock()
        _ = released  // destroyed here, outside the lock
        let link = self.link
        scheduler.schedule { link.cancel() }
    }
}
