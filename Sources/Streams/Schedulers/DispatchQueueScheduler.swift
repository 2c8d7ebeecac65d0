import Dispatch

/// `DispatchQueue` is a real-time ``Scheduler``: `receive(on: DispatchQueue.main)`,
/// `.debounce(for: .milliseconds(500), scheduler: DispatchQueue.global())`.
///
/// - Clock: ``now`` is the system's monotonic uptime (`DispatchTime.now()`), shared by all queues.
/// - Threading: actions run on the queue; a serial queue runs them one at a time.
/// - Cancellation: cancelling the value returned by `schedule(after:)` before it fires guarantees it
///   never runs.
///
/// ```swift
/// let queue = DispatchQueue(label: "work")
/// let c = subject.receive(on: queue).sink { print($0) }
/// ```
extension DispatchQueue: Scheduler {
    /// The monotonic uptime clock.
    public var now: SchedulerInstant {
        SchedulerInstant(offset: .nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds)))
    }

    /// Runs `action` asynchronously on the queue.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        async(execute: action)
    }

    /// Runs `action` on the queue at `deadline`; the result cancels it.
    public func schedule(after deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void)
        -> any Cancellable
    {
        let item = DispatchWorkItem(block: action)
        asyncAfter(deadline: DispatchTime(uptimeNanoseconds: deadline.uptimeNanoseconds), execute: item)
        return DispatchWorkItemCancellable(item: item)
    }
}

/// Cancels a scheduled work item. Immutable, and `DispatchWorkItem.cancel()` (`dispatch_block_cancel`, an atomic
/// flag) is safe from any thread.
struct DispatchWorkItemCancellable: Cancellable, @unchecked Sendable {
    let item: DispatchWorkItem
    func cancel() { item.cancel() }
}

extension SchedulerInstant {
    /// The offset in whole nanoseconds, clamped to `0...UInt64.max` (a deadline centuries away saturates).
    var uptimeNanoseconds: UInt64 {
        let components = offset.components
        guard components.seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(components.seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        let (sum, carry) = whole.addingReportingOverflow(UInt64(max(0, components.attoseconds / 1_000_000_000)))
        return carry ? .max : sum
    }
}
