extension Publisher {
    /// Publishes at most one value per `interval`: the first value at once, then one value per window.
    ///
    /// The rules, in order:
    /// 1. When no window is open, a value is published at once (at the instant it arrives) and a window
    ///    of `interval` opens at that instant.
    /// 2. Values arriving while a window is open are collapsed into one: the newest if `latest` is
    ///    `true`, otherwise the first of the window.
    /// 3. When a window ends holding a collapsed value, that value is published at the window's end and
    ///    a new window opens there. When it ends holding nothing, no window is open: rule 1 applies to
    ///    the next value.
    /// 4. `.finished` publishes the value still to be published at once (rule 1), then the collapsed
    ///    value (the window is not waited for), then finishes — all at the instant `.finished` arrived.
    ///    A failure drops the collapsed value (a value already due under rule 1 is still published) and
    ///    fails at that instant.
    /// - Demand: upstream is asked for `.unlimited`. A value whose time comes while the downstream has
    ///   no demand is dropped; for the timing it still counts as published (rule 3 opens a new window).
    /// - Threading: everything is delivered on `scheduler`; "at once" means by an action scheduled for
    ///   that instant — on a `TestScheduler` it runs at the next `advance`, stamped with that instant.
    ///   Use a serial scheduler. The subscription is passed downstream synchronously.
    /// - Cancellation: cancels the upstream and every timer; nothing is delivered afterwards.
    ///
    /// Combine leaves several of these points unspecified (notably the completion flush); here they are
    /// the contract.
    ///
    /// ```swift
    /// let c = scrollOffsets.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true)
    ///     .sink { render($0) }
    /// ```
    @inlinable
    public func throttle(for interval: Duration, scheduler: any Scheduler, latest: Bool)
        -> Publishers.Throttle<Self>
    {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/throttle(for:scheduler:latest:)``: see there for the rules.
    public struct Throttle<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are throttled.
        public let upstream: Upstream
        /// The length of a window.
        public let interval: Duration
        /// Where timers run and events are delivered.
        public let scheduler: any Scheduler
        /// Whether a window publishes its newest value (`true`) or its first (`false`).
        public let latest: Bool

        /// Creates the operator; prefer ``Publisher/throttle(for:scheduler:latest:)``.
        @inlinable
        public init(upstream: Upstream, interval: Duration, scheduler: any Scheduler, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Attaches `subscriber` through a throttling subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let inner = ThrottleInner(downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest)
            upstream.receive(subscriber: inner)
        }
    }
}

