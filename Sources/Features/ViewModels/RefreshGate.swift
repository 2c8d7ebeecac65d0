import Streams

/// Whether a load of a refreshable list is in flight, decided in one place under a lock.
///
/// - ``begin()`` starts a load when none is in flight (returns its ``Load``), or returns `nil`: the load in
///   flight will answer the caller too (coalesced).
/// - ``end(_:)`` ends that load; call it *before* its answer is published, so a caller that has seen the answer
///   and asks again always starts a new load. Ending a load that is no longer the current one does nothing,
///   so a late cancel cannot end a newer load.
/// - Threading: every method may be called from any thread.
///
/// ```swift
/// let gate = RefreshGate()
/// if let load = gate.begin() { /* send the request; when it answers: */ gate.end(load) }
/// ```
final class RefreshGate: Sendable {
    /// One load, told apart from the ones before it.
    struct Load: Sendable, Equatable {
        fileprivate let number: UInt64
    }

    private struct State {
        var current: Load?
        var count: UInt64 = 0
    }

    private let state = Locked(State())

    /// A new load when none is in flight; `nil` when one is (the caller is answered by it).
    func begin() -> Load? {
        state.withLock { state in
            guard state.current == nil else { return nil }
            state.count &+= 1
            let load = Load(number: state.count)
            state.current = load
            return load
        }
    }

    /// Ends `load` if it is the one in flight (idempotent).
    func end(_ load: Load) {
        state.withLock { state in
            if state.current == load { state.current = nil }
        }
    }
}
