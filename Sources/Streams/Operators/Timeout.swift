extension Publisher {
    /// Ends the stream if `interval` passes without a value or a completion from upstream.
    ///
    /// - Timing: the deadline is `interval` after subscription; it restarts at the subscriber's first
    ///   request and at each value (as in Combine). When it passes, the upstream is cancelled and the
    ///   stream fails with `customError()` — or, without `customError`, finishes normally (as in Combine).
    /// - Demand: passes through; the demand the downstream returns on a value is requested upstream then.
    ///   Waiting for lack of demand after the first request still counts towards the deadline.
    /// - Races: on a scheduler that runs actions on other threads, a value that arrives just as the deadline
    ///   passes (the timer already running) is delivered and then followed by the timeout, as in OpenCombine.
    /// - Threading: values and the completion are delivered on `scheduler`, in order, each by an action
    ///   scheduled for the instant it arrived (as in Combine); the subscription is passed downstream
    ///   synchronously. `customError` is called on `scheduler`.
    /// - Cancellation and completion cancel the timer; cancellation releases everything queued.
    ///
    /// ```swift
    /// let c = response.timeout(.seconds(5), scheduler: scheduler, customError: { .timedOut })
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public func timeout(
        _ interval: Duration, scheduler: any Scheduler, customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self> {
        Publishers.Timeout(upstream: self, interval: interval, scheduler: scheduler, customError: customError)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/timeout(_:scheduler:customError:)``: see there for the contract.
    public struct Timeout<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher being watched.
        public let upstream: Upstream
        /// The longest wait allowed for the first value, between values and for the completion.
        public let interval: Duration
        /// Where the timer runs and events are delivered.
        public let scheduler: any Scheduler
        /// Makes the error to fail with on timeout; `nil` finishes normally instead.
        public let customError: (() -> Failure)?

        /// Creates the operator; prefer ``Publisher/timeout(_:scheduler:customError:)``.
        @inlinable
        public init(
            upstream: Upstream, interval: Duration, scheduler: any Scheduler, customError: (() -> Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.customError = customError
        }

        /// Attaches `subscriber` through a watching subscription.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let inner = TimeoutInner<S, S?>(
                downstream: subscriber, interval: interval, scheduler: scheduler, customError: customError)
            upstream.receive(subscriber: inner)
        }
    }
}

/// `timeout`'s subscriber and subscription. Shared with the scheduler's timer and delivery actions: every
/// `var` is guarded by `link`'s lock (the link also holds the upstream subscription), the rest is immutable.
@usableFromInline
final class TimeoutInner<Downstream: Subscriber, HeldDownstream: OptionalSlot>: Subscriber, Subscription,
    HoldsDownstreamInSlot, TimedDelivery,
    CustomStringConvertible, @unchecked Sendable
