extension Publisher {
    /// Republishes only the values for which `isIncluded` returns `true`.
    ///
    /// - Demand: a dropped value gives its demand back upstream (asks for one more), so the downstream
    ///   still gets as many values as it requested. `filter(p).filter(q)` fuses into one stage.
    /// - Cost: no lock and no allocation per value.
    ///
    /// ```swift
    /// let c = (1...6).publisher.filter { $0.isMultiple(of: 2) }.sink { print($0) }   // 2 4 6
    /// ```
    @inlinable
    public consuming func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/filter(_:)``.
    public struct Filter<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are filtered.
        public let upstream: Upstream
        /// The predicate.
        public let isIncluded: (Upstream.Output) -> Bool

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Attaches `subscriber` through the predicate.
        @inlinable
        @inline(__always)
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: FilterInner(downstream: subscriber, isIncluded: isIncluded))
        }

        /// Fuses a following `filter` into this stage.
        @inlinable
        public consuming func filter(_ next: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
            let first = isIncluded
            return Publishers.Filter(upstream: upstream) { first($0) && next($0) }
        }
    }
}

/// The subscriber of `filter` (top level, so its type does not grow with the upstream publisher's:
/// deep chains stay small enough for the optimiser to specialise).
@usableFromInline
struct FilterInner<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let isIncluded: (Input) -> Bool

    @inlinable
    init(downstream: Downstream, isIncluded: @escaping (Input) -> Bool) {
        self.downstream = downstream
        self.isIncluded = isIncluded
    }

    @inlinable
    func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        isIncluded(input) ? downstream.receive(input) : .max(1)
    }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
    @usableFromInline
    var description: String { "Filter" }
}
