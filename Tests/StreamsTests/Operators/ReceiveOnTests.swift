import Streams
import StreamsTesting
import Testing

@Suite struct ReceiveOnTests {
    @Test func eventsWaitForTheSchedulerAndArriveInOrder() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.receive(on: scheduler).record(on: scheduler)
        input.send(1)
        input.send(2)
        #expect(recorder.events.isEmpty)
        scheduler.advance(to: .ms(50))
        input.send(3)
        input.send(completion: .finished)
        scheduler.advance()
        #expect(
            recorder.events == [
                .value(1, at: .zero), .value(2, at: .zero), .value(3, at: .milliseconds(50)),
                .finished(at: .milliseconds(50)),
            ])
    }

    @Test func subscriptionAndRequestsPassThroughSynchronously() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.receive(on: scheduler).record(on: scheduler, demand: .max(2))
        #expect(recorder.subscriptionCount == 1)
        #expect(probe.requests == [.max(2)])
        recorder.request(.max(1))
        #expect(probe.requests == [.max(2), .max(1)])
        recorder.cancel()
        #expect(probe.cancelCount == 1)
    }

    @Test func demandReturnedByTheSubscriberGoesUpstream() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.receive(on: scheduler).record(on: scheduler, demand: .max(1), demandPerValue: .max(1))
        probe.send(1)
        #expect(probe.requests == [.max(1)])
        scheduler.advance()
        #expect(recorder.values == [1])
        #expect(probe.requests == [.max(1), .max(1)])
    }

    @Test func valuesSentFromInsideReceiveKeepTheirPlace() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = input.receive(on: scheduler).sink { value in
            received.append(value)
            if value == 1 { input.send(11) }
        }
        input.send(1)
        input.send(2)
        scheduler.advance()
        #expect(received == [1, 2, 11])
        cancellable.cancel()
    }

    @Test func nothingQueuedIsDeliveredAfterCancel() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        weak var weakRecorder: TestRecorder<Int, Never>?
        do {
            let recorder = input.receive(on: scheduler).record(on: scheduler)
            weakRecorder = recorder
            input.send(1)
            input.send(completion: .finished)
            recorder.cancel()
            recorder.cancel()
            scheduler.run()
            #expect(recorder.events.isEmpty)
        }
        #expect(weakRecorder == nil)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aSubscriberMayCancelFromInsideAValue() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var cancellable: AnyCancellable?
        cancellable = input.receive(on: scheduler).sink {
            received.append($0)
            cancellable?.cancel()
        }
        input.send(1)
        input.send(2)
        scheduler.advance()
        #expect(received == [1])
        _ = cancellable
    }

    @Test func eachEventHasItsOwnActionAndABurstKeepsItsOrder() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.receive(on: scheduler).record(on: scheduler)
        for value in 0..<100 { input.send(value) }
        #expect(scheduler.pendingCount == 100)
        scheduler.advance()
        #expect(recorder.values == Array(0..<100))
    }

    @Test func aValueSentDuringADeliveryWaitsForItsOwnActionAsInCombine() {
        // Found by the differential check: a value that arrives while an earlier one is being delivered runs
        // after the actions scheduled before it arrived, not inside the earlier value's action.
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let log = Locked<[String]>([])
        let subscription = input.receive(on: scheduler).sink { value in
            log.withLock { $0.append("value \(value)") }
            if value == 1 {
                _ = scheduler.schedule(after: scheduler.now) { log.withLock { $0.append("other action") } }
                input.send(2)
            }
        }
        input.send(1)
        scheduler.advance()
        #expect(log.withLock { $0 } == ["value 1", "other action", "value 2"])
        subscription.cancel()
    }

    // On an `ImmediateScheduler`, which runs each action at once on the calling thread, every event arrives inside
    // the upstream's call, as its scheduled action would have delivered it, without a queue.

    @Test func onTheImmediateSchedulerEachEventArrivesInsideTheUpstreamsCall() {
        let probe = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(initial: .max(2), perValue: .max(1))
        probe.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(probe.requests == [.max(2)])
        #expect(probe.send(1) == .max(1))  // the subscriber's demand for the value reaches the source
        #expect(subscriber.events == [.subscription, .value(1)])
        probe.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription, .value(1), .failure("boom")])
    }

    @Test func onTheImmediateSchedulerRequestsAndCancelPassThrough() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        probe.receive(on: .immediate).subscribe(subscriber)
        subscriber.request(.max(3))
        #expect(probe.requests == [.max(1), .max(3)])
        subscriber.cancel()
        #expect(probe.cancelCount == 1)
        probe.send(1)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        #expect(subscriber.subscription.map { String(describing: $0) } == "ReceiveOn")
    }

    @Test func onTheImmediateSchedulerASequenceHonoursDemand() {
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(2))
        [1, 2, 3].publisher.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(5))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func onTheImmediateSchedulerAValueSentFromInsideADeliveryComesAfterIt() {
        let input = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = input.receive(on: ImmediateScheduler.shared).sink { value in
            received.append(value)
            if value == 1 { input.send(11) }
            received.append(-value)
        }
        input.send(1)
        input.send(2)
        #expect(received == [1, -1, 11, -11, 2, -2])
        cancellable.cancel()
    }
}
