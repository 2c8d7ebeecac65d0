extension Publisher {
    /// Republishes a value only if the throwing `predicate(previous, value)` returns `false`, where `previous`
    /// is the last value *published* (as ``Publisher/removeDuplicates(by:)``: a dropped duplicate does not
    /// become `previous`); a thrown error fails the stream.
    ///
    /// - Demand: passes straight through; a dropped duplicate asks upstream for one more in its place
    ///   (`.max(1)`). The first value is published without calling `predicate`.
    /// - Failure: the failure type becomes `any Error`. When `predicate` throws, the upstream is cancelled
    ///   and the subscriber receives `.failure(error)` once; nothing follows. An upstream failure is
    ///   forwarded as is.
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock.
    /// - Cancellation: cancels upstream; nothing reaches the subscriber after it. Ending or cancelling
    ///   releases `predicate` and the previous value once the upstream lets go of
    ///   the operator's subscriber, as every Streams publisher does then.
    ///
    /// ```swift
    /// let c = names.tryRemoveDuplicates { try same($0, $1) }.sink(receiveCompletion: { _ in }) { print($0) }
    /// ```
    @inlinable
    public func tryRemoveDuplicates(by predicate: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryRemoveDuplicates<Self>
    {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/tryRemoveDuplicates(by:)``.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by `predicate`.
        public typealias Failure = any Error

        /// The publisher whose duplicates are removed.
        public let upstream: Upstream
        /// Returns `true` when the second value duplicates the first; may throw.
        public let predicate: (Output, Output) throws -> Bool

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            let previous = StepState<Output?>(nil)
            let inner = ValueStepStage<Output, Upstream.Failure, S>(
                downstream: subscriber, name: .tryRemoveDuplicates,
                erasingFailure: { value in
                    if let last = previous.value {
                        do {
                            if try predicate(last, value) { return .drop }
                        } catch {
                            return .fail(error)
                        }
                    }
                    previous.value = value
                    return .publish(value)
                })
            upstream.receive(subscriber: inner)
        }
    }
}
