extension Publisher {
    /// Shifts every value and the completion later by `interval`, delivering them on `scheduler`.
    ///
    /// - Timing: an event received at *t* is delivered at *t* + `interval`, in the order received. The
    ///   completion follows the last value; a failure is delayed too (as in Combine).
    /// - Demand: passes straight through — downstream requests go upstream synchronously, and the
    ///   demand the downstream returns on each delayed value is requested from upstream then.
    /// - Threading: events are delivered on `scheduler` (use a serial one); the subscription is passed
    ///   downstream synchronously. Each event is scheduled when it arrives (as in Combine), so among the
    ///   actions due at one instant a delayed event runs in the order it was scheduled: a `debounce` or
    ///   `throttle` timer scheduled after it runs after it, one scheduled before it runs before it.
    /// - Cancellation: cancels the upstream and every scheduled delivery; an event already waiting is never
    ///   delivered.
    ///
    /// ```swift
    /// let c = subject.delay(for: .seconds(1), scheduler: scheduler).sink { print($0) }
    /// ```
    @inlinable
    public func delay(for interval: Duration, scheduler: any Scheduler) -> Publishers.Delay<Self> {
        Publishers.Delay(upstream: self, interval: interval, scheduler: scheduler)
    }

    /// ``delay(for:scheduler:)`` with Combine's `tolerance:` argument, kept in ``Publishers/Delay/tolerance``.
    ///
    /// Streams schedulers run an action at its deadline (their ``Scheduler/minimumTolerance`` is zero), so the
    /// tolerance changes nothing: it is accepted so that Combine code compiles unchanged. Same contract as
    /// ``delay(for:scheduler:)``.
    ///
    /// ```swift
    /// let c = hints.delay(for: .seconds(1), tolerance: .milliseconds(10), scheduler: DispatchQueue.main)
    ///     .sink { show($0) }
    /// ```
    @inlinable
    public func delay(for interval: Duration, tolerance: Duration?, scheduler: any Scheduler)
        -> Publishers.Delay<Self>
    {
        Publishers.Delay(upstream: self, interval: interval, tolerance: tolerance ?? .zero, scheduler: scheduler)
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
        /// The tolerance Combine code passes (zero unless given): accepted, and unused, since Streams schedulers run
        /// an action at its deadline.
        public let tolerance: Duration
        /// Where timers run and events are delivered.
        public let scheduler: any Scheduler

        /// Creates the operator; prefer ``Publisher/delay(for:scheduler:)``.
        @inlinable
        public init(upstream: Upstream, interval: Duration, scheduler: any Scheduler) {
            self.init(upstream: upstream, interval: interval, tolerance: .zero, scheduler: scheduler)
        }

        /// Creates the operator with Combine's `tolerance` (unused: see ``tolerance``); prefer
        /// ``Publisher/delay(for:tolerance:scheduler:)``.
        @inlinable
        public init(upstream: Upstream, interval: Duration, tolerance: Duration, scheduler: any Scheduler) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
        }

        /// Attaches `subscriber` through a delaying subscription.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: DelayInner<S, S?>(downstream: subscriber, interval: interval, scheduler: scheduler))
        }
    }
}

