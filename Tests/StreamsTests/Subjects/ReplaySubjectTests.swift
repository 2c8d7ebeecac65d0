import Dispatch
import Streams
import StreamsTesting
import Testing

/// An upstream subscription that records what a subject asks of it.
final class ReplaySubjectUpstreamProbe: Subscription, @unchecked Sendable {
    private let log = Locked<[Subscribers.Demand]>([])
    private let cancelled = Locked(false)
    var requests: [Subscribers.Demand] { log.withLock { $0 } }
    var isCancelled: Bool { cancelled.withLock { $0 } }
    func request(_ demand: Subscribers.Demand) { log.withLock { $0.append(demand) } }
    func cancel() { cancelled.withLock { $0 = true } }
}

@Suite struct ReplaySubjectTests {
    @Test func aLateSubscriberGetsTheLatestValuesThenLiveOnes() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b-c---d|")
        let subject = ReplaySubject<String, Never>(bufferSize: 2)
        let link = input.subscribe(subject)
        let early = subject.record(on: scheduler)
        scheduler.advance(by: scheduler.frames(6))
        let late = subject.record(on: scheduler)
        scheduler.run()
        expectMarbles(early, "-a-b-c---d|")
        expectMarbles(late, "------(bc)--d|")
        _ = link
    }

    @Test func aSubscriberAfterCompletionGetsTheBufferThenTheCompletion() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b-c|", error: TestError.boom)
        let subject = ReplaySubject<String, TestError>(bufferSize: 2)
        let link = input.subscribe(subject)
        scheduler.advance(by: scheduler.frames(8))
        let late = subject.record(on: scheduler)
        expectMarbles(late, "--------(bc|)")
        _ = link
    }

    @Test func aFailureIsReplayedAfterTheBuffer() {
        let subject = ReplaySubject<Int, TestError>(bufferSize: 3)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        subject.send(2)
        let late = subject.record()
        #expect(late.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func theBufferKeepsTheNewestValues() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 3)
        for value in 1...10 { subject.send(value) }
        #expect(subject.record().values == [8, 9, 10])
        #expect(subject.bufferSize == 3)
    }

    @Test func aNegativeBufferSizeCountsAsZero() {
        let subject = ReplaySubject<Int, Never>(bufferSize: -4)
        #expect(subject.bufferSize == 0)
        subject.send(1)
        let recorder = subject.record()
        subject.send(2)
        #expect(recorder.values == [2])
    }

    /// Hand-written demand: one value per request, never more, and the completion only once the kept values are out.
    @Test func demandOneAtATime() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        subject.send(1)
        subject.send(2)
        let subscriber = HandWrittenSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1)])
        subject.send(3)  // kept for the subscriber (no demand)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func aSubscriberWithoutDemandKeepsAtMostBufferSizeValues() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        let recorder = subject.record(demand: .none)
        for value in 1...5 { subject.send(value) }
        #expect(recorder.values.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.values == [4])
        subject.send(6)
        recorder.request(.unlimited)
        #expect(recorder.values == [4, 5, 6])
    }

    @Test func demandReturnedFromReceiveIsHonoured() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 4)
        for value in 1...4 { subject.send(value) }
        let recorder = subject.record(demand: .max(1), demandPerValue: .max(1))
        subject.send(5)
        #expect(recorder.values == [1, 2, 3, 4, 5])
    }

    @Test func nothingIsDeliveredAfterCancel() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        subject.send(1)
        let recorder = subject.record(demand: .none)
        recorder.cancel()
        recorder.request(.unlimited)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events.isEmpty)
    }

    @Test func cancellingFromInsideReceiveStopsAtOnce() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 3)
        for value in 1...3 { subject.send(value) }
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .unlimited, cancelOnValue: 2)
        subject.subscribe(subscriber)
        subject.send(4)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }

    @Test func sendSubscriptionRequestsUnlimitedAtOnce() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 1)
        let upstream = ReplaySubjectUpstreamProbe()
        subject.send(subscription: upstream)
        #expect(upstream.requests == [.unlimited])
    }

    @Test func withBufferSizeZeroSendSubscriptionWaitsForDemand() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 0)
        let upstream = ReplaySubjectUpstreamProbe()
        subject.send(subscription: upstream)
        #expect(upstream.requests.isEmpty)
        let recorder = subject.record()
        #expect(upstream.requests == [.unlimited])
        _ = recorder
    }

    @Test func aSubscriptionAfterCompletionIsCancelled() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 1)
        subject.send(completion: .finished)
        let upstream = ReplaySubjectUpstreamProbe()
        subject.send(subscription: upstream)
        #expect(upstream.isCancelled)
        #expect(upstream.requests.isEmpty)
    }

    @Test func aSynchronousUpstreamFillsTheBufferBeforeAnySubscriber() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        let link = [1, 2, 3].publisher.subscribe(subject)
        let recorder = subject.record()
        #expect(recorder.values == [2, 3])
        #expect(recorder.isFinished)
        _ = link
    }

    @Test func aReentrantSendIsQueuedNotNested() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 1)
        let log = Locked<[String]>([])
        let first = subject.sink { value in
            log.withLock { $0.append("a\(value)") }
            if value == 1 { subject.send(2) }
        }
        let second = subject.sink { value in log.withLock { $0.append("b\(value)") } }
        subject.send(1)
        #expect(log.withLock { $0 } == ["a1", "b1", "a2", "b2"])
        _ = (first, second)
    }

    @Test func concurrentSendsAreSerialized() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 8)
        let inside = Locked(0)
        let overlaps = Locked(0)
        let received = Locked<[Int]>([])
        let sink = subject.sink { value in
            if inside.withLock({ count -> Int in
                count += 1
                return count
            }) > 1 { overlaps.withLock { $0 += 1 } }
            received.withLock { $0.append(value) }
            inside.withLock { $0 -= 1 }
        }
        let threads = 4
        let perThread = 500
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread { subject.send(thread * perThread + index) }
        }
        let values = received.withLock { $0 }
        #expect(values.count == threads * perThread)
        #expect(overlaps.withLock { $0 } == 0)
        for thread in 0..<threads {
            let mine = values.filter { $0 / perThread == thread }
            #expect(mine == Array(thread * perThread..<(thread + 1) * perThread))
        }
        // A late subscriber gets the last 8 values in the order every subscriber saw them.
        #expect(subject.record().values == Array(values.suffix(8)))
        _ = sink
    }

    @Test(arguments: LeakCheckEnding.allCases) func nothingLeaks(_ ending: LeakCheckEnding) {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        subject.send(1)
        expectNoLeaks { tracker in
            let token = tracker.token("map transform")
            let recorder = tracker.record(subject.map { token($0 * 10) })
            let waiting = tracker.record(subject, demand: .none)
            subject.send(2)
            subject.send(3)
            if ending == .cancel {
                recorder.cancel()
                waiting.cancel()
            } else {
                subject.send(completion: .finished)
                waiting.request(.unlimited)
            }
            #expect(recorder.values == [10, 20, 30])
        }
        withExtendedLifetime(subject) {}
    }

    /// The subscription names its publisher (as `dump`, `print` and failure messages show it), whether it
    /// replays or not — not `share(replay:)`, which shares the engine.
    @Test func itsSubscriptionsDescribeThemselvesAsReplaySubject() {
        for bufferSize in [0, 2] {
            let subject = ReplaySubject<Int, Never>(bufferSize: bufferSize)
            var described = ""
            let cancellable = subject.handleEvents(receiveSubscription: { described = "\($0)" }).sink { _ in }
            #expect(described == "ReplaySubject", "bufferSize \(bufferSize)")
            cancellable.cancel()
        }
        var described = ""
        _ = PassthroughSubject<Int, Never>().share(replay: 1)
            .handleEvents(receiveSubscription: { described = "\($0)" }).sink { _ in }
        #expect(described == "ShareReplay")
    }

    @Test func valuesSentFromInsideReceiveSubscriptionFollowTheReplayAfterTheCall() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        subject.send(1)
        let subscriber = HandshakeSubscriber<Int, Never>(initial: .unlimited) {
            subject.send(5)
            subject.send(6)
        }
        subject.subscribe(subscriber)
        subject.send(7)
        #expect(subscriber.events == ["subscription", "value(1)", "value(5)", "value(6)", "value(7)"])
    }
}
