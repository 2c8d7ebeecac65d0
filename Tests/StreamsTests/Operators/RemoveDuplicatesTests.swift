import Streams
import StreamsTesting
import Testing

@Suite struct RemoveDuplicatesTests {
    @Test func removeDuplicatesDropsConsecutiveRepeatsOnly() {
        let recorder = [1, 1, 2, 2, 2, 1, 3, 3].publisher.removeDuplicates().record()
        #expect(recorder.values == [1, 2, 1, 3])
        #expect(recorder.isFinished)
    }

    @Test func predicateComparesWithTheLastPublishedValue() {
        // 2 is "close" to 1 and dropped; 3 is compared with 1 (the last published), not with 2.
        let recorder = [1, 2, 3, 4].publisher.removeDuplicates { abs($0 - $1) <= 1 }.record()
        #expect(recorder.values == [1, 3])
    }

    @Test func droppedDuplicateGivesItsDemandBack() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.removeDuplicates().record(demand: .max(2))
        #expect(probe.requests == [.max(2)])
        #expect(probe.send(1) == .none)
        #expect(probe.send(1) == .max(1))
        #expect(probe.send(2) == .none)
        #expect(recorder.values == [1, 2])
    }

    @Test func demandIsNeverExceeded() {
        let recorder = [1, 1, 2, 3, 3, 4].publisher.removeDuplicates().record(demand: .max(2))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == nil)
        recorder.request(.max(5))
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.isFinished)
    }

    @Test func nothingArrivesAfterCancelAndThePredicateIsReleased() {
        let probe = SimpleProbe<Int, Never>(keepsSubscriber: false)
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<Int, Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = probe.removeDuplicates { a, b in withExtendedLifetime(token) { a == b } }.record()
        }
        probe.send(1)
        recorder.cancel()
        #expect(weakToken == nil)
        probe.send(2)
        probe.send(completion: .finished)
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
        #expect(probe.cancelCount == 1)
    }
}
