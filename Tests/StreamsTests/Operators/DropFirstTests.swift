import Streams
import StreamsTesting
import Testing

@Suite struct DropFirstTests {
    @Test func dropFirstSkipsOneValueByDefault() {
        let recorder = [1, 2, 3].publisher.dropFirst().record()
        #expect(recorder.values == [2, 3])
        #expect(recorder.isFinished)
    }

    @Test func dropFirstZeroSkipsNothing() {
        let recorder = [1, 2].publisher.dropFirst(0).record()
        #expect(recorder.values == [1, 2])
    }

    @Test func theDroppedValuesAreRequestedUpFrontWithTheSubscribersDemand() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.dropFirst(2).record(demand: .max(1))
        #expect(probe.requests == [.max(3)])
        #expect(probe.send(1) == .none)
        #expect(probe.send(2) == .none)
        #expect(probe.send(3) == .none)
        #expect(recorder.values == [3])
        recorder.request(.max(2))
        #expect(probe.requests == [.max(3), .max(2)])
    }

    @Test func dropFirstNeverExceedsDemand() {
        let recorder = (1...10).publisher.dropFirst(3).record(demand: .max(2))
        #expect(recorder.values == [4, 5])
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.values == [4, 5, 6])
    }

    @Test func dropFirstForwardsCompletionEvenWhileDropping() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.dropFirst(5).record()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func cancelIsIdempotentAndNothingArrivesAfterIt() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.dropFirst(0).record()
        probe.send(1)
        // Cancel the operator's own subscription (the recorder still listens).
        let subscription = recorder.subscription
        subscription?.cancel()
        subscription?.cancel()
        probe.send(2)
        probe.send(completion: .finished)
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
        #expect(probe.cancelCount == 1)
    }
}
