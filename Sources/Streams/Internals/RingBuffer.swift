/// A first-in first-out buffer that keeps at most `capacity` elements, dropping the oldest when full
/// (`nil` capacity: unbounded). Its storage grows to the largest size reached and is then reused, so
/// steady appends and pops do not allocate.
@usableFromInline
struct RingBuffer<Element> {
    @usableFromInline
    var storage: [Element?] = []
    @usableFromInline
    var head = 0
    @usableFromInline
    var count = 0
    @usableFromInline
    let capacity: Int?

    @inlinable
    init(capacity: Int?) { self.capacity = capacity }

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// Appends `element`; when the buffer is full, the oldest element is dropped first. A zero
    /// capacity keeps nothing.
    @inlinable
    mutating func append(_ element: Element) {
        if let capacity {
            guard capacity > 0 else { return }
            if count == capacity {
                storage[head] = element
                head = (head + 1) % capacity
                return
            }
        }
        if count == storage.count {
            grow()
        }
        storage[(head + count) % storage.count] = element
        count += 1
    }

    /// Removes and returns the oldest element.
    @inlinable
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        if count == 0 { head = 0 }
        return element
    }

    /// Drops every element and the storage.
    @inlinable
    mutating func removeAll() {
        storage = []
        head = 0
        count = 0
    }

    /// Doubles the storage (bounded by `capacity`), moving the elements to the front in order.
    @inlinable
    mutating func grow() {
        let newSize = min(max(storage.count * 2, 4), capacity ?? .max)
        var resized = [Element?](repeating: nil, count: newSize)
        for offset in 0..<count { resized[offset] = storage[(head + offset) % storage.count] }
        storage = resized
        head = 0
    }
}
