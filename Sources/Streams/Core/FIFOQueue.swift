/// A first-in first-out queue on an array and a head index: appending and taking are amortised O(1), and a taken
/// slot is cleared at once, so the queue never keeps a taken element alive.
///
/// The storage is compacted when it empties, or once at least 32 slots were taken and they are at least half of
/// it (moving what remains costs no more than what was taken since the last move). Not thread-safe: its owners
/// keep it under their lock (the timing operators' event queue, `delay`'s pending timers, the test scheduler).
///
/// ```swift
/// var queue = FIFOQueue<Int>()
/// queue.append(1); queue.append(2)
/// queue.popFirst()   // 1
/// ```
@usableFromInline
package struct FIFOQueue<Element> {
    /// The slots from `head` on hold the waiting elements; the ones before it were taken (`nil`).
    @usableFromInline
    var slots: [Element?] = []
    @usableFromInline
    var head = 0

    /// An empty queue.
    @inlinable
    package init() {}

    /// How many elements wait.
    @inlinable
    package var count: Int { slots.count - head }

    /// The element `popFirst()` would take, if any.
    @inlinable
    package var first: Element? { head < slots.count ? slots[head] : nil }

    /// Adds `element` at the end.
    @inlinable
    package mutating func append(_ element: Element) { slots.append(element) }

    /// Takes the first element out.
    @inlinable
    package mutating func popFirst() -> Element? {
        guard head < slots.count else { return nil }
        let element = slots[head]
        slots[head] = nil
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32 && head * 2 >= slots.count {
            slots.removeFirst(head)  // amortised: at least as many were taken as remain
            head = 0
        }
        return element
    }

    /// Takes every waiting element out, oldest first (for the caller to release outside its lock).
    @inlinable
    package mutating func removeAll() -> [Element] {
        defer {
            slots = []
            head = 0
        }
        return slots[head...].compactMap { $0 }
    }
}

extension FIFOQueue: Sequence {
    /// Iterates over the waiting elements, oldest first, without taking them out.
    @usableFromInline
    package struct Iterator: IteratorProtocol {
        @usableFromInline
        var slots: ArraySlice<Element?>.Iterator

        @inlinable
        init(slots: ArraySlice<Element?>.Iterator) { self.slots = slots }

        @inlinable
        package mutating func next() -> Element? {
            while let slot = slots.next() {
                if let element = slot { return element }
            }
            return nil
        }
    }

    /// The waiting elements, oldest first.
    @inlinable
    package func makeIterator() -> Iterator { Iterator(slots: slots[head...].makeIterator()) }
}
