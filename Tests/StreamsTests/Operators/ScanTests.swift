import Streams
import StreamsTesting
import Testing

@Suite struct ScanTests {
    @Test func scanPublishesEveryIntermediateResult() {
        let recorder = [1, 2, 3].publisher.scan(0, +).record()
        #expect(recorder.values == [1, 3, 6])
        #expect(recorder.isFinished)
    }

    @Test func scanRespectsDemand() {
        let recorder = (1...5).publisher.scan(0, +).record(demand: .max(2))
        #expect(recorder.values == [1, 3])
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.values == [1, 3, 6])
    }

    @Test func scanForwardsFailure() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.scan(10, +).record()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(11, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func scanIgnoresEventsAfterCancelAndReleasesTheClosure() {
        let probe = SimpleProbe<Int, Never>(keepsSubscriber: false)
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<Int, Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = probe.scan(0) { a, b in withExtendedLifetime(token) { a + b } }.record()
        }
        probe.send(1)
        recorder.cancel()
        #expect(weakToken == nil)
        probe.send(2)
        probe.send(completion: .finished)
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
    }
}
