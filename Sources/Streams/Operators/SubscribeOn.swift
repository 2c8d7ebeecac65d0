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
/// subscription is held by `link`, and `scheduler` is immutable.
@usableFromInline
final class SubscribeOnInner<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    /// The upstream subscription, and the one lock of this subscription: it guards every `var` below
    /// (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let link = UpstreamLink()
    /// Held until the scheduled subscribe takes it. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var upstream: Upstream?
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    let scheduler: any Scheduler

    @inlinable
    init(upstream: Upstream, downstream: Downstream, scheduler: any Scheduler) {
        self.upstream = upstream
        self.downstream = downstream
        self.scheduler = scheduler
    }

    @usableFromInline
    var description: String { "SubscribeOn" }

    /// Schedules the upstream subscribe; the action keeps this subscription alive until it runs.
    @inlinable
    func start() {
        scheduler.scheduleAction { [self] in
            let upstream = link.withLock { () -> Upstream? in
                defer { self.upstream = nil }
                return self.upstream
            }
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
        let downstream = link.withLock { () -> Downstream? in
            defer { self.downstream = nil }
            return self.downstream
        }
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
        let released = link.withLock { () -> Downstream? in
            defer { downstream = nil }
            return downstream
        }
        _ = released  // destroyed here, outside the lock
        let link = self.link
        scheduler.schedule { link.cancel() }
    }
}
