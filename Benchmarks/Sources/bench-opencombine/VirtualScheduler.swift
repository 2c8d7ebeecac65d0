import OpenCombine

#if canImport(Glibc)
    import Glibc
#endif

/// A virtual-time scheduler for OpenCombine, built like StreamsTesting's `TestScheduler` so that the
/// debounce scenario compares the operators, not the schedulers: pending actions in a dictionary keyed
/// by sequence number under a pthread mutex, the earliest found by a linear scan, cancellation through
/// a handle that removes the entry. It also supports repeating actions, which OpenCombine's `debounce`
/// schedules (and cancels once they fire).
final class VirtualScheduler: Scheduler, @unchecked Sendable {
    /// Virtual nanoseconds.
    struct SchedulerTimeType: Strideable, Hashable {
        var nanoseconds: Int64

        func distance(to other: Self) -> Stride { Stride(nanoseconds: other.nanoseconds - nanoseconds) }
        func advanced(by stride: Stride) -> Self { Self(nanoseconds: nanoseconds + stride.nanoseconds) }

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

    private struct Item {
        var deadline: SchedulerTimeType
        /// Scheduling order, the tie-break between equal deadlines.
        var order: UInt64
        let interval: SchedulerTimeType.Stride?
        let action: () -> Void
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Guarded by `mutex`.
    private var current = SchedulerTimeType(nanoseconds: 0)
    private var nextSequence: UInt64 = 0
    private var items: [UInt64: Item] = [:]

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
        _ = enqueue(at: nil, interval: nil, action)
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        _ = enqueue(at: date, interval: nil, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let sequence = enqueue(at: date, interval: interval, action)
        return ScheduledAction { [weak self] in
            guard let self else { return }
            let removed = self.locked { self.items.removeValue(forKey: sequence) }
            _ = removed
        }
    }

    private func enqueue(
        at deadline: SchedulerTimeType?, interval: SchedulerTimeType.Stride?, _ action: @escaping () -> Void
    ) -> UInt64 {
        locked {
            let sequence = nextSequence
            nextSequence += 1
            let due = max(deadline ?? current, current)
            items[sequence] = Item(deadline: due, order: sequence, interval: interval, action: action)
            return sequence
        }
    }

    /// Moves the clock forward by `stride`, running every action due by then.
    func advance(by stride: SchedulerTimeType.Stride) {
        let target = now.advanced(by: stride)
        while let action = nextAction(dueBy: target) { action() }
        locked { current = max(current, target) }
    }

    /// Takes the earliest action due by `limit`; a repeating one is put back at its next deadline first.
    private func nextAction(dueBy limit: SchedulerTimeType) -> (() -> Void)? {
        locked {
            var best: (key: UInt64, item: Item)?
            for (key, item) in items {
                if let chosen = best {
                    if item.deadline < chosen.item.deadline
                        || (item.deadline == chosen.item.deadline && item.order < chosen.item.order)
                    {
                        best = (key, item)
                    }
                } else {
                    best = (key, item)
                }
            }
            guard let (key, item) = best, item.deadline <= max(limit, current) else { return nil }
            current = max(current, item.deadline)
            if let interval = item.interval {
                var next = item
                next.deadline = item.deadline.advanced(by: interval)
                next.order = nextSequence
                nextSequence += 1
                items[key] = next
            } else {
                items.removeValue(forKey: key)
            }
            return item.action
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
