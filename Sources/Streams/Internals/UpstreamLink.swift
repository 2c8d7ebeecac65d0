/// The lock-protected link from an operator to its upstream subscription, and the operator's one lock.
///
/// The one-upstream operators whose state other threads touch (a timer, a buffer drained on request) hold one:
/// it stores the upstream subscription once, forwards `request` and `cancel` to it, and records termination so an
/// operator sends at most one completion and nothing after `cancel()`. Cancelling releases the subscription; no
/// method calls out under the lock.
///
/// Its mutex is also the operator's: the operator guards its own fields with ``lock()``/``unlock()`` and
/// ``withLock(_:)`` rather than a second `Lock`, so a subscription costs one mutex and one allocation for both. The
/// link's own methods take that mutex themselves, so the operator calls them only while it does not hold it (the
/// mutex is not recursive); the exception is ``cancelLocked()``, made for the operator's own critical section.
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
        /// The upstream subscription while `subscribed`; `nil` otherwise. A class-bound existential (16 bytes,
        /// copied and destroyed as a reference), not an `any Subscription` (40 bytes, boxed, copied and destroyed
        /// through its type's value witnesses): see ``SubscriptionSlot/object(_:)``.
        @usableFromInline
        var subscription: (any Subscription & AnyObject)?

        @inlinable
        init() {
            phase = .waiting
            pending = .none
            subscription = nil
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

    /// Acquires the mutex, for the owning operator's own fields. Pair with ``unlock()``; in between, call none of the
    /// link's other methods but ``cancelLocked()``.
    @inlinable
    package func lock() { guarded.lock() }

    /// Releases the mutex.
    @inlinable
    package func unlock() { guarded.unlock() }

    /// Runs `body` with the mutex held (for the owning operator's own fields) and returns its result. `body` must not
    /// call out, nor call the link's other methods.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        guarded.lock()
        defer { guarded.unlock() }
        return try body()
    }

    /// Stores the upstream subscription. Returns `false` (and cancels `subscription`) if one was
    /// already stored or the link has ended. Demand requested before it arrived is forwarded now.
    @inlinable
    package func attach(_ subscription: any Subscription) -> Bool {
        lock()
        let state = self.state
        guard state.pointee.phase == .waiting else {
            unlock()
            subscription.cancel()
            return false
        }
        let pending = state.pointee.pending
        state.pointee.phase = .subscribed
        state.pointee.pending = .none
        state.pointee.subscription = SubscriptionSlot.object(subscription)
        unlock()
        if pending > .none { subscription.request(pending) }
        return true
    }

    /// Forwards demand upstream (or keeps it until the subscription arrives); ignored after the end.
    @inlinable
    package func request(_ demand: Subscribers.Demand) {
        lock()
        let state = self.state
        switch state.pointee.phase {
        case .waiting:
            state.pointee.pending += demand
            unlock()
        case .subscribed:
            let subscription = state.pointee.subscription  // a cancel may release the stored one meanwhile
            unlock()
            subscription?.request(demand)
        case .terminal:
            unlock()
        }
    }

    /// Ends the link and cancels the upstream subscription. Idempotent.
    @inlinable
    package func cancel() {
        _ = finishAndCancel()
    }

    /// `cancel()` for an operator that ends its own state in the same critical section: with the lock held
    /// (``lock()``), ends the link and returns the upstream subscription, for the caller to cancel once it has
    /// released the lock (`nil` if the link had ended already, or had no subscription yet).
    ///
    /// ```swift
    /// link.lock()
    /// let upstream = link.cancelLocked()
    /// let released = held  // the operator's own teardown
    /// held = nil
    /// link.unlock()
    /// upstream?.cancel()
    /// ```
    @inlinable
    package func cancelLocked() -> (any Subscription & AnyObject)? {
        let state = self.state
        state.pointee.phase = .terminal
        return state.pointee.subscription.take()
    }

    /// Marks the link ended because upstream completed. Returns `true` only the first time, so the
    /// caller forwards exactly one completion. The subscription is released after the lock.
    @inlinable
    package func finish() -> Bool {
        lock()
        let state = self.state
        let previous = state.pointee.phase
        guard previous != .terminal else {
            unlock()
            return false
        }
        state.pointee.phase = .terminal
        let released = state.pointee.subscription.take()  // moved out, released after unlocking
        unlock()
        _ = consume released
        return true
    }

    /// Ends the link on the operator's own decision (e.g. `prefix` reached its count, `tryMap` threw)
    /// and cancels upstream. Returns `true` only if the link was still live.
    @inlinable
    package func finishAndCancel() -> Bool {
        lock()
        let wasLive = state.pointee.phase != .terminal
        let taken = cancelLocked()
        unlock()
        taken?.cancel()
        return wasLive
    }

    /// Whether the link has ended (completed or cancelled).
    @inlinable
    package var isTerminal: Bool {
        lock()
        defer { unlock() }
        return state.pointee.phase == .terminal
    }
}
