import Dispatch
import Streams
import StreamsTesting
import Testing

/// The subscriber and subscription every reducing operator is built on (`ReducingInner`, `HeldResultCore`): the fold
/// runs on the upstream's serial calls without a lock, and only its end meets the downstream's request and cancel,
/// which may come from any thread. These stress tests run under the thread sanitizer in `.ci/run`.
@Suite struct ReducingInnerTests {
    /// A subscription may be used from any thread (Combine's contract), though the protocol is not `Sendable`.
    struct Handed: @unchecked Sendable { let recorder: TestRecorder<[Int], Never> }

    @Test func aCancelRacingTheFoldDeliversTheWholeResultOrNothing() {
        for round in 0..<1_000 {
            let subject = PassthroughSubject<Int, Never>()
            let handed = Handed(recorder: subject.collect().record())
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == round % 2 {
                    for value in 0..<50 { subject.send(value) }
                    subject.send(completion: .finished)
                } else {
                    handed.recorder.cancel()
                }
            }
            // Cancelled before the fold ended: nothing; after: the whole array (and `.finished` unless the cancel
            // came between the two).
            let values = handed.recorder.values
            #expect(values.isEmpty || values == [Array(0..<50)])
            if handed.recorder.isFinished { #expect(values == [Array(0..<50)]) }
        }
    }

    @Test func theFirstRequestRacingTheEndOfTheFoldGetsTheResultExactlyOnce() {
        for round in 0..<2_000 {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = subject.collect().record(demand: .none)
            for value in 0..<3 { subject.send(value) }  // `collect()` asks its upstream for everything itself
            let handed = Handed(recorder: recorder)
            // The calling thread usually runs its share first: the roles alternate, so both orders happen.
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == round % 2 {
                    subject.send(completion: .finished)
                } else {
                    handed.recorder.request(.max(1))
                }
            }
            #expect(recorder.values == [[0, 1, 2]])
            #expect(recorder.isFinished)
        }
    }

    /// The fold's state belongs to the serial upstream calls: a result folded after a cancel is neither published
    /// nor kept by the downstream's subscription.
    @Test func nothingFoldedAfterACancelIsPublished() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.reduce(0, +).record(demand: .none)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        recorder.request(.max(1))
        #expect(recorder.events.isEmpty)
    }
}
