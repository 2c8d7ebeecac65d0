import Streams
import Synchronization

/// A scheduler with a virtual clock that moves only when a test says so.
///
/// Nothing runs until you call ``advance(by:)``, ``advance(to:)`` or ``run(limit:)``. Then every action due
/// by the target time runs, in deadline order, and actions with the same deadline in the order they
/// were scheduled; ``now`` is set to each action's deadline while it runs (never backwards), and to the
/// target at the end. Actions may schedule more actions, which run in the same call if they are due.
/// A cancelled action never runs and is released at once.
///
/// - Threading: safe to schedule from any thread; actions run on the thread that advances. The clock and the
///   queue of actions are guarded by a lock; `frameDuration` is immutable.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let c = subject.debounce(for: .milliseconds(500), scheduler: scheduler).sink { print($0) }
/// subject.send("a")
/// scheduler.advance(by: .milliseconds(500))   // prints "a"
/// ```
public final class TestScheduler: Scheduler, @unchecked Sendable {
    fileprivate struct State {
        var now: SchedulerInstant
        var nextSequence: UInt64 = 0
        /// Scheduled actions, a binary min-heap on (deadline, sequence). A cancelled item stays in the
        /// heap (its action already released) until it reaches the top, where it is discarded.
        var heap = TimerHeap()
        /// Actions scheduled to run as soon as possible (``TestScheduler/schedule(_:)``): they have no handle, so
        /// no cancel, and they come in (deadline, sequence) order, because the deadline is the clock when they
        /// are queued: a first-in first-out queue, without the heap's allocation and reordering per action.
        var soon = SoonQueue()

        /// Queues a timer item for `action` at `deadline`, the next in scheduling order, and returns it (its handle).
        mutating func insertTimer(
            at deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void
        ) -> TimerItem {
            let item = TimerItem(action)
            heap.insert(item, deadline: deadline, sequence: nextSequence)
            nextSequence += 1
            return item
        }

        /// Removes and returns the earliest live action due by `limit` (any live one when `nil`), from the heap or
        /// the queue, moving the clock to its deadline; cancelled items met on the way are discarded.
        mutating func popDue(by limit: SchedulerInstant?) -> DueAction? {
            while true {
                // The heap's order is read from its keys: no item is touched until one is taken out.
                let top = heap.firstKey
                if let next = soon.firstKey,
                    top.map({ !runsBefore($0.deadline, $0.sequence, next.deadline, next.sequence) }) ?? true
                {
                    // Due already: its deadline was the clock when it was queued.
                    now = max(now, next.deadline)
                    return soon.popFirst().map(DueAction.init)
                }
                guard let top else { return nil }
                // A cancelled item keeps its place until it is taken out here, due or not (it holds no action).
                if let limit, top.deadline > max(limit, now), top.isPending { return nil }
                // A cancel may win the item between the check and here: then it is simply dropped.
                guard let action = heap.removeFirst()?.take() else { continue }
                now = max(now, top.deadline)
                return DueAction(run: action)
            }
        }
    }

    private let state: Locked<State>

    /// The length of one frame of the marble diagrams written for this scheduler (default 1 ms).
    public let frameDuration: Duration

    /// A scheduler whose clock starts at `now` (default `.zero`), with marble frames of `frameDuration`
    /// (default 1 ms; must be positive).
    ///
    /// ```swift
    /// let scheduler = TestScheduler(frameDuration: .milliseconds(10))  // "--a" puts a at 20 ms
    /// ```
    public init(now: SchedulerInstant = .zero, frameDuration: Duration = .milliseconds(1)) {
        precondition(frameDuration > .zero, "a marble frame must last longer than zero")
        state = Locked(State(now: now))
        self.frameDuration = frameDuration
    }

    /// `count` frames of virtual time, for timing arguments that line up with marble diagrams.
    ///
    /// ```swift
    /// input.debounce(for: scheduler.frames(3), scheduler: scheduler)
    /// ```
    public func frames(_ count: Int) -> Duration { frameDuration * count }

    /// The virtual time.
    public var now: SchedulerInstant { state.withLock { $0.now } }

    /// How many actions are waiting to run.
    public var pendingCount: Int { state.withLock { $0.heap.pendingCount + $0.soon.count } }

