import Synchronization

/// The engine of the retrying operators (`retry(_:)`, `retry(maxRetries:backoff:scheduler:shouldRetry:)`,
/// `retry(when:)`): the one subscription they give downstream, which subscribes to the upstream once per
/// *attempt*. A subclass decides what a failed attempt leads to (``HandlesFailedAttempts/attemptFailed(_:)``) and
/// what else it holds (``releaseResources()``); this class does the rest:
///
/// - Attempts: each subscribes an ``Attempt`` stamped with a generation number; events from any attempt but
///   the current one are ignored.
/// - Values take no lock: each ``Attempt`` holds the downstream itself (as a stage does, see ``StageLink``), and a
///   value costs one relaxed load of ``activeGeneration`` and, unless the demand is unlimited, one atomic update of
///   ``demand``. Combine's contract serialises an attempt's calls, and an attempt's values all come before its
///   completion, which comes before the next attempt is subscribed: the downstream is never called concurrently.
/// - Re-subscription is a loop (a trampoline): ``resubscribe()`` called while `upstream.receive(subscriber:)`
///   is still running (an upstream that fails synchronously, answered synchronously) only sets
///   `resubscribeRequested`, and the loop subscribes again once that call has returned, so the stack never
///   grows with the number of attempts.
/// - Demand: what the downstream requested and has not yet received carries over to each new attempt.
/// - Ending: ``end(with:)`` clears everything once (cancel, completion, or a subclass's decision), cancels the
///   running attempt and what the subclass releases, then completes the downstream if asked.
///
/// Every `var` is guarded by `lock`, in this class and in its subclasses; the two atomics are written under it and
/// read without it by values; `upstream`, `downstream` are released when the subscription ends (an attempt's copy of
/// the downstream when its upstream lets go of it, which the cancel of its subscription makes it do). Nothing is
/// called while `lock` is held. The stored properties are `final`: a subclass could otherwise override them, and
/// every access would be a dynamic call to an unspecialised getter (a generic metadata lookup per value). The
/// publisher and the subscriber are kept in ``OptionalSlot`` parameters (`HeldUpstream` is `Upstream?`,
/// `HeldDownstream` is `Downstream?`), so the unspecialised `deinit` destroys them without a metadata lookup.
@usableFromInline
class ResubscribingSubscription<
    Upstream: Publisher, Downstream: Subscriber, HeldUpstream: OptionalSlot, HeldDownstream: OptionalSlot
