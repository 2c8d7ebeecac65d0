extension Publisher {
    /// Skips the first `count` values, then republishes the rest.
    ///
    /// - Demand: as Combine: the subscriber gets its subscription first; when the upstream subscription
    ///   arrives, `count` (the values to skip) plus whatever the subscriber has requested by then is asked
    ///   for in one request, so the skipped values are pulled even before the subscriber asks for any.
    ///   Later requests pass straight through.
    /// - Precondition: `count >= 0`.
    ///
    /// ```swift
    /// let c = [1, 2, 3].publisher.dropFirst().sink { print($0) }   // 2 3
    /// ```
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        precondition(count >= 0, "dropFirst(_:): count must not be negative")
        return Publishers.Drop(upstream: self, count: count)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/dropFirst(_:)``.
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first values are skipped.
        public let upstream: Upstream
        /// How many values to skip.
        public let count: Int

        /// Creates the operator. `count` must not be negative.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            precondition(count >= 0, "dropFirst(_:): count must not be negative")
            self.upstream = upstream
            self.count = count
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let stage = DropFirstStage(downstream: subscriber, count: count)
            stage.start()
            upstream.receive(subscriber: stage)
        }
    }
}

/// `dropFirst`'s subscriber: a stage (see ``StageLink``) whose state is how many values are still to skip.
/// As in Combine, the downstream gets its subscription before the upstream is subscribed, and the skipped
/// values are asked for up front, with the downstream's first demand.
@usableFromInline
struct DropFirstStage<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let downstream: Downstream
    /// Its state is the number of values still to skip.
    @usableFromInline
    let link: StageLink<Int, NoStageHooks>

    @inlinable
    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        self.link = StageLink(.dropFirst, state: count, hooks: NoStageHooks())
    }

    @usableFromInline
    var description: String { "Drop" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(link) }

    /// Before the upstream is subscribed: asks for the skipped values (kept by the link until the upstream
    /// subscription arrives, with what the subscriber requests meanwhile) and hands the subscriber its
    /// subscription.
    @inlinable
    func start() {
        if link.state > 0 { link.addPending(.max(link.state)) }
        downstream.receive(subscription: link)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        _ = link.attach(subscription)  // forwards the skipped values plus the subscriber's demand so far
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard link.isLive else { return .none }
        if link.state > 0 {
            link.state -= 1  // requested up front in `start`
            return .none
        }
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { link.forward(completion, to: downstream) }
}

// Equal when their parts are equal, as in Combine.
extension Publishers.Drop: Equatable where Upstream: Equatable {}
