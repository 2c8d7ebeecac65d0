import Testing

@testable import Streams

/// `RingBuffer` (Sources/Streams/Internals/RingBuffer.swift), the first-in, first-out queue of `buffer`,
/// `share(replay:)`, `ReplaySubject` and the replay conduits: unbounded, it keeps every element in order across its
/// growth and wrap-around; bounded, a full buffer drops its oldest element for a new one; an element taken out or
/// removed is released at once.
@Suite struct RingBufferTests {
    @Test func anUnboundedBufferKeepsEveryElementInOrderAcrossGrowthAndWrapAround() {
        var buffer = RingBuffer<Int>(capacity: nil)
        var expected: [Int] = []
        var next = 0
        // Take one out for every two put in, so the head moves while the storage grows and wraps.
        for round in 0..<200 {
            buffer.append(next)
            expected.append(next)
            next += 1
            if round.isMultiple(of: 2) {
                #expect(buffer.popFirst() == expected.removeFirst())
            }
        }
        #expect(buffer.count == expected.count)
        var drained: [Int] = []
        while let element = buffer.popFirst() { drained.append(element) }
        #expect(drained == expected)
        #expect(buffer.isEmpty)
        #expect(buffer.popFirst() == nil)
    }

    @Test(arguments: [1, 2, 3, 5])
    func aFullBoundedBufferDropsItsOldestElementForANewOne(capacity: Int) {
        var buffer = RingBuffer<Int>(capacity: capacity)
        for value in 0..<(capacity * 3 + 1) { buffer.append(value) }
        #expect(buffer.count == capacity)
        var kept: [Int] = []
        while let element = buffer.popFirst() { kept.append(element) }
        let last = capacity * 3
        #expect(kept == Array((last - capacity + 1)...last))
    }

    @Test func aBufferOfCapacityZeroKeepsNothing() {
        var buffer = RingBuffer<String>(capacity: 0)
        buffer.append("a")
        buffer.append("b")
        #expect(buffer.isEmpty)
        #expect(buffer.popFirst() == nil)
    }

    @Test func removeAllEmptiesTheBufferAndItFillsAgainFromTheStart() {
        var buffer = RingBuffer<Int>(capacity: 3)
        for value in 1...5 { buffer.append(value) }
        buffer.removeAll()
        #expect(buffer.isEmpty)
        #expect(buffer.popFirst() == nil)
        buffer.append(9)
        buffer.append(10)
        #expect(buffer.popFirst() == 9)
        #expect(buffer.popFirst() == 10)
        #expect(buffer.isEmpty)
    }

    @Test func anElementTakenOutDroppedOrRemovedIsReleased() {
        weak var taken: LifetimeToken?
        weak var dropped: LifetimeToken?
        weak var removed: LifetimeToken?
        var buffer = RingBuffer<LifetimeToken>(capacity: 1)
        do {
            let token = LifetimeToken()
            taken = token
            buffer.append(token)
        }
        _ = buffer.popFirst()
        #expect(taken == nil)
        do {
            let first = LifetimeToken()
            let second = LifetimeToken()
            dropped = first
            removed = second
            buffer.append(first)
            buffer.append(second)  // full: drops `first`
        }
        #expect(dropped == nil)
        #expect(removed != nil)
        buffer.removeAll()
        #expect(removed == nil)
    }

    /// Random appends and takes against an array doing the same, bounded and unbounded; a failure names the seed.
    @Test(arguments: [nil, 1, 4, 7] as [Int?])
    func randomAppendsAndTakesMatchAnArrayDoingTheSame(capacity: Int?) {
        for seed in UInt64(1)...20 {
            var random = SeededRandom(state: seed)
            var buffer = RingBuffer<Int>(capacity: capacity)
            var model: [Int] = []
            for step in 0..<300 {
                if Int.random(in: 0..<3, using: &random) < 2 {
                    buffer.append(step)
                    model.append(step)
                    if let capacity, model.count > capacity { model.removeFirst() }
                } else {
                    let expected = model.isEmpty ? nil : model.removeFirst()
                    #expect(buffer.popFirst() == expected, "seed \(seed), step \(step)")
                }
                #expect(buffer.count == model.count, "seed \(seed), step \(step)")
            }
        }
    }
}
