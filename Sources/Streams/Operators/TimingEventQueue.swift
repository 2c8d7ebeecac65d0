/// A first-in first-out queue of events waiting for a timing operator (`delay`, `receive(on:)`,
/// `timeout`) to deliver them on its scheduler.
///
/// It lives in the operator's locked state, so values never travel inside `@Sendable` closures.
/// Each event carries the instant it is due (`delay`); operators that deliver as soon as possible
/// use `.zero`. Appending and popping are amortised O(1).
@usableFromInline
struct TimingEventQueue<Output, Failure: Error> {
    /// One event to deliver.
    @usableFromInline
    enum Event {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    /// Popped slots are set to `nil` at once, so a delivered event is never kept alive by the queue.
    @usableFromInline
    var items: [(due: SchedulerInstant, event: Event)?] = []
    @usableFromInline
    var head = 0

    /// An empty queue.
    @inlinable
    init() {}

    /// Whether no event is waiting.
    @inlinable
    var isEmpty: Bool { head == items.count }

    /// When the first waiting event is due, if any.
    @inlinable
    var firstDue: SchedulerInstant? { isEmpty ? nil : items[head]?.due }

    /// Adds an event at the end.
    @inlinable
    mutating func append(_ event: Event, due: SchedulerInstant = .zero) {
        items.append((due, event))
    }

    /// Removes and returns the first event, if it is due by `instant` (any first event when `nil`).
    @inlinable
    mutating func popFirst(dueBy instant: SchedulerInstant? = nil) -> Event? {
        guard !isEmpty else { return nil }
        guard let first = items[head] else { return nil }
        if let instant, first.due > instant { return nil }
        items[head] = nil
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32 && head * 2 >= items.count {
            items.removeFirst(head)  // amortised O(1): the queue never grows past twice what waits
            head = 0
        }
        return first.event
    }

    /// Drops every event; returns them so they are destroyed by the caller, outside its lock.
    @inlinable
    mutating func removeAll() -> [(due: SchedulerInstant, event: Event)] {
        defer {
            items = []
            head = 0
        }
        return items.compactMap { $0 }
    }
}
