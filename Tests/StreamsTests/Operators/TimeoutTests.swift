import Streams
import StreamsTesting
import Testing

@Suite struct TimeoutTests {
    @Test func silenceAfterSubscriptionFinishesWithoutCustomError() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.timeout(.milliseconds(100), scheduler: scheduler).record(on: scheduler)
        scheduler.advance(to: .ms(99))
        #expect(recorder.events.isEmpty)
        scheduler.advance(to: .ms(100))
        #expect(recorder.events == [.finished(at: .milliseconds(100))])
        #expect(probe.cancelCount == 1)
        probe.send(1)
        scheduler.advance(to: .ms(300))
        #expect(recorder.events == [.finished(at: .milliseconds(100))])
    }

    @Test func theSubscribersFirstRequestRestartsTheDeadlineAsInCombine() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>()
        subject.timeout(.milliseconds(100), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(to: .ms(60))
        subscriber.request(.max(1))  // a whole interval from here: the deadline is 160, not 100
        scheduler.advance(to: .ms(150))
        #expect(subscriber.events == [.subscription])
        scheduler.advance(to: .ms(160))
        #expect(subscriber.events == [.subscription, .finished])
    }

    @Test func aTimeoutWithNothingQueuedCompletesBeforeOtherActionsDueAtThatInstant() {
        // As in Combine: the completion is delivered by the timer's own action, not by one queued after it.
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let log = Locked<[String]>([])
        let subscription = subject.timeout(.milliseconds(100), scheduler: scheduler)
            .sink(receiveCompletion: { _ in log.withLock { $0.append("timed out") } }, receiveValue: { _ in })
        _ = scheduler.schedule(after: .ms(100)) { log.withLock { $0.append("other action at 100") } }
        scheduler.advance(to: .ms(200))
        #expect(log.withLock { $0 } == ["timed out", "other action at 100"])
        subscription.cancel()
    }

    @Test func theTimerRestartsAfterEachValueAndFailsWithTheCustomError() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, TimingTestError>()
        let recorder = input.timeout(.milliseconds(100), scheduler: scheduler, customError: { .timedOut })
            .record(on: scheduler)
        for (time, value) in [(50, 1), (140, 2), (230, 3)] {
            scheduler.advance(to: .ms(time))
            input.send(value)
        }
        scheduler.advance(to: .ms(1000))
        #expect(
            recorder.events == [
                .value(1, at: .milliseconds(50)), .value(2, at: .milliseconds(140)), .value(3, at: .milliseconds(230)),
                .failure(.timedOut, at: .milliseconds(330)),
            ])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aCompletionInTimeCancelsTheTimer() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, TimingTestError>()
        let recorder = input.timeout(.milliseconds(100), scheduler: scheduler, customError: { .timedOut })
            .record(on: scheduler)
        scheduler.advance(to: .ms(60))
        input.send(completion: .failure(.boom))
        scheduler.advance()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(to: .ms(1000))
        #expect(recorder.events == [.failure(.boom, at: .milliseconds(60))])
    }

    @Test func valuesAndCompletionAreDeliveredOnTheScheduler() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.timeout(.milliseconds(100), scheduler: scheduler).record(on: scheduler)
        input.send(1)
        input.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func cancelStopsTheTimerAndReleasesTheSubscriber() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        weak var weakRecorder: TestRecorder<Int, Never>?
        do {
            let recorder = probe.timeout(.milliseconds(100), scheduler: scheduler).record(on: scheduler)
            weakRecorder = recorder
            probe.send(1)
            recorder.cancel()
            recorder.cancel()
            #expect(probe.cancelCount == 1)
            scheduler.advance(to: .ms(500))
            #expect(recorder.events.isEmpty)
            #expect(scheduler.pendingCount == 0)
        }
        #expect(weakRecorder == nil)
    }

    @Test func demandPassesThrough() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.timeout(.milliseconds(100), scheduler: scheduler)
            .record(on: scheduler, demand: .max(1), demandPerValue: .max(2))
        #expect(probe.requests == [.max(1)])
        probe.send(1)
        scheduler.advance()
        #expect(recorder.values == [1])
        #expect(probe.requests == [.max(1), .max(2)])
    }

    @Test func timersWhoseCancelCameTooLateEndTheStreamOnceAndNothingFollows() {
        // A scheduler whose cancels never stop anything, running the actions last-first: the worst a concurrent
        // scheduler could do with the timers a value replaced.
        let scheduler = LastFirstScheduler()
        let input = PassthroughSubject<Int, Never>()
        let received = Locked<[String]>([])
        let subscription = input.timeout(.seconds(1), scheduler: scheduler).sink(
            receiveCompletion: { _ in received.withLock { $0.append("finished") } },
            receiveValue: { value in received.withLock { $0.append("\(value)") } }
        )
        input.send(1)
        input.send(2)
        while scheduler.runLast() {}
        #expect(received.withLock { $0 } == ["1", "2", "finished"])
        input.send(3)
        while scheduler.runLast() {}
        #expect(received.withLock { $0 } == ["1", "2", "finished"])
        subscription.cancel()
    }
}
