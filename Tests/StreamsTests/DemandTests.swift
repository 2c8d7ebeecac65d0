import Streams
import Testing

@Suite struct DemandTests {
    @Test func additionSaturatesAtUnlimited() {
        #expect(Subscribers.Demand.max(2) + .max(3) == .max(5))
        #expect(Subscribers.Demand.max(Int.max) + .max(Int.max) + .max(Int.max) == .unlimited)
        #expect(Subscribers.Demand.unlimited + .max(1) == .unlimited)
        #expect(Subscribers.Demand.max(1) + 2 == .max(3))
        var demand = Subscribers.Demand.none
        demand += .max(4)
        demand += 1
        #expect(demand == .max(5))
    }

    @Test func subtractionClampsAtNoneAndKeepsUnlimited() {
        #expect(Subscribers.Demand.max(5) - .max(3) == .max(2))
        #expect(Subscribers.Demand.max(3) - .max(5) == .none)
        #expect(Subscribers.Demand.max(3) - .unlimited == .none)
        #expect(Subscribers.Demand.unlimited - .max(3) == .unlimited)
        #expect(Subscribers.Demand.unlimited - .unlimited == .unlimited)
        #expect(Subscribers.Demand.max(1) - 1 == .none)
        #expect(Subscribers.Demand.max(1) - 5 == .none)
    }

    @Test func multiplicationSaturates() {
        #expect(Subscribers.Demand.max(3) * 4 == .max(12))
        #expect(Subscribers.Demand.max(Int.max) * 4 == .unlimited)
        #expect(Subscribers.Demand.unlimited * 0 == .unlimited)
        #expect(Subscribers.Demand.max(3) * 0 == .none)
    }

    @Test func comparisonsTreatUnlimitedAsLargest() {
        #expect(Subscribers.Demand.unlimited > .max(Int.max))
        #expect(Subscribers.Demand.unlimited > 1_000_000)
        #expect(Subscribers.Demand.max(2) < 3)
        #expect(Subscribers.Demand.max(2) == 2)
        #expect(Subscribers.Demand.unlimited != Int.max)
        #expect(Subscribers.Demand.none == .max(0))
        #expect(0 < Subscribers.Demand.max(1))
    }

    @Test func maxIsNilOnlyForUnlimited() {
        #expect(Subscribers.Demand.unlimited.max == nil)
        #expect(Subscribers.Demand.max(7).max == 7)
        #expect(Subscribers.Demand.unlimited.description == "unlimited")
        #expect(Subscribers.Demand.max(7).description == "max(7)")
    }
}
