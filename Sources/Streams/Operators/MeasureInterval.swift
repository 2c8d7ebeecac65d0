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
                subscriber: MeasureIntervalInner<Upstream.Output, S>(downstream: subscriber, scheduler: scheduler))
        }
    }
}

/// `measureInterval`'s subscriber and subscription. Sound as `@unchecked Sendable`: `downstream` and `last`
/// are guarded by `lock`, the upstream subscription is held by `link`, `scheduler` is immutable.
@usableFromInline
final class MeasureIntervalInner<Input, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Duration {
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let link = UpstreamLink()
    /// Guards `downstream` and `last` (`@exclusivity(unchecked)`: every access is under it, or in `init`).
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    /// When the previous value (or the subscription) arrived. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var last = SchedulerInstant.zero
    @usableFromInline
    let scheduler: any Scheduler

    @inlinable
    init(downstream: Downstream, scheduler: any Scheduler) {
        self.downstream = downstream
        self.scheduler = scheduler
    }

    @usableFromInline
    var description: String { "MeasureInterval" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        let now = scheduler.now
        let downstream = lock.withLock { () -> Downstream? in
            last = now
            return self.downstream
        }
        downstream?.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let now = scheduler.now
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return .none
        }
        let interval = now - last
        last = now
        lock.unlock()
        let more = downstream.receive(interval)
        if more > .none { link.request(more) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        release()?.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if demand > .none { link.request(demand) }
    }

    @inlinable
    func cancel() {
        link.cancel()
        _ = release()
    }

    /// Takes the downstream out; returns `nil` if already released.
    @inlinable
    func release() -> Downstream? {
        lock.lock()
        defer {
            downstream = nil
            lock.unlock()
        }
        return downstream
    }
}
