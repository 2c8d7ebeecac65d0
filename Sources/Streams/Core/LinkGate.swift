import Synchronization

/// The upstream side of an operator with one upstream and one downstream, without a lock: one atomic word
/// holds the link's phase and how many threads are using the operator's state right now ("users").
///
/// The phase goes `waiting` → `attaching` → `subscribed` → `terminal`, or straight to `terminal` from any of
/// them. A thread that wants to read the stored upstream subscription, or the operator's subscriber and
/// closures, first *enters* as a user (refused once the link is terminal) and *exits* when done. The
/// operator's state is released by exactly one thread: whoever leaves the link terminal with no user
/// (the thread that ends it while nobody is inside, or the last user out afterwards). So a user may use
/// that state in place, with no lock and no retain, while another thread cancels.
///
/// Demand requested before the attach is kept in `pending` and forwarded by whichever side sees the other:
/// the attach takes it after moving to `subscribed`; a request that added to it re-reads the phase and,
/// if the attach has happened meanwhile, takes it back itself. Those four steps are sequentially consistent,
/// so one of the two always sees the other.
///
/// - Threading: every method may be called from any thread. The operator calls `beginAttach`/`finishAttach`
///   from its `receive(subscription:)`; `end` from its completion (upstream, serial with values) and from
///   `cancel` (any thread); `enter`/`exit` around each use of its state; `request` from `request(_:)`.
///
/// ```swift
/// if gate.enter() {
///     defer { if gate.exit() { release() } }
///     // use the subscriber and closures in place
/// }
/// ```
@usableFromInline
struct LinkGate: ~Copyable, Sendable {
    /// Phase in the low two bits, the user count above them (in steps of `LinkPhase.user`).
    @usableFromInline
    let word = Atomic<UInt>(LinkPhase.waiting)
    /// Raw demand requested before the link was subscribed.
    @usableFromInline
    let pending = Atomic<UInt>(0)

    @inlinable
    init() {}

    /// Moves `waiting` → `attaching` and enters as a user. `false` (and nothing changed) if the link
    /// already has a subscription or has ended: the caller then cancels the subscription it was offered.
    @inlinable
    func beginAttach() -> Bool {
        var current = word.load(ordering: .relaxed)
        while current & LinkPhase.mask == LinkPhase.waiting {
            let (exchanged, found) = word.compareExchange(
                expected: current, desired: (current | LinkPhase.attaching) + LinkPhase.user,
                ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = found
        }
        return false
    }

    /// After storing the subscription, moves `attaching` → `subscribed` (publishing it to later users) and
    /// takes the demand requested meanwhile, which the caller forwards. `nil` if the link ended while
    /// attaching: the caller, still a user, cancels the subscription it stored.
    @inlinable
    func finishAttach() -> Subscribers.Demand? {
        var current = word.load(ordering: .relaxed)
        while current & LinkPhase.mask == LinkPhase.attaching {
            let (exchanged, found) = word.compareExchange(
                expected: current, desired: current - LinkPhase.attaching + LinkPhase.subscribed,
                ordering: .sequentiallyConsistent)
            if exchanged {
                return Subscribers.Demand(rawValue: pending.exchange(0, ordering: .sequentiallyConsistent))
            }
            current = found
        }
        return nil
    }

    /// Enters as a user unless the link has ended.
    @inlinable
    func enter() -> Bool {
        var current = word.load(ordering: .relaxed)
        while current & LinkPhase.mask != LinkPhase.terminal {
            let (exchanged, found) = word.compareExchange(
                expected: current, desired: current + LinkPhase.user, successOrdering: .acquiring,
                failureOrdering: .relaxed)
            if exchanged { return true }
            current = found
        }
        return false
    }

    /// Leaves. `true` if the caller was the last user of an ended link: it must now release the state.
    @inlinable
    func exit() -> Bool {
        word.wrappingSubtract(LinkPhase.user, ordering: .acquiringAndReleasing).newValue == LinkPhase.terminal
    }

    /// Ends the link and enters as a user (the caller `exit`s when done). Returns the phase it ended
    /// from (`LinkPhase.subscribed`: the caller may use the stored subscription to cancel it), or `nil`
    /// if it had already ended (the caller is not a user then).
    @inlinable
    func end() -> UInt? {
        var current = word.load(ordering: .relaxed)
        while current & LinkPhase.mask != LinkPhase.terminal {
            let (exchanged, found) = word.compareExchange(
                expected: current, desired: (current | LinkPhase.terminal) + LinkPhase.user,
                ordering: .acquiringAndReleasing)
            if exchanged { return current & LinkPhase.mask }
            current = found
        }
        return nil
    }

    /// Whether the link has ended (a hint: it may end right after).
    @inlinable
    var isTerminal: Bool { word.load(ordering: .acquiring) & LinkPhase.mask == LinkPhase.terminal }

    /// Hands `demand` to `forward` as a user of a subscribed link, or keeps it for the attach. Returns
    /// `true` if the caller must release the state (it left an ended link last).
    @inlinable
    func request(_ demand: Subscribers.Demand, forward: (Subscribers.Demand) -> Void) -> Bool {
        guard demand > .none else { return false }
        var demand = demand
        var current = word.load(ordering: .sequentiallyConsistent)
        while true {
            switch current & LinkPhase.mask {
            case LinkPhase.terminal:
                return false
            case LinkPhase.subscribed:
                let (exchanged, found) = word.compareExchange(
                    expected: current, desired: current + LinkPhase.user, successOrdering: .acquiring,
                    failureOrdering: .relaxed)
                if exchanged {
                    forward(demand)
                    return exit()
                }
                current = found
            default:
                // Not attached yet: keep it for the attach, then look again in case the attach has
                // just taken what was pending without this.
                addPending(demand)
                current = word.load(ordering: .sequentiallyConsistent)
                guard current & LinkPhase.mask == LinkPhase.subscribed else { return false }
                let raw = pending.exchange(0, ordering: .sequentiallyConsistent)
                guard raw > 0 else { return false }
                demand = Subscribers.Demand(rawValue: raw)
            }
        }
    }

    /// Adds to `pending`, saturating at `.unlimited`.
    @inlinable
    func addPending(_ demand: Subscribers.Demand) {
        var current = pending.load(ordering: .relaxed)
        while true {
            let next = (Subscribers.Demand(rawValue: current) + demand).rawValue
            let (exchanged, found) = pending.compareExchange(
                expected: current, desired: next, ordering: .sequentiallyConsistent)
            if exchanged { return }
            current = found
        }
    }
}

/// The phases of a ``LinkGate`` (the low two bits of its word) and the step of its user count.
@usableFromInline
enum LinkPhase {
    @usableFromInline static let waiting: UInt = 0
    @usableFromInline static let attaching: UInt = 1
    @usableFromInline static let subscribed: UInt = 2
    @usableFromInline static let terminal: UInt = 3
    @usableFromInline static let mask: UInt = 3
    @usableFromInline static let user: UInt = 4
}
