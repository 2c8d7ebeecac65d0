extension Publisher {
    /// Republishes values while `predicate` returns `true`; at the first value for which it returns `false`,
    /// finishes.
    ///
    /// - Completion: the value that fails `predicate` is not published: the upstream is cancelled, then
    ///   `.finished` is sent. An earlier upstream completion is forwarded.
    /// - Demand: passes straight through.
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock.
    /// - Cancellation: cancels upstream; nothing reaches the subscriber after it. Ending or cancelling
    ///   releases `predicate` once the upstream lets go of
    ///   the operator's subscriber, as every Streams publisher does then.
    ///
    /// ```swift
    /// let c = [1, 2, 5, 1].publisher.prefix { $0 < 3 }.sink { print($0) }   // 1 2, then finished
    /// ```
    @inlinable
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }

    /// Republishes values while the throwing `predicate` returns `true`; finishes at the first value for which
    /// it returns `false`, and fails if it throws.
    ///
    /// - Completion: at the first value that fails `predicate` (not published), the upstream is cancelled,
    ///   then `.finished` is sent.
    /// - Failure: the failure type becomes `any Error`. When `predicate` throws, the upstream is cancelled
    ///   and the subscriber receives `.failure(error)` once; nothing follows. An upstream failure is
    ///   forwarded as is.
    /// - Demand: passes straight through.
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock.
    /// - Cancellation: cancels upstream; nothing reaches the subscriber after it.
    ///
    /// ```swift
    /// let c = lines.tryPrefix { try !isTrailer($0) }.sink(receiveCompletion: { print($0) }) { print($0) }
    /// ```
    @inlinable
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/prefix(while:)``.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first values are republished.
        public let upstream: Upstream
        /// Returns `true` for a value to republish; the first `false` ends the stream.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            let inner = ValueStepStage<Output, Failure, S>(
                downstream: subscriber, name: .prefixWhile,
                step: { value in predicate(value) ? .publish(value) : .finish })
            upstream.receive(subscriber: inner)
        }
    }

    /// The publisher returned by ``Publisher/tryPrefix(while:)``.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by `predicate`.
        public typealias Failure = any Error

        /// The publisher whose first values are republished.
        public let upstream: Upstream
        /// Returns `true` for a value to republish; the first `false` ends the stream; may throw.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            let inner = ValueStepStage<Output, Upstream.Failure, S>(
                downstream: subscriber, name: .tryPrefixWhile,
                erasingFailure: { value in
                    do {
                        return try predicate(value) ? .publish(value) : .finish
                    } catch {
                        return .fail(error)
                    }
                })
            upstream.receive(subscriber: inner)
        }
    }
}
