import OpenCombine

#if canImport(Glibc)
    import Glibc
#endif

/// A virtual-time scheduler for OpenCombine, built like StreamsTesting's `TestScheduler` so that the timing
/// scenarios compare the operators, not the schedulers: pending actions in a binary min-heap on (deadline,
/// scheduling order) under a pthread mutex, each node keeping its keys beside the action so that ordering reads
/// plain values, nodes moved into a hole when sifting. It also supports repeating actions, which OpenCombine's
/// `debounce` schedules (and cancels once they fire): their handle marks a token that the scheduler checks.
/// A one-shot action needs no handle in Combine's API, so it costs no allocation beyond its closure.
final class VirtualScheduler: Scheduler, @unchecked Sendable {
    /// Virtual nanoseconds.
    struct SchedulerTimeType: Strideable, Hashable {
        var nanoseconds: Int64

        func distance(to other: Self) -> Stride { Stride(nanoseconds: other.nanoseconds - nanoseconds) }
        func advanced(by stride: Stride) -> Self { Self(nanoseconds: nanoseconds + stride.nanoseconds) }
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

        /// An interval of virtual nanoseconds.
        struct Stride: Comparable, SignedNumeric, SchedulerTimeIntervalConvertible {
            var nanoseconds: Int64

            init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
            init(integerLiteral value: Int64) { nanoseconds = value }
            init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int64(exactly: source) else { return nil }
                nanoseconds = value
            }

            var magnitude: Int64 { nanoseconds.magnitude > Int64.max ? .max : Int64(nanoseconds.magnitude) }

            static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
            static func + (lhs: Self, rhs: Self) -> Self { Self(nanoseconds: lhs.nanoseconds + rhs.nanoseconds) }
            static func - (lhs: Self, rhs: Self) -> Self { Self(nanoseconds: lhs.nanoseconds - rhs.nanoseconds) }
            static func * (lhs: Self, rhs: Self) -> Self { Self(nanoseconds: lhs.nanoseconds * rhs.nanoseconds) }
            static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
            static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
            static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }

            static func seconds(_ value: Int) -> Self { Self(nanoseconds: Int64(value) * 1_000_000_000) }
            static func seconds(_ value: Double) -> Self { Self(nanoseconds: Int64(value * 1_000_000_000)) }
            static func milliseconds(_ value: Int) -> Self { Self(nanoseconds: Int64(value) * 1_000_000) }
            static func microseconds(_ value: Int) -> Self { Self(nanoseconds: Int64(value) * 1_000) }
            static func nanoseconds(_ value: Int) -> Self { Self(nanoseconds: Int64(value)) }
        }
    }

    typealias SchedulerOptions = Never

    /// Marks a repeating action cancelled. Guarded by the scheduler's `mutex`.
    private final class Token {
        var isCancelled = false
    }

    private struct Node {
        var deadline: SchedulerTimeType
        /// Scheduling order, the tie-break between equal deadlines.
        var order: UInt64
        let interval: SchedulerTimeType.Stride?
        let token: Token?
        let action: () -> Void

        func precedes(_ other: Node) -> Bool {
            deadline.nanoseconds < other.deadline.nanoseconds
                || (deadline.nanoseconds == other.deadline.nanoseconds && order < other.order)
        }
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Guarded by `mutex`.
    private var current = SchedulerTimeType(nanoseconds: 0)
    private var nextSequence: UInt64 = 0
    private var heap: [Node] = []

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    var now: SchedulerTimeType { locked { current } }
    var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        enqueue(at: nil, interval: nil, token: nil, action)
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        enqueue(at: date, interval: nil, token: nil, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let token = Token()
        enqueue(at: date, interval: interval, token: token, action)
        return ScheduledAction { [weak self] in
            guard let self else { return }
            self.locked { token.isCancelled = true }
        }
    }

    private func enqueue(
        at deadline: SchedulerTimeType?, interval: SchedulerTimeType.Stride?, token: Token?,
        _ action: @escaping () -> Void
    ) {
        locked {
            let due = max(deadline ?? current, current)
            push(Node(deadline: due, order: nextSequence, interval: interval, token: token, action: action))
            nextSequence += 1
        }
    }

    /// Moves the clock forward by `stride`, running every action due by then.
    func advance(by stride: SchedulerTimeType.Stride) {
        let target = now.advanced(by: stride)
        while let action = nextAction(dueBy: target) { action() }
        locked { current = max(current, target) }
    }

    /// Takes the earliest action due by `limit`; a repeating one is put back at its next deadline first, a
    /// cancelled one is dropped.
    private func nextAction(dueBy limit: SchedulerTimeType) -> (() -> Void)? {
        locked {
            while !heap.isEmpty {
                if heap[0].token?.isCancelled == true {
                    _ = pop()
                    continue
                }
                guard heap[0].deadline <= max(limit, current) else { return nil }
                var node = pop()
                current = max(current, node.deadline)
                if let interval = node.interval {
                    node.deadline = node.deadline.advanced(by: interval)
                    node.order = nextSequence
                    nextSequence += 1
                    let action = node.action
                    push(node)
                    return action
                }
                return node.action
            }
            return nil
        }
    }

    /// Adds `node` to the heap (mutex held): moved up through a hole, not swapped.
    private func push(_ node: Node) {
        heap.append(node)
        heap.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var hole = buffer.count - 1
            let moving = (base + hole).move()
            while hole > 0 {
                let parent = (hole - 1) / 2
                guard moving.precedes(base[parent]) else { break }
                (base + hole).initialize(to: (base + parent).move())
                hole = parent
            }
            (base + hole).initialize(to: moving)
        }
    }

    /// Removes and returns the earliest node (mutex held; the heap is not empty): the last node sifts down
    /// through a hole.
    private func pop() -> Node {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return last }
        return heap.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            let first = base.move()
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
            return first
        }
    }
}

/// The handle of a scheduled action; cancelling removes it from its scheduler.
private final class ScheduledAction: Cancellable, @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var onCancel: (() -> Void)?

    init(_ onCancel: @escaping () -> Void) {
        self.onCancel = onCancel
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func cancel() {
        pthread_mutex_lock(mutex)
        let action = onCancel
        onCancel = nil
        pthread_mutex_unlock(mutex)
        action?()
    }
}
