import Synchronization

/// Which of the two upstreams of an ``UpstreamHandoff`` an event comes from.
@usableFromInline
enum HandoffLeg: Sendable {
    case first
    case second
}

/// The downstream side of an operator that subscribes to two upstreams in turn (`catch`, `concatenate`).
///
/// The downstream sees this one subscription throughout. It tracks the downstream's outstanding demand
/// (requested and not yet delivered) and, when the first upstream ends, requests exactly that from the
/// second. Events from a leg that is no longer live are ignored; cancel cancels whichever upstream is
/// current and releases `next`.
///
/// Each leg's subscriber holds the downstream itself (as a stage does, see ``StageLink``), so a value takes
/// no lock: the upstream's serial calls deliver to their own copy, which the upstream releases when it lets
/// go of that subscriber. Per value: one relaxed load of `phase`, and, unless the demand is unlimited, one
/// atomic update of `demand`. The lock guards `current` and `next`, and the writes of `phase`, on the paths
/// that switch or end a leg (attach, hand-off, completion, request, cancel); no method calls out under it.
///
/// `next` is kept in an ``OptionalSlot`` parameter (`NextSlot` is `Next?`): `cancel()` (reached through
/// `any Subscription`) and `deinit` run unspecialised, and an `Optional<Next>` would cost each a metadata lookup.
@usableFromInline
final class UpstreamHandoff<Next, NextSlot: OptionalSlot>: Subscription, CustomStringConvertible, @unchecked Sendable
where NextSlot.Wrapped == Next {
    @usableFromInline
    let lock = Lock()
    /// Which leg is live (``HandoffPhase``). Written under `lock`, read without it by each value.
    @usableFromInline
    let phase = Atomic<UInt8>(HandoffPhase.first)
    /// Outstanding demand, raw (`UInt.max` = unlimited): `request` adds, each delivered value takes one, the
    /// demand a value's delivery returns adds back.
    @usableFromInline
    let demand = Atomic<UInt>(0)
    /// What the operator subscribes to when the first leg ends (a handler, a publisher). Guarded by `lock`
    /// (`@exclusivity(unchecked)`: every access is under it, or in `init`).
    @usableFromInline
    @exclusivity(unchecked)
    var next: NextSlot
    /// The live leg's subscription. Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var current: (any Subscription & AnyObject)?
    @usableFromInline
    let description: String

    @inlinable
    init(next: Next, name: String) where NextSlot == Next? {
        self.next = next
        self.description = name
    }

    @inlinable
    func code(_ leg: HandoffLeg) -> UInt8 { leg == .first ? HandoffPhase.first : HandoffPhase.second }

    /// Stores `leg`'s subscription. The first one also sends this handoff downstream; the second one is
    /// asked for the demand carried over. A stale or duplicate subscription is cancelled.
    @inlinable
    func attach<Downstream: Subscriber>(
        _ subscription: any Subscription, from leg: HandoffLeg, to downstream: Downstream
    ) {
        lock.lock()
        guard phase.load(ordering: .relaxed) == code(leg), current == nil else {
            lock.unlock()
            return subscription.cancel()
        }
        current = SubscriptionSlot.object(subscription)
        let carried = demand.load(ordering: .relaxed)
        lock.unlock()
        switch leg {
        case .first: downstream.receive(subscription: self)
        case .second: if carried > 0 { subscription.request(Subscribers.Demand(rawValue: carried)) }
        }
    }

    /// Delivers a value from `leg` if it is live; returns the downstream's extra demand.
    @inlinable
    func receive<Downstream: Subscriber>(
        _ value: Downstream.Input, from leg: HandoffLeg, to downstream: Downstream
    ) -> Subscribers.Demand {
        guard phase.load(ordering: .relaxed) == code(leg) else { return .none }
        demand.takeOneDemand()
        let more = downstream.receive(value)
        if more > .none { add(more) }
        return more
    }

    /// Adds to the outstanding demand, saturating at unlimited.
    @inlinable
    func add(_ more: Subscribers.Demand) { demand.addDemand(more) }

    /// Ends the first leg and makes the second live; returns what to subscribe to next, or `nil` if the
    /// handoff has ended (cancelled) or already handed off.
    @inlinable
    func handOff() -> Next? {
        lock.lock()
        defer { lock.unlock() }
        guard phase.load(ordering: .relaxed) == HandoffPhase.first else { return nil }
        phase.store(HandoffPhase.second, ordering: .relaxed)
        current = nil
        return next.wrapped.take()
    }

    /// Forwards a completion from `leg` if it is live, and ends the handoff.
    @inlinable
    func complete<Downstream: Subscriber>(
        _ completion: Subscribers.Completion<Downstream.Failure>, from leg: HandoffLeg, to downstream: Downstream
    ) {
        lock.lock()
        guard phase.load(ordering: .relaxed) == code(leg) else { return lock.unlock() }
        let (current, next) = end()
        lock.unlock()
        _ = current  // both released here, outside the lock
        _ = next
        downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        lock.lock()
        guard phase.load(ordering: .relaxed) != HandoffPhase.ended else { return lock.unlock() }
        add(more)
        let current = self.current
        lock.unlock()
        current?.request(more)
    }

    @inlinable
    func cancel() {
        lock.lock()
        guard phase.load(ordering: .relaxed) != HandoffPhase.ended else { return lock.unlock() }
        let (current, next) = end()
        lock.unlock()
        current?.cancel()
        _ = next  // released here, outside the lock
    }

    /// Ends the handoff and clears what it holds; lock held. The caller lets the result go after unlocking. A tuple
    /// of the slot type, not of `Next?`: `cancel()` runs unspecialised, where that one would be looked up.
    @inlinable
    func end() -> (current: (any Subscription & AnyObject)?, next: NextSlot) {
        phase.store(HandoffPhase.ended, ordering: .relaxed)
        defer {
            current = nil
            next = nil
        }
        return (current, next)
    }
}

/// The phases of an ``UpstreamHandoff``.
@usableFromInline
enum HandoffPhase {
    @usableFromInline static let first: UInt8 = 0
    @usableFromInline static let second: UInt8 = 1
    @usableFromInline static let ended: UInt8 = 2
}

/// A mirror without children: the Swift runtime traps when it reflects a noncopyable stored property (an
/// atomic) of a generic class, which `dump` and test-failure messages would otherwise do.
extension UpstreamHandoff: CustomReflectable {
    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// Feeds the second upstream's events into an ``UpstreamHandoff``.
@usableFromInline
struct HandoffSecondLeg<Downstream: Subscriber, Next>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let handoff: UpstreamHandoff<Next, Next?>
    @usableFromInline
    let downstream: Downstream

    @inlinable
    init(handoff: UpstreamHandoff<Next, Next?>, downstream: Downstream) {
        self.handoff = handoff
        self.downstream = downstream
    }

    @usableFromInline
    var description: String { handoff.description }
    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier(handoff) }

    @inlinable
    func receive(subscription: any Subscription) { handoff.attach(subscription, from: .second, to: downstream) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { handoff.receive(input, from: .second, to: downstream) }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        handoff.complete(completion, from: .second, to: downstream)
    }
}
