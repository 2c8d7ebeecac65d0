import Synchronization

/// Whose turn it is to call the downstream, in the engines that deliver serially for several sources
/// (``MergeCore`` for `merge`, `flatMap`, `switchToLatest`; ``CombiningCore`` for `combineLatest`, `zip`;
/// ``WithLatestFromInner``, whose other publisher may fail while a value is delivered).
///
/// Such an engine keeps its state under a lock and calls the downstream without it. The thread that finds
/// nobody delivering takes the turn and delivers; the others change the state under the lock and leave it to
/// that thread, which looks at the state again before it gives the turn back. The turn is an atomic so that
/// the common end of a delivery takes no lock: when the downstream returned no demand and nobody changed the
/// state meanwhile, the deliverer gives the turn back with one compare-and-exchange (``endsAtOnce()``) instead
/// of taking the lock to find nothing to do. That makes one lock round trip per value instead of two.
///
/// Three states: free, taken, and taken-and-marked (somebody changed the state under the lock while a delivery
/// ran). The rules that make it sound:
/// - only a thread holding the engine's lock takes a free turn (``claimOrMarkLocked()``, ``takeLocked()``), so
///   under the lock a free turn stays free;
/// - whoever changes, under the lock, something the deliverer must act on (a value to deliver, demand, a
///   completion, a cancelled downstream to release) while the turn is taken marks it, or takes it if it was
///   given back meanwhile (``claimOrMarkLocked()``);
/// - the deliverer gives the turn back without the lock only if it is unmarked (``endsAtOnce()``); otherwise it
///   takes the lock, looks at the state, and gives the turn back under the lock (``endLocked()``).
///
/// Memory order: giving the turn back releases and taking it acquires, so what the downstream did in one delivery
/// happens before the next delivery, on whichever thread.
///
/// ```swift
/// lock.lock()
/// if turn.claimOrMarkLocked() { drainLocked() } else { lock.unlock() }   // a value was queued
/// ```
@usableFromInline
struct DeliveryTurn: ~Copyable, Sendable {
    /// `0` free, `1` taken, `2` taken and marked.
    @usableFromInline
    let state = Atomic<UInt8>(0)

    @inlinable
    init() {}

    /// Whether a thread has the turn. Lock held; `true` may turn `false` meanwhile (a deliverer gives the turn back
    /// without the lock): to leave work to the deliverer, use ``claimOrMarkLocked()``.
    @inlinable
    var isTakenLocked: Bool { state.load(ordering: .acquiring) != 0 }

    /// Takes the turn, known to be free. Lock held (so it stays free until now).
    @inlinable
    func takeLocked() {
        state.store(1, ordering: .relaxed)
    }

    /// Takes the turn if it is free (returns `true`: this thread delivers), or else marks it, so that the deliverer
    /// looks at the state again before it gives the turn back (returns `false`). Lock held.
    @inlinable
    func claimOrMarkLocked() -> Bool {
        var current = state.load(ordering: .acquiring)
        while true {
            if current == 0 {
                state.store(1, ordering: .relaxed)  // nobody else takes a free turn while this thread holds the lock
                return true
            }
            if current == 2 { return false }
            let (exchanged, original) = state.compareExchange(
                expected: 1, desired: 2, ordering: .acquiringAndReleasing)
            if exchanged { return false }
            current = original  // the deliverer just gave the turn back
        }
    }

    /// Whether a thread has the turn, marking it if so (see ``claimOrMarkLocked()``); a free turn stays free. Lock
    /// held.
    @inlinable
    func markIfTakenLocked() -> Bool {
        var current = state.load(ordering: .acquiring)
        while current == 1 {
            let (exchanged, original) = state.compareExchange(
                expected: 1, desired: 2, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return current != 0
    }

    /// Gives the turn back. Lock held, by the deliverer, after it looked at the state.
    @inlinable
    func endLocked() {
        state.store(0, ordering: .releasing)
    }

    /// Gives the turn back without the lock if nobody marked it, and returns `true`; returns `false` (the turn still
    /// taken) if somebody did: take the lock and look. Only the deliverer calls this.
    @inlinable
    func endsAtOnce() -> Bool {
        state.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged
    }
}
