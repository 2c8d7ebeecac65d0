/// The events a timing operator (`delay`, `receive(on:)`, `timeout`) has received and not yet delivered on its
/// scheduler, in arrival order, with the bookkeeping that keeps Combine's ordering.
///
/// As in Combine, each event gets its *own* scheduled action, so among the actions due at one instant an event
/// runs in the order it was scheduled, never earlier (riding on an older event's action) nor later (waiting for one
/// timer after another). Each action that runs makes one more event deliverable (``releaseNext()``): the actions of
/// one operator are due in the order of their events (one delay, or none, on one clock), so the *k*-th to run
/// releases the *k*-th event, and one that runs out of order on a concurrent scheduler still never reorders events
/// nor delivers one before an action due at or after its own ran. That is why an action needs to carry nothing but
/// the operator: a closure capturing only `self` needs no allocation. One thread delivers at a time (the one that
/// got `true` from ``releaseNext()`` or ``release(upTo:)``), taking events with ``next()`` until it returns `nil`.
///
/// It lives in the operator's locked state (every method is called under the operator's lock), so values
/// never travel inside `@Sendable` closures. Appending and taking are amortised O(1); a taken slot is cleared
/// at once, so a delivered event is never kept alive by the queue.
@usableFromInline
struct TimingEventQueue<Output, Failure: Error> {
    /// One event to deliver.
    @usableFromInline
    enum Event {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    /// The events waiting, at `head..<tail`; the slots around them are `nil`, kept for reuse (an empty queue
    /// restarts at slot 0), so a steady stream appends and takes without resizing the array.
    @usableFromInline
    var items: [Event?] = []
    @usableFromInline
    var head = 0
    @usableFromInline
    var tail = 0
    /// The sequence number of the last event taken (delivered, or dropped by ``removeAll()``).
    @usableFromInline
    var taken: UInt64 = 0
    /// Events up to this sequence number may be delivered: as many actions have run.
    @usableFromInline
    var released: UInt64 = 0
    /// A thread is delivering.
    @usableFromInline
    var isDelivering = false

    @inlinable
    init() {}

    /// The sequence number of the newest event appended (the first is 1): every event appended was taken or waits
    /// at `head..<tail`. Computed rather than stored, so the queue fits 8 bytes smaller in its operator.
    @inlinable
    var received: UInt64 { taken &+ UInt64(truncatingIfNeeded: tail &- head) }

    /// Appends `event`; returns its sequence number (the first is 1).
    @inlinable
    mutating func append(_ event: Event) -> UInt64 {
        if tail < items.count {
            items[tail] = event
        } else {
            items.append(event)
        }
        tail += 1
        return received
    }

    /// One event's action ran: releases one more event. Returns `true` if the caller is now the deliverer (it must
    /// then call ``next()`` until `nil`, or ``stopDelivering()``); `false` if another thread is delivering (it will
    /// deliver what was released) or there is nothing to deliver.
    @inlinable
    mutating func releaseNext() -> Bool {
        released &+= 1
        return takeDeliveringTurn()
    }

    /// Releases every event up to `sequence` at once (`timeout`'s own completion, delivered by the timer that
    /// fired, without an action of its own); returns what ``releaseNext()`` returns.
    @inlinable
    mutating func release(upTo sequence: UInt64) -> Bool {
        if sequence > released { released = sequence }
        return takeDeliveringTurn()
    }

    /// Makes the caller the deliverer if a released event waits and no thread is delivering (what
    /// ``releaseNext()`` returns). `delay` calls it after queueing an event whose action ran before the event was
    /// queued: that action released it (``released`` may run one ahead of ``received`` meanwhile).
    @inlinable
    mutating func takeDeliveringTurn() -> Bool {
        guard !isDelivering, taken < released, head < tail else { return false }
        isDelivering = true
        return true
    }

    /// The next released event, or `nil` (and the deliverer's turn ends) when none is left.
    @inlinable
    mutating func next() -> Event? {
        guard taken < released, head < tail, let event = items[head].take() else {
            isDelivering = false
            return nil
        }
        head += 1
        taken &+= 1
        if head == tail {
            head = 0
            tail = 0
        } else if head >= 32 && head * 2 >= tail {
            items.removeFirst(head)  // amortised O(1): the queue never grows past twice what waits
            tail -= head
            head = 0
        }
        return event
    }

    /// Ends the deliverer's turn early (the downstream went away).
    @inlinable
    mutating func stopDelivering() { isDelivering = false }

    /// Drops every waiting event (on cancel); returns the storage that holds them, to be released outside the lock,
    /// or `nil` when none waits. It is moved out as it is, not filtered nor converted, and left in place when no event
    /// waits: nothing is allocated on the cancel path.
    @inlinable
    mutating func removeAll() -> [Event?]? {
        taken = received
        guard head < tail else {
            head = 0
            tail = 0
            return nil
        }
        head = 0
        tail = 0
        var dropped: [Event?] = []
        swap(&dropped, &items)
        return dropped
    }
}
