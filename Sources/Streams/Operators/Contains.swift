extension Publisher where Output: Equatable {
    /// Publishes `true` as soon as a value equal to `output` arrives, cancelling upstream; `false` if upstream
    /// finishes without one.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the answer is
    ///   published once the downstream has requested at least one value (held until then), followed at
    ///   once by `.finished`. An empty upstream publishes `false`.
    /// - Completion: the upstream is cancelled at the first match; a failure before it is forwarded at once.
    /// - Cancellation: nothing after a cancel, not even from inside `receive(_:)` of the answer.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.contains(2).sink { print($0) }   // true
    /// ```
    @inlinable
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

extension Publisher {
    /// Publishes `true` as soon as a value satisfies `predicate`, cancelling upstream; `false` if upstream
    /// finishes without one.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the answer is
    ///   published once the downstream has requested at least one value (held until then), followed at
    ///   once by `.finished`. An empty upstream publishes `false`.
    /// - Completion: the upstream is cancelled at the first match; a failure before it is forwarded at once.
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock; not after the first match.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.contains { $0 > 2 }.sink { print($0) }   // true
    /// ```
    @inlinable
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }

    /// Publishes `true` as soon as a value satisfies the throwing `predicate`, cancelling upstream; `false` if
    /// upstream finishes without one; a thrown error fails the stream.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the answer is
    ///   published once the downstream has requested at least one value (held until then), followed at
    ///   once by `.finished`. An empty upstream publishes `false`.
    /// - Failure: the failure type becomes `any Error`. When `predicate` throws, the upstream is cancelled
    ///   and the downstream receives `.failure(error)` at once, demand or not; nothing follows. An upstream
    ///   failure is forwarded at once.
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = ["1", "x"].publisher.tryContains { try parse($0) > 1 }.sink(receiveCompletion: { print($0) }) { _ in }
    /// ```
    @inlinable
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/contains(_:)``.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        /// Whether a value equal to `output` arrived.
        public typealias Output = Bool
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher searched.
        public let upstream: Upstream
        /// The value searched for.
        public let output: Upstream.Output

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let output = self.output
            let inner = ReducingInner<Upstream.Output, Failure, S>(
                downstream: subscriber, initial: false, name: "Contains",
                step: { result, value in
                    guard value == output else { return .next }
                    result = true
                    return .finish
                })
            upstream.receive(subscriber: inner)
        }
    }

    /// The publisher returned by ``Publisher/contains(where:)``.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        /// Whether a value satisfying `predicate` arrived.
        public typealias Output = Bool
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher searched.
        public let upstream: Upstream
        /// The condition searched for.
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
                downstream: subscriber, initial: false, name: "ContainsWhere",
                step: { result, value in
                    guard predicate(value) else { return .next }
                    result = true
                    return .finish
                })
            upstream.receive(subscriber: inner)
        }
    }

    /// The publisher returned by ``Publisher/tryContains(where:)``.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        /// Whether a value satisfying `predicate` arrived.
        public typealias Output = Bool
        /// Any error: the upstream's or one thrown by `predicate`.
        public typealias Failure = any Error

        /// The publisher searched.
        public let upstream: Upstream
        /// The throwing condition searched for.
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
                downstream: subscriber, initial: false, name: "TryContainsWhere",
                erasingFailure: { result, value in
                    do {
                        guard try predicate(value) else { return .next }
                    } catch {
                        return .fail(error)
                    }
                    result = true
                    return .finish
                })
            upstream.receive(subscriber: inner)
        }
    }
}

// Equal when their parts are equal, as in Combine.
extension Publishers.Contains: Equatable where Upstream: Equatable {}
