extension Publisher where Output: Comparable {
    /// Publishes the smallest value, when upstream finishes.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the value is
    ///   published once the downstream has requested at least one (held until then), followed at once by
    ///   `.finished`. An empty upstream finishes without a value.
    /// - Failure: forwarded at once; the smallest value so far is dropped.
    /// - Ties: the first of equal values is kept.
    ///
    /// ```swift
    /// let c = [3, 1, 2].publisher.min().sink { print($0) }   // 1
    /// ```
    @inlinable
    public func min() -> Publishers.Comparison<Self> {
        min(by: <)
    }

    /// Publishes the largest value, when upstream finishes.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the value is
    ///   published once the downstream has requested at least one (held until then), followed at once by
    ///   `.finished`. An empty upstream finishes without a value.
    /// - Failure: forwarded at once; the largest value so far is dropped.
    /// - Ties: the first of equal values is kept.
    ///
    /// ```swift
    /// let c = [3, 1, 2].publisher.max().sink { print($0) }   // 3
    /// ```
    @inlinable
    public func max() -> Publishers.Comparison<Self> {
        max(by: <)
    }
}

extension Publisher {
    /// Publishes the smallest value by `areInIncreasingOrder`, when upstream finishes.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the value is
    ///   published once the downstream has requested at least one (held until then), followed at once by
    ///   `.finished`. An empty upstream finishes without a value.
    /// - Failure: forwarded at once; the smallest value so far is dropped.
    /// - Ties: the first of equal values is kept (a new value replaces the smallest so far only if
    ///   `areInIncreasingOrder(new, smallest)`).
    /// - Threading: `areInIncreasingOrder` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = ["bb", "a", "ccc"].publisher.min { $0.count < $1.count }.sink { print($0) }   // a
    /// ```
    @inlinable
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: { areInIncreasingOrder($1, $0) })
    }

    /// Publishes the largest value by `areInIncreasingOrder`, when upstream finishes.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the value is
    ///   published once the downstream has requested at least one (held until then), followed at once by
    ///   `.finished`. An empty upstream finishes without a value.
    /// - Failure: forwarded at once; the largest value so far is dropped.
    /// - Ties: the first of equal values is kept (a new value replaces the largest so far only if
    ///   `areInIncreasingOrder(largest, new)`).
    /// - Threading: `areInIncreasingOrder` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = ["bb", "a", "ccc"].publisher.max { $0.count < $1.count }.sink { print($0) }   // ccc
    /// ```
    @inlinable
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// Publishes the smallest value by a throwing `areInIncreasingOrder`, when upstream finishes; a thrown
    /// error fails the stream.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the value is
    ///   published once the downstream has requested at least one (held until then), followed at once by
    ///   `.finished`. An empty upstream finishes without a value.
    /// - Failure: the failure type becomes `any Error`. When `areInIncreasingOrder` throws, the upstream is
    ///   cancelled and the downstream receives `.failure(error)` at once, demand or not; nothing follows.
    ///   An upstream failure is forwarded at once.
    /// - Ties: the first of equal values is kept.
    /// - Threading: `areInIncreasingOrder` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = [3, 1].publisher.tryMin { try rank($0) < rank($1) }.sink(receiveCompletion: { print($0) }) { print($0) }
    /// ```
    @inlinable
    public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryComparison<Self>
    {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: { try areInIncreasingOrder($1, $0) })
    }

    /// Publishes the largest value by a throwing `areInIncreasingOrder`, when upstream finishes; a thrown
    /// error fails the stream.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the value is
    ///   published once the downstream has requested at least one (held until then), followed at once by
    ///   `.finished`. An empty upstream finishes without a value.
    /// - Failure: the failure type becomes `any Error`. When `areInIncreasingOrder` throws, the upstream is
    ///   cancelled and the downstream receives `.failure(error)` at once, demand or not; nothing follows.
    ///   An upstream failure is forwarded at once.
    /// - Ties: the first of equal values is kept.
    /// - Threading: `areInIncreasingOrder` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = [3, 1].publisher.tryMax { try rank($0) < rank($1) }.sink(receiveCompletion: { print($0) }) { print($0) }
    /// ```
    @inlinable
    public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryComparison<Self>
    {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/min()``, ``Publisher/max()``, ``Publisher/min(by:)`` and
    /// ``Publisher/max(by:)``: it publishes the largest value by `areInIncreasingOrder` (`min` reverses
    /// the comparison).
    public struct Comparison<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are compared.
        public let upstream: Upstream
        /// Whether its first argument orders before its second: a new value replaces the kept one when
        /// `areInIncreasingOrder(kept, new)`.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let areInIncreasingOrder = self.areInIncreasingOrder
            let inner = ReducingInner<Output, Failure, S>(
                downstream: subscriber, initial: nil, name: "Comparison",
                step: { result, value in
                    if let kept = result, !areInIncreasingOrder(kept, value) { return .next }
                    result = value
                    return .next
                })
            upstream.receive(subscriber: inner)
        }
    }

    /// The publisher returned by ``Publisher/tryMin(by:)`` and ``Publisher/tryMax(by:)``: it publishes the
    /// largest value by a throwing `areInIncreasingOrder` (`tryMin` reverses the comparison).
    public struct TryComparison<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by `areInIncreasingOrder`.
        public typealias Failure = any Error

        /// The publisher whose values are compared.
        public let upstream: Upstream
        /// Whether its first argument orders before its second: a new value replaces the kept one when
        /// `areInIncreasingOrder(kept, new)`.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates the operator.
        @inlinable
        public init(
            upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let areInIncreasingOrder = self.areInIncreasingOrder
            let inner = ReducingInner<Output, Upstream.Failure, S>(
                downstream: subscriber, initial: nil, name: "TryComparison",
                erasingFailure: { result, value in
                    do {
                        if let kept = result, try !areInIncreasingOrder(kept, value) { return .next }
                    } catch {
                        return .fail(error)
                    }
                    result = value
                    return .next
                })
            upstream.receive(subscriber: inner)
        }
    }
}
