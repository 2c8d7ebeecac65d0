extension Publisher {
    /// Transforms each value and republishes the non-`nil` results.
    ///
    /// - Demand: a `nil` result gives its demand back upstream. `compactMap(f).compactMap(g)` and
    ///   `compactMap(f).map(g)` fuse into one stage.
    /// - Cost: no lock and no allocation per value.
    ///
    /// ```swift
    /// let c = ["1", "x", "3"].publisher.compactMap { Int($0) }.sink { print($0) }   // 1 3
    /// ```
    @inlinable
    public consuming func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/compactMap(_:)``.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transformation; `nil` drops the value.
        public let transform: (Upstream.Output) -> Output?

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches `subscriber` through the transformation.
        @inlinable
        @inline(__always)
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CompactMapInner(downstream: subscriber, transform: transform))
        }

        /// Fuses a following `compactMap` into this stage.
        @inlinable
        public consuming func compactMap<T>(_ next: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
            let first = transform
            return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(next) }
        }

        /// Fuses a following `map` into this stage.
        @inlinable
        public consuming func map<T>(_ next: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
            let first = transform
            return Publishers.CompactMap(upstream: upstream) { first($0).map(next) }
        }
    }
}

/// The subscriber of `compactMap` (top level, so its type does not grow with the upstream publisher's:
/// deep chains stay small enough for the optimiser to specialise).
@usableFromInline
struct CompactMapInner<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Failure = Downstream.Failure
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let transform: (Input) -> Downstream.Input?

    @inlinable
    init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input?) {
        self.downstream = downstream
        self.transform = transform
    }

    @inlinable
    func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        if let output = transform(input) { return downstream.receive(output) }
        return .max(1)
    }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
    @usableFromInline
    var description: String { "CompactMap" }
}
