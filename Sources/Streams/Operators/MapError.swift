extension Publisher {
    /// Transforms the failure with `transform`; values and `.finished` pass through unchanged.
    ///
    /// - Demand and timing: untouched; the subscription is the upstream's own.
    ///
    /// ```swift
    /// let p = fetch().mapError { AppError.network($0) }
    /// ```
    @inlinable
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }
}

extension Publisher where Failure == Never {
    /// Re-types a publisher that cannot fail so it can be combined with ones that can.
    ///
    /// Nothing changes at run time: it never fails.
    ///
    /// ```swift
    /// let p = Just(1).setFailureType(to: MyError.self)   // AnyPublisher<Int, MyError>-compatible
    /// ```
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/mapError(_:)``.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output

        /// The publisher whose failure is transformed.
        public let upstream: Upstream
        /// The failure transformation.
        public let transform: (Upstream.Failure) -> Failure

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches `subscriber` through the failure transformation.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: MapErrorInner<Upstream.Output, Upstream.Failure, S>(
                    downstream: subscriber, transform: transform))
        }
    }

    /// The publisher returned by ``Publisher/setFailureType(to:)``.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        /// The upstream's output type.
        public typealias Output = Upstream.Output

        /// The publisher re-typed.
        public let upstream: Upstream

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Attaches `subscriber`; it can only ever receive `.finished`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: SetFailureTypeInner<Upstream.Output, S>(downstream: subscriber))
        }

        /// Re-types again, to another failure type.
        @inlinable
        public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Upstream, E> {
            Publishers.SetFailureType(upstream: upstream)
        }
    }
}

/// Forwards everything, transforming the failure. Stateless: the upstream's subscription is passed on.
/// Generic over the values, not over the upstream publisher (as `SetFailureTypeInner`): a parameter that grows
/// with the chain above makes the optimiser see a growing cycle when the operator occurs three times in one
/// pipeline, and leave these methods unspecialised.
@usableFromInline
struct MapErrorInner<Input, Failure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Downstream.Input == Input {
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let transform: (Failure) -> Downstream.Failure

    @inlinable
    init(downstream: Downstream, transform: @escaping (Failure) -> Downstream.Failure) {
        self.downstream = downstream
        self.transform = transform
    }

    @usableFromInline
    var description: String { "MapError" }

    @inlinable
    func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion.mapError(transform))
    }
}

/// Forwards everything; a `Never`-failing upstream can only finish. Stateless.
@usableFromInline
struct SetFailureTypeInner<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Downstream.Input == Input {
    @usableFromInline
    typealias Failure = Never

    @usableFromInline
    let downstream: Downstream

    @inlinable
    init(downstream: Downstream) { self.downstream = downstream }

    @usableFromInline
    var description: String { "SetFailureType" }

    @inlinable
    func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }
    @inlinable
    func receive(completion: Subscribers.Completion<Never>) { downstream.receive(completion: .finished) }
}

// Equal when their parts are equal, as in Combine.
extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}
