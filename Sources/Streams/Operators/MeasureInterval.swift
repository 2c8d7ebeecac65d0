extension Publisher {
    /// Replaces each value with the time since the previous one (the first: since the subscription), read
    /// from `scheduler.now`.
    ///
    /// - Timing: the subscription reads `scheduler.now` when it starts, and each value reads it again; the
    ///   value published is the `Duration` between the two readings. Nothing is scheduled: values are
    ///   published at once, on the upstream's thread.
    /// - Demand: passes through. As in Combine, the demand the downstream returns for a value is requested
    ///   upstream (`receive(_:)` itself returns `.none`).
    /// - Completion: forwarded at once.
    /// - Cancellation: cancels the upstream; nothing is delivered afterwards.
    ///
    /// ```swift
    /// let c = taps.measureInterval(using: scheduler).sink { print("\($0) since the last tap") }
    /// ```
    @inlinable
    public func measureInterval(using scheduler: any Scheduler) -> Publishers.MeasureInterval<Self> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/measureInterval(using:)``: see there for the contract.
    public struct MeasureInterval<Upstream: Publisher>: Publisher {
        /// The time between two values.
        public typealias Output = Duration
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are timed.
        public let upstream: Upstream
        /// The clock the intervals are read from.
        public let scheduler: any Scheduler

        /// Creates the operator; prefer ``Publisher/measureInterval(using:)``.
        @inlinable
        public init(upstream: Upstream, scheduler: any Scheduler) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Attaches `subscriber` through a measuring subscription.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: MeasureIntervalStage<Upstream.Output, S>(downstream: subscriber, scheduler: scheduler))
        }
    }
}

/// `measureInterval`'s subscriber: a stage (see ``StageLink``). The instant of the last event is the link's state,
/// which only the upstream's serial calls touch, so a value takes no lock: one relaxed load of the link's phase, the
/// scheduler's clock, and the call downstream. Demand the downstream returns is requested upstream (as Combine does)
/// rather than returned.
@usableFromInline
struct MeasureIntervalStage<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Downstream.Input == Duration {
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let downstream: Downstream
    /// The instant of the subscription, then of the last value, is its state.
    @usableFromInline
    let link: StageLink<SchedulerInstant, NoStageHooks>
    @usableFromInline
    let scheduler: any Scheduler

    @inlinable
    init(downstream: Downstream, scheduler: any Scheduler) {
        self.downstream = downstream
        self.link = StageLink(.measureInterval, state: .zero, hooks: NoStageHooks())
        self.scheduler = scheduler
    }

    @usableFromInline
    var description: String { "MeasureInterval" }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(link) }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        link.state = scheduler.now  // the first interval runs from the subscription
        downstream.receive(subscription: link)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard link.isLive else { return .none }
        let now = scheduler.now
        let interval = now - link.state
        link.state = now
        let more = downstream.receive(interval)
        if more > .none { link.request(more) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { link.forward(completion, to: downstream) }
}