    /// Schedules `action` at the current virtual time; it runs at the next `advance`.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.soon.append(deadline: state.now, sequence: state.nextSequence, action)
            state.nextSequence += 1
        }
    }

    /// Schedules `action` at `deadline`. A past deadline counts as now: the action runs at the next
    /// `advance`, after the actions already due now.
    public func schedule(after deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void)
        -> any Cancellable
    {
        enqueue(at: deadline, action)
    }

    @discardableResult
    /// Schedules `action` `delay` from now, reading the clock and queueing the action under one lock.
    public func schedule(afterDelay delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Cancellable {
        enqueue(at: nil, after: delay, action)
    }

    /// Queues `action` at `deadline`, or at now + `delay` when `deadline` is `nil`.
    @discardableResult
    private func enqueue(
        at deadline: SchedulerInstant?, after delay: Duration = .zero, _ action: @escaping @Sendable () -> Void
    ) -> TimerItem {
        state.withLock { state in
            // A past deadline counts as now, so it keeps its place behind actions already due now.
            state.insertTimer(at: max(deadline ?? state.now + delay, state.now), action)
        }
    }

    /// Schedules `action` at `deadline` if the deadline is later than the clock, reading the clock and
    /// queueing the action under one lock; `nil` (and nothing queued) when the deadline is not in the future.
    func schedule(ifAfterNow deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void)
        -> (any Cancellable & Sendable)?
    {
        state.withLock { state -> (any Cancellable & Sendable)? in
            guard deadline > state.now else { return nil }
            return state.insertTimer(at: deadline, action)
        }
    }

    /// Moves the clock forward by `duration` (default `.zero`: run what is due now), running every
    /// action due by then. A negative duration is treated as `.zero`.
    public func advance(by duration: Duration = .zero) {
        advance { now in now + max(duration, .zero) }
    }

    /// Moves the clock to `instant`, running every action due by then. An instant in the past runs
    /// what is due now and leaves the clock where it is.
    public func advance(to instant: SchedulerInstant) {
        advance { _ in instant }
    }

    /// Runs every action due by the target, which `target` computes from the clock in the first critical
    /// section; once nothing more is due, the same critical section moves the clock to the target.
    private func advance(_ target: (SchedulerInstant) -> SchedulerInstant) {
        var instant: SchedulerInstant?
        while let action = state.withLock({ state in
            let limit = instant ?? target(state.now)
            instant = limit
            let action = state.popDue(by: limit)
            if action == nil { state.now = max(state.now, limit) }
            return action
        }) {
            action.run()
        }
    }

    /// Runs every pending action, including those they schedule, moving the clock to each deadline,
    /// until nothing is pending. Stops after `limit` actions to guard against endless timers.
    public func run(limit: Int = 1_000_000) {
        var count = 0
        while count < limit, let action = nextAction(dueBy: nil) {
            action.run()
            count += 1
        }
    }

    /// Runs pending actions in order, moving the clock to each one's deadline, until nothing is pending or the
    /// next action is due after `limit`; the clock stays at the last action run (unlike ``advance(to:)``).
    func runUntilIdle(notAfter limit: SchedulerInstant) {
        while let action = nextAction(dueBy: limit) {
            action.run()
        }
    }

    /// Removes the earliest action due by `limit` (any action when `nil`) and moves the clock to it.
    private func nextAction(dueBy limit: SchedulerInstant?) -> DueAction? {
        state.withLock { $0.popDue(by: limit) }
    }

    deinit {
        // Pending actions go with the scheduler, even those whose handle someone still holds.
        let released = state.withLock { ($0.heap.takeActions(), $0.soon.takeActions()) }
        _ = released  // released outside the lock: an action's captures may cancel other items
    }
}

/// An action taken out of the queue to run. A struct rather than the bare closure: returned through the lock's
/// generic `withLock`, a bare closure would be re-abstracted, one allocation per action run.
private struct DueAction {
    let run: @Sendable () -> Void
}

/// A scheduled action and its handle. Whoever first takes the action, the scheduler to run it or a
/// `cancel()` to drop it, wins an atomic flag; only the winner touches `action`, so cancelling takes no
/// lock and releases the action at once.
private final class TimerItem: Cancellable, @unchecked Sendable {
    private let taken = Atomic<Bool>(false)
    private var action: (@Sendable () -> Void)?

    init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    /// Neither run nor cancelled yet.
    var isPending: Bool { !taken.load(ordering: .acquiring) }

    /// The action, for the one caller that takes it first; `nil` for everyone else.
    func take() -> (@Sendable () -> Void)? {
        guard !taken.exchange(true, ordering: .acquiringAndReleasing) else { return nil }
        return action.take()
    }

    func cancel() {
        let released = take()
        _ = released  // the closure is released here
    }
}

/// Whether an action due at `deadline` and queued as `sequence` runs before one due at `otherDeadline` and queued as
/// `otherSequence`: earlier deadline first, then scheduling order.
private func runsBefore(
    _ deadline: SchedulerInstant, _ sequence: UInt64, _ otherDeadline: SchedulerInstant, _ otherSequence: UInt64
) -> Bool {
    deadline < otherDeadline || (deadline == otherDeadline && sequence < otherSequence)
}

