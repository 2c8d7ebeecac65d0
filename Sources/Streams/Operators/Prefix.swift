extension Publisher {
    /// Republishes at most the first `maxLength` values, then finishes.
    ///
    /// - Completion: as soon as the `maxLength`-th value has been delivered, the upstream is cancelled and
    ///   `.finished` is sent, without waiting for another value. `prefix(0)` cancels the
    ///   upstream and finishes right after handing over the subscription (unless the subscriber cancelled
    ///   in `receive(subscription:)`: nothing reaches a subscriber after it cancels). An earlier upstream completion is forwarded.
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
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: PrefixStage(downstream: subscriber, count: maxLength))
        }
    }
}

/// `prefix`'s subscriber: a stage (see ``StageLink``) whose state is how many values are still to come. It
/// republishes them, then cancels upstream and finishes right after delivering the last one. Demand passes
/// straight through.
@usableFromInline
struct PrefixStage<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let downstream: Downstream
    /// Its state is the number of values still to republish.
    @usableFromInline
    let link: StageLink<Int, NoStageHooks>

    @inlinable
    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        self.link = StageLink(.prefix, state: count, hooks: NoStageHooks())
    }

    @usableFromInline
    var description: String { "Prefix" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(link) }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.state == 0 else {
            guard link.attach(subscription) else { return }
            return downstream.receive(subscription: link)
        }
        // prefix(0): nothing to wait for, nothing to ask upstream for. The link is never attached (a request
        // meanwhile waits in it, and is dropped); a downstream that cancels in `receive(subscription:)` ends it
        // and gets nothing more.
        downstream.receive(subscription: link)
        let isLive = link.finishAndCancel()
        subscription.cancel()
        if isLive { downstream.receive(completion: .finished) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard link.isLive, link.state > 0 else { return .none }
        link.state -= 1
        let more = downstream.receive(input)
        guard link.state == 0 else { return more }
        // The last value is delivered: end now rather than when another value arrives. If the downstream
        // cancelled from inside `receive`, the link has ended already and nothing more is sent.
        if link.finishAndCancel() { downstream.receive(completion: .finished) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { link.forward(completion, to: downstream) }
}
