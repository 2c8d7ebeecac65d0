import Dispatch
import Streams
import StreamsTesting
import Testing

/// Counts how often a `create` factory's cancellable is cancelled.
final class CreateTeardownCounter: Cancellable, @unchecked Sendable {
    private let count = Locked(0)
    var cancels: Int { count.withLock { $0 } }
    func cancel() { count.withLock { $0 += 1 } }
}

/// Holds the `Subscriber` a `create` factory was given, so that a test can send through it later.
final class CreateSubscriberSlot<Output, Failure: Error>: @unchecked Sendable {
    private let slot = Locked<Publishers.Create<Output, Failure>.Subscriber?>(nil)
    var subscriber: Publishers.Create<Output, Failure>.Subscriber? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }
}

@Suite struct CreateTests {
    @Test func synchronousValuesThenTheCompletionThenTheTeardown() {
        let log = Locked<[String]>([])
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            log.withLock { $0.append("factory") }
            subscriber.send(1)
            subscriber.send(2)
            subscriber.send(completion: .finished)
            subscriber.send(3)  // ignored: after the completion
            return AnyCancellable { log.withLock { $0.append("teardown") } }
        }
        let cancellable = publisher.sink(
            receiveCompletion: { _ in log.withLock { $0.append("finished") } },
            receiveValue: { value in log.withLock { $0.append("\(value)") } })
        #expect(log.withLock { $0 } == ["factory", "1", "2", "finished", "teardown"])
        cancellable.cancel()  // after the completion: the teardown is not run again
        #expect(log.withLock { $0 }.count == 5)
    }

    @Test func theFactoryRunsOncePerSubscription() {
        let runs = Locked(0)
        let publisher = AnyPublisher<Int, TestError> { subscriber in
            let run = runs.withLock { count -> Int in
                count += 1
                return count
            }
            subscriber.send(run)
            subscriber.send(completion: .failure(.boom))
            return AnyCancellable {}
        }
        let first = publisher.record()
        let second = publisher.record()
        #expect(first.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])
        #expect(second.events == [.value(2, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func valuesSentOnASchedulerArriveAtTheirTime() {
        let scheduler = TestScheduler()
        let publisher = AnyPublisher<String, Never>.create { subscriber in
            let a = scheduler.schedule(afterDelay: scheduler.frames(1)) { subscriber.send("a") }
            let b = scheduler.schedule(afterDelay: scheduler.frames(3)) { subscriber.send("b") }
            let end = scheduler.schedule(afterDelay: scheduler.frames(4)) { subscriber.send(completion: .finished) }
            return AnyCancellable {
                a.cancel()
                b.cancel()
                end.cancel()
            }
        }
        expectMarbles(publisher, "-a-b|", on: scheduler)
    }

    /// Hand-written demand: the values sent without demand are buffered and come out one per request; the
    /// completion follows the last one.
    @Test func demandOneAtATime() {
        let teardown = CreateTeardownCounter()
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            for value in 1...3 { subscriber.send(value) }
            subscriber.send(completion: .finished)
            return teardown
        }
        let subscriber = HandWrittenSubscriber<Int, Never>()
        publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        #expect(teardown.cancels == 0)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        #expect(teardown.cancels == 1)
    }

    @Test func valuesSentLaterWaitForDemandUnbounded() {
        let slot = CreateSubscriberSlot<Int, Never>()
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            slot.subscriber = subscriber
            return AnyCancellable {}
        }
        let recorder = publisher.record(demand: .none)
        for value in 1...100 { slot.subscriber?.send(value) }
        #expect(recorder.values.isEmpty)
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2])
        recorder.request(.unlimited)
        #expect(recorder.values == Array(1...100))
        slot.subscriber?.send(101)
        #expect(recorder.values.last == 101)
    }

    @Test func demandReturnedFromReceiveIsHonoured() {
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            for value in 1...4 { subscriber.send(value) }
            return AnyCancellable {}
        }
        let recorder = publisher.record(demand: .max(1), demandPerValue: .max(1))
        #expect(recorder.values == [1, 2, 3, 4])
    }

    @Test func cancelRunsTheTeardownOnceAndStopsEverything() {
        let teardown = CreateTeardownCounter()
        let slot = CreateSubscriberSlot<Int, Never>()
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            slot.subscriber = subscriber
            return teardown
        }
        let recorder = publisher.record(demand: .none)
        slot.subscriber?.send(1)  // buffered
        let subscription = recorder.subscription
        recorder.cancel()
        #expect(teardown.cancels == 1)
        subscription?.cancel()
        subscription?.request(.unlimited)
        slot.subscriber?.send(2)
        slot.subscriber?.send(completion: .finished)
        #expect(teardown.cancels == 1)
        #expect(recorder.events.isEmpty)
    }

    @Test func cancellingFromInsideReceiveSubscriptionSkipsTheFactory() {
        let runs = Locked(0)
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            runs.withLock { $0 += 1 }
            subscriber.send(1)
            return AnyCancellable {}
        }
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .unlimited, cancelOnSubscription: true)
        publisher.subscribe(subscriber)
        #expect(runs.withLock { $0 } == 0)
        #expect(subscriber.events == [.subscription])
    }

    @Test func aCancelWhileTheFactoryRunsCancelsItsCancellableWhenItReturns() {
        let teardown = CreateTeardownCounter()
        let recorderSlot = Locked<TestRecorder<Int, Never>?>(nil)
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            subscriber.send(1)
            recorderSlot.withLock { $0 }?.cancel()
            #expect(teardown.cancels == 0)
            subscriber.send(2)
            return teardown
        }
        let recorder = TestRecorder<Int, Never>()
        recorderSlot.withLock { $0 = recorder }
        publisher.subscribe(recorder)
        #expect(teardown.cancels == 1)
        #expect(recorder.events.isEmpty)
    }

    @Test func cancellingFromInsideReceiveStopsAtOnce() {
        let teardown = CreateTeardownCounter()
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            for value in 1...4 { subscriber.send(value) }
            subscriber.send(completion: .finished)
            return teardown
        }
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .unlimited, cancelOnValue: 2)
        publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        #expect(teardown.cancels == 1)
    }

    @Test func onlyTheFirstCompletionCounts() {
        let publisher = AnyPublisher<Int, TestError>.create { subscriber in
            subscriber.send(completion: .failure(.boom))
            subscriber.send(completion: .finished)
            subscriber.send(completion: .failure(.other(1)))
            return AnyCancellable {}
        }
        #expect(publisher.record().events == [.failure(.boom, at: .zero)])
    }

    @Test func aReentrantSendIsQueuedNotNested() {
        let slot = CreateSubscriberSlot<Int, Never>()
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            slot.subscriber = subscriber
            return AnyCancellable {}
        }
        let log = Locked<[String]>([])
        let sink = publisher.sink { value in
            log.withLock { $0.append("begin \(value)") }
            if value == 1 { slot.subscriber?.send(2) }
            log.withLock { $0.append("end \(value)") }
        }
        slot.subscriber?.send(1)
        #expect(log.withLock { $0 } == ["begin 1", "end 1", "begin 2", "end 2"])
        _ = sink
    }

    @Test func concurrentSendsAreSerialized() {
        let slot = CreateSubscriberSlot<Int, Never>()
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            slot.subscriber = subscriber
            return AnyCancellable {}
        }
        let inside = Locked(0)
        let overlaps = Locked(0)
        let received = Locked<[Int]>([])
        let sink = publisher.sink { value in
            if inside.withLock({ count -> Int in
                count += 1
                return count
            }) > 1 { overlaps.withLock { $0 += 1 } }
            received.withLock { $0.append(value) }
            inside.withLock { $0 -= 1 }
        }
        let subscriber = slot.subscriber
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<500 { subscriber?.send(thread * 500 + index) }
        }
        let values = received.withLock { $0 }
        #expect(values.count == 2000)
        #expect(overlaps.withLock { $0 } == 0)
        for thread in 0..<4 {
            #expect(values.filter { $0 / 500 == thread } == Array(thread * 500..<(thread + 1) * 500))
        }
        _ = sink
    }

    @Test func concurrentRequestsNeverExceedDemand() {
        let slot = CreateSubscriberSlot<Int, Never>()
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            slot.subscriber = subscriber
            return AnyCancellable {}
        }
        let recorder = publisher.record(demand: .none)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<250 {
                slot.subscriber?.send(thread * 250 + index)
                if index.isMultiple(of: 2) { recorder.request(.max(1)) }
            }
        }
        #expect(recorder.values.count == 500)
    }

    @Test(arguments: LeakCheckEnding.allCases) func nothingLeaks(_ ending: LeakCheckEnding) {
        let slot = CreateSubscriberSlot<Int, Never>()
        expectNoLeaks { tracker in
            let factoryToken = tracker.token("factory")
            let teardownToken = tracker.token("teardown")
            let publisher = AnyPublisher<Int, Never>.create { subscriber in
                factoryToken()
                slot.subscriber = subscriber
                // The teardown holds the subscriber, so the subscription and its cancellable form a cycle that
                // the end of the subscription must break.
                return AnyCancellable {
                    teardownToken()
                    subscriber.send(-1)
                }
            }
            let recorder = tracker.record(publisher)
            slot.subscriber?.send(1)
            if ending == .cancel {
                recorder.cancel()
            } else {
                slot.subscriber?.send(completion: .finished)
            }
            slot.subscriber = nil
            #expect(recorder.values == [1])
        }
    }

    @Test func aKeptSubscriberDoesNotKeepTheDownstreamAlive() {
        let slot = CreateSubscriberSlot<Int, Never>()
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            slot.subscriber = subscriber
            return AnyCancellable {}
        }
        expectNoLeaks { tracker in
            let recorder = tracker.watch(publisher.record())
            recorder.cancel()
        }
        slot.subscriber?.send(1)  // still safe to call: ignored
        #expect(slot.subscriber != nil)
    }

    @Test func descriptions() {
        let publisher = Publishers.Create<Int, Never> { _ in AnyCancellable {} }
        #expect(publisher.description == "Create")
        let recorder = publisher.record()
        #expect(recorder.subscription.map { String(describing: $0) } == "Create")
    }
}
