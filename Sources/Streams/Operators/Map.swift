extension Publisher {
    /// Transforms each value with `transform`.
    ///
    /// - Demand and timing: one value out per value in, synchronously, on the upstream's thread.
    ///   `map(f).map(g)` fuses into one stage.
    /// - Cost: no lock and no allocation per value; the subscription is the upstream's own.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.map { $0 * 10 }.sink { print($0) }   // 10 20 30
    /// ```
    @inlinable
    public consuming func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/map(_:)->Publishers.Map<Self,T>``.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transformation.
        public let transform: (Upstream.Output) -> Output

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches `subscriber` through the transformation.
        @inlinable
        @inline(__always)
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: MapInner(downstream: subscriber, transform: transform))
        }

        /// Fuses a following `map` into this stage.
        @inlinable
        public consuming func map<T>(_ next: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
            let first = transform
            return Publishers.Map(upstream: upstream) { next(first($0)) }
        }
    }
}

/// The subscriber of `map` (top level, so its type does not grow with the upstream publisher's:
/// deep chains stay small enough for the optimiser to specialise).
@usableFromInline
struct MapInner<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Failure = Downstream.Failure
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let transform: (Input) -> Downstream.Input

    @inlinable
    init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input) {
        self.downstream = downstream
        self.transform = transform
    }

    @inlinable
    func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(transform(input)) }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
    @usableFromInline
    var description: String { "Map" }
}
