extension Publisher {
    /// Republishes the upstream's values; if it finishes without having published any, publishes `output`
    /// and then finishes.
    ///
    /// - Demand: passes straight through, so the subscriber never gets more values than it requested.
    ///   (Combine also asks its upstream for `.unlimited` as soon as it is subscribed, and so can deliver
    ///   values the subscriber has not asked for; Streams does not.) The replacement needs demand: if the
    ///   upstream finishes empty before the subscriber has requested anything, `output` and `.finished` are
    ///   held until its first request, as in Combine.
    /// - Completion: a failure is forwarded at once (no replacement); a `.finished` after at least one value
    ///   is forwarded as is.
    /// - Cancellation: cancels upstream, or drops a held replacement; nothing reaches the subscriber after it.
    ///
    /// ```swift
    /// let c = [Double]().publisher.replaceEmpty(with: .nan).sink { print($0) }   // nan
    /// ```
    @inlinable
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/replaceEmpty(with:)``.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The value published when the upstream finishes without publishing any.
        public let output: Upstream.Output
        /// The publisher whose emptiness is replaced.
        public let upstream: Upstream

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReplaceEmptyStage(downstream: subscriber, output: output))
        }
    }
}

/// The subscriber `replaceEmpty` attaches upstream: a stage (see ``StageLink``) whose state is the replacement until
/// a value comes. Only the upstream's serial calls touch it, so a value costs one relaxed load of the link's phase,
/// a check of that state (the first value drops the replacement) and the call downstream. Its subscription is a
/// ``HeldResultCore``: an empty stream's end publishes the replacement there, which waits for the downstream's
/// first request; demand before the end passes straight upstream.
@usableFromInline
struct ReplaceEmptyStage<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    /// The values' way downstream. The core keeps a copy of it for the completion and the replacement, which
    /// may go from the thread of the first request.
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let core: HeldResultCore<Downstream, Downstream?, Downstream.Input?>

    @inlinable
    init(downstream: Downstream, output: Input) {
        self.downstream = downstream
        self.core = HeldResultCore(
            downstream: downstream, name: .replaceEmpty, initial: output, forwardsDemand: true,
            description: "ReplaceEmpty")
    }

    @usableFromInline
    var description: String { "ReplaceEmpty" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(core) }

    @inlinable
    func receive(subscription: any Subscription) {
        guard core.link.attach(subscription) else { return }
        downstream.receive(subscription: core)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        // `core.link` read where it is each time: bound to a local, the reference is retained and released per value.
        guard core.link.isLive else { return .none }
        if core.link.state != nil { core.link.state = nil }  // a value came: the replacement is no longer needed
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard core.link.finish() else { return }
        if case .finished = completion, let replacement = core.link.state.take() {
            core.publish(replacement)  // the stream was empty
        } else {
            core.link.state = nil
            core.forward(completion)
        }
    }
}

/// Equal when the upstreams and the replacements are equal, as in Combine.
extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