where HeldDownstream.Wrapped == Downstream {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    /// The upstream subscription, and the one lock of this subscription: it guards every `var` below
    /// (`@exclusivity(unchecked)`: each access is under it, or in `init`).
    @usableFromInline
    let link = UpstreamLink()
    /// The subscriber, as `Downstream?` (see ``OptionalSlot``: the unspecialised `cancel()` and `deinit` clear and
    /// destroy it without a metadata lookup); `nil` once completed or cancelled. Guarded by `link`'s lock, like the
    /// `var`s below.
    @usableFromInline
    @exclusivity(unchecked)
    var held: HeldDownstream
    @usableFromInline
    @exclusivity(unchecked)
    var queue = TimingEventQueue<Input, Failure>()
    /// Whether upstream events are still accepted (false after completion, timeout or cancel). Guarded by
    /// `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var isWatching = true
    /// The downstream has requested values (its first request restarts the deadline). Guarded by `link`'s lock, like
    /// the `var`s below.
    @usableFromInline
    @exclusivity(unchecked)
    var hasRequested = false
    /// The pending timer. Only one is kept: a restart cancels the one before (see ``restartTimer(after:)``).
    @usableFromInline
    @exclusivity(unchecked)
    var timer = ScheduledHandle()
    @usableFromInline
    @exclusivity(unchecked)
    var customError: (() -> Failure)?
    @usableFromInline
    let interval: Duration
    @usableFromInline
    let scheduler: any Scheduler

    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``): `cancel()` empties the
    /// event queue, a generic struct whose metadata the unspecialised body would look up at run time. Immutable.
    @usableFromInline
    let specialised: (TimeoutInner, SpecialisedCall) -> Void

    @inlinable
    init(downstream: Downstream, interval: Duration, scheduler: any Scheduler, customError: (() -> Failure)?) {
        held = HeldDownstream(holding: downstream)
        self.interval = interval
        self.scheduler = scheduler
        self.customError = customError
        specialised = SpecialisedCall.forwarding()
    }

    @usableFromInline
    var description: String { "Timeout" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        restartTimer(after: nil)
        link.withLock { downstream }?.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        restartTimer(after: .value(input))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        let (timer, sequence, released) = link.withLock { () -> (ScheduledHandle, UInt64?, (() -> Failure)?) in
            guard isWatching else { return (ScheduledHandle(), nil, nil) }
            isWatching = false
            defer { customError = nil }
            return (self.timer.take(), append(.completion(completion)), customError)
        }
        timer.cancel()
        _ = released  // destroyed here, outside the lock
        if sequence != nil { scheduleDelivery() }
    }

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        // The subscriber's first request restarts the deadline (as in Combine): a subscriber that asks late
        // still gives the upstream a whole interval.
        let isFirst = link.withLock { () -> Bool in
            defer { hasRequested = true }
            return !hasRequested
        }
        if isFirst { restartTimer(after: nil) }
        link.request(demand)
    }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    func cancelNow() {
        link.lock()
        let upstream = link.cancelLocked()
        isWatching = false
        let timer = self.timer.take()
        let released = held
        held = nil
        let dropped = queue.removeAll()
        let makeError = customError.take()
        link.unlock()
        upstream?.cancel()
        timer.cancel()
        _ = released  // destroyed here, outside the lock
        _ = dropped
        _ = makeError
    }

    /// Queues `event` (if any) and replaces the timer by one due `interval` from now.
    ///
    /// A cancelled timer never runs unless it had already started, that is, unless its deadline came as the event
    /// did, on another thread: then the watch times out, as in OpenCombine (whose timer also carries no generation).
    /// So the timer's action captures only `self`, and scheduling it allocates nothing.
    @inlinable
    func restartTimer(after event: TimingEventQueue<Input, Failure>.Event?) {
        let (previous, isRestarting, sequence) = link.withLock { () -> (ScheduledHandle, Bool, UInt64?) in
            guard isWatching else { return (ScheduledHandle(), false, nil) }
            return (self.timer.take(), true, event.flatMap { append($0) })
        }
        previous.cancel()
        if sequence != nil { scheduleDelivery() }
        guard isRestarting else { return }
        // Holds `self` until it runs or is cancelled (every path that ends the watch cancels it).
        let handle = scheduler.scheduleAction(afterDelay: interval) { [self] in timerFired() }
        // Two restarts racing (a value and the first request, on two threads) keep one timer: the other is cancelled.
        let stale = link.withLock { () -> ScheduledHandle in
            guard isWatching else { return ScheduledHandle(handle) }
            return timer.store(handle)
        }
        stale.cancel()
    }

    @inlinable
    func timerFired() {
        let (makeError, other) = link.withLock { () -> ((() -> Failure)??, ScheduledHandle) in
            guard isWatching else { return (nil, ScheduledHandle()) }
            isWatching = false
            defer { customError = nil }
            // The handle held is this timer's, or (after a race with a restart) a newer one's, cancelled below.
            return (.some(customError), timer.take())
        }
        other.cancel()
        guard let makeError else { return }
        link.cancel()
        let completion: Subscribers.Completion<Failure> = makeError.map { .failure($0()) } ?? .finished
        // This action already runs on the scheduler: the completion is delivered now (as in Combine), before
        // other actions due at the same instant, after any value still waiting (there is none unless the
        // interval is zero: a value restarts the deadline after scheduling its own delivery).
        if let sequence = link.withLock({ append(.completion(completion)) }) { deliverReleased(upTo: sequence) }
    }

    /// Queues `event` (under the lock); returns its sequence number, or `nil` once the downstream is gone.
    @inlinable
    func append(_ event: TimingEventQueue<Input, Failure>.Event) -> UInt64? {
        guard downstream != nil else { return nil }
        return queue.append(event)
    }

    /// Schedules the action that delivers the event just queued, at the current instant.
    @inlinable
    func scheduleDelivery() {
        // Holds `self` until it runs, as soon as the scheduler can; after a cancel it finds nothing to deliver.
        scheduler.scheduleAction { [self] in deliverNext() }
    }

}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension TimeoutInner: SpecialisedSubscription {}
