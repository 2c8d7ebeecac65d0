import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct NwiseTests {
    // MARK: nwise

    @Test func nwisePublishesSlidingWindows() {
        let recorder = [1, 2, 3, 4, 5].publisher.nwise(3).record()
        #expect(recorder.values == [[1, 2, 3], [2, 3, 4], [3, 4, 5]])
        #expect(recorder.isFinished)
    }

    @Test func nwiseMarbles() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.hot("-a-b-c-d-|")
        let windows = source.nwise(3).map { $0.joined() }
        expectMarbles(windows, "-----x-y-|", values: ["x": "abc", "y": "bcd"], on: scheduler)
    }

    @Test func nwiseForwardsAFailureAndDropsThePartialWindow() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("-a-b-#", error: TimingTestError.boom)
        expectMarbles(source.nwise(3).map { $0.joined() }, "-----#", error: .boom, on: scheduler)
    }

    @Test func nwiseOfOneWrapsEachValueAndSmallerSizesCountAsOne() {
        #expect([1, 2].publisher.nwise(1).record().values == [[1], [2]])
        #expect([1, 2].publisher.nwise(0).record().values == [[1], [2]])
        #expect([1, 2].publisher.nwise(-3).record().values == [[1], [2]])
        #expect([1, 2].publisher.nwise(-3).size == 1)
    }

    @Test func nwiseShorterThanTheWindowPublishesNothing() {
        let recorder = [1, 2].publisher.nwise(3).record()
        #expect(recorder.events == [.finished(at: .zero)])
    }

    @Test func nwiseRequestsOneAtATimeAndReplacesDemandOfValuesThatProduceNothing() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<[Int], Never>(initial: .max(1))
        probe.nwise(3).subscribe(subscriber)
        #expect(probe.requests == [.max(1)])
        #expect(probe.send(1) == .max(1))  // produced nothing: one more
        #expect(probe.send(2) == .max(1))
        #expect(probe.send(3) == .none)  // the window the downstream asked for
        #expect(subscriber.events == [.subscription, .value([1, 2, 3])])
        subscriber.request(.max(1))
        #expect(probe.requests == [.max(1), .max(1)])
        #expect(probe.send(4) == .none)
        #expect(subscriber.events == [.subscription, .value([1, 2, 3]), .value([2, 3, 4])])
    }

    @Test func nwiseDeliversNothingAfterCancel() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.nwise(2).record()
        probe.send(1)
        probe.send(2)
        recorder.cancel()
        probe.send(3)
        probe.send(completion: .finished)
        #expect(recorder.events == [.value([1, 2], at: .zero)])
        #expect(probe.cancelCount == 1)
    }

    @Test func nwiseFreesEverythingAfterCancelAndAfterCompletion() {
        let subject = PassthroughSubject<LifetimeToken, Never>()
        expectNoLeaks { tracker in
            let recorder = tracker.record(subject.nwise(3))
            subject.send(tracker.watch(LifetimeToken(), as: "buffered value"))
            recorder.cancel()
        }
        expectNoLeaks { tracker in
            let recorder = tracker.record(subject.nwise(2))
            subject.send(tracker.watch(LifetimeToken(), as: "buffered value"))
            subject.send(completion: .finished)
            #expect(recorder.isFinished)
        }
    }

    // MARK: pairwise

    @Test func pairwisePublishesConsecutivePairs() {
        let recorder = [1, 2, 3].publisher.pairwise().map { "\($0)\($1)" }.record()
        #expect(recorder.values == ["12", "23"])
        #expect(recorder.isFinished)
    }

    @Test func pairwiseMarbles() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("-a--b-c-#", error: TimingTestError.boom)
        expectMarbles(
            source.pairwise().map { $0 + $1 }, "----x-y-#", values: ["x": "ab", "y": "bc"], error: .boom,
            on: scheduler)
    }

    @Test func pairwiseRequestsOneAtATime() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<String, Never>(initial: .max(1))
        probe.pairwise().map { "\($0)\($1)" }.subscribe(subscriber)
        #expect(probe.requests == [.max(1)])
        #expect(probe.send(1) == .max(1))
        #expect(probe.send(2) == .none)
        subscriber.request(.max(1))
        #expect(probe.requests == [.max(1), .max(1)])
        probe.send(3)
        #expect(subscriber.events == [.subscription, .value("12"), .value("23")])
    }

    @Test func pairwiseDeliversNothingAfterCancel() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.pairwise().map { "\($0)\($1)" }.record()
        probe.send(1)
        recorder.cancel()
        probe.send(2)
        probe.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        #expect(probe.cancelCount == 1)
    }

    @Test func pairwiseFreesEverythingAfterCancelAndAfterCompletion() {
        let subject = PassthroughSubject<LifetimeToken, Never>()
        expectNoLeaks { tracker in
            let recorder = tracker.record(subject.pairwise())
            subject.send(tracker.watch(LifetimeToken(), as: "previous value"))
            recorder.cancel()
        }
        expectNoLeaks { tracker in
            let recorder = tracker.record(subject.pairwise())
            subject.send(tracker.watch(LifetimeToken(), as: "previous value"))
            subject.send(completion: .finished)
            #expect(recorder.isFinished)
        }
    }

    @Test func subscriptionsDescribeThemselves() {
        let nwise = [1].publisher.nwise(2).record(demand: .none)
        let pairwise = [1].publisher.pairwise().record(demand: .none)
        #expect(nwise.subscription.map { String(describing: $0) } == "Nwise")
        #expect(pairwise.subscription.map { String(describing: $0) } == "Pairwise")
    }

    /// A cancel on another thread while values arrive: the windows delivered are whole and consecutive (the window
    /// belongs to the upstream's calls; the thread sanitizer in `.ci/run` checks nothing else touches it).
    @Test func nwiseCancelRacingValuesDeliversOnlyConsecutiveWindows() {
        struct Handed: @unchecked Sendable { let recorder: TestRecorder<[Int], Never> }
        for round in 0..<1_000 {
            let subject = PassthroughSubject<Int, Never>()
            let handed = Handed(recorder: subject.nwise(3).record())
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == round % 2 {
                    for value in 0..<50 { subject.send(value) }
                } else {
                    handed.recorder.cancel()
                }
            }
            let windows = handed.recorder.values
            #expect(windows.enumerated().allSatisfy { index, window in window == [index, index + 1, index + 2] })
        }
    }
}