/// The decisions of one throttle subscription, free of locks, threads and schedulers.
///
/// Two slots hold values: `ready` (published at once, rule 1) and `collapsed` (published at the
/// window's end, rules 2–3). Event methods return what the caller must do after releasing its lock.
/// Window timers carry a generation, so a stale one can never publish.
@usableFromInline
package struct ThrottleStateMachine<Output, Failure: Error> {
    /// Where the subscription is in its life.
    @usableFromInline
    package enum Phase {
        /// Receiving values.
        case running
        /// Upstream completed; the flush and the completion are scheduled.
        case completing(Subscribers.Completion<Failure>)
        /// Completed or cancelled.
        case terminated
    }

    /// What to do after a value arrived or a window ended.
    @usableFromInline
    package enum ScheduleAction {
        /// Nothing.
        case none
        /// Schedule ``readyDue()`` now and a window end for `window` after `interval`.
        case publishNowAndOpenWindow(window: UInt64)
        /// Schedule the end of window `window` after `interval` (from now).
        case openWindow(window: UInt64)
    }

    /// What to deliver.
    @usableFromInline
    package enum EmitAction {
        /// Nothing.
        case none
        /// Deliver this value, then report the extra demand with ``delivered(additional:)``.
        case deliver(Output)
        /// Deliver this completion; the subscription is over.
        case complete(Subscribers.Completion<Failure>)
    }

    /// Whether a window publishes its newest value.
    @usableFromInline
    package let latest: Bool
    /// The current phase.
    @usableFromInline
    package internal(set) var phase = Phase.running
    /// The value to publish at once (rule 1), until its action runs.
    @usableFromInline
    package internal(set) var ready: Output?
    /// The value collapsed from the current window (rule 2).
    @usableFromInline
    package internal(set) var collapsed: Output?
    /// Whether a window is open.
    @usableFromInline
    package internal(set) var isWindowOpen = false
    /// The generation of the current window; only its timer may act.
    @usableFromInline
    package internal(set) var window: UInt64 = 0
    /// What the downstream may still receive.
    @usableFromInline
    package internal(set) var demand = Subscribers.Demand.none
    @usableFromInline
    var windowTimer: (any Cancellable)?
    @usableFromInline
    var readyAction: (any Cancellable)?

    /// A state machine with no window open.
    @inlinable
    package init(latest: Bool) { self.latest = latest }

    /// A value arrived (rules 1 and 2).
    @inlinable
    package mutating func received(_ value: Output) -> ScheduleAction {
        guard case .running = phase else { return .none }
        if isWindowOpen {
            if latest || collapsed == nil { collapsed = value }
            return .none
        }
        isWindowOpen = true
        ready = value
        window &+= 1
        return .publishNowAndOpenWindow(window: window)
    }

    /// Keeps the handle of the action that will publish `ready`; returns it when already stale.
    @inlinable
    package mutating func readyScheduled(_ handle: any Cancellable) -> (any Cancellable)? {
        guard case .running = phase, ready != nil else { return handle }
        readyAction = handle
        return nil
    }

    /// Keeps the handle of the timer ending `window`; returns it when already stale.
    @inlinable
    package mutating func windowScheduled(_ handle: any Cancellable, window: UInt64) -> (any Cancellable)? {
        guard case .running = phase, isWindowOpen, window == self.window else { return handle }
        windowTimer = handle
        return nil
    }

    /// The action publishing `ready` runs (rule 1).
    @inlinable
    package mutating func readyDue() -> EmitAction {
        guard case .running = phase, let value = ready else { return .none }
        ready = nil
        readyAction = nil
        return take(value)
    }

    /// Window `window` ends (rule 3): returns whether to open a new one and what to deliver.
    @inlinable
    package mutating func windowEnded(window: UInt64) -> (ScheduleAction, EmitAction) {
        guard case .running = phase, isWindowOpen, window == self.window else { return (.none, .none) }
        windowTimer = nil
        guard let value = collapsed else {
            isWindowOpen = false
            return (.none, .none)
        }
        collapsed = nil
        self.window &+= 1
        return (.openWindow(window: self.window), take(value))
    }

    /// The downstream asked for more values.
    @inlinable
    package mutating func requested(_ more: Subscribers.Demand) {
        if case .terminated = phase { return }
        demand += more
    }

    /// The downstream returned `additional` demand from `receive(_:)`.
    @inlinable
    package mutating func delivered(additional: Subscribers.Demand) {
        requested(additional)
    }

    /// Upstream completed (rule 4): returns the timers to cancel, or `nil` if already over; the caller
    /// then schedules ``completionDue()`` now.
    @inlinable
    package mutating func completed(_ completion: Subscribers.Completion<Failure>) -> [any Cancellable]? {
        guard case .running = phase else { return nil }
        if case .failure = completion { collapsed = nil }
        phase = .completing(completion)
        isWindowOpen = false
        window &+= 1
        return takeTimers()
    }

    /// Keeps the handle of the scheduled completion; returns it when already stale.
    @inlinable
    package mutating func completionScheduled(_ handle: any Cancellable) -> (any Cancellable)? {
        guard case .completing = phase else { return handle }
        readyAction = handle
        return nil
    }

    /// The scheduled completion runs: `ready`, then `collapsed`, then the completion. Call again after
    /// delivering a value.
    @inlinable
    package mutating func completionDue() -> EmitAction {
        guard case .completing(let completion) = phase else { return .none }
        while let value = ready ?? collapsed {
            if ready != nil { ready = nil } else { collapsed = nil }
            let action = take(value)
            if case .deliver = action { return action }
        }
        phase = .terminated
        readyAction = nil
        return .complete(completion)
    }

    /// The downstream cancelled: returns the timers to cancel.
    @inlinable
    package mutating func cancelled() -> [any Cancellable] {
        phase = .terminated
        ready = nil
        collapsed = nil
        isWindowOpen = false
        return takeTimers()
    }

    @inlinable
    mutating func takeTimers() -> [any Cancellable] {
        defer {
            windowTimer = nil
            readyAction = nil
        }
        return [windowTimer, readyAction].compactMap { $0 }
    }

    /// Spends one demand on `value`, or drops it when there is none.
    @inlinable
    mutating func take(_ value: Output) -> EmitAction {
        guard demand > .none else { return .none }
        demand -= 1
        return .deliver(value)
    }
}

