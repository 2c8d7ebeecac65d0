import OpenCombine

/// A virtual-time scheduler for OpenCombine with the same rules as Streams' `TestScheduler`: actions run in
/// deadline order, actions with the same deadline in the order they were scheduled, a past deadline counts
/// as now, and nothing runs outside ``advance(to:)``. Single-threaded by design (the check runs one case
/// at a time on one thread).
final class VirtualScheduler: OpenCombine.Scheduler {
    /// A point in virtual time, in ticks.
    struct SchedulerTimeType: Strideable, Hashable {
        var tick: Int

        init(tick: Int) { self.tick = tick }

        func distance(to other: Self) -> Stride { Stride(other.tick - tick) }
        func advanced(by n: Stride) -> Self { Self(tick: tick + n.ticks) }

        /// An interval, in ticks.
        struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable {
            var ticks: Int

            init(_ ticks: Int) { self.ticks = ticks }
            init(integerLiteral value: Int) { ticks = value }
            init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                ticks = value
            }

            var magnitude: Int { abs(ticks) }

            static func seconds(_ s: Int) -> Stride { Stride(s * 1000) }
            static func seconds(_ s: Double) -> Stride { Stride(Int(s * 1000)) }
            static func milliseconds(_ ms: Int) -> Stride { Stride(ms) }
            static func microseconds(_ us: Int) -> Stride { Stride(us / 1000) }
            static func nanoseconds(_ ns: Int) -> Stride { Stride(ns / 1_000_000) }

            static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.ticks < rhs.ticks }
            static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.ticks + rhs.ticks) }
            static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.ticks - rhs.ticks) }
            static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.ticks * rhs.ticks) }
            static func += (lhs: inout Stride, rhs: Stride) { lhs.ticks += rhs.ticks }
            static func -= (lhs: inout Stride, rhs: Stride) { lhs.ticks -= rhs.ticks }
            static func *= (lhs: inout Stride, rhs: Stride) { lhs.ticks *= rhs.ticks }
        }
    }

    typealias SchedulerOptions = Never

    private struct Item {
        let deadline: Int
        let sequence: Int
        let action: () -> Void
    }

    private final class Token: Cancellable {
        var cancelled = false
        func cancel() { cancelled = true }
    }

    private var items: [Item] = []
    private var nextSequence = 0
    private(set) var now = SchedulerTimeType(tick: 0)

    var minimumTolerance: SchedulerTimeType.Stride { 0 }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        _ = insert(at: now.tick, action)
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        _ = insert(at: date.tick, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        let token = Token()
        var repeatAction: (Int) -> Void = { _ in }
        repeatAction = { [unowned self] deadline in
            _ = insert(at: deadline, { if !token.cancelled { action(); repeatAction(deadline + max(interval.ticks, 1)) } })
        }
        repeatAction(date.tick)
        return AnyCancellable { token.cancel(); repeatAction = { _ in } }
    }

    private func insert(at deadline: Int, _ action: @escaping () -> Void) -> Int {
        let item = Item(deadline: max(deadline, now.tick), sequence: nextSequence, action: action)
        nextSequence += 1
        let index = items.firstIndex { ($0.deadline, $0.sequence) > (item.deadline, item.sequence) } ?? items.endIndex
        items.insert(item, at: index)
        return item.sequence
    }

    /// Runs every action due by `tick` (including those they schedule), moving the clock to each, then to `tick`.
    func advance(to tick: Int) {
        var count = 0
        while let first = items.first, first.deadline <= tick, count < 1_000_000 {
            items.removeFirst()
            now = SchedulerTimeType(tick: first.deadline)
            first.action()
            count += 1
        }
        now = SchedulerTimeType(tick: max(now.tick, tick))
    }
}
