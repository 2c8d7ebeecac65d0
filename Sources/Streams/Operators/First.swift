extension Publisher {
    /// Publishes the first value, then finishes; cancels upstream as soon as that value arrives.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed, and holds the value until the
    ///   downstream has requested one (as Combine does): the first value is never lost for want of demand.
    /// - Completion: the value is followed at once by `.finished`. An upstream that finishes with no value
    ///   finishes without one; a failure is forwarded.
    /// - Cancellation: nothing after a cancel, not even from inside `receive(_:)` of the value.
    ///
    /// ```swift
    /// let c = [3, 4].publisher.first().sink { print($0) }   // 3
    /// ```
    @inlinable
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }

    /// Publishes the first value that satisfies `predicate`, then finishes; cancels upstream as soon as
    /// that value arrives.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed, and holds the found value until the
    ///   downstream has requested one (as Combine does).
    /// - Completion: an upstream that finishes with no matching value finishes without one.
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = (1...9).publisher.first { $0 > 4 }.sink { print($0) }   // 5
    /// ```
    @inlinable
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }

    /// Publishes the first value that satisfies the throwing `predicate`, then finishes; cancels upstream
    /// as soon as that value arrives; a thrown error fails the stream.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed, and holds the found value until the
    ///   downstream has requested one (as Combine does).
    /// - Completion: an upstream that finishes with no matching value finishes without one.
    /// - Failure: the failure type becomes `any Error`. When `predicate` throws, the upstream is cancelled
    ///   and the downstream receives `.failure(error)` at once, demand or not; nothing follows. An upstream
    ///   failure is forwarded at once.
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = ["x", "5"].publisher.tryFirst { try parse($0) > 4 }.sink(receiveCompletion: { print($0) }) { print($0) }
    /// ```
    @inlinable
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/first()``.
    public struct First<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first value is republished.
        public let upstream: Upstream

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let inner = ReducingInner<Output, Failure, S>(
                downstream: subscriber, initial: nil, name: "First",
                step: { result, value in
                    result = value
                    return .finish
                })
            upstream.receive(subscriber: inner)
        }
    }

    /// The publisher returned by ``Publisher/first(where:)``.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher searched.
        public let upstream: Upstream
        /// The condition the republished value satisfies.
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
            let inner = ReducingInner<Output, Failure, S>(
                downstream: subscriber, initial: nil, name: "FirstWhere",
                step: { result, value in
                    guard predicate(value) else { return .next }
                    result = value
                    return .finish
                })
            upstream.receive(subscriber: inner)
        }
    }

    /// The publisher returned by ``Publisher/tryFirst(where:)``.
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by `predicate`.
        public typealias Failure = any Error

        /// The publisher searched.
        public let upstream: Upstream
        /// The throwing condition the republished value satisfies.
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
            let inner = ReducingInner<Output, Upstream.Failure, S>(
                downstream: subscriber, initial: nil, name: "TryFirstWhere",
                erasingFailure: { result, value in
                    do {
                        guard try predicate(value) else { return .next }
                    } catch {
                        return .fail(error)
                    }
                    result = value
                    return .finish
                })
            upstream.receive(subscriber: inner)
        }
    }
}

// Equal when their parts are equal, as in Combine.
extension Publishers.First: Equatable where Upstream: Equatable {}
