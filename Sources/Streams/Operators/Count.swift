extension Publisher {
    /// Publishes the number of values the upstream published, when it finishes.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the count is
    ///   published once the downstream has requested at least one value (held until then), followed at
    ///   once by `.finished` (unless the subscriber cancelled while receiving the count). An empty upstream
    ///   publishes `0`.
    /// - Failure: forwarded at once; the count so far is dropped.
    /// - Cancellation: nothing after a cancel, not even from inside `receive(_:)` of the count.
    ///
    /// ```swift
    /// let c = ["a", "b", "c"].publisher.count().sink { print($0) }   // 3
    /// ```
    @inlinable
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/count()``.
    public struct Count<Upstream: Publisher>: Publisher {
        /// The number of values the upstream published.
        public typealias Output = Int
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are counted.
        public let upstream: Upstream

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let inner = ReducingInner<Upstream.Output, Upstream.Failure, S>(
                downstream: subscriber, initial: 0, name: "Count",
                step: { result, _ in
                    result? += 1
                    return .next
                })
            upstream.receive(subscriber: inner)
        }
    }
}

// Equal when their parts are equal, as in Combine.
extension Publishers.Count: Equatable where Upstream: Equatable {}
