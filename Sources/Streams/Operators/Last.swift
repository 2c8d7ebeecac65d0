extension Publisher {
    /// Publishes the last value, when upstream finishes.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the value is
    ///   published once the downstream has requested at least one (held until then), followed at once by
    ///   `.finished`. An upstream that finishes with no value finishes without one.
    /// - Failure: forwarded at once; the last value so far is dropped.
    /// - Cancellation: nothing after a cancel, not even from inside `receive(_:)` of the value.
    ///
    /// ```swift
    /// let c = [3, 4].publisher.last().sink { print($0) }   // 4
    /// ```
    @inlinable
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }

    /// Publishes the last value that satisfies `predicate`, when upstream finishes.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the value is
    ///   published once the downstream has requested at least one (held until then), followed at once by
    ///   `.finished`. An upstream that finishes with no matching value finishes without one.
    /// - Failure: forwarded at once; the match so far is dropped.
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = (1...9).publisher.last { $0 < 5 }.sink { print($0) }   // 4
    /// ```
    @inlinable
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }

    /// Publishes the last value that satisfies the throwing `predicate`, when upstream finishes; a thrown
    /// error fails the stream.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the value is
    ///   published once the downstream has requested at least one (held until then), followed at once by
    ///   `.finished`. An upstream that finishes with no matching value finishes without one.
    /// - Failure: the failure type becomes `any Error`. When `predicate` throws, the upstream is cancelled
    ///   and the downstream receives `.failure(error)` at once, demand or not; nothing follows. An upstream
    ///   failure is forwarded at once.
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = ["1", "x"].publisher.tryLast { try parse($0) > 0 }.sink(receiveCompletion: { print($0) }) { print($0) }
    /// ```
    @inlinable
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/last()``.
    public struct Last<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose last value is republished.
        public let upstream: Upstream

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let inner = ReducingInner<Output, Failure, S>(
                downstream: subscriber, initial: nil, name: "Last",
                step: { result, value in
                    result = value
                    return .next
                })
            upstream.receive(subscriber: inner)
        }
    }

    /// The publisher returned by ``Publisher/last(where:)``.
    public struct LastWhere<Upstream: Publisher>: Publisher {
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
                downstream: subscriber, initial: nil, name: "LastWhere",
                step: { result, value in
                    if predicate(value) { result = value }
                    return .next
                })
            upstream.receive(subscriber: inner)
        }
    }

    /// The publisher returned by ``Publisher/tryLast(where:)``.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
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
                downstream: subscriber, initial: nil, name: "TryLastWhere",
                erasingFailure: { result, value in
                    do {
                        if try predicate(value) { result = value }
                    } catch {
                        return .fail(error)
                    }
                    return .next
                })
            upstream.receive(subscriber: inner)
        }
    }
}

// Equal when their parts are equal, as in Combine.
extension Publishers.Last: Equatable where Upstream: Equatable {}
