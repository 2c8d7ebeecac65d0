import Testing

@testable import Streams

/// `OptionalSlot` (Sources/Streams/Internals/OptionalSlot.swift): an `Optional` seen through a protocol, so a class can
/// take it as a generic parameter (`T?`) and its unspecialised code can test and clear it without a metadata lookup.
/// `EmptySlot` is a slot of no size that holds nothing, for a field some instantiations never use;
/// `HoldsDownstreamInSlot` reads and writes a class's held subscriber as a plain optional.
@Suite struct OptionalSlotTests {
    /// Holds a subscriber in a slot, as an operator's subscription does.
    final class Holder<Downstream, Held: OptionalSlot>: HoldsDownstreamInSlot where Held.Wrapped == Downstream {
        var held: Held
        init(_ downstream: Downstream) { held = Held(holding: downstream) }
    }

    @Test func anOptionalSlotHoldsItsValueUntilCleared() {
        var slot = Int?(holding: 7)
        #expect(!slot.isNil)
        #expect(slot.wrapped == 7)
        slot.wrapped = 8
        #expect(slot == 8)
        slot.wrapped = nil
        #expect(slot.isNil)
        #expect(slot == nil)
    }

    @Test func anEmptySlotHasNoSizeAndKeepsNothingWrittenToIt() {
        #expect(MemoryLayout<EmptySlot<String>>.size == 0)
        var slot = EmptySlot<String>(holding: "dropped")
        #expect(slot.isNil)
        #expect(slot.wrapped == nil)
        slot.wrapped = "also dropped"
        #expect(slot.wrapped == nil)
    }

    @Test func aHeldDownstreamIsReadAndClearedAsAPlainOptionalAndReleasedWhenCleared() {
        weak var released: LifetimeToken?
        let holder: Holder<LifetimeToken, LifetimeToken?>
        do {
            let token = LifetimeToken()
            released = token
            holder = Holder(token)
        }
        #expect(holder.downstream === released)
        #expect(!holder.held.isNil)
        holder.downstream = nil
        #expect(holder.held.isNil)
        #expect(released == nil)
    }

    @Test func aHolderWithAnEmptySlotHoldsNoDownstream() {
        let holder = Holder<LifetimeToken, EmptySlot<LifetimeToken>>(LifetimeToken())
        #expect(holder.downstream == nil)
        #expect(holder.held.isNil)
    }
}
