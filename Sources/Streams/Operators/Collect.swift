extension Publisher {
    /// Collects every value and publishes them as one array when upstream finishes.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does); the array is
    ///   published once the downstream has requested at least one value (held until then), followed at
    ///   once by `.finished` (unless the subscriber cancelled while receiving the array). An empty
    ///   upstream publishes `[]`.
    /// - Failure: forwarded at once; the collected values are dropped.
    /// - Memory: unbounded; use ``collect(_:)-(Int)`` for a bounded buffer.
    ///
    /// ```swift
    /// let c = (1...3).publisher.collect().sink { print($0) }   // [1, 2, 3]
    /// ```
    @inlinable
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }

    /// Collects values into arrays of `count` and publishes each full array; on finish, a partial
    /// last array (if any) is published before `.finished`.
    ///
    /// - Demand: counted in arrays: a downstream demand of `n` requests `n * count` values upstream.
    /// - Failure: forwarded at once; a partial buffer is dropped.
    /// - Precondition: `count > 0`.
    ///
    /// ```swift
    /// let c = (1...5).publisher.collect(2).sink { print($0) }   // [1, 2] [3, 4] [5]
    /// ```
    @inlinable
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        precondition(count > 0, "collect(_:): count must be positive")
        return Publishers.CollectByCount(upstream: self, count: count)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/collect()``.
    public struct Collect<Upstream: Publisher>: Publisher {
        /// An array of every upstream value.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are collected.
        public let upstream: Upstream

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let inner = ReducingInner<Upstream.Output, Upstream.Failure, S>(
                downstream: subscriber, initial: [], name: "Collect",
                step: { result, value in
                    result?.append(value)  // in place: the result is taken out of the operator while this runs
                    return .next
                })
            upstream.receive(subscriber: inner)
        }
    }

    /// The publisher returned by ``Publisher/collect(_:)-(Int)``.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        /// An array of up to `count` upstream values.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are collected.
        public let upstream: Upstream
        /// The size of each full array.
        public let count: Int

        /// Creates the operator. `count` must be positive.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            precondition(count > 0, "collect(_:): count must be positive")
            self.upstream = upstream
            self.count = count
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CollectByCountInner(downstream: subscriber, count: count))
        }
    }
}

/// The subscriber and subscription of `collect(n)`. Sound as `@unchecked Sendable`: its upstream is in an
/// `UpstreamLink` and every `var` is guarded by `lock`.
@usableFromInline
final class CollectByCountInner<Element, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input == [Element] {
    @usableFromInline
    typealias Input = Element
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let link = UpstreamLink()
    /// Guards every `var` below (`@exclusivity(unchecked)`: each access is under it).
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    let count: Int
    /// Until the last group is published, the upstream fails, or the downstream cancels. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    /// The group being filled. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var buffer: [Element] = []
    /// The downstream cancelled (checked after it received the partial group, before the completion). Guarded
    /// by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var isCancelled = false

    @inlinable
    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        self.count = count
    }

    @usableFromInline
    var description: String { "CollectByCount" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Element) -> Subscribers.Demand {
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return .none
        }
        if buffer.isEmpty { buffer.reserveCapacity(count) }
        buffer.append(input)
        guard buffer.count >= count else {
            lock.unlock()
            return .none
        }
        let group = buffer
        buffer = []
        lock.unlock()
        return downstream.receive(group) * count
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        lock.lock()
        let downstream = self.downstream
        let group = buffer
        self.downstream = nil
        buffer = []
        lock.unlock()
        guard let downstream else { return }
        // Upstream sends at most `count` values per requested group, so a partial group was requested.
        if case .finished = completion, !group.isEmpty {
            _ = downstream.receive(group)
            // Nothing after a cancel, even one from inside `receive(_:)` of the partial group.
            if lock.withLock({ isCancelled }) { return }
        }
        downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) { link.request(demand * count) }

    @inlinable
    func cancel() {
        link.cancel()
        lock.lock()
        let released = (downstream, buffer)
        downstream = nil
        buffer = []
        isCancelled = true
        lock.unlock()
        _ = released
    }
}

// Equal when their parts are equal, as in Combine.
extension Publishers.Collect: Equatable where Upstream: Equatable {}
extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}
