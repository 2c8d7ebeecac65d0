extension Publisher {
    /// Publishes `false` as soon as a value fails `predicate`, cancelling upstream; `true` if upstream finishes
    /// with every value satisfying it.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the answer is
    ///   published once the downstream has requested at least one value (held until then), followed at
    ///   once by `.finished`. An empty upstream publishes `true`.
    /// - Completion: the upstream is cancelled at the first value that fails `predicate`; a failure before
    ///   it is forwarded at once.
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock; not after the answer is
    ///   known.
    ///
    /// ```swift
    /// let c = [2, 4, 6].publisher.allSatisfy { $0.isMultiple(of: 2) }.sink { print($0) }   // true
    /// ```
    @inlinable
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    /// Publishes `false` as soon as a value fails the throwing `predicate`, cancelling upstream; `true` if
    /// upstream finishes with every value satisfying it; a thrown error fails the stream.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the answer is
    ///   published once the downstream has requested at least one value (held until then), followed at
    ///   once by `.finished`. An empty upstream publishes `true`.
    /// - Failure: the failure type becomes `any Error`. When `predicate` throws, the upstream is cancelled
    ///   and the downstream receives `.failure(error)` at once, demand or not; nothing follows. An upstream
    ///   failure is forwarded at once.
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = ["1", "x"].publisher.tryAllSatisfy { try parse($0) > 0 }.sink(receiveCompletion: { print($0) }) { _ in }
    /// ```
    @inlinable
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/allSatisfy(_:)``.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        /// Whether every value satisfied `predicate`.
        public typealias Output = Bool
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are tested.
        public let upstream: Upstream
        /// The condition every value must satisfy.
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
            let inner = ReducingInner<Upstream.Output, Failure, S>(
                downstream: subscriber, initial: true, name: "AllSatisfy",
                step: { result, value in
                    if predicate(value) { return .next }
                    result = false
                    return .finish
                })
            upstream.receive(subscriber: inner)
        }
    }

    /// The publisher returned by ``Publisher/tryAllSatisfy(_:)``.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        /// Whether every value satisfied `predicate`.
        public typealias Output = Bool
        /// Any error: the upstream's or one thrown by `predicate`.
        public typealias Failure = any Error

        /// The publisher whose values are tested.
        public let upstream: Upstream
        /// The throwing condition every value must satisfy.
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
            let inner = ReducingInner<Upstream.Output, Upstream.Failure, S>(
                downstream: subscriber, initial: true, name: "TryAllSatisfy",
                erasingFailure: { result, value in
                    do {
                        if try predicate(value) { return .next }
                    } catch {
                        return .fail(error)
                    }
                    result = false
                    return .finish
                })
            upstream.receive(subscriber: inner)
        }
    }
}
