extension Publisher {
    /// Republishes at most the first `maxLength` values, then finishes.
    ///
    /// - Completion: as soon as the `maxLength`-th value has been delivered, the upstream is cancelled and
    ///   `.finished` is sent, without waiting for another value (DESIGN.md §2). `prefix(0)` cancels the
    ///   upstream and finishes right after the subscription. An earlier upstream completion is forwarded.
    /// - Demand: passes straight through.
    /// - Naming: Combine calls the returned type `Publishers.Output`; here it is ``Publishers/Prefix``.
    /// - Precondition: `maxLength >= 0`.
    ///
    /// ```swift
    /// let c = subject.prefix(2).sink { print($0) }   // the first two values, then finished
    /// ```
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Prefix<Self> {
        precondition(maxLength >= 0, "prefix(_:): maxLength must not be negative")
        return Publishers.Prefix(upstream: self, maxLength: maxLength)
    }

    /// Republishes the first value, then finishes (and cancels upstream) at once.
    ///
    /// - Demand: passes straight through (Combine requests `.unlimited` and holds the value until
    ///   demand; here no value is requested before the downstream asks, with the same visible result).
    /// - Completion: an upstream that finishes with no value finishes without one.
    ///
    /// ```swift
    /// let c = [3, 4].publisher.first().sink { print($0) }   // 3
    /// ```
    @inlinable
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }

    /// Republishes the first value that satisfies `predicate`, then finishes (and cancels upstream) at once.
    ///
    /// - Demand: a value that fails the predicate gives its demand back upstream (asks for one more).
    /// - Threading: `predicate` runs on the upstream's thread, never under a lock.
    ///
    /// ```swift
    /// let c = (1...9).publisher.first { $0 > 4 }.sink { print($0) }   // 5
    /// ```
    @inlinable
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/prefix(_:)``.
    public struct Prefix<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first values are republished.
        public let upstream: Upstream
        /// How many values to republish.
        public let maxLength: Int

        /// Creates the operator. `maxLength` must not be negative.
        @inlinable
        public init(upstream: Upstream, maxLength: Int) {
            precondition(maxLength >= 0, "prefix(_:): maxLength must not be negative")
            self.upstream = upstream
            self.maxLength = maxLength
        }

        /// Attaches `subscriber`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: PrefixInner(downstream: subscriber, count: maxLength, predicate: nil, name: "Prefix"))
        }
    }

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
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: PrefixInner(downstream: subscriber, count: 1, predicate: nil, name: "First"))
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
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: PrefixInner(downstream: subscriber, count: 1, predicate: predicate, name: "FirstWhere"))
        }
    }
}

/// Republishes the first `count` values (that pass `predicate`, if any), then cancels upstream and
/// finishes right after delivering the last one.
@usableFromInline
final class PrefixInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let link = UpstreamLink()
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var predicate: ((Input) -> Bool)?
    @usableFromInline
    @exclusivity(unchecked)
    var remaining: Int
    @usableFromInline
    let description: String

    @inlinable
    init(downstream: Downstream, count: Int, predicate: ((Input) -> Bool)?, name: String) {
        self.downstream = downstream
        self.remaining = count
        self.predicate = predicate
        self.description = name
    }

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        let isEmpty = remaining == 0
        lock.unlock()
        if isEmpty {
            // prefix(0): nothing to wait for.
            guard link.finishAndCancel() else { return subscription.cancel() }
            subscription.cancel()
            guard let downstream = release() else { return }
            downstream.receive(subscription: Subscriptions.empty)
            downstream.receive(completion: .finished)
            return
        }
        guard link.attach(subscription) else { return }
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard downstream != nil, remaining > 0 else {
            lock.unlock()
            return .none
        }
        let predicate = self.predicate
        lock.unlock()
        if let predicate, !predicate(input) { return .max(1) }
        lock.lock()
        guard let downstream, remaining > 0 else {
            lock.unlock()
            return .none
        }
        remaining -= 1
        let isLast = remaining == 0
        if isLast { self.predicate = nil }
        lock.unlock()
        let more = downstream.receive(input)
        guard isLast else { return more }
        // The last value is delivered: end now rather than when another value arrives. If the downstream
        // cancelled from inside `receive`, the link is already terminal and nothing more is sent.
        if link.finishAndCancel() { release()?.receive(completion: .finished) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        release()?.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) { link.request(demand) }

    @inlinable
    func cancel() {
        link.cancel()
        _ = release()
    }

    @inlinable
    func release() -> Downstream? {
        lock.lock()
        let released = (downstream, predicate)
        downstream = nil
        predicate = nil
        lock.unlock()
        return released.0
    }
}
