import Dispatch
import Testing

@testable import Streams

/// The one lock type of the package (Sources/Streams/Internals/Lock.swift): `Lock` and `Locked` exclude each other's
/// critical sections across threads, return what the body returns, and release the lock when the body throws.
/// Run under the thread sanitizer in `.ci/run`, which sees the pthread mutex underneath.
@Suite struct LockTests {
    struct Refused: Error {}

    @Test func lockedStateChangedFromManyThreadsLosesNoUpdate() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<5_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 40_000)
    }

    @Test func aLockGuardsPlainStateAcrossThreads() {
        final class Box: @unchecked Sendable {
            let lock = Lock()
            var value = 0  // only under `lock`
        }
        let box = Box()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<5_000 {
                box.lock.lock()
                box.value += 1
                box.lock.unlock()
            }
        }
        #expect(box.lock.withLock { box.value } == 40_000)
    }

    @Test func withLockReturnsTheResultAndReleasesTheLockWhenTheBodyThrows() {
        let lock = Lock()
        #expect(lock.withLock { 42 } == 42)
        #expect(throws: Refused.self) { try lock.withLock { throw Refused() } }
        #expect(lock.withLock { true })  // not left locked: this would deadlock

        let state = Locked([1, 2])
        #expect(throws: Refused.self) {
            try state.withLock { values in
                values.append(3)
                throw Refused()
            }
        }
        #expect(state.withLock { $0 } == [1, 2, 3])  // a change made before the throw stays
    }
}
