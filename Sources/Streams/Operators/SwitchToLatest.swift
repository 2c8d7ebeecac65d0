extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes the values of the most recent inner publisher: each new inner publisher from the
    /// upstream cancels the previous one.
    ///
    /// - Subscription: as in Combine, the subscriber gets its subscription before the upstream is
    ///   subscribed; a subscriber that cancels in `receive(subscription:)` gets nothing subscribed.
    /// - Switching: when the upstream emits a publisher, the current inner subscription is cancelled
    ///   and its values (even ones already received but not yet delivered) are never published; then
    ///   the new publisher is subscribed.
    /// - Demand: the upstream of publishers is asked for `.unlimited`. The downstream's outstanding
    ///   demand (requested minus delivered) is requested from each new inner, and later requests are
    ///   forwarded to the current inner, so demand carries over across switches.
    /// - Completion: finishes when the upstream has finished and the current inner (if any) has
    ///   finished. A failure of the upstream or of the current inner cancels everything and is
    ///   delivered once.
    /// - Threading: delivered serially, on the thread of the inner that produces the value.
    ///
    /// ```swift
    /// let results = queries.map { api.search($0) }.switchToLatest()   // only the latest search
    /// ```
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publishers {
    /// The publisher returned by `switchToLatest()`.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where Upstream.Output == P, P.Failure == Upstream.Failure {
        /// The inner publishers' output type.
        public typealias Output = P.Output
        /// The shared failure type.
        public typealias Failure = P.Failure

        /// The publisher of publishers.
        public let upstream: Upstream

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let inner = SwitchInner<Upstream.Output, S>(downstream: subscriber)
            if inner.handOverSubscription() { upstream.receive(subscriber: inner) }
        }
    }
}

/// The subscription of `switchToLatest`: a ``MergeCore`` in its forwarding mode (one live side, given the
/// downstream's demand as is) that is also the subscriber of the publisher of publishers. Its state is the
/// engine's, guarded by the engine's `lock`.
@usableFromInline
final class SwitchInner<P: Publisher, Downstream: Subscriber>:
    MergeCore<P.Output, P.Failure, Downstream, Subscribers.Completion<P.Failure>?>, Subscriber, @unchecked Sendable
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    @usableFromInline
    typealias Input = P
    @usableFromInline
    typealias Failure = P.Failure

    /// Whether the inner publishers are read rather than subscribed to (see ``receiveScalar(_:of:)``). Immutable.
    @usableFromInline
    let scalarKind = ScalarPublisherKind(of: P.self)

    @inlinable
    init(downstream: Downstream) {
        super.init(downstream: downstream, forwardsDemand: true)
        reusesSides = true
    }

    @usableFromInline
    override var description: String { "SwitchToLatest" }

    @inlinable
    func receive(subscription: any Subscription) {
        upstreamReceived(subscription: subscription, initialDemand: .unlimited)
    }

    /// A new inner publisher: the current one is cancelled and its undelivered values dropped, then the new
    /// one is subscribed (or, when it is scalar, read: see ``receiveScalar(_:of:)``).
    @inlinable
    func receive(_ input: P) -> Subscribers.Demand {
        // A deferred future is made here, once, as subscribing to it would make it; then read or subscribed to.
        if let made = scalarKind.madeFuture(of: input) {
            if let value = made.fulfilledValue { return receiveScalar(value, of: made) }
            subscribe(made)
            return .none
        }
        if scalarKind != .none, let value = scalarKind.output(of: input) { return receiveScalar(value, of: input) }
        subscribe(input)
        return .none
    }

    /// Switches to `input` (the inner publisher, or the future a deferred one made) by subscribing to it, after
    /// cancelling the current inner.
    @inlinable
    func subscribe<Inner: Publisher>(_ input: Inner) where Inner.Output == P.Output, Inner.Failure == P.Failure {
        lock.lock()
        let (side, replaced, dropped) = replaceSideLocked()
        lock.unlock()
        _ = dropped
        replaced?.cancel()
        if let side { input.receive(subscriber: side) }
    }

    /// `receive(_:)` when the new inner is scalar (`Just`, a fulfilled `Future`, see ``ScalarPublisherKind``) and
    /// holds `value` (`input` is the inner, or the future a deferred inner made). The
    /// current inner is cancelled first, as for any switch; then, if the engine is idle and the downstream has
    /// demand, `value` is delivered now, as subscribing to the inner would have delivered it (during this call), and
    /// the inner counts as finished at once: no side, no subscription, no completion to wait for. Otherwise the inner
    /// is subscribed like any other, so that it waits for demand (and a later switch can still replace it).
    @inlinable
    func receiveScalar<Inner: Publisher>(_ value: P.Output, of input: Inner) -> Subscribers.Demand
    where Inner.Output == P.Output, Inner.Failure == P.Failure {
        lock.lock()
        if firstSide != nil {
            let (replaced, dropped) = unlinkLiveSideLocked()
            lock.unlock()
            _ = dropped
            replaced?.cancel()  // before the new inner's value, as a subscribed switch orders them
            lock.lock()
        }
        guard !isDelivering, demand > .none, bufferHead == buffer.count, firstSide == nil, !isTerminal,
            let box = unretainedDownstream
        else {
            lock.unlock()
            subscribe(input)
            return .none
        }
        // The returned demand is added to `demand`, which the next inner is asked for (demand carries over).
        let more = deliverNowLocked(value, to: box)
        if !endsTurnAtOnce(returned: more) { endDirectDeliveryLocked() }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        upstreamReceived(completion: completion)
    }
}

extension Publisher where Failure == Never, Output: Publisher {
    /// `switchToLatest` from a publisher that cannot fail to inner publishers that can (the typical
    /// search box: text that never fails, requests that do). Same contract as the same-failure form.
    ///
    /// ```swift
    /// let results = queries.map { api.search($0) }.switchToLatest()   // queries: Never
    /// ```
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        setFailureType(to: Output.Failure.self).switchToLatest()
    }
}

extension Publisher where Failure == Never, Output: Publisher, Output.Failure == Never {
    /// `switchToLatest` when neither the upstream nor the inner publishers can fail.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// `switchToLatest` into inner publishers that cannot fail, from a publisher that can: each inner
    /// is re-typed with ``Publisher/setFailureType(to:)``.
    @inlinable
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        map { $0.setFailureType(to: Failure.self) }.switchToLatest()
    }
}
