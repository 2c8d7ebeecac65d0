extension Publisher {
    /// Republishes the upstream's values until `publisher` (the trigger) publishes a value, then finishes.
    ///
    /// - Order: the subscriber gets its subscription first, then the trigger is subscribed and asked for one
    ///   value, then the upstream is subscribed. (Combine subscribes the trigger first and hands the
    ///   subscription over from the upstream's, so a trigger that fires at once — `Just` — makes it send
    ///   `.finished` before the subscription; here the subscription always comes first.)
    /// - Completion: when the trigger fires, the upstream is cancelled and `.finished` sent. If a value is
    ///   being delivered on another thread at that moment, `.finished` follows it once it returns, so calls to
    ///   the subscriber never overlap. A trigger that completes without a value (finished or failed) changes
    ///   nothing; its failure type may differ from the upstream's. The upstream's completion is forwarded and
    ///   cancels the trigger.
    /// - Demand: passes straight through to the upstream.
    /// - Cancellation: cancels the upstream and a trigger that has not fired; nothing reaches the subscriber
    ///   after it. A trigger that has fired is released, not cancelled (as in Combine).
    /// - Threading: the trigger may fire on any thread.
    ///
    /// ```swift
    /// let c = ticks.prefix(untilOutputFrom: stopButtonTaps).sink { print($0) }
    /// ```
    @inlinable
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/prefix(untilOutputFrom:)``.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are republished until the trigger fires.
        public let upstream: Upstream
        /// The trigger: its first value ends the stream.
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
            let stage = PrefixUntilOutputStage<S, Other.Failure>(downstream: subscriber)
            stage.core.handOver()
            other.receive(subscriber: TriggerSubscriber<Other.Output, S, Other.Failure>(core: stage.core))
            upstream.receive(subscriber: stage)
        }
    }
}

/// The subscriber `prefix(untilOutputFrom:)` attaches upstream: a stage (see ``StageLink``) whose subscription and
/// trigger side is a ``TriggeredStageCore``. A value costs a relaxed load of the link's phase, the two atomic
/// read-modify-writes that mark its delivery (a trigger firing meanwhile on another thread leaves the `.finished` to
/// this thread, sent when the call returns), and the call downstream.
@usableFromInline
struct PrefixUntilOutputStage<Downstream: Subscriber, TriggerFailure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    /// The values' way downstream; the core keeps a copy for the completion, which may go from the trigger's thread.
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let core: TriggeredStageCore<Downstream, TriggerFailure, Downstream?>

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
        self.core = TriggeredStageCore(
            downstream: downstream, name: .prefixUntilOutput, role: .ends, failureOfTrigger: nil)
    }

    @usableFromInline
    var description: String { "PrefixUntilOutput" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(core) }

    @inlinable
    func receive(subscription: any Subscription) {
        _ = core.link.attach(subscription)  // forwards what the subscriber has requested so far
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard core.link.isLive, core.beginDelivery() else { return .none }
        let more = downstream.receive(input)
        return core.endDelivery() ? more : .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard core.link.finish() else { return }
        core.end(with: completion)
    }
}
