import Testing

@testable import Streams

/// The event queue of `delay`, `receive(on:)` and `timeout`: order, release one per action, slot reuse.
@Suite struct TimingEventQueueTests {
    typealias Queue = TimingEventQueue<Int, Never>

    /// Takes every released event; the value of each, `-1` for a completion.
    private func drain(_ queue: inout Queue) -> [Int] {
        var taken: [Int] = []
        while let event = queue.next() {
            switch event {
            case .value(let value): taken.append(value)
            case .completion: taken.append(-1)
            }
        }
        return taken
    }

    /// A queue holding `values`, none released yet.
    private func queue(holding values: ClosedRange<Int>) -> Queue {
        var queue = Queue()
        for value in values { _ = queue.append(.value(value)) }
        return queue
    }

    @Test func eachReleaseLetsOneMoreEventOutInArrivalOrder() {
        var queue = queue(holding: 1...3)
        var isDeliverer = queue.releaseNext()
        #expect(isDeliverer)
        #expect(drain(&queue) == [1])
        isDeliverer = queue.releaseNext()
        #expect(isDeliverer)
        isDeliverer = queue.releaseNext()
        #expect(!isDeliverer)  // the turn is taken until the deliverer drains
        #expect(drain(&queue) == [2, 3])
        isDeliverer = queue.releaseNext()
        #expect(!isDeliverer)  // nothing waits
    }

    @Test func aStreamMuchLongerThanTheBacklogKeepsOrderThroughReuseAndCompaction() {
        var queue = Queue()
        var expected: [Int] = []
        var delivered: [Int] = []
        var next = 0
        // Bursts of varying size, drained partly, so the queue restarts at slot 0, compacts and grows.
        for round in 0..<200 {
            for _ in 0..<(round % 7) * 13 {
                _ = queue.append(.value(next))
                expected.append(next)
                next += 1
            }
            for _ in 0..<(round % 5) * 17 {
                if queue.releaseNext() { delivered += drain(&queue) }
            }
        }
        while Int(queue.taken) < next {
            if queue.releaseNext() { delivered += drain(&queue) }
        }
        #expect(delivered == expected)
        #expect(queue.head == 0 && queue.tail == 0)
    }

    @Test func afterRemoveAllALateActionFindsNothingToDeliver() {
        var queue = queue(holding: 1...4)
        var isDeliverer = queue.releaseNext()
        #expect(isDeliverer)
        #expect(drain(&queue) == [1])
        let dropped = queue.removeAll()
        #expect(dropped?.compactMap { $0 }.count == 3)
        isDeliverer = queue.releaseNext()
        #expect(!isDeliverer)
        let nothing = queue.removeAll()
        #expect(nothing == nil)  // nothing waits: the storage stays in place
    }

    @Test func anActionThatRunsBeforeItsEventIsQueuedReleasesIt() {
        // `delay` schedules first and queues after: the action may run in between.
        var queue = Queue()
        var isDeliverer = queue.releaseNext()
        #expect(!isDeliverer)  // nothing to deliver yet
        let sequence = queue.append(.value(7))
        #expect(sequence <= queue.released)
        isDeliverer = queue.takeDeliveringTurn()
        #expect(isDeliverer)
        #expect(drain(&queue) == [7])
    }
}
