/// The input lines a ``Session`` has received but not yet run, first in, first out.
///
/// Taking the first line is O(1) (a read index moves on; the storage is compacted once half of it has been
/// taken), so a piped script of a million lines runs in time linear in its length; an `Array`'s
/// `removeFirst()` moves every remaining line each time, which made long scripts quadratic.
struct LineQueue {
    private var storage: [InputLine] = []
    private var head = 0

    /// Whether no line is waiting.
    var isEmpty: Bool { head == storage.count }

    /// How many lines are waiting.
    var count: Int { storage.count - head }

    /// The oldest waiting line, if any.
    var first: InputLine? { isEmpty ? nil : storage[head] }

    /// Adds `line` after the others.
    mutating func append(_ line: InputLine) {
        storage.append(line)
    }

    /// Removes and returns the oldest line (`nil` when empty).
    @discardableResult
    mutating func removeFirst() -> InputLine? {
        guard !isEmpty else { return nil }
        let line = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= storage.count {
            storage.removeFirst(head)  // O(remaining), at most once per `head` removals: amortised O(1)
            head = 0
        }
        return line
    }

    /// Forgets every waiting line.
    mutating func removeAll() {
        storage.removeAll()
        head = 0
    }
}