/// A binary min-heap of timer items: earlier deadline first, then scheduling order.
///
/// Each node keeps its item's deadline and sequence number (only there) beside the reference, so ordering the heap
/// reads plain values and never touches (retains, releases) an item; sifting moves nodes into a hole (no copy, so no
/// retain and release per level) instead of swapping them.
private struct TimerHeap {
    struct Node {
        let deadline: SchedulerInstant
        let sequence: UInt64
        let item: TimerItem

        /// Whether this node's item runs before `other`'s: earlier deadline first, then scheduling order.
        func precedes(_ other: Node) -> Bool { runsBefore(deadline, sequence, other.deadline, other.sequence) }
    }

    private var nodes: [Node] = []

    /// The earliest node's deadline and sequence number, and whether its item is still pending.
    var firstKey: (deadline: SchedulerInstant, sequence: UInt64, isPending: Bool)? {
        guard !nodes.isEmpty else { return nil }
        return (nodes[0].deadline, nodes[0].sequence, nodes[0].item.isPending)
    }

    /// Takes every item's action (leaving the items cancelled), for the caller to release.
    func takeActions() -> [@Sendable () -> Void] {
        nodes.compactMap { $0.item.take() }
    }

    /// Items neither run nor cancelled.
    var pendingCount: Int { nodes.reduce(0) { $0 + ($1.item.isPending ? 1 : 0) } }

    mutating func insert(_ item: TimerItem, deadline: SchedulerInstant, sequence: UInt64) {
        nodes.append(Node(deadline: deadline, sequence: sequence, item: item))
        nodes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // Sound: the buffer is the array's storage, all initialized, for this call only. The new node is moved
            // out of the last slot, each parent it passes is moved down into the hole it leaves, and the node is
            // moved into the last hole: on return every slot holds exactly one node again, none retained twice.
            var hole = buffer.count - 1
            let node = (base + hole).move()
            while hole > 0 {
                let parent = (hole - 1) / 2
                guard node.precedes(base[parent]) else { break }
                (base + hole).initialize(to: (base + parent).move())
                hole = parent
            }
            (base + hole).initialize(to: node)
        }
    }

    /// Removes the earliest node and returns its item.
    mutating func removeFirst() -> TimerItem? {
        guard let last = nodes.popLast() else { return nil }
        guard !nodes.isEmpty else { return last.item }
        return nodes.withUnsafeMutableBufferPointer { buffer -> TimerItem? in
            guard let base = buffer.baseAddress else { return nil }
            // Sound, as in `insert`: the top node is moved out (to the caller), each smaller child moves up into
            // the hole, and the former last node fills the final hole.
            let removed = base.move()
            let count = buffer.count
            var hole = 0
            while true {
                let left = 2 * hole + 1
                guard left < count else { break }
                let right = left + 1
                let child = right < count && base[right].precedes(base[left]) ? right : left
                guard base[child].precedes(last) else { break }
                (base + hole).initialize(to: (base + child).move())
                hole = child
            }
            (base + hole).initialize(to: last)
            return removed.item
        }
    }
}

/// The actions a ``TestScheduler`` runs as soon as possible, first in first out. Each is released when it is
/// taken out.
private struct SoonQueue {
    struct Entry {
        let deadline: SchedulerInstant
        let sequence: UInt64
        /// `nil` once taken out.
        var action: (@Sendable () -> Void)?
    }

    /// The entries from `head` on are waiting; the ones before it were taken out.
    private var entries: [Entry] = []
    private var head = 0

    var count: Int { entries.count - head }

    /// The deadline and sequence number of the next entry, if any.
    var firstKey: (deadline: SchedulerInstant, sequence: UInt64)? {
        head < entries.count ? (entries[head].deadline, entries[head].sequence) : nil
    }

    mutating func append(deadline: SchedulerInstant, sequence: UInt64, _ action: @escaping @Sendable () -> Void) {
        entries.append(Entry(deadline: deadline, sequence: sequence, action: action))
    }

    /// Takes the next action out.
    mutating func popFirst() -> (@Sendable () -> Void)? {
        guard head < entries.count else { return nil }
        let action = entries[head].action.take()  // moved out: nothing retained or released
        head += 1
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= entries.count {
            entries.removeFirst(head)  // amortised: at least as many were taken out as remain
            head = 0
        }
        return action
    }

    /// Takes every waiting action out, for the caller to release.
    mutating func takeActions() -> [@Sendable () -> Void] {
        defer {
            entries = []
            head = 0
        }
        return entries[head...].compactMap(\.action)
    }
}
