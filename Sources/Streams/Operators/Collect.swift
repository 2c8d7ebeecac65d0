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
                    result?.append(value)  // in place: the result is the stage's own state, not a copy
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
            upstream.receive(subscriber: CollectByCountStage(downstream: subscriber, count: count))
        }
    }
}

/// `collect(n)`'s subscriber: a stage (see ``StageLink``). The group being filled is the link's state, which only
/// the upstream's serial calls touch, so a value costs no lock: one relaxed load of the link's phase and an append.
/// The downstream's demand counts groups; the link asks upstream for `count` values per group
/// (``CollectByCountHooks``), and each full group's returned demand is multiplied the same way.
@usableFromInline
struct CollectByCountStage<Element, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Downstream.Input == [Element] {
    @usableFromInline
    typealias Input = Element
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let downstream: Downstream
    /// The group being filled is its state.
    @usableFromInline
    let link: StageLink<[Element], CollectByCountHooks>
    @usableFromInline
    let count: Int

    @inlinable
    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        self.link = StageLink(.collectByCount, state: [], hooks: CollectByCountHooks(count: count))
        self.count = count
    }

    @usableFromInline
    var description: String { "CollectByCount" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(link) }

    @inlinable
    func receive(subscription: any Subscription) { link.attach(subscription, handingTo: downstream) }

    @inlinable
    func receive(_ input: Element) -> Subscribers.Demand {
        guard link.isLive else { return .none }
        if link.state.isEmpty { link.state.reserveCapacity(count) }
        link.state.append(input)
        guard link.state.count >= count else { return .none }
        let group = link.state
        link.state = []
        return downstream.receive(group) * count
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.isLive else { return }
        let group = link.state
        link.state = []
        // Upstream sends at most `count` values per requested group, so a partial group was requested.
        if case .finished = completion, !group.isEmpty { _ = downstream.receive(group) }
        // Nothing after a cancel, even one from inside `receive(_:)` of the partial group: it ended the link.
        link.forward(completion, to: downstream)
    }
}

/// `collect(n)`'s link asks upstream for `count` values per group the downstream requests.
@usableFromInline
struct CollectByCountHooks: StageHooks {
    @usableFromInline
    let count: Int

    @inlinable
    init(count: Int) { self.count = count }

    @inlinable
    func upstreamDemand(for demand: Subscribers.Demand) -> Subscribers.Demand { demand * count }
    @inlinable
    func willRequest(_ demand: Subscribers.Demand) {}
    @inlinable
    func willCancel() {}
    @inlinable
    func release() {}
}

// Equal when their parts are equal, as in Combine.
extension Publishers.Collect: Equatable where Upstream: Equatable {}
extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}
