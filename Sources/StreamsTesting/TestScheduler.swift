import Streams

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
        /// The deadlines of scheduled actions, a binary min-heap on (deadline, sequence). A node whose timer was
        /// cancelled stays in the heap (its action already released) until it reaches the top, where it is
        /// discarded.
        var heap = TimerHeap()
        /// The actions of the heap's timers, each in a slot its handle names.
        var timers = TimerSlots()
        /// Actions scheduled to run as soon as possible (``TestScheduler/schedule(_:)``): they have no handle, so
        /// no cancel, and they come in (deadline, sequence) order, because the deadline is the clock when they
        /// are queued: a first-in first-out queue, without the heap's reordering per action.
        var soon = SoonQueue()

        /// Queues `action` at `deadline`, the next in scheduling order, and returns its slot and sequence number
        /// (the handle's parts).
        mutating func insertTimer(
            at deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void
        ) -> (slot: Int, sequence: UInt64) {
            let sequence = nextSequence
            nextSequence += 1
            let slot = timers.insert(action, sequence: sequence)
            heap.insert(TimerHeap.Node(deadline: deadline, sequence: sequence, slot: slot))
            return (slot, sequence)
        }

        /// Removes and returns the earliest live action due by `limit` (any live one when `nil`), from the heap or
        /// the queue, moving the clock to its deadline; cancelled timers met on the way are discarded.
        mutating func popDue(by limit: SchedulerInstant?) -> DueAction? {
            guard !heap.isEmpty || soon.count > 0 else { return nil }  // the common end of an `advance`, kept cheap
            while true {
                let top = heap.first
                if let next = soon.firstKey,
                    top.map({ !runsBefore($0.deadline, $0.sequence, next.deadline, next.sequence) }) ?? true
                {
                    // Due already: its deadline was the clock when it was queued.
                    now = max(now, next.deadline)
                    return soon.popFirst().map(DueAction.init)
                }
                guard let top else { return nil }
                // A cancelled timer keeps its place until it is taken out here, due or not (it holds no action).
                if let limit, top.deadline > max(limit, now), timers.holds(top.slot, top.sequence) { return nil }
                heap.removeFirst()
                guard let action = timers.take(top.slot, top.sequence) else { continue }
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
    public var pendingCount: Int { state.withLock { $0.timers.count + $0.soon.count } }

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
    ) -> TimerHandle {
        let (slot, sequence) = state.withLock { state in
            // A past deadline counts as now, so it keeps its place behind actions already due now.
            state.insertTimer(at: max(deadline ?? state.now + delay, state.now), action)
        }
        return TimerHandle(state: state, slot: slot, sequence: sequence)
    }

    /// Schedules `action` at `deadline` if the deadline is later than the clock, reading the clock and
    /// queueing the action under one lock; `nil` (and nothing queued) when the deadline is not in the future.
    func schedule(ifAfterNow deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void)
        -> (any Cancellable & Sendable)?
    {
        let timer = state.withLock { state -> (slot: Int, sequence: UInt64)? in
            guard deadline > state.now else { return nil }
            return state.insertTimer(at: deadline, action)
        }
        return timer.map { TimerHandle(state: state, slot: $0.slot, sequence: $0.sequence) }
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
        let released = state.withLock { state in
            state.heap = TimerHeap()
            return (state.timers.takeAll(), state.soon.takeActions())
        }
        _ = released  // released outside the lock: an action's captures may cancel other timers
    }
}

/// An action taken out of the queue, to run (or, when cancelled, to release). A struct rather than the bare closure:
/// returned through the lock's generic `withLock`, a bare closure would be re-abstracted, one allocation per action.
private struct DueAction {
    let run: @Sendable () -> Void
}

/// The handle of one timer: the slot that holds its action, and the sequence number that shows the slot still holds
/// this timer (a slot is reused once its timer has run or been cancelled). Three words, so an `any Cancellable` holds
/// it inline: scheduling allocates nothing but the caller's closure. It keeps the scheduler's state alive, not the
/// scheduler: cancelling after the scheduler is gone finds the slot empty and does nothing.
private struct TimerHandle: Cancellable, Sendable {
    let state: Locked<TestScheduler.State>
    let slot: Int
    let sequence: UInt64

    func cancel() {
        // Taken out as a `DueAction` (see there: no allocation).
        let released = state.withLock { $0.timers.take(slot, sequence).map(DueAction.init) }
        _ = released  // the closure is released here, outside the lock: its captures may cancel other timers
    }
}

/// Whether the action (`deadline`, `sequence`) runs before (`otherDeadline`, `otherSequence`): deadline first,
/// then scheduling order.
private func runsBefore(
    _ deadline: SchedulerInstant, _ sequence: UInt64, _ otherDeadline: SchedulerInstant, _ otherSequence: UInt64
) -> Bool {
    deadline < otherDeadline || (deadline == otherDeadline && sequence < otherSequence)
}

