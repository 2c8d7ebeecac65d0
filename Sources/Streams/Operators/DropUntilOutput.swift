extension Publisher {
    /// Ignores the upstream's values until `publisher` (the trigger) publishes a value, then republishes the
    /// upstream's values.
    ///
    /// - Order: as in Combine, the subscriber gets its subscription first, then the trigger is subscribed and
    ///   asked for one value, then the upstream is subscribed.
    /// - Demand: passes straight through to the upstream. As in Combine, a value ignored before the trigger
    ///   fires uses up the subscriber's demand (no more is asked in its place): a subscriber that requested
    ///   `.max(n)` gets up to n values minus those ignored.
    /// - Completion: the upstream's completion is forwarded (and cancels a trigger that has not fired). If the
    ///   trigger completes without a value, so does the stream, with the trigger's completion (`.finished` or
    ///   its failure), cancelling upstream; once it has fired, its completion is ignored.
    /// - Cancellation: cancels the upstream and a trigger that has not fired; nothing reaches the subscriber
    ///   after it. A trigger that has fired is released, not cancelled (as in Combine).
    /// - Threading: the trigger may fire on any thread.
    ///
    /// ```swift
    /// let c = readings.drop(untilOutputFrom: calibrated).sink { print($0) }
    /// ```
    @inlinable
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/drop(untilOutputFrom:)``.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's (and the trigger's) failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are republished once the trigger has fired.
        public let upstream: Upstream
        /// The trigger: its first value starts the republishing.
        public let other: Other

        /// Creates the operator.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Attaches `subscriber`: hands it its subscription, then subscribes the trigger, then the upstream.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let stage = DropUntilOutputStage(downstream: subscriber)
            stage.core.handOver()
            other.receive(subscriber: TriggerSubscriber<Other.Output, S, Failure>(core: stage.core))
            upstream.receive(subscriber: stage)
        }
    }
}

/// The subscriber `drop(untilOutputFrom:)` attaches upstream: a stage (see ``StageLink``) whose subscription and
/// trigger side is a ``TriggeredStageCore``. A value costs a relaxed load of the link's phase, an acquiring load of
/// whether the trigger has fired, and, once it has, the call downstream.
@usableFromInline
struct DropUntilOutputStage<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    /// The values' way downstream; the core keeps a copy for the completion, which may go from the trigger's thread.
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let core: TriggeredStageCore<Downstream, Downstream.Failure, Downstream?>

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
        self.core = TriggeredStageCore(
            downstream: downstream, name: .dropUntilOutput, role: .opens, failureOfTrigger: { $0 })
    }

    @usableFromInline
    var description: String { "DropUntilOutput" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(core) }

    @inlinable
    func receive(subscription: any Subscription) {
        _ = core.link.attach(subscription)  // forwards what the subscriber has requested so far
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        // Ignored before the trigger fires; as in Combine, its demand is used up.
        guard core.link.isLive, core.isOpen else { return .none }
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard core.link.finish() else { return }
        core.end(with: completion)
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