@usableFromInline
final class ThrottleInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure
    @usableFromInline
    typealias Machine = ThrottleStateMachine<Input, Failure>

    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var machine: Machine
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    let link = UpstreamLink()
    @usableFromInline
    let interval: Duration
    @usableFromInline
    let scheduler: any Scheduler

    @inlinable
    init(downstream: Downstream, interval: Duration, scheduler: any Scheduler, latest: Bool) {
        self.downstream = downstream
        self.interval = interval
        self.scheduler = scheduler
        machine = Machine(latest: latest)
    }

    @usableFromInline
    var description: String { "Throttle" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        lock.withLock { downstream }?.receive(subscription: self)
        link.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let action = lock.withLock { machine.received(input) }
        guard case .publishNowAndOpenWindow(let window) = action else { return .none }
        let start = scheduler.now
        let handle = scheduler.schedule(after: start, TimingCallback { [weak self] in self?.readyDue() })
        lock.withLock { machine.readyScheduled(handle) }?.cancel()
        openWindow(window, at: start)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        guard let timers = lock.withLock({ machine.completed(completion) }) else { return }
        for timer in timers { timer.cancel() }
        let handle = scheduler.schedule(after: scheduler.now, TimingCallback { [weak self] in self?.completionDue() })
        lock.withLock { machine.completionScheduled(handle) }?.cancel()
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.withLock { machine.requested(demand) }
    }

    @inlinable
    func cancel() {
        link.cancel()
        let (timers, released) = lock.withLock { () -> ([any Cancellable], Downstream?) in
            defer { downstream = nil }
            return (machine.cancelled(), downstream)
        }
        for timer in timers { timer.cancel() }
        _ = released  // destroyed here, outside the lock
    }

    /// Schedules the end of `window`, `interval` after `start`.
    @inlinable
    func openWindow(_ window: UInt64, at start: SchedulerInstant) {
        let end = start + interval
        let handle = scheduler.schedule(
            after: end, TimingCallback { [weak self] in self?.windowEnded(window: window, at: end) })
        lock.withLock { machine.windowScheduled(handle, window: window) }?.cancel()
    }

    @inlinable
    func readyDue() {
        lock.lock()
        let action = machine.readyDue()
        let downstream = self.downstream
        lock.unlock()
        deliver(action, to: downstream)
    }

    /// Window `window`, due at `end`, ends; a following window starts at `end` (no drift).
    @inlinable
    func windowEnded(window: UInt64, at end: SchedulerInstant) {
        lock.lock()
        let (next, action) = machine.windowEnded(window: window)
        let downstream = self.downstream
        lock.unlock()
        if case .openWindow(let newWindow) = next { openWindow(newWindow, at: end) }
        deliver(action, to: downstream)
    }

    @inlinable
    func completionDue() {
        while true {
            lock.lock()
            let action = machine.completionDue()
            let downstream = self.downstream
            if case .complete = action { self.downstream = nil }
            lock.unlock()
            guard case .deliver = action else { return deliver(action, to: downstream) }
            deliver(action, to: downstream)
        }
    }

    @inlinable
    func deliver(_ action: Machine.EmitAction, to downstream: Downstream?) {
        guard let downstream else { return }
        switch action {
        case .none:
            break
        case .deliver(let value):
            let more = downstream.receive(value)
            lock.withLock { machine.delivered(additional: more) }
        case .complete(let completion):
            downstream.receive(completion: completion)
        }
    }
}
