extension Publisher {
    /// Skips values while `predicate` returns `true`, then republishes the first value for which it returns
    /// `false` and every value after it.
    ///
    /// - Demand: passes straight through; a skipped value asks upstream for one more in its place
    ///   (`.max(1)`, as in Combine), so the subscriber still gets as many values as it requested.
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock, and is not called again
    ///   once it has returned `false`.
    /// - Completion and cancellation: the upstream's completion is forwarded; cancelling cancels upstream,
    ///   and nothing reaches the subscriber after it; both release `predicate` once
    ///   the upstream lets go of the operator's subscriber, as every Streams publisher does then.
    ///
    /// ```swift
    /// let c = [1, 2, 5, 1].publisher.drop { $0 < 3 }.sink { print($0) }   // 5 1
    /// ```
    @inlinable
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }

    /// Skips values while the throwing `predicate` returns `true`, then republishes the rest; a thrown error
    /// fails the stream.
    ///
    /// - Demand: passes straight through; a skipped value asks upstream for one more in its place (`.max(1)`).
    /// - Failure: the failure type becomes `any Error`. When `predicate` throws, the upstream is cancelled
    ///   and the subscriber receives `.failure(error)` once; nothing follows. An upstream failure is
    ///   forwarded as is.
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock, and is not called again
    ///   once it has returned `false`.
    /// - Cancellation: cancels upstream; nothing reaches the subscriber after it.
    ///
    /// ```swift
    /// let c = lines.tryDrop { try isHeader($0) }.sink(receiveCompletion: { print($0) }) { print($0) }
    /// ```
    @inlinable
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/drop(while:)``.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first values are skipped.
        public let upstream: Upstream
        /// Returns `true` for a value to skip, until it first returns `false`.
        public let predicate: (Output) -> Bool

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            let dropping = StepState(true)
            let inner = ValueStepStage<Output, Failure, S>(
                downstream: subscriber, name: .dropWhile,
                step: { value in
                    if dropping.value {
                        if predicate(value) { return .drop }
                        dropping.value = false
                    }
                    return .publish(value)
                })
            upstream.receive(subscriber: inner)
        }
    }

    /// The publisher returned by ``Publisher/tryDrop(while:)``.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by `predicate`.
        public typealias Failure = any Error

        /// The publisher whose first values are skipped.
        public let upstream: Upstream
        /// Returns `true` for a value to skip, until it first returns `false`; may throw.
        public let predicate: (Output) throws -> Bool

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            let dropping = StepState(true)
            let inner = ValueStepStage<Output, Upstream.Failure, S>(
                downstream: subscriber, name: .tryDropWhile,
                erasingFailure: { value in
                    if dropping.value {
                        do {
                            if try predicate(value) { return .drop }
                        } catch {
                            return .fail(error)
                        }
                        dropping.value = false
                    }
                    return .publish(value)
                })
            upstream.receive(subscriber: inner)
        }
    }
}
