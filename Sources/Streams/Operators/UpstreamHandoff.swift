/// Which of the two upstreams of an ``UpstreamHandoff`` an event comes from.
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
final class UpstreamHandoff<Downstream: Subscriber, Next>: Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    private let lock = Lock()
    private var downstream: Downstream?
    /// What the operator subscribes to when the first leg ends (a handler, a publisher).
    private var next: Next?
    private var demand = Subscribers.Demand.none
    private var current: (any Subscription)?
    private var leg = HandoffLeg.first
    let description: String

    init(downstream: Downstream, next: Next, name: String) {
        self.downstream = downstream
        self.next = next
        self.description = name
    }

    /// Stores `leg`'s subscription. The first one also sends this handoff downstream; the second one is
    /// asked for the demand carried over. A stale or duplicate subscription is cancelled.
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
    func handOff() -> Next? {
        lock.lock()
        defer { lock.unlock() }
        guard downstream != nil, leg == .first else { return nil }
        leg = .second
        current = nil
        return next.take()
    }

    /// Forwards a completion from `leg` if it is live, and ends the handoff.
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>, from leg: HandoffLeg) {
        lock.lock()
        guard self.leg == leg else { return lock.unlock() }
        let released = release()
        lock.unlock()
        released.downstream?.receive(completion: completion)
    }

    func request(_ more: Subscribers.Demand) {
        guard more > .none else { return }
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        demand += more
        let current = self.current
        lock.unlock()
        current?.request(more)
    }

    func cancel() {
        lock.lock()
        let released = release()
        lock.unlock()
        released.current?.cancel()
    }

    /// Clears everything; lock held. The caller lets the result go after unlocking.
    private func release() -> (downstream: Downstream?, current: (any Subscription)?, next: Next?) {
        defer {
            downstream = nil
            current = nil
            next = nil
        }
        return (downstream, current, next)
    }
}

/// Feeds the second upstream's events into an ``UpstreamHandoff``.
struct HandoffSecondLeg<Downstream: Subscriber, Next>: Subscriber, CustomStringConvertible {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let handoff: UpstreamHandoff<Downstream, Next>

    var description: String { handoff.description }

    func receive(subscription: any Subscription) { handoff.attach(subscription, from: .second) }
    func receive(_ input: Input) -> Subscribers.Demand { handoff.receive(input, from: .second) }
    func receive(completion: Subscribers.Completion<Failure>) { handoff.complete(completion, from: .second) }
}