/// The actions of the scheduled timers, in reusable slots: a timer's handle names its slot and sequence number, so
/// a cancel finds the action without searching the heap, and a slot freed by a run or a cancel is reused by the next
/// timer (the sequence number tells the old timer's handle and heap node that it is gone).
private struct TimerSlots {
    struct Slot {
        var sequence: UInt64
        var action: (@Sendable () -> Void)?
    }

    private var slots: [Slot]
    private var free: [Int]
    /// How many slots hold an action.
    private(set) var count = 0

    init() {
        // Never the shared empty array: `popDue` makes `slots` unique on entry (the optimiser hoists that out of its
        // loop), which would copy the empty singleton on every call while no timer is scheduled.
        slots = []
        slots.reserveCapacity(4)
        free = []
        free.reserveCapacity(4)
    }

    /// Stores `action` for the timer `sequence` and returns its slot.
    mutating func insert(_ action: @escaping @Sendable () -> Void, sequence: UInt64) -> Int {
        count += 1
        guard let slot = free.popLast() else {
            slots.append(Slot(sequence: sequence, action: action))
            return slots.count - 1
        }
        slots[slot] = Slot(sequence: sequence, action: action)  // a free slot holds no action: nothing released
        return slot
    }

    /// Whether `slot` still holds the action of the timer `sequence`.
    func holds(_ slot: Int, _ sequence: UInt64) -> Bool {
        slots[slot].sequence == sequence && slots[slot].action != nil
    }

    /// Takes the action of the timer `sequence` out of `slot` and frees the slot; `nil` when the timer has already
    /// run or been cancelled.
    mutating func take(_ slot: Int, _ sequence: UInt64) -> (@Sendable () -> Void)? {
        guard slot < slots.count, slots[slot].sequence == sequence, let action = slots[slot].action.take() else {
            return nil
        }
        free.append(slot)
        count -= 1
        return action
    }

    /// Takes every action out, for release by the caller.
    mutating func takeAll() -> [@Sendable () -> Void] {
        defer {
            slots = []
            free = []
            count = 0
        }
        return slots.compactMap(\.action)
    }
}

/// The deadlines of the scheduled timers: a binary min-heap of plain values on (deadline, sequence). Reordering
/// moves no references, so it retains and releases nothing.
private struct TimerHeap {
    struct Node {
        let deadline: SchedulerInstant
        let sequence: UInt64
        let slot: Int

        func precedes(_ other: Node) -> Bool { runsBefore(deadline, sequence, other.deadline, other.sequence) }
    }

    private var nodes: [Node] = []

    var first: Node? { nodes.first }

    var isEmpty: Bool { nodes.isEmpty }

    mutating func insert(_ node: Node) {
        var hole = nodes.count
        nodes.append(node)
        while hole > 0 {
            let parent = (hole - 1) / 2
            guard node.precedes(nodes[parent]) else { break }
            nodes[hole] = nodes[parent]
            hole = parent
        }
        nodes[hole] = node
    }

    mutating func removeFirst() {
        guard let last = nodes.popLast(), !nodes.isEmpty else { return }
        let count = nodes.count
        var hole = 0
        while true {
            let left = 2 * hole + 1
            guard left < count else { break }
            let right = left + 1
            let child = right < count && nodes[right].precedes(nodes[left]) ? right : left
            guard nodes[child].precedes(last) else { break }
            nodes[hole] = nodes[child]
            hole = child
        }
        nodes[hole] = last
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

    /// The entries at `head..<tail` are waiting; the slots around them were taken out (their actions are `nil`) and
    /// are kept for reuse: an empty queue restarts at slot 0, so a steady stream never resizes the array.
    private var entries: [Entry] = []
    private var head = 0
    private var tail = 0

    var count: Int { tail - head }

    /// The deadline and sequence number of the next entry, if any.
    var firstKey: (deadline: SchedulerInstant, sequence: UInt64)? {
        head < tail ? (entries[head].deadline, entries[head].sequence) : nil
    }

    mutating func append(deadline: SchedulerInstant, sequence: UInt64, _ action: @escaping @Sendable () -> Void) {
        let entry = Entry(deadline: deadline, sequence: sequence, action: action)
        if tail < entries.count {
            entries[tail] = entry
        } else {
            entries.append(entry)
        }
        tail += 1
    }

    /// Takes the next action out.
    mutating func popFirst() -> (@Sendable () -> Void)? {
        guard head < tail else { return nil }
        let action = entries[head].action.take()  // moved out: nothing retained or released
        head += 1
        if head == tail {
            head = 0
            tail = 0
        } else if head >= 64 && head * 2 >= tail {
            entries.removeFirst(head)  // amortised: at least as many were taken out as remain
            tail -= head
            head = 0
        }
        return action
    }

    /// Takes every waiting action out, for the caller to release.
    mutating func takeActions() -> [@Sendable () -> Void] {
        defer {
            entries = []
            head = 0
            tail = 0
        }
        return entries[head..<tail].compactMap(\.action)
    }
}
