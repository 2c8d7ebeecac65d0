extension Publisher {
    /// Shifts every value and the completion later by `interval`, delivering them on `scheduler`.
    ///
    /// - Timing: an event received at *t* is delivered at *t* + `interval`, in the order received. The
    ///   completion follows the last value; a failure is delayed too (as in Combine).
    /// - Demand: passes straight through — downstream requests go upstream synchronously, and the
    ///   demand the downstream returns on each delayed value is requested from upstream then.
    /// - Threading: events are delivered on `scheduler` (use a serial one); the subscription is passed
    ///   downstream synchronously. One timer is armed at a time, for the earliest waiting event.
    /// - Cancellation: cancels the upstream and the timer; an event already waiting is never delivered.
    ///
    /// ```swift
    /// let c = subject.delay(for: .seconds(1), scheduler: scheduler).sink { print($0) }
    /// ```
    @inlinable
    public func delay(for interval: Duration, scheduler: any Scheduler) -> Publishers.Delay<Self> {
        Publishers.Delay(upstream: self, interval: interval, scheduler: scheduler)
    }
}

extension Publishers {
    /// The publisher returned by ``Publisher/delay(for:scheduler:)``: see there for the contract.
    public struct Delay<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are delayed.
        public let upstream: Upstream
        /// How much later each event is delivered.
        public let interval: Duration
        /// Where timers run and events are delivered.
        public let scheduler: any Scheduler

        /// Creates the operator; prefer ``Publisher/delay(for:scheduler:)``.
        @inlinable
        public init(upstream: Upstream, interval: Duration, scheduler: any Scheduler) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
        }

        /// Attaches `subscriber` through a delaying subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DelayInner(downstream: subscriber, interval: interval, scheduler: scheduler))
        }
    }
}

@usableFromInline
final class DelayInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var queue = TimingEventQueue<Input, Failure>()
    /// Whether a timer is armed (or its action is delivering); only then may events wait unarmed.
    @usableFromInline
    @exclusivity(unchecked)
    var isArmed = false
    @usableFromInline
    @exclusivity(unchecked)
    var generation: UInt64 = 0
    @usableFromInline
    @exclusivity(unchecked)
    var timer: (any Cancellable)?
    @usableFromInline
    let link = UpstreamLink()
    @usableFromInline
    let interval: Duration
    @usableFromInline
    let scheduler: any Scheduler

    @inlinable
    init(downstream: Downstream, interval: Duration, scheduler: any Scheduler) {
        self.downstream = downstream
        self.interval = interval
        self.scheduler = scheduler
    }

    @usableFromInline
    var description: String { "Delay" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        lock.withLock { downstream }?.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        enqueue(.value(input))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard link.finish() else { return }
        enqueue(.completion(completion))
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        link.request(demand)
    }

    @inlinable
    func cancel() {
        link.cancel()
        let (timer, released) = lock.withLock { () -> ((any Cancellable)?, (Downstream?, [Any])) in
            defer {
                downstream = nil
                self.timer = nil
                isArmed = false
                generation &+= 1
            }
            return (self.timer, (downstream, queue.removeAll()))
        }
        timer?.cancel()
        _ = released  // destroyed here, outside the lock
    }

    @inlinable
    func enqueue(_ event: TimingEventQueue<Input, Failure>.Event) {
        let due = scheduler.now + interval
        let generation = lock.withLock { () -> UInt64? in
            guard downstream != nil else { return nil }
            queue.append(event, due: due)
            guard !isArmed else { return nil }
            isArmed = true
            self.generation &+= 1
            return self.generation
        }
        if let generation { arm(generation, at: due) }
    }

    @inlinable
    func arm(_ generation: UInt64, at deadline: SchedulerInstant) {
        let handle = scheduler.schedule(
            after: deadline,
            TimingCallback { [weak self] in self?.timerFired(generation: generation, deadline: deadline) })
        let stale = lock.withLock { () -> (any Cancellable)? in
            guard isArmed, generation == self.generation else { return handle }
            timer = handle
            return nil
        }
        stale?.cancel()
    }

    /// Delivers every event due by now, in order, then arms the timer for the next one.
    ///
    /// A timer that fires has reached its `deadline`, even if the scheduler's clock says otherwise
    /// (`ImmediateScheduler` runs at once with a clock that never moves; a real queue may fire a
    /// little early): without this, such a timer would find nothing due and re-arm forever.
    @inlinable
    func timerFired(generation: UInt64, deadline: SchedulerInstant) {
        let now = max(scheduler.now, deadline)
        lock.lock()
        guard isArmed, generation == self.generation else { return lock.unlock() }
        timer = nil
        while true {
            guard let downstream, let event = queue.popFirst(dueBy: now) else { break }
            lock.unlock()
            switch event {
            case .value(let value):
                let more = downstream.receive(value)
                if more > .none { link.request(more) }
            case .completion(let completion):
                lock.withLock { self.downstream = nil }
                downstream.receive(completion: completion)
            }
            lock.lock()
        }
        guard downstream != nil, let next = queue.firstDue else {
            isArmed = false
            return lock.unlock()
        }
        self.generation &+= 1
        let nextGeneration = self.generation
        lock.unlock()
        arm(nextGeneration, at: next)
    }
}
