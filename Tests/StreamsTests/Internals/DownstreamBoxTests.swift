import Testing

@testable import Streams

/// `HeldDownstream` and `DownstreamBox` (Sources/Streams/Internals/DownstreamBox.swift): a subscriber held in place
/// (a noncopyable optional a subject conduit borrows per value and moves out once), or by reference in a box
/// (`MergeCore`). Borrowing calls the held subscriber itself, never a copy; taking it leaves nothing behind.
@Suite struct DownstreamBoxTests {
    /// A value subscriber stand-in that counts in a shared log, so a copy would show as a second identity.
    struct Counter {
        let log: Log
        let id: Int
        func hit() { log.hits.append(id) }
    }

    final class Log {
        var hits: [Int] = []
    }

    /// Owns a held downstream, as a conduit does (a noncopyable value lives in a class's stored property).
    final class Owner {
        var held: HeldDownstream<Counter>
        init(_ counter: Counter) { held = HeldDownstream(counter) }
        func call() -> Bool { held.with { $0.hit() } != nil }
        func take() -> Counter? { held.take() }
    }

    @Test func aHeldDownstreamIsBorrowedPerCallAndMovedOutOnce() {
        let log = Log()
        let owner = Owner(Counter(log: log, id: 1))
        #expect(owner.call())
        #expect(owner.call())
        #expect(log.hits == [1, 1])
        let taken = owner.take()
        #expect(taken?.id == 1)
        #expect(owner.take() == nil)
        #expect(!owner.call())  // nothing held: the call does not run
        #expect(log.hits == [1, 1])
    }

    @Test func anEmptyHeldDownstreamCallsNothing() {
        var held = HeldDownstream<Counter>()
        #expect(held.with { _ in true } == nil)
        #expect(held.take() == nil)
    }

    @Test func aBoxKeepsItsSubscriberUntilTheBoxGoes() {
        weak var released: LifetimeToken?
        var box: DownstreamBox<LifetimeToken>?
        do {
            let token = LifetimeToken()
            released = token
            box = DownstreamBox(token)
        }
        #expect(box?.value === released)
        box = nil
        #expect(released == nil)
    }
}
