import Dispatch
import Synchronization
import Testing

@testable import Streams

/// The lock-free link behind `scan` and `removeDuplicates`: its phases, the user count that decides who
/// releases, and the demand requested before the attach. The stress tests run under the thread sanitizer
/// in `.ci/run`.
@Suite struct LinkGateTests {
    /// The gate in a class, so that `#expect` (which copies the receiver of a call it checks) can take it.
    final class Gate: Sendable {
        let gate = LinkGate()
        func beginAttach() -> Bool { gate.beginAttach() }
        func finishAttach() -> Subscribers.Demand? { gate.finishAttach() }
        func enter() -> Bool { gate.enter() }
        func exit() -> Bool { gate.exit() }
        func end() -> UInt? { gate.end() }
        var isTerminal: Bool { gate.isTerminal }
        var word: UInt { gate.word.load(ordering: .relaxed) }
        var pending: UInt { gate.pending.load(ordering: .relaxed) }
        func request(_ demand: Subscribers.Demand, forward: (Subscribers.Demand) -> Void) -> Bool {
            gate.request(demand, forward: forward)
        }
    }

    @Test func demandRequestedBeforeTheAttachIsHandedToTheAttachSummedAndSaturating() {
        let gate = Gate()
        var forwarded: [Subscribers.Demand] = []
        #expect(!gate.request(.max(2), forward: { forwarded.append($0) }))
        #expect(!gate.request(.max(3), forward: { forwarded.append($0) }))
        #expect(!gate.request(.none, forward: { forwarded.append($0) }))
        #expect(forwarded.isEmpty)
        #expect(gate.beginAttach())
        #expect(gate.finishAttach() == .max(5))
        #expect(!gate.exit())

        let unlimited = Gate()
        _ = unlimited.request(.unlimited, forward: { _ in })
        _ = unlimited.request(.max(1), forward: { _ in })
        #expect(unlimited.beginAttach())
        #expect(unlimited.finishAttach() == .unlimited)
    }

    @Test func aSubscribedGateForwardsARequestAtOnceAndKeepsNothingPending() {
        let gate = Gate()
        #expect(gate.beginAttach())
        #expect(gate.finishAttach() == Subscribers.Demand.none)
        #expect(!gate.exit())
        var forwarded: [Subscribers.Demand] = []
        #expect(!gate.request(.max(4), forward: { forwarded.append($0) }))
        #expect(forwarded == [.max(4)])
        #expect(gate.pending == 0)
    }

    @Test func onlyTheFirstAttachIsTakenAndNoneAfterTheEnd() {
        let gate = Gate()
        #expect(gate.beginAttach())
        #expect(!gate.beginAttach())
        #expect(gate.finishAttach() != nil)
        #expect(!gate.beginAttach())
        #expect(!gate.exit())

        let ended = Gate()
        #expect(ended.end() == LinkPhase.waiting)
        #expect(ended.exit())  // nobody else inside: the ender releases
        #expect(!ended.beginAttach())
        #expect(ended.isTerminal)
    }

    @Test func anEndWhileAttachingFailsTheAttachAndTheAttacherReleases() {
        let gate = Gate()
        #expect(gate.beginAttach())
        #expect(gate.end() == LinkPhase.attaching)
        #expect(!gate.exit())  // the attacher is still inside
        #expect(gate.finishAttach() == nil)
        #expect(gate.exit())
    }

    @Test func theLastUserOutOfAnEndedGateReleasesAndNoOneEntersAfterTheEnd() {
        let gate = Gate()
        #expect(gate.beginAttach())
        #expect(gate.finishAttach() != nil)
        #expect(!gate.exit())
        #expect(gate.enter())
        #expect(gate.enter())
        #expect(gate.end() == LinkPhase.subscribed)
        #expect(gate.end() == nil)  // already ended: not a user
        #expect(!gate.enter())
        #expect(!gate.exit())
        #expect(!gate.exit())
        #expect(gate.exit())
        var forwarded = false
        #expect(!gate.request(.max(1), forward: { _ in forwarded = true }))
        #expect(!forwarded)
    }

    @Test func aRequestWhoseForwardEndsTheGateReleasesWhenItLeaves() {
        let gate = Gate()
        #expect(gate.beginAttach())
        #expect(gate.finishAttach() != nil)
        #expect(!gate.exit())
        let releases = gate.request(.max(1)) { _ in
            // A subscription that cancels back into the operator while it forwards.
            #expect(gate.end() == LinkPhase.subscribed)
            #expect(!gate.exit())
        }
        #expect(releases)
    }

    @Test func demandRacingTheAttachIsForwardedExactlyOnce() {
        for _ in 0..<5_000 {
            let gate = Gate()
            let forwarded = Atomic<UInt>(0)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    guard gate.beginAttach() else { return }
                    if let pending = gate.finishAttach(), let count = pending.max {
                        forwarded.wrappingAdd(UInt(count), ordering: .relaxed)
                    }
                    _ = gate.exit()
                } else {
                    for _ in 0..<3 {
                        _ = gate.request(.max(1)) { demand in
                            forwarded.wrappingAdd(UInt(demand.max ?? 0), ordering: .relaxed)
                        }
                    }
                }
            }
            #expect(forwarded.load(ordering: .relaxed) == 3)
        }
    }

    @Test func exactlyOneThreadReleasesWhenUsersRaceTheEnd() {
        for _ in 0..<300 {
            let gate = Gate()
            #expect(gate.beginAttach())
            #expect(gate.finishAttach() != nil)
            #expect(!gate.exit())
            let releases = Atomic<Int>(0)
            let served = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                if thread == 0 {
                    if gate.end() != nil, gate.exit() { releases.wrappingAdd(1, ordering: .relaxed) }
                    return
                }
                for _ in 0..<50 {
                    if gate.enter() {
                        served.wrappingAdd(1, ordering: .relaxed)
                        if gate.exit() { releases.wrappingAdd(1, ordering: .relaxed) }
                    }
                    if gate.request(.max(1), forward: { _ in served.wrappingAdd(1, ordering: .relaxed) }) {
                        releases.wrappingAdd(1, ordering: .relaxed)
                    }
                }
            }
            #expect(releases.load(ordering: .relaxed) == 1)
            #expect(gate.isTerminal)
            #expect(gate.word == LinkPhase.terminal)  // nobody left inside
        }
    }
}
