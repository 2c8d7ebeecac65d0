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
    /// The link's state: plain fields rather than an enum with an existential payload, so that testing
    /// the phase copies nothing and the subscription is stored and taken in place.
    @usableFromInline
    struct State {
        /// `waiting` → `subscribed` → `terminal` (or `waiting` → `terminal`).
        @usableFromInline
        var phase: Phase
        /// Demand requested while `waiting`, forwarded when the subscription arrives.
        @usableFromInline
        var pending: Subscribers.Demand
        /// The upstream subscription while `subscribed`; the trivial `NoSubscription` placeholder otherwise.
        @usableFromInline
        var subscription: any Subscription

        @inlinable
        init() {
            phase = .waiting
            pending = .none
            subscription = NoSubscription()
        }
    }

    /// The phases of a link.
    @usableFromInline
    enum Phase: UInt8 {
        case waiting
        case subscribed
        case terminal
    }

    @usableFromInline
    let guarded = Locked(State())

    /// A link that waits for its upstream subscription.
    @inlinable
    package init() {}

    /// The state, in place. Lock held.
    @inlinable
    var state: UnsafeMutablePointer<State> { guarded.storage.headerPointer }

    @inlinable
    var lock: Locked<State> { guarded }

    /// Stores the upstream subscription. Returns `false` (and cancels `subscription`) if one was
    /// already stored or the link has ended. Demand requested before it arrived is forwarded now.
    @inlinable
    package func attach(_ subscription: any Subscription) -> Bool {
        lock.lock()
        let state = self.state
        guard state.pointee.phase == .waiting else {
            lock.unlock()
            subscription.cancel()
            return false
        }
        let pending = state.pointee.pending
        state.pointee.phase = .subscribed
        state.pointee.pending = .none
        NoSubscription.replace(&state.pointee.subscription, with: subscription)
        lock.unlock()
        if pending > .none { subscription.request(pending) }
        return true
    }

    /// Forwards demand upstream (or keeps it until the subscription arrives); ignored after the end.
    @inlinable
    package func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let state = self.state
        switch state.pointee.phase {
        case .waiting:
            state.pointee.pending += demand
            lock.unlock()
        case .subscribed:
            let subscription = state.pointee.subscription  // a cancel may release the stored one meanwhile
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
    /// caller forwards exactly one completion. The subscription is released after the lock.
    @inlinable
    package func finish() -> Bool {
        lock.lock()
        let state = self.state
        let previous = state.pointee.phase
        guard previous != .terminal else {
            lock.unlock()
            return false
        }
        state.pointee.phase = .terminal
        // Moved out (not copied) and released after unlocking.
        let released: any Subscription =
            previous == .subscribed ? NoSubscription.take(&state.pointee.subscription) : NoSubscription()
        lock.unlock()
        _ = consume released
        return true
    }

    /// Ends the link on the operator's own decision (e.g. `prefix` reached its count, `tryMap` threw)
    /// and cancels upstream. Returns `true` only if the link was still live.
    @inlinable
    package func finishAndCancel() -> Bool {
        lock.lock()
        let state = self.state
        let previous = state.pointee.phase
        state.pointee.phase = .terminal
        let taken: any Subscription =
            previous == .subscribed ? NoSubscription.take(&state.pointee.subscription) : NoSubscription()  // moved
        lock.unlock()
        if previous == .subscribed { taken.cancel() }
        return previous != .terminal
    }

    /// Whether the link has ended (completed or cancelled).
    @inlinable
    package var isTerminal: Bool {
        lock.lock()
        defer { lock.unlock() }
        return state.pointee.phase == .terminal
    }
}
