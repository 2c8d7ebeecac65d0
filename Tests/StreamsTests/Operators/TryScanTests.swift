import Streams
import StreamsTesting
import Testing

@Suite struct TryScanTests {
    typealias Sub = HandWrittenSubscriber<Int, any Error>

    @Test func tryScanPublishesEachRunningResult() {
        let recorder = [1, 2, 3].publisher.tryScan(0, +).record()
        #expect(recorder.values == [1, 3, 6])
        #expect(recorder.isFinished)
    }

    @Test func eachSubscriptionFoldsFromTheInitialResult() {
        let subject = PassthroughSubject<Int, Never>()
        let scanned = subject.tryScan(100, +)
        let first = scanned.record()
        subject.send(1)
        let second = scanned.record()
        subject.send(2)
        #expect(first.values == [101, 103])
        #expect(second.values == [102])
    }

    @Test func demandPassesStraightThrough() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub(initial: .max(1), perValue: .max(2))
        probe.tryScan(0, +).subscribe(subscriber)
        #expect(probe.requests == [.max(1)])
        #expect(probe.send(1) == .max(2))
        subscriber.request(.max(4))
        #expect(probe.requests == [.max(1), .max(4)])
    }

    @Test func theSubscriberGetsExactlyWhatItAskedFor() {
        let subscriber = Sub(initial: .max(1))
        (1...9).publisher.tryScan(0, +).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription, .value(1), .value(3), .value(6)])
    }
}
