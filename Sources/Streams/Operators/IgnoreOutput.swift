extension Publisher {
    /// Drops every value and forwards only the completion.
    ///
    /// - Demand: requests `.unlimited` from upstream when subscribed (as Combine does), after handing its
    ///   subscription downstream; a downstream request passes through (it changes nothing: no value is ever
    ///   published).
    /// - Completion: `.finished` or the failure is forwarded at once; it needs no demand.
    /// - Cancellation: cancels upstream; nothing reaches the subscriber afterwards, not even a completion.
    ///
    /// ```swift
    /// let c = [1, 2].publisher.ignoreOutput().sink(receiveCompletion: { print($0) }) { _ in }   // finished
    /// ```
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/ignoreOutput()``.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// No value is ever published.
        public typealias Output = Never
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose completion is forwarded.
        public let upstream: Upstream

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: IgnoreOutputInner<Upstream.Output, S>(downstream: subscriber))
        }
    }
}

/// `ignoreOutput`'s subscriber: a stage (see ``StageLink``) with no state. It asks upstream for everything once
/// the downstream has its subscription, drops each value and forwards the completion.
@usableFromInline
struct IgnoreOutputInner<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Downstream.Input == Never {
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let link: StageLink<Void, NoStageHooks>

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
        self.link = StageLink(.ignoreOutput, state: (), hooks: NoStageHooks())
    }

    @usableFromInline
    var description: String { "IgnoreOutput" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(link) }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        downstream.receive(subscription: link)
        link.request(.unlimited)  // ignored if the downstream cancelled meanwhile
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { .none }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { link.forward(completion, to: downstream) }
}

// Equal when their parts are equal, as in Combine.
extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}
