import Dispatch
import Streams
import StreamsTesting
import Testing

/// Subjects and `share(replay:)` carry values of zero-sized types (`Void`, and the `.finished` of a
/// `Completion<Never>`) on every path: the direct one, the queue a send from another thread or from inside a
/// delivery waits in, and replay. (A zero-sized value can sit at address 0; reading it through an optional
/// pointer once stopped the program.)
@Suite struct ZeroSizedValueTests {
    @Test func voidSendsFromManyThreadsAllArrive() {
        let subject = PassthroughSubject<Void, Never>()
        let count = Locked(0)
        let subscription = subject.sink { count.withLock { $0 += 1 } }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 { subject.send(()) }
        }
        #expect(count.withLock { $0 } == 8_000)
        subscription.cancel()
    }

    @Test func aVoidSentAndAFinishQueuedFromInsideADeliveryArrive() {
        let subject = PassthroughSubject<Void, Never>()
        var values = 0
        var finished = false
        let subscription = subject.sink(receiveCompletion: { _ in finished = true }) {
            values += 1
            if values == 1 {
                subject.send(())
                subject.send(completion: .finished)
            }
        }
        subject.send(())
        #expect(values == 2)
        #expect(finished)
        _ = subscription
    }

    @Test func currentValueAndReplayCarryVoid() {
        let current = CurrentValueSubject<Void, Never>(())
        let first = current.record()
        current.send(())
        #expect(first.values.count == 2)
        let source = PassthroughSubject<Void, Never>()
        let replayed = source.share(replay: 1)
        let early = replayed.record()
        source.send(())
        let late = replayed.record()
        source.send(completion: .finished)
        #expect(early.values.count == 1 && early.isFinished)
        #expect(late.values.count == 1 && late.isFinished)
    }
}
