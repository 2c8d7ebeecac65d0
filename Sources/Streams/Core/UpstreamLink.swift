/// The lock-protected link from an operator to its upstream subscription.
///
/// Most operators hold one: it stores the upstream subscription once, forwards `request` and
/// `cancel` to it, and records termination so an operator sends at most one completion and
/// nothing after `cancel()`. Cancelling releases the subscription; no method calls out under the lock.
///
/// A value with reference semantics (copies share the link), stored as one heap object: the state and
/// its mutex together.
@usableFromInline
package struct UpstreamLink: Sendable {
    @usableFromInline
    enum State {
        case waiting(pending: Subscribers.Demand)
        case subscribed(any Subscription)
        case terminal
    }

    @usableFromInline
    let guarded = Locked(State.waiting(pending: .none))

    /// A link that waits for its upstream subscription.
    @inlinable
    package init() {}

    @inlinable
    var state: State {
        _read { yield guarded.state }
        nonmutating _modify { yield &guarded.state }
    }

    @inlinable
    var lock: Locked<State> { guarded }

    /// Stores the upstream subscription. Returns `false` (and cancels `subscription`) if one was
    /// already stored or the link has ended. Demand requested before it arrived is forwarded now.
    @inlinable
    package func attach(_ subscription: any Subscription) -> Bool {
        attach(subscription, whileLocked: {})
    }

    /// ``attach(_:)``, running `body` in the same critical section when the subscription is stored: an
    /// operator that guards its own state with this link's mutex reads it there, one lock pair less.
    /// `body` must not call out.
    @inlinable
    func attach(_ subscription: any Subscription, whileLocked body: () -> Void) -> Bool {
        lock.lock()
        guard case .waiting(let pending) = state else {
            lock.unlock()
            subscription.cancel()
            return false
        }
        state = .subscribed(subscription)
        body()
        lock.unlock()
        if pending > .none { subscription.request(pending) }
        return true
    }

    /// Forwards demand upstream (or keeps it until the subscription arrives); ignored after the end.
    @inlinable
    package func request(_ demand: Subscribers.Demand) {
        lock.lock()
        switch state {
        case .waiting(let pending):
            state = .waiting(pending: pending + demand)
            lock.unlock()
        case .subscribed(let subscription):
            lock.unlock()
            subscription.request(demand)
        case .terminal:
            lock.unlock()
        }
    }

    /// Ends the link and cancels the upstream subscription. Idempotent.
    @inlinable
    package func cancel() {
        _ = finishAndCancel()
    }

    /// Marks the link ended because upstream completed. Returns `true` only the first time, so the
    /// caller forwards exactly one completion.
    @inlinable
    package func finish() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if case .terminal = state { return false }
        state = .terminal
        return true
    }

    /// Ends the link on the operator's own decision (e.g. `prefix` reached its count, `tryMap` threw)
    /// and cancels upstream. Returns `true` only if the link was still live.
    @inlinable
    package func finishAndCancel() -> Bool {
        finishAndCancel(whileLocked: {})
    }

    /// ``finishAndCancel()``, running `body` in the same critical section (whether or not the link was
    /// live): an operator that guards its own state with this link's mutex releases it there, one lock pair
    /// less. `body` must not call out.
    @inlinable
    func finishAndCancel(whileLocked body: () -> Void) -> Bool {
        lock.lock()
        var previous = State.terminal
        swap(&previous, &state)  // moved out, not copied: no existential copy and destroy
        body()
        lock.unlock()
        switch consume previous {
        case .subscribed(let subscription):
            subscription.cancel()
            return true
        case .waiting:
            return true
        case .terminal:
            return false
        }
    }

    /// Whether the link has ended (completed or cancelled).
    @inlinable
    package var isTerminal: Bool {
        lock.lock()
        defer { lock.unlock() }
        if case .terminal = state { return true }
        return false
    }
}
