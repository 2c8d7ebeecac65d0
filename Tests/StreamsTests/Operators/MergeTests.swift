import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite struct MergeTests {
    @Test func mergeInterleavesValuesAndFinishesWhenBothFinish() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = a.merge(with: b).record()
        a.send(1)
        b.send(2)
        a.send(3)
        a.send(completion: .finished)
        b.send(4)
        #expect(recorder.completion == nil)
        b.send(completion: .finished)
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.isFinished)
        #expect(recorder.subscriptionCount == 1)
    }

    @Test func mergeOfSequencesDeliversFirstSourceThenSecond() {
        let recorder = [1, 2].publisher.merge(with: [3, 4].publisher).record()
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.isFinished)
    }

    @Test func mergeNeverExceedsDemand() {
        let a = CombiningProbe<Int, Never>()
        let b = CombiningProbe<Int, Never>()
        let recorder = a.merge(with: b).record(demand: .max(2))
        a.send(1)
        b.send(2)
        a.send(3)  // waits for demand
        b.send(4)  // b was asked for one more after 2 was delivered: waits too
        #expect(recorder.values == [1, 2])
        recorder.request(.max(1))
        #expect(recorder.values.count == 3)
        recorder.request(.max(1))
        #expect(recorder.values.sorted() == [1, 2, 3, 4])
    }

    @Test func mergeOfSynchronousSourcesHonoursBoundedDemand() {
        let recorder = (1...3).publisher.merge(with: (4...6).publisher).record(demand: .max(2))
        #expect(recorder.values.count == 2)
        recorder.request(.max(2))
        #expect(recorder.values.count == 4)
        #expect(recorder.completion == nil)
        recorder.request(.unlimited)
        #expect(recorder.values.sorted() == [1, 2, 3, 4, 5, 6])
        #expect(recorder.isFinished)
    }

    @Test func mergeFailureCancelsTheOtherSourceAndFailsOnce() {
        let a = CombiningProbe<Int, TestFailure>()
        let b = CombiningProbe<Int, TestFailure>()
        let recorder = a.merge(with: b).record()
        a.send(1)
        b.send(completion: .failure(.boom))
        #expect(a.cancelCount == 1)
        a.send(2)
        a.send(completion: .failure(.other))
        #expect(recorder.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func mergeDeliversReentrantSendsSerially() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var depth = 0
        var maxDepth = 0
        let cancellable = a.merge(with: b).sink { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            received.append(value)
            if value == 1 { b.send(2) }
            if value == 2 { a.send(3) }
            depth -= 1
        }
        a.send(1)
        #expect(received == [1, 2, 3])
        #expect(maxDepth == 1)
        cancellable.cancel()
    }

    @Test func mergeNeverDeliversConcurrentlyWhenSourcesSendFromTwoThreads() {
        let sources = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let count = Atomic<Int>(0)
        let cancellable = sources[0].merge(with: sources[1]).sink { _ in
            if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            count.add(1, ordering: .relaxed)
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            for value in 0..<5_000 { sources[index].send(value) }
        }
        #expect(count.load(ordering: .relaxed) == 10_000)
        #expect(overlaps.load(ordering: .relaxed) == 0)
        cancellable.cancel()
    }

    @Test func mergeCancelCancelsEverySourceAndDeliversNothingMore() {
        let a = CombiningProbe<Int, Never>()
        let b = CombiningProbe<Int, Never>()
        let recorder = a.merge(with: b).record()
        a.send(1)
        recorder.cancel()
        recorder.cancel()
        a.send(2)
        b.send(3)
        #expect(a.cancelCount == 1)
        #expect(b.cancelCount == 1)
        #expect(recorder.events == [.value(1, at: .zero)])
    }

    @Test func mergeCancelReleasesTheSubscription() {
        let a = PassthroughSubject<Int, Never>()
        weak var weakSource: PassthroughSubject<Int, Never>?
        let recorder: TestRecorder<Int, Never>
        do {
            let b = PassthroughSubject<Int, Never>()
            weakSource = b
            recorder = a.merge(with: b).record()
        }
        weak let weakSubscription = recorder.subscription.map { $0 as AnyObject }
        recorder.cancel()
        #expect(weakSource == nil)
        #expect(weakSubscription == nil)
    }

    @Test func merge3AndMerge4DeliverEverySource() {
        let three = Just(1).merge(with: Just(2), Just(3)).record()
        #expect(three.values == [1, 2, 3])
        #expect(three.isFinished)
        let four = Just(1).merge(with: Just(2), Just(3), Just(4)).record()
        #expect(four.values == [1, 2, 3, 4])
        #expect(four.isFinished)
    }

    @Test func mergeManyMergesAnArrayAndFinishesWhenAllFinish() {
        let sources = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = Publishers.MergeMany(sources).record()
        sources[2].send(2)
        sources[0].send(0)
        sources[0].send(completion: .finished)
        sources[1].send(completion: .finished)
        #expect(recorder.completion == nil)
        sources[2].send(completion: .finished)
        #expect(recorder.values == [2, 0])
        #expect(recorder.isFinished)
    }

    @Test func mergeManyOfNothingFinishesAtOnce() {
        let recorder = Publishers.MergeMany([Just<Int>]()).record()
        #expect(recorder.events == [.finished(at: .zero)])
    }

    @Test func mergeManyVariadicAndMergeWithAppendASource() {
        let recorder = Publishers.MergeMany(Just(1), Just(2)).merge(with: Just(3)).record()
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.isFinished)
    }

    @Test func mergeDescribesItsSubscription() {
        let recorder = Just(1).merge(with: Just(2)).record(demand: .none)
        #expect(recorder.subscription.map { String(describing: $0) } == "Merge")
    }

    @Test func mergeHandsItsSubscriptionDownFirstAndSubscribesNoSourceAfterACancelInThatHandshake() {
        var log: [String] = []
        func source(_ name: String) -> Deferred<Just<Int>> {
            Deferred {
                log.append("\(name) subscribed")
                return Just(1)
            }
        }
        let live = AnySubscriber<Int, Never>(
            receiveSubscription: {
                log.append("subscription")
                $0.request(.unlimited)
            }, receiveValue: { _ in .none }, receiveCompletion: { _ in log.append("finished") })
        source("a").merge(with: source("b")).subscribe(live)
        #expect(log == ["subscription", "a subscribed", "b subscribed", "finished"])

        log = []
        let cancelling = AnySubscriber<Int, Never>(
            receiveSubscription: {
                log.append("subscription")
                $0.cancel()
            }, receiveValue: { _ in .none }, receiveCompletion: { _ in log.append("finished") })
        source("a").merge(with: source("b")).subscribe(cancelling)
        #expect(log == ["subscription"])
    }
}
