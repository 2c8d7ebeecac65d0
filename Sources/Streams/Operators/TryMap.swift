extension Publisher {
    /// Transforms each value with a throwing closure; a thrown error fails the stream.
    ///
    /// - Demand: one value out per value in; demand passes straight through.
    /// - Failure: the failure type becomes `any Error`. When `transform` throws, the upstream is
    ///   cancelled and the downstream receives `.failure(error)` once; nothing follows. An upstream
    ///   failure is forwarded as is.
    /// - Threading: synchronous, on the upstream's thread.
    ///
    /// ```swift
    /// let c = ["1", "x"].publisher.tryMap { try parse($0) }.sink(receiveCompletion: { print($0) }) { print($0) }
    /// ```
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/tryMap(_:)``.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or one thrown by `transform`.
        public typealias Failure = any Error

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The throwing transformation.
        public let transform: (Upstream.Output) throws -> Output

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches `subscriber` through the transformation.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: TryMapInner<Upstream.Output, Upstream.Failure, S>(
                    downstream: subscriber, transform: transform))
        }

        /// Fuses a following `map` into this stage (Combine's overload: the result is again a `TryMap`).
        @inlinable
        public func map<T>(_ next: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
            let first = transform
            return Publishers.TryMap(upstream: upstream) { next(try first($0)) }
        }

        /// Fuses a following `tryMap` into this stage (Combine's overload: the result is again a `TryMap`).
        @inlinable
        public func tryMap<T>(_ next: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
            let first = transform
            return Publishers.TryMap(upstream: upstream) { try next(try first($0)) }
        }
    }
}

extension Publishers.Map {
    /// Fuses a following `tryMap` into this `map` (Combine's overload: the result is one `TryMap` over this
    /// stage's upstream).
    ///
    /// ```swift
    /// let c = lines.map { $0.trimmed() }.tryMap { try parse($0) }.sink(receiveCompletion: { _ in }) { _ in }
    /// ```
    @inlinable
    public func tryMap<T>(_ next: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = transform
        return Publishers.TryMap(upstream: upstream) { try next(first($0)) }
    }
}

/// `tryMap`'s subscriber: a stage (see ``StageLink``) with no state. A thrown error cancels upstream and
/// fails the downstream, once.
///
/// Generic over the values it handles, not over the upstream publisher: a type parameter that grows with the
/// chain above (`TryMap<TryFilter<TryMap<…>>>`) makes the optimiser see a growing cycle when `tryMap` occurs
/// three times in one pipeline, and it then leaves these methods unspecialised.
@usableFromInline
struct TryMapInner<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Downstream.Failure == any Error {
    @usableFromInline
    typealias Failure = UpstreamFailure

    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let link: StageLink<Void, NoStageHooks>
    @usableFromInline
    let transform: (Input) throws -> Downstream.Input

    @inlinable
    init(downstream: Downstream, transform: @escaping (Input) throws -> Downstream.Input) {
        self.downstream = downstream
        self.link = StageLink(.tryMap, state: (), hooks: NoStageHooks())
        self.transform = transform
    }

    @usableFromInline
    var description: String { "TryMap" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(link) }

    @inlinable
    func receive(subscription: any Subscription) { link.attach(subscription, handingTo: downstream) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard link.isLive else { return .none }
        let output: Downstream.Input
        do {
            output = try transform(input)
        } catch {
            if link.finishAndCancel() { downstream.receive(completion: .failure(error)) }
            return .none
        }
        return downstream.receive(output)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        downstream.receive(completion: completion.mapError { $0 as any Error })
    }
}
