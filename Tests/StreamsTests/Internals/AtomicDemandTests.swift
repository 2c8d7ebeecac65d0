import Dispatch
import Synchronization
import Testing

@testable import Streams

/// The demand counter in an atomic word (Sources/Streams/Internals/AtomicDemand.swift) that the lock-free links count
/// with: it adds and saturates like `Subscribers.Demand`, never goes below zero, and loses nothing when threads
/// race.
@Suite struct AtomicDemandTests {
    private func demand(_ counter: borrowing Atomic<UInt>) -> Subscribers.Demand {
        Subscribers.Demand(rawValue: counter.load(ordering: .relaxed))
    }

    @Test func addingSumsAndSaturatesAtUnlimited() {
        let counter = Atomic<UInt>(0)
        counter.addDemand(.max(3))
        counter.addDemand(.none)
        counter.addDemand(.max(4), sequentiallyConsistent: true)
        #expect(demand(counter) == .max(7))
        counter.addDemand(.max(Int.max))
        #expect(demand(counter) == .unlimited)  // the sum overflowed: unlimited, as Demand's + does
        counter.addDemand(.max(1))
        #expect(demand(counter) == .unlimited)

        let unlimited = Atomic<UInt>(0)
        unlimited.addDemand(.unlimited)
        unlimited.addDemand(.max(5))
        #expect(demand(unlimited) == .unlimited)
    }

    @Test func takingOneCountsDownButNeverBelowZeroOrFromUnlimited() {
        let counter = Atomic<UInt>(0)
        counter.addDemand(.max(2))
        counter.takeOneDemand()
        #expect(demand(counter) == .max(1))
        counter.takeOneDemand()
        counter.takeOneDemand()  // an upstream sending beyond demand: stays at zero, does not wrap
        #expect(demand(counter) == .none)

        let unlimited = Atomic<UInt>(0)
        unlimited.addDemand(.unlimited)
        unlimited.takeOneDemand()
        #expect(demand(unlimited) == .unlimited)
    }

    @Test func racingAddsAndTakesLoseNothing() {
        let counter = Atomic<UInt>(0)
        counter.addDemand(.max(40_000))
        let group = DispatchGroup()
        for worker in 0..<4 {
            DispatchQueue.global().async(group: group) {
                for _ in 0..<10_000 {
                    if worker.isMultiple(of: 2) {
                        counter.addDemand(.max(2), sequentiallyConsistent: worker == 0)
                    } else {
                        counter.takeOneDemand()
                    }
                }
            }
        }
        group.wait()
        // 40,000 + 2 × 20,000 added, 20,000 taken (never reaching zero on the way).
        #expect(demand(counter) == .max(60_000))
    }
}
