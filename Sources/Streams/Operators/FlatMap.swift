extension Publisher {
    /// Transforms each value into a publisher and republishes the values of all those publishers,
    /// merged into one stream.
    ///
    /// - Subscription: as in Combine, the subscriber gets its subscription before the upstream is
    ///   subscribed; a subscriber that cancels in `receive(subscription:)` gets nothing subscribed.
    /// - Concurrency of inners: at most `maxPublishers` inner publishers are subscribed at once: the
    ///   upstream is asked for `maxPublishers` values, and for one more each time an inner finishes.
    /// - Demand: never more values than the downstream requested, across all inners. While that demand
    ///   is bounded each inner is asked for one value at a time (as in Combine); once it is `.unlimited`
    ///   the inners are asked for `.unlimited`. A value that arrives without demand waits (at most one
    ///   per inner) until the downstream asks.
    /// - Completion: finishes once the upstream and every inner have finished and every waiting value
    ///   was delivered. The first failure (upstream or inner) cancels everything and is delivered once.
    /// - Threading: values from several inners are delivered serially, never concurrently, on the
    ///   thread of the inner (or of the downstream's `request`) that delivers them.
    ///
    /// ```swift
    /// let c = [1, 2].publisher.flatMap { Just($0 * 10) }.sink { print($0) }   // 10 20
    /// let one = ids.flatMap(maxPublishers: .max(1)) { api.fetch($0) }       // one request at a time
    /// ```
    @inlinable
    public func flatMap<Child: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> Child
    ) -> Publishers.FlatMap<Child, Self> where Child.Failure == Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publishers {
    /// The publisher returned by `flatMap(maxPublishers:_:)`.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The inner publishers' output type.
        public typealias Output = NewPublisher.Output
        /// The shared failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed into publishers.
        public let upstream: Upstream
        /// The most inner publishers subscribed at once.
        public let maxPublishers: Subscribers.Demand
        /// Makes an inner publisher from an upstream value.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates the operator.
        @inlinable
        public init(
            upstream: Upstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let inner = FlatMapInner<S>(downstream: subscriber, maxPublishers: maxPublishers, transform: transform)
            if inner.handOverSubscription() { upstream.receive(subscriber: inner) }
        }

        /// flatMap's engine: a ``MergeCore`` that is also the upstream's subscriber. Its own `var`s, like
        /// the engine's, are guarded by the engine's `lock`; `maxPublishers` is immutable.
        @usableFromInline
        final class FlatMapInner<Downstream: Subscriber>:
            MergeCore<Output, Failure, Downstream, Subscribers.Completion<Failure>?>, Subscriber, @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline
            typealias Input = Upstream.Output

            @usableFromInline
            let maxPublishers: Subscribers.Demand
            /// Whether the inner publishers are read rather than subscribed to (see `receiveScalar`). Immutable.
            @usableFromInline
            let scalarKind = ScalarPublisherKind(of: NewPublisher.self)
            /// Guarded by the lock; released when the subscription ends.
            @usableFromInline
            @exclusivity(unchecked)
            var transform: ((Upstream.Output) -> NewPublisher)?

            @inlinable
            init(
                downstream: Downstream, maxPublishers: Subscribers.Demand,
                transform: @escaping (Upstream.Output) -> NewPublisher
            ) {
                self.maxPublishers = maxPublishers
                self.transform = transform
                super.init(downstream: downstream)
                replenishes = maxPublishers != .unlimited
                reusesSides = true
            }

            override var description: String { "FlatMap" }

            @inlinable
            override func releaseResourcesLocked() { transform = nil }

            @inlinable
            override func replenishingUpstreamLocked() -> (any Subscription & AnyObject)? {
                maxPublishers == .unlimited || sourcesDone ? nil : upstream
            }

            @inlinable
            func receive(subscription: any Subscription) {
                upstreamReceived(subscription: subscription, initialDemand: maxPublishers)
            }

            @inlinable
            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                if scalarKind != .none { return receiveScalar(input) }
                lock.lock()
                guard let transform, let side = linkSideLocked() else {
                    lock.unlock()
                    return .none
                }
                lock.unlock()
                transform(input).receive(subscriber: side)
                return .none
            }

            /// `receive(_:)` when the inner publishers may be scalar (`Just`, a fulfilled `Future`, see
            /// ``ScalarPublisherKind``): if the inner holds its value, the engine is idle and the downstream has
            /// demand, the inner's value is delivered now, as subscribing to it
            /// would have delivered it, and its place is freed at once (one more upstream value when `maxPublishers`
            /// is bounded, returned here as a subscribed inner's completion would have requested it). Otherwise the
            /// inner is subscribed like any other, so that it waits its turn behind buffered values.
            @inlinable
            func receiveScalar(_ input: Upstream.Output) -> Subscribers.Demand {
                lock.lock()
                guard let transform, !isTerminal else {
                    lock.unlock()
                    return .none
                }
                lock.unlock()
                let inner = transform(input)
                // A deferred future is made here, once, as subscribing to it would make it; then read or subscribed.
                // (A future's value is read before taking the engine's lock: it has a lock of its own.)
                let made = scalarKind.madeFuture(of: inner)
                let scalar: NewPublisher.Output?
                if let made { scalar = made.fulfilledValue } else { scalar = scalarKind.output(of: inner) }
                lock.lock()
                if let value = scalar, !isDelivering, demand > .none, bufferHead == buffer.count, !isTerminal,
                    let box = unretainedDownstream
                {
                    let more = deliverNowLocked(value, to: box)
                    // Ended at once: nothing changed meanwhile (a cancel would have marked the turn).
                    if endsTurnAtOnce(returned: more) { return maxPublishers != .unlimited ? .max(1) : .none }
                    // A cancel from inside the downstream's `receive` leaves nothing to ask the upstream for.
                    let replenishes = maxPublishers != .unlimited && !isTerminal
                    endDirectDeliveryLocked()
                    return replenishes ? .max(1) : .none
                }
                guard let side = linkSideLocked() else {
                    lock.unlock()
                    return .none
                }
                lock.unlock()
                if let made { made.receive(subscriber: side) } else { inner.receive(subscriber: side) }
                return .none
            }

            @inlinable
            func receive(completion: Subscribers.Completion<Failure>) {
                upstreamReceived(completion: completion)
            }
        }
    }
}

