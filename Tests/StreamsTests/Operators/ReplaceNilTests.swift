import Streams
import StreamsTesting
import Testing

@Suite struct ReplaceNilTests {
    @Test func replaceNilReplacesEachNilAndUnwrapsTheRest() {
        let recorder = [1, nil, 3, nil].publisher.replaceNil(with: 0).record()
        #expect(recorder.values == [1, 0, 3, 0])
        #expect(recorder.isFinished)
    }

    @Test func itIsAMapAsInCombine() {
        let mapped: Publishers.Map<Publishers.Sequence<[Int?], Never>, Int> = [1, nil].publisher.replaceNil(with: 0)
        #expect(mapped.record().values == [1, 0])
    }

    @Test func theSubscriberGetsExactlyWhatItAskedFor() {
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        [nil, 2, nil].publisher.replaceNil(with: 9).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(9)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(9), .value(2)])
    }

    @Test func failuresAreForwarded() {
        let subject = PassthroughSubject<Int?, ProbeError>()
        let recorder = subject.replaceNil(with: 0).record()
        subject.send(nil)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(0, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func nothingArrivesAfterCancel() {
        let subject = PassthroughSubject<Int?, Never>()
        let recorder = subject.replaceNil(with: 0).record()
        subject.send(nil)
        recorder.cancel()
        subject.send(5)
        subject.send(completion: .finished)
        #expect(recorder.values == [0])
        #expect(recorder.completion == nil)
    }
}
