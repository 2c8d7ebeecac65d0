import Dispatch
import Foundation
import Streams

/// An `OperationQueue` is a `Scheduler`: each action is an operation on the queue.
///
/// - Clock: the monotonic uptime shared with `DispatchQueue`.
/// - Deadlines: a dispatch timer adds the operation when due; cancelling before then means it is never added
///   (and cancels it if it was).
///
/// ```swift
/// let queue = OperationQueue()
/// let c = work.receive(on: queue).sink { print($0) }
/// ```
extension OperationQueue: Streams.Scheduler {
    /// The monotonic uptime clock.
    public var now: SchedulerInstant { DispatchQueue.main.now }

    /// Adds `action` as an operation.
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        addOperation(action)
    }

    /// Adds `action` as an operation at `deadline`.
    public func schedule(after deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void) -> any Cancellable {
        let item = DispatchWorkItem { [self] in addOperation(action) }
        let delay = deadline - now
        DispatchQueue.global().asyncAfter(
            deadline: .now() + .nanoseconds(Int(clamping: max(0, delay.components.seconds) * 1_000_000_000
                + max(0, delay.components.attoseconds) / 1_000_000_000)), execute: item)
        return WorkItemCancellable(item: item)
    }
}

/// Cancels a dispatch work item. Sound as `@unchecked Sendable`: immutable, and `DispatchWorkItem.cancel()`
/// is thread-safe.
struct WorkItemCancellable: Cancellable, @unchecked Sendable {
    let item: DispatchWorkItem
    func cancel() { item.cancel() }
}
