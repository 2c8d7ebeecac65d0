import Dispatch
import Testing

@testable import Streams

/// The delivery turn (`DeliveryTurn`): who may call the downstream, and when the deliverer may give the turn back
/// without the lock. Its users (`MergeCore`, `CombiningCore`, `withLatestFrom`) are tested through their operators;
/// the stress test here runs the protocol they follow under the thread sanitizer in `.ci/run`.
@Suite struct DeliveryTurnTests {
    // `#expect` cannot take a noncopyable operand, so each answer is read into a local first.

    @Test func aFreeTurnGoesToTheFirstClaimAndBackAtOnceWhenUnmarked() {
        let turn = DeliveryTurn()
        let takenAtFirst = turn.isTakenLocked
        let claimed = turn.claimOrMarkLocked()
        let takenAfterClaim = turn.isTakenLocked
        let ended = turn.endsAtOnce()
        let takenAtEnd = turn.isTakenLocked
        #expect(!takenAtFirst)
        #expect(claimed)
        #expect(takenAfterClaim)
        #expect(ended)
        #expect(!takenAtEnd)
    }

    @Test func aClaimWhileTheTurnIsTakenMarksItSoItCannotEndAtOnce() {
        let turn = DeliveryTurn()
        turn.takeLocked()
        let firstClaim = turn.claimOrMarkLocked()
        let secondClaim = turn.claimOrMarkLocked()  // marked already: still not this thread's
        let ended = turn.endsAtOnce()
        let stillTaken = turn.isTakenLocked  // the deliverer's: it looks under the lock, then gives it back
        turn.endLocked()
        let takenAfterEnd = turn.isTakenLocked
        let claimAfterEnd = turn.claimOrMarkLocked()
        #expect(!firstClaim)
        #expect(!secondClaim)
        #expect(!ended)
        #expect(stillTaken)
        #expect(!takenAfterEnd)
        #expect(claimAfterEnd)
    }

    @Test func markingWhenTakenOnlyLeavesAFreeTurnFree() {
        let turn = DeliveryTurn()
        let markedFree = turn.markIfTakenLocked()
        let takenAfter = turn.isTakenLocked
        turn.takeLocked()
        let markedTaken = turn.markIfTakenLocked()
        let markedAgain = turn.markIfTakenLocked()
        let ended = turn.endsAtOnce()
        #expect(!markedFree)
        #expect(!takenAfter)
        #expect(markedTaken)
        #expect(markedAgain)
        #expect(!ended)
    }

    /// The protocol the engines follow, on real threads: producers queue work under the lock and claim or mark the
    /// turn; the deliverer handles the queue outside the lock and, after the last item it saw, gives the turn back
    /// without the lock unless it was marked. Every item is handled once, by one thread at a time (the counters are
    /// plain: a second deliverer shows up as a race under the thread sanitizer), and none is left behind.
    @Test func producersOnManyThreadsLoseNoWorkAndNeverDeliverTwiceAtOnce() {
        final class Engine: @unchecked Sendable {
            let lock = Lock()
            let turn = DeliveryTurn()
            var queue: [Int] = []  // under `lock`
            var handled = 0  // by the deliverer only
            var sum = 0

            func produce(_ value: Int) {
                lock.lock()
                queue.append(value)
                guard turn.claimOrMarkLocked() else { return lock.unlock() }
                drainLocked()
            }

            func drainLocked() {
                while true {
                    guard !queue.isEmpty else {
                        turn.endLocked()
                        return lock.unlock()
                    }
                    let value = queue.removeFirst()
                    let isLast = queue.isEmpty
                    lock.unlock()
                    handled += 1
                    sum += value
                    if isLast && turn.endsAtOnce() { return }
                    lock.lock()
                }
            }
        }
        let engine = Engine()
        let threads = 8
        let perThread = 5_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<perThread { engine.produce(1) }
        }
        engine.lock.lock()
        let left = engine.queue.count
        let taken = engine.turn.isTakenLocked
        engine.lock.unlock()
        #expect(left == 0)
        #expect(!taken)
        #expect(engine.handled == threads * perThread)
        #expect(engine.sum == threads * perThread)
    }
}
