extension Publisher {
    /// Publishes each intermediate result of folding the values with the throwing `nextPartialResult`; a
    /// thrown error fails the stream.
    ///
    /// - Demand: one result out per value in; demand passes straight through.
    /// - Failure: the failure type becomes `any Error`. When `nextPartialResult` throws, the upstream is
    ///   cancelled and the subscriber receives `.failure(error)` once; nothing follows. An upstream failure is
    ///   forwarded as is.
    /// - Threading: `nextPartialResult` runs on the upstream's thread, never under a lock. Each subscription
    ///   folds from `initialResult` afresh.
    /// - Cancellation: cancels upstream; nothing reaches the subscriber after it. Ending or cancelling
    ///   releases `nextPartialResult` and the running result once the upstream lets go of
    ///   the operator's subscriber, as every Streams publisher does then.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.tryScan(0) { try add($0, $1) }.sink(receiveCompletion: { _ in }) { print($0) }
    /// ```
    @inlinable
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T)
        -> Publishers.TryScan<Self, T>
    {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/tryScan(_:_:)``.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or one thrown by `nextPartialResult`.
        public typealias Failure = any Error

        /// The publisher whose values are folded.
        public let upstream: Upstream
        /// The value the fold starts from.
        public let initialResult: Output
        /// Combines the previous result with a new value; may throw.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates the operator.
        @inlinable
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let nextPartialResult = self.nextPartialResult
            let result = StepState(initialResult)
            let inner = ValueStepStage<Upstream.Output, Upstream.Failure, S>(
                downstream: subscriber, name: .tryScan,
                erasingFailure: { value in
                    do {
                        result.value = try nextPartialResult(result.value, value)
                    } catch {
                        return .fail(error)
                    }
                    return .publish(result.value)
                })
            upstream.receive(subscriber: inner)
        }
    }
}
