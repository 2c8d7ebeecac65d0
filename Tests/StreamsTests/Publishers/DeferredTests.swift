import Streams
import StreamsTesting
import Testing

@Suite struct DeferredTests {
    @Test func createsNothingUntilSomeoneSubscribes() {
        var created = 0
        let deferred = Deferred { () -> Just<Int> in
            created += 1
            return Just(created)
        }
        #expect(created == 0)
        _ = deferred.record()
        #expect(created == 1)
    }

    @Test func createsAFreshPublisherForEachSubscriber() {
        var created = 0
        let deferred = Deferred { () -> Just<Int> in
            created += 1
            return Just(created * 10)
        }
        let first = deferred.record()
        let second = deferred.record()
        #expect(created == 2)
        #expect(first.values == [10])
        #expect(second.values == [20])
        #expect(first.isFinished && second.isFinished)
    }

    @Test func theCreatedPublisherControlsDemand() {
        let recorder = Deferred { (1...5).publisher }.record(demand: .max(2))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == nil)
        recorder.request(.max(3))
        #expect(recorder.values == [1, 2, 3, 4, 5])
        #expect(recorder.isFinished)
    }

    @Test func cancellingReachesTheCreatedPublisher() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Deferred { subject }.record()
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        #expect(recorder.values == [1])
    }
}