>: Subscription, HoldsDownstreamInSlot, CustomStringConvertible, @unchecked Sendable
where
    Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure, HeldUpstream.Wrapped == Upstream,
    HeldDownstream.Wrapped == Downstream
{
    @usableFromInline
    typealias Failure = Upstream.Failure

    /// The subscriber of one attempt.
    @usableFromInline
    struct Attempt: Subscriber {
        @usableFromInline
        typealias Input = Upstream.Output
        @usableFromInline
        typealias Failure = Upstream.Failure
        @usableFromInline
        let parent: ResubscribingSubscription
        @usableFromInline
        let generation: Int
        /// The operator's subscriber, this attempt's own copy: values reach it without the parent's lock.
        @usableFromInline
        let downstream: Downstream

        @inlinable
        init(parent: ResubscribingSubscription, generation: Int, downstream: Downstream) {
            self.parent = parent
            self.generation = generation
            self.downstream = downstream
        }

        @inlinable
        func receive(subscription: any Subscription) { parent.attempt(generation, received: subscription) }
        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            parent.attempt(generation, received: input, to: downstream)
        }
        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            parent.attemptEnded(parent, generation, completion)
        }
    }

    @usableFromInline
    let lock = Lock()
    /// The attempt whose events are accepted; 0 between attempts and once ended (generations start at 1). Written
    /// under `lock`; read without it by each value (relaxed: the value carries nothing else it must see).
    @usableFromInline
    let activeGeneration = Atomic<Int>(0)
    /// Requested by downstream and not yet delivered, raw (`UInt.max` = unlimited). Added to under `lock` (a request,
    /// so that a new attempt's subscription and a request agree on who asks the attempt for it); each value takes one
    /// and adds back what its delivery returned, without the lock.
    @usableFromInline
    let demand = Atomic<UInt>(0)
    // Everything below is guarded by `lock`. `downstream == nil` (``HoldsDownstreamInSlot/downstream``) means ended
    // (completed or cancelled); `heldUpstream` is ``upstream``.
    @usableFromInline
    @exclusivity(unchecked)
    final var heldUpstream: HeldUpstream
    @usableFromInline
    @exclusivity(unchecked)
    final var held: HeldDownstream
    /// The last attempt's generation. Guarded by `lock`, like the `var`s below.
    @usableFromInline
    @exclusivity(unchecked)
    final var generation = 0
    @usableFromInline
    @exclusivity(unchecked)
    final var upstreamSubscription: (any Subscription & AnyObject)?
    @usableFromInline
    @exclusivity(unchecked)
    final var isSubscribing = false
    @usableFromInline
    @exclusivity(unchecked)
    final var resubscribeRequested = false
    /// Runs `request(_:)` and `cancel()` as specialised code (see ``SpecialisedCall``): their bodies test and clear
    /// `Optional`s of generic types, each a runtime metadata lookup if run unspecialised. Immutable.
    @usableFromInline
    let specialised: (ResubscribingSubscription, SpecialisedCall) -> Void

    /// What an ``Attempt``'s completion runs: ``attempt(_:ended:in:)`` for the subclass, formed in its `init` (see
    /// ``endsAttempts(as:)``), so that it runs as specialised code. An attempt's completion arrives through the
    /// upstream's witness table, unspecialised when the upstream is erased (an `AnyPublisher`, a `Deferred` one):
    /// run there, the switch on the completion, the subclass's decision and the next subscription looked up type
    /// metadata about thirty times per attempt. Immutable.
    @usableFromInline
    let attemptEnded: AttemptEnded

    /// The type of ``attemptEnded``: the subscription (always the one that holds the closure), the attempt's
    /// generation, its completion.
    @usableFromInline
    typealias AttemptEnded = (ResubscribingSubscription, Int, Subscribers.Completion<Failure>) -> Void

    @inlinable
    init(upstream: Upstream, downstream: Downstream, attemptEnded: @escaping AttemptEnded) {
        heldUpstream = HeldUpstream(holding: upstream)
        held = HeldDownstream(holding: downstream)
        specialised = SpecialisedCall.forwarding()
        self.attemptEnded = attemptEnded
    }

    /// The ``attemptEnded`` of the subclass `Subclass`: ``attempt(_:ended:in:)`` on the subscription downcast to it.
    /// The downcast is unchecked, and sound because the closure is only ever called with the subscription that holds
    /// it (``Attempt`` passes its `parent`), an instance of the subclass that formed it.
    @inlinable
    static func endsAttempts<Subclass: ResubscribingSubscription & HandlesFailedAttempts>(
        as _: Subclass.Type
    ) -> AttemptEnded where Subclass.AttemptFailure == Failure {
        { subscription, generation, completion in
            let subscription = unsafeDowncast(subscription, to: Subclass.self)
            subscription.attempt(generation, ended: completion, in: subscription)
        }
    }

    /// ``heldUpstream`` as a plain `Optional`. Guarded by `lock`.
    @inlinable
    final var upstream: Upstream? {
        get { heldUpstream.wrapped }
        set { heldUpstream.wrapped = newValue }
    }

    /// The operator's name (overridden).
    @usableFromInline
    var description: String { "Retry" }

    // MARK: For subclasses

    /// Called under `lock` when the subscription ends: clears the subclass's own state and returns what to
    /// cancel or drop once the lock is released.
    @usableFromInline
    func releaseResources() -> ResubscribingRelease { ResubscribingRelease() }

    // MARK: Downstream

    /// Gives downstream its one subscription; returns whether it is still wanted (not cancelled meanwhile).
    @inlinable
    final func handOver() -> Bool {
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        guard let downstream else { return false }
        downstream.receive(subscription: self)
        lock.lock()
        defer { lock.unlock() }
        return self.downstream != nil
    }

    @inlinable
    final func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        specialised(self, .request(more))
    }

    @inlinable
    final func cancel() { specialised(self, .cancel) }

    /// `cancel()`'s body, specialised (see ``specialised``): ends without a completion.
    @inlinable
    final func cancelNow() { end(with: nil) }

    /// `request(_:)`'s body, specialised (see ``specialised``).
    @inlinable
    final func requestNow(_ more: Subscribers.Demand) {
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        demand.addDemand(more)
        let subscription = upstreamSubscription
        lock.unlock()
        subscription?.request(more)
    }

    /// Ends the subscription once: clears the state, cancels the running attempt and what the subclass
    /// released, then sends `completion` downstream (`nil`: a cancel, nothing is sent). Later calls do nothing.
    @inlinable
    final func end(with completion: Subscribers.Completion<Failure>?) {
        lock.lock()
        guard let downstream else { return lock.unlock() }
        let subscription = upstreamSubscription
        let publisher = upstream
        let released = releaseResources()
        self.downstream = nil
        upstream = nil
        upstreamSubscription = nil
        activeGeneration.store(0, ordering: .relaxed)
        lock.unlock()
        subscription?.cancel()
        released.timer.cancel()
        released.subscription?.cancel()
        _ = (publisher, released)
        if let completion { downstream.receive(completion: completion) }
    }

    // MARK: Attempts

    /// Subscribes a new attempt, looping while attempts ask for another during their own `subscribe` call.
    @inlinable
    final func resubscribe() {
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        if isSubscribing {
            resubscribeRequested = true
            return lock.unlock()
        }
        isSubscribing = true
        while true {
            guard let downstream, let upstream else { break }
            generation += 1
            activeGeneration.store(generation, ordering: .relaxed)
            resubscribeRequested = false
            let attempt = Attempt(parent: self, generation: generation, downstream: downstream)
            lock.unlock()
            upstream.receive(subscriber: attempt)
            lock.lock()
            if !resubscribeRequested { break }
        }
        isSubscribing = false
        lock.unlock()
    }

    @inlinable
    final func attempt(_ generation: Int, received subscription: any Subscription) {
        lock.lock()
        guard activeGeneration.load(ordering: .relaxed) == generation, upstreamSubscription == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreamSubscription = SubscriptionSlot.object(subscription)
        let demand = self.demand.load(ordering: .relaxed)
        lock.unlock()
        if demand > 0 { subscription.request(Subscribers.Demand(rawValue: demand)) }
    }

    /// A value of attempt `generation`, delivered to that attempt's `downstream` if the attempt is current; no lock.
    @inlinable
    final func attempt(
        _ generation: Int, received input: Upstream.Output, to downstream: Downstream
    ) -> Subscribers.Demand {
        guard activeGeneration.load(ordering: .relaxed) == generation else { return .none }
        demand.takeOneDemand()
        let more = downstream.receive(input)
        if more > .none { demand.addDemand(more) }
        return more
    }

    /// The current attempt ended: a finish is forwarded at once; a failure goes to `handler`'s
    /// ``HandlesFailedAttempts/attemptFailed(_:)`` (`handler` is this subscription, as its subclass).
    @inlinable
    final func attempt<Handler: HandlesFailedAttempts>(
        _ generation: Int, ended completion: Subscribers.Completion<Failure>, in handler: Handler
    ) where Handler.AttemptFailure == Failure {
        lock.lock()
        guard activeGeneration.load(ordering: .relaxed) == generation else { return lock.unlock() }
        activeGeneration.store(0, ordering: .relaxed)
        upstreamSubscription = nil
        lock.unlock()
        switch completion {
        case .finished: end(with: .finished)
        case .failure(let error): handler.attemptFailed(error)
        }
    }
}