extension Publisher where Failure == Never {
    /// `flatMap` from a publisher that cannot fail into inner publishers that can: the upstream is
    /// re-typed with ``Publisher/setFailureType(to:)``, then merged as `flatMap(maxPublishers:_:)`.
    ///
    /// ```swift
    /// let responses = taps.flatMap { api.fetch() }   // taps: Never, fetch: NetworkError
    /// ```
    @inlinable
    public func flatMap<Child: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> Child
    ) -> Publishers.FlatMap<Child, Publishers.SetFailureType<Self, Child.Failure>> {
        setFailureType(to: Child.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
    }

    /// `flatMap` when neither the upstream nor the inner publishers can fail (the same-failure form).
    @inlinable
    public func flatMap<Child: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> Child
    ) -> Publishers.FlatMap<Child, Self> where Child.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher {
    /// `flatMap` into inner publishers that cannot fail, from a publisher that can: each inner is
    /// re-typed with ``Publisher/setFailureType(to:)``.
    ///
    /// ```swift
    /// let lengths = lines.flatMap { Just($0.count) }   // lines: some Error, Just: Never
    /// ```
    @inlinable
    public func flatMap<Child: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> Child
    ) -> Publishers.FlatMap<Publishers.SetFailureType<Child, Failure>, Self> where Child.Failure == Never {
        flatMap(maxPublishers: maxPublishers) { transform($0).setFailureType(to: Failure.self) }
    }
}
