extension Publisher {
    /// Folds every value with `nextPartialResult` and publishes the final result when upstream finishes.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does). The result is
    ///   published only once the downstream has requested at least one value: if upstream finishes
    ///   first, the result is held until then, and `.finished` follows it at once (unless the subscriber
    ///   cancelled while receiving the result). An empty upstream publishes `initialResult`.
    /// - Failure: forwarded at once; the partial result is dropped.
    /// - Threading: `nextPartialResult` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.reduce(0, +).sink { print($0) }   // 6
    /// ```
    @inlinable
    public consuming func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Publishers.Reduce<Self, T>
    {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Folds every value with the throwing `nextPartialResult` and publishes the final result when upstream
    /// finishes; a thrown error fails the stream.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does). The result is
    ///   published only once the downstream has requested at least one value (held until then), followed
    ///   at once by `.finished`. An empty upstream publishes `initialResult`.
    /// - Failure: the failure type becomes `any Error`. When `nextPartialResult` throws, the upstream is
    ///   cancelled and the downstream receives `.failure(error)` at once, demand or not; nothing follows.
    ///   An upstream failure is forwarded at once. Either way the partial result is dropped.
    /// - Threading: `nextPartialResult` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = [8, 0].publisher.tryReduce(64) { try divide($0, $1) }.sink(receiveCompletion: { print($0) }) { _ in }
    /// ```
    @inlinable
    public consuming func tryReduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T)
        -> Publishers.TryReduce<Self, T>
    {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/reduce(_:_:)``.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are folded.
        public let upstream: Upstream
        /// The value the fold starts from.
        public let initial: Output
        /// Combines the accumulated result with a new value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates the operator.
        @inlinable
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            let next = nextPartialResult
            let inner = ReducingInner<Upstream.Output, Upstream.Failure, S>(
                downstream: subscriber, initial: initial, name: "Reduce",
                step: { result, value in
                    if let partial = result { result = next(partial, value) }
                    return .next
                })
            upstream.receive(subscriber: inner)
        }
    }

    /// The publisher returned by ``Publisher/tryReduce(_:_:)``.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or one thrown by `nextPartialResult`.
        public typealias Failure = any Error

        /// The publisher whose values are folded.
        public let upstream: Upstream
        /// The value the fold starts from.
        public let initial: Output
        /// Combines the accumulated result with a new value; may throw.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates the operator.
        @inlinable
        public init(
            upstream: Upstream, initial: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            let next = nextPartialResult
            let inner = ReducingInner<Upstream.Output, Upstream.Failure, S>(
                downstream: subscriber, initial: initial, name: "TryReduce",
                erasingFailure: { result, value in
                    guard let partial = result.take() else { return .next }
                    do {
                        result = try next(partial, value)
                    } catch {
                        return .fail(error)
                    }
                    return .next
                })
            upstream.receive(subscriber: inner)
        }
    }
}