/// What a subclass of ``ResubscribingSubscription`` does when an attempt fails. A protocol rather than an override:
/// called on the final subclass (through ``ResubscribingSubscription/endsAttempts(as:)``), it is a direct call the
/// optimiser specialises, where an override is reached through the class's vtable, whose entries are the
/// unspecialised bodies.
@usableFromInline
protocol HandlesFailedAttempts: AnyObject {
    /// The upstream's failure.
    associatedtype AttemptFailure: Error

    /// An attempt failed (its subscription is gone; no attempt is running). Called without the lock; calls
    /// ``ResubscribingSubscription/resubscribe()`` (now or later), ``ResubscribingSubscription/end(with:)``, or
    /// waits.
    func attemptFailed(_ error: AttemptFailure)
}

/// What a ``ResubscribingSubscription``'s `releaseResources()` hands back, to be dealt with after its `lock` is
/// released: what to cancel (a timer, a trigger's subscription) and an object to let go of (a predicate, a subject),
/// whose `deinit` must not run under the lock. Not nested in the generic class: a nested type would be generic too,
/// and the unspecialised overrides that return it would look its metadata up. No field is an `Any` or an optional
/// `any Cancellable`: copying and destroying those in the unspecialised overrides goes through the runtime's value
/// witnesses (and an `Any` holding a generic closure looks the closure's type up).
@usableFromInline
struct ResubscribingRelease {
    /// A pending timer to cancel (the retry back-off's).
    @usableFromInline
    var timer: ScheduledHandle
    /// A subscription to cancel (`retry(when:)`'s trigger).
    @usableFromInline
    var subscription: (any Subscription & AnyObject)?
    /// An object to let go of.
    @usableFromInline
    var drop: AnyObject?

    @inlinable
    init(
        timer: ScheduledHandle = ScheduledHandle(), subscription: (any Subscription & AnyObject)? = nil,
        drop: AnyObject? = nil
    ) {
        self.timer = timer
        self.subscription = subscription
        self.drop = drop
    }
}

// `request(_:)` and `cancel()` run `requestNow(_:)` and `cancelNow()` through `specialised`.
extension ResubscribingSubscription: SpecialisedSubscription {}

/// A mirror without children: the Swift runtime traps when it reflects a noncopyable stored property (an atomic) of
/// a generic class, which `dump` and test-failure messages would otherwise do.
extension ResubscribingSubscription: CustomReflectable {
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