/// `delay`'s subscriber and subscription. Events wait in `queue` (see ``TimingEventQueue``), each with its own
/// scheduled action; the handles of the actions not yet run are kept to cancel them on cancel. Shared with
/// those actions: the `var`s are guarded by `link`'s lock (the link also holds the upstream subscription).
@usableFromInline
final class DelayInner<Downstream: Subscriber, HeldDownstream: OptionalSlot>: Subscriber, Subscription,
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
    /// The scheduled actions not yet run, to cancel on cancel. Guarded by `link`'s lock.
    @usableFromInline
    @exclusivity(unchecked)
    var timers = PendingTimers()
    @usableFromInline
    let interval: Duration
    @usableFromInline
    let scheduler: any Scheduler

    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``): `cancel()` empties the
    /// event queue, a generic struct whose metadata the unspecialised body would look up at run time. Immutable.
    @usableFromInline
    let specialised: (DelayInner, SpecialisedCall) -> Void

    @inlinable
    init(downstream: Downstream, interval: Duration, scheduler: any Scheduler) {
        held = HeldDownstream(holding: downstream)
        self.interval = interval
        self.scheduler = scheduler
        specialised = SpecialisedCall.forwarding()
    }

    @usableFromInline
    var description: String { "Delay" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard link.attach(subscription) else { return }
        link.withLock { downstream }?.receive(subscription: self)
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

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        link.request(demand)
    }

    /// `cancel()`'s body, specialised (see ``specialised``).
    @inlinable
    func cancelNow() {
        link.lock()
        let upstream = link.cancelLocked()
        let timers = self.timers
        self.timers = PendingTimers()
        let released = held
        held = nil
        let dropped = queue.removeAll()
        link.unlock()
        upstream?.cancel()
        timers.cancelAll()
        _ = released  // destroyed here, outside the lock
        _ = dropped
    }

    @inlinable
    func enqueue(_ event: TimingEventQueue<Input, Failure>.Event) {
        // The action is scheduled first, so that queueing the event and keeping the action's handle take one critical
        // section. It holds `self` until it runs or is cancelled (`cancel()` cancels every pending action). The
        // scheduler reads its clock and queues the action in one step (`TestScheduler`: under one lock).
        let handle = scheduler.scheduleAction(afterDelay: interval) { [self] in actionRan() }
        link.lock()
        guard downstream != nil else {
            link.unlock()
            return handle.cancel()
        }
        let sequence = queue.append(event)
        guard sequence > queue.released else {
            // The action has run already (a scheduler that runs it at once, or on another thread) and released this
            // event before it was here: deliver it now, unless another thread is delivering.
            guard queue.takeDeliveringTurn() else { return link.unlock() }
            return deliverLocked()
        }
        timers.append(handle, for: sequence)
        link.unlock()
    }

    /// An event's action ran (the *k*-th to run is the *k*-th event's: their deadlines only grow): releases one
    /// more event, forgets the handles of the actions that have run, and delivers what is released.
    @inlinable
    func actionRan() {
        link.lock()
        let isDeliverer = queue.releaseNext()
        timers.dropThrough(queue.released)
        guard isDeliverer else { return link.unlock() }
        deliverLocked()
    }
}

/// `delay`'s pending actions, in the order of their events (every event waits the same interval, so their
/// deadlines only grow): appended at the end, dropped from the front as they run, all cancelled on cancel. An
/// array and a head index rather than a dictionary by sequence number: no hashing per value.
@usableFromInline
struct PendingTimers {
    /// One scheduled action and the sequence number of its event.
    @usableFromInline
    struct Entry {
        @usableFromInline
        let sequence: UInt64
        @usableFromInline
        let handle: any Cancellable

        @inlinable
        init(sequence: UInt64, handle: any Cancellable) {
            self.sequence = sequence
            self.handle = handle
        }
    }

    /// The entries from `head` on are pending; the ones before it are spent, kept until compaction.
    @usableFromInline
    var entries: [Entry] = []
    @usableFromInline
    var head = 0

    @inlinable
    init() {}

    /// Keeps `handle`, the action of event `sequence` (sequence numbers only grow).
    @inlinable
    mutating func append(_ handle: any Cancellable, for sequence: UInt64) {
        entries.append(Entry(sequence: sequence, handle: handle))
    }

    /// Forgets the handles of events up to `sequence`.
    @inlinable
    mutating func dropThrough(_ sequence: UInt64) {
        while head < entries.count && entries[head].sequence <= sequence { head += 1 }
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32 && head * 2 >= entries.count {
            entries.removeFirst(head)  // amortised: at least as many were spent as remain
            head = 0
        }
    }

    /// Cancels every pending action (call outside the lock).
    @inlinable
    func cancelAll() {
        for entry in entries[head...] { entry.handle.cancel() }
    }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension DelayInner: SpecialisedSubscription {}
