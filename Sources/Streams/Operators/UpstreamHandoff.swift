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
/// current and releases the downstream and `next`. No method calls out under the lock.
@usableFromInline
final class UpstreamHandoff<Downstream: Subscriber, Next>: Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    var downstream: Downstream?
    /// What the operator subscribes to when the first leg ends (a handler, a publisher).
    @usableFromInline
    var next: Next?
    @usableFromInline
    var demand = Subscribers.Demand.none
    @usableFromInline
    var current: (any Subscription)?
    @usableFromInline
    var leg = HandoffLeg.first
    @usableFromInline
    let description: String

    @inlinable
    init(downstream: Downstream, next: Next, name: String) {
        self.downstream = downstream
        self.next = next
        self.description = name
    }

    /// Stores `leg`'s subscription. The first one also sends this handoff downstream; the second one is
    /// asked for the demand carried over. A stale or duplicate subscription is cancelled.
    @inlinable
    func attach(_ subscription: any Subscription, from leg: HandoffLeg) {
        lock.lock()
        guard let downstream, self.leg == leg, current == nil else {
            lock.unlock()
            return subscription.cancel()
        }
        current = subscription
        let carried = demand
        lock.unlock()
        switch leg {
        case .first: downstream.receive(subscription: self)
        case .second: if carried > .none { subscription.request(carried) }
        }
    }

    /// Delivers a value from `leg` if it is live; returns the downstream's extra demand.
    @inlinable
    func receive(_ value: Downstream.Input, from leg: HandoffLeg) -> Subscribers.Demand {
        lock.lock()
        guard let downstream, self.leg == leg else {
            lock.unlock()
            return .none
        }
        demand -= 1
        lock.unlock()
        let more = downstream.receive(value)
        lock.lock()
        if self.downstream != nil { demand += more }
        lock.unlock()
        return more
    }

    /// Ends the first leg and makes the second live; returns what to subscribe to next, or `nil` if the
    /// handoff has ended (cancelled) or already handed off.
    @inlinable
    func handOff() -> Next? {
        lock.lock()
        defer { lock.unlock() }
        guard downstream != nil, leg == .first else { return nil }
        leg = .second
        current = nil
        return next.take()
    }

    /// Forwards a completion from `leg` if it is live, and ends the handoff.
    @inlinable
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>, from leg: HandoffLeg) {
        lock.lock()
        guard self.leg == leg else { return lock.unlock() }
        let released = release()
        lock.unlock()
        released.downstream?.receive(completion: completion)
    }

    @inlinable
    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        demand += more
        let current = self.current
        lock.unlock()
        current?.request(more)
    }

    @inlinable
    func cancel() {
        lock.lock()
        let released = release()
        lock.unlock()
        released.current?.cancel()
    }

    /// Clears everything; lock held. The caller lets the result go after unlocking.
    @inlinable
    func release() -> (downstream: Downstream?, current: (any Subscription)?, next: Next?) {
        defer {
            downstream = nil
            current = nil
            next = nil
        }
        return (downstream, current, next)
    }
}

/// Feeds the second upstream's events into an ``UpstreamHandoff``.
@usableFromInline
struct HandoffSecondLeg<Downstream: Subscriber, Next>: Subscriber, CustomStringConvertible {
    @usableFromInline
    typealias Input = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let handoff: UpstreamHandoff<Downstream, Next>

    @inlinable
    init(handoff: UpstreamHandoff<Downstream, Next>) { self.handoff = handoff }

    @usableFromInline
    var description: String { handoff.description }

    @inlinable
    func receive(subscription: any Subscription) { handoff.attach(subscription, from: .second) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { handoff.receive(input, from: .second) }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { handoff.complete(completion, from: .second) }
}
