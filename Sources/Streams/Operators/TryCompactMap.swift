extension Publisher {
    /// Transforms each value with a throwing closure and republishes the non-`nil` results; a thrown error
    /// fails the stream.
    ///
    /// - Demand: passes straight through; a `nil` result asks upstream for one more value in its place
    ///   (`.max(1)`), so the subscriber still gets as many values as it requested.
    /// - Failure: the failure type becomes `any Error`. When `transform` throws, the upstream is cancelled
    ///   and the subscriber receives `.failure(error)` once; nothing follows. An upstream failure is
    ///   forwarded as is.
    /// - Threading: `transform` runs on the upstream's thread, never under a lock.
    /// - Cancellation: cancels upstream; nothing reaches the subscriber after it. Ending or cancelling
    ///   releases `transform` once the upstream lets go of
    ///   the operator's subscriber, as every Streams publisher does then. As in Combine, a `compactMap` after a `tryCompactMap` fuses into it.
    ///
    /// ```swift
    /// let c = lines.tryCompactMap { try parseOptional($0) }.sink(receiveCompletion: { print($0) }) { print($0) }
    /// ```
    @inlinable
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/tryCompactMap(_:)``.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or one thrown by `transform`.
        public typealias Failure = any Error

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The throwing transformation; `nil` drops the value.
        public let transform: (Upstream.Output) throws -> Output?

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches `subscriber` through the transformation.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let transform = self.transform
            let inner = ValueStepStage<Upstream.Output, Upstream.Failure, S>(
                downstream: subscriber, name: .tryCompactMap,
                erasingFailure: { value in
                    do {
                        guard let output = try transform(value) else { return .drop }
                        return .publish(output)
                    } catch {
                        return .fail(error)
                    }
                })
            upstream.receive(subscriber: inner)
        }

        /// Fuses a following `compactMap` into this stage; as in Combine, its closure may throw too.
        @inlinable
        public func compactMap<T>(_ next: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
            let first = transform
            return Publishers.TryCompactMap(upstream: upstream) { value in try first(value).flatMap(next) }
        }
    }
}
