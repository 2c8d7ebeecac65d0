@testable import Streams
import Testing

/// The queue under the timing operators, `delay`'s pending timers and the test scheduler.
@Suite struct FIFOQueueTests {
    final class Token {}

    @Test func takesElementsInTheOrderTheyCameAcrossCompactions() {
        var queue = FIFOQueue<Int>()
        var taken: [Int] = []
        for value in 0..<100 {
            queue.append(value)
            if value % 3 == 2, let first = queue.popFirst() { taken.append(first) }  // the head runs behind
        }
        #expect(queue.count == 100 - taken.count)
        #expect(queue.first == taken.count)
        #expect(Array(queue) == Array(taken.count..<100))
        while let first = queue.popFirst() { taken.append(first) }
        #expect(taken == Array(0..<100))
        #expect(queue.count == 0 && queue.first == nil && queue.popFirst() == nil)
    }

    @Test func aTakenElementIsReleasedAtOnce() {
        var queue = FIFOQueue<Token>()
        weak var weakFirst: Token?
        do {
            let first = Token()
            weakFirst = first
            queue.append(first)
            queue.append(Token())
        }
        _ = queue.popFirst()
        #expect(weakFirst == nil)
        #expect(queue.count == 1)
    }

    @Test func removeAllHandsOverWhatWaitsAndEmpties() {
        var queue = FIFOQueue<Int>()
        for value in 0..<40 { queue.append(value) }
        for _ in 0..<35 { _ = queue.popFirst() }
        #expect(queue.removeAll() == [35, 36, 37, 38, 39])
        #expect(queue.count == 0 && Array(queue).isEmpty)
        queue.append(7)
        #expect(queue.popFirst() == 7)
    }
}
