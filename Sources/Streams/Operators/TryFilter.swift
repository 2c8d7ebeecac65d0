extension Publisher {
    /// Republishes only the values for which the throwing `isIncluded` returns `true`; a thrown error fails
    /// the stream.
    ///
    /// - Demand: passes straight through; a dropped value asks upstream for one more in its place
    ///   (`.max(1)`), so the subscriber still gets as many values as it requested.
    /// - Failure: the failure type becomes `any Error`. When `isIncluded` throws, the upstream is cancelled
    ///   and the subscriber receives `.failure(error)` once; nothing follows. An upstream failure is
    ///   forwarded as is.
    /// - Threading: `isIncluded` runs on the upstream's thread, never under a lock.
    /// - Cancellation: cancels upstream; nothing reaches the subscriber after it. Ending or cancelling
    ///   releases `isIncluded` once the upstream lets go of
    ///   the operator's subscriber, as every Streams publisher does then. As in Combine, `filter` and `tryFilter` after a `filter` or `tryFilter` fuse
    ///   into one stage.
    ///
    /// ```swift
    /// let c = paths.tryFilter { try isReadable($0) }.sink(receiveCompletion: { print($0) }) { print($0) }
    /// ```
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/tryFilter(_:)``.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by `isIncluded`.
        public typealias Failure = any Error

        /// The publisher whose values are filtered.
        public let upstream: Upstream
        /// The throwing predicate.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Attaches `subscriber` through the predicate.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let isIncluded = self.isIncluded
            let inner = ValueStepStage<Output, Upstream.Failure, S>(
                downstream: subscriber, name: .tryFilter,
                erasingFailure: { value in
                    do {
                        return try isIncluded(value) ? .publish(value) : .drop
                    } catch {
                        return .fail(error)
                    }
                })
            upstream.receive(subscriber: inner)
        }

        /// Fuses a following `filter` into this stage.
        @inlinable
        public func filter(_ next: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
            let first = isIncluded
            return Publishers.TryFilter(upstream: upstream) { try first($0) && next($0) }
        }

        /// Fuses a following `tryFilter` into this stage.
        @inlinable
        public func tryFilter(_ next: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
            let first = isIncluded
            return Publishers.TryFilter(upstream: upstream) { try first($0) && next($0) }
        }
    }
}

extension Publishers.Filter {
    /// Fuses a following `tryFilter` into this stage, as Combine does: one ``Publishers/TryFilter`` runs both
    /// predicates.
    ///
    /// ```swift
    /// let c = paths.filter { !$0.isEmpty }.tryFilter { try isReadable($0) }.sink(receiveCompletion: { _ in }) { _ in }
    /// ```
    @inlinable
    public func tryFilter(_ next: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && next($0) }
    }
}
