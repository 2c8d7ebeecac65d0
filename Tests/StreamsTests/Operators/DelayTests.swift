import Streams
import StreamsTesting
import Testing

@Suite struct DelayTests {
    @Test func everyEventIsShiftedByTheIntervalInOrder() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.delay(for: .milliseconds(100), scheduler: scheduler).record(on: scheduler)
        for (time, value) in [(0, 1), (10, 2), (50, 3)] {
            scheduler.advance(to: .ms(time))
            input.send(value)
        }
        scheduler.advance(to: .ms(60))
        input.send(completion: .finished)
        scheduler.advance(to: .ms(105))
        #expect(recorder.events == [.value(1, at: .milliseconds(100))])
        scheduler.advance(to: .ms(1000))
        #expect(
            recorder.events == [
                .value(1, at: .milliseconds(100)), .value(2, at: .milliseconds(110)),
                .value(3, at: .milliseconds(150)), .finished(at: .milliseconds(160)),
            ])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func combinesToleranceArgumentIsKeptAndChangesNoTiming() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let delayed = input.delay(for: .milliseconds(100), tolerance: .milliseconds(10), scheduler: scheduler)
        #expect(delayed.tolerance == .milliseconds(10))
        #expect(input.delay(for: .milliseconds(100), tolerance: nil, scheduler: scheduler).tolerance == .zero)
        let recorder = delayed.record(on: scheduler)
        input.send(1)
        scheduler.advance(by: .milliseconds(99))
        #expect(recorder.values.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.events == [.value(1, at: .milliseconds(100))])
    }

    @Test func aDelayedEventRunsInSchedulingOrderAmongActionsDueAtTheSameInstant() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let log = Locked<[String]>([])
        let subscription = input.delay(for: .milliseconds(100), scheduler: scheduler)
            .sink { value in log.withLock { $0.append("delayed \(value)") } }
        input.send(1)  // due at 100
        scheduler.advance(to: .ms(10))
        input.send(2)  // due at 110, scheduled at 10
        scheduler.advance(to: .ms(20))
        _ = scheduler.schedule(after: .ms(110)) { log.withLock { $0.append("other, scheduled at 20") } }
        _ = scheduler.schedule(after: .ms(100)) { log.withLock { $0.append("other at 100, scheduled at 20") } }
        scheduler.advance(to: .ms(200))
        #expect(
            log.withLock { $0 } == [
                "delayed 1", "other at 100, scheduled at 20", "delayed 2", "other, scheduled at 20",
            ])
        subscription.cancel()
    }

    @Test func eventsOfTheSameInstantArriveTogetherInOrder() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.delay(for: .milliseconds(100), scheduler: scheduler).record(on: scheduler)
        input.send(1)
        input.send(2)
        input.send(completion: .finished)
        scheduler.advance(to: .ms(100))
        #expect(
            recorder.events == [
                .value(1, at: .milliseconds(100)), .value(2, at: .milliseconds(100)), .finished(at: .milliseconds(100)),
            ])
    }

    @Test func aFailureIsDelayedToo() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, TimingTestError>()
        let recorder = input.delay(for: .milliseconds(100), scheduler: scheduler).record(on: scheduler)
        input.send(1)
        scheduler.advance(to: .ms(20))
        input.send(completion: .failure(.boom))
        scheduler.advance(to: .ms(119))
        #expect(recorder.events == [.value(1, at: .milliseconds(100))])
        scheduler.advance(to: .ms(120))
        #expect(recorder.events == [.value(1, at: .milliseconds(100)), .failure(.boom, at: .milliseconds(120))])
    }

    @Test func cancelDropsEverythingScheduledAndReleasesTheSubscriber() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        weak var weakRecorder: TestRecorder<Int, Never>?
        do {
            let recorder = input.delay(for: .milliseconds(100), scheduler: scheduler).record(on: scheduler)
            weakRecorder = recorder
            input.send(1)
            scheduler.advance(to: .ms(50))
            input.send(2)
            input.send(completion: .finished)
            recorder.cancel()
            recorder.cancel()
            #expect(scheduler.pendingCount == 0)
            scheduler.advance(to: .ms(500))
            #expect(recorder.events.isEmpty)
        }
        #expect(weakRecorder == nil)
    }

    @Test func cancelAfterManyDeliveriesStillCancelsEveryPendingAction() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.delay(for: .milliseconds(5), scheduler: scheduler).record()
        for value in 0..<100 {  // one per ms, each due 5 ms later: the pending ones keep moving forward
            input.send(value)
            scheduler.advance(by: .milliseconds(1))
        }
        #expect(recorder.values == Array(0...95))
        #expect(scheduler.pendingCount == 4)
        recorder.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .milliseconds(10))
        #expect(recorder.values == Array(0...95))
    }

    @Test func aSubscriberMayCancelFromInsideAValue() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var cancellable: AnyCancellable?
        cancellable = input.delay(for: .milliseconds(100), scheduler: scheduler).sink {
            received.append($0)
            cancellable?.cancel()
        }
        input.send(1)
        input.send(2)
        scheduler.advance(to: .ms(50))
        input.send(3)
        scheduler.advance(to: .ms(500))
        #expect(received == [1])
        #expect(scheduler.pendingCount == 0)
        _ = cancellable
    }

    @Test func demandPassesThroughAndIsNeverExceeded() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.delay(for: .milliseconds(100), scheduler: scheduler)
            .record(on: scheduler, demand: .max(2), demandPerValue: .max(1))
        #expect(probe.requests == [.max(2)])
        probe.send(1)
        scheduler.advance(to: .ms(100))
        #expect(recorder.values == [1])
        #expect(probe.requests == [.max(2), .max(1)])
        recorder.request(.max(3))
        #expect(probe.requests == [.max(2), .max(1), .max(3)])
    }

    @Test func upstreamIsCancelledOnCancel() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.delay(for: .milliseconds(10), scheduler: scheduler).record(on: scheduler)
        recorder.cancel()
        #expect(probe.cancelCount == 1)
    }
}
