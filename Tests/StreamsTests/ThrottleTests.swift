import Streams
import StreamsTesting
import Testing

@Suite struct ThrottleTests {
    private func makeThrottle(latest: Bool, demand: Subscribers.Demand = .unlimited) -> (
        TestScheduler, PassthroughSubject<Int, TimingTestError>, TestRecorder<Int, TimingTestError>
    ) {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, TimingTestError>()
        let recorder = input.throttle(for: .milliseconds(100), scheduler: scheduler, latest: latest)
            .record(on: scheduler, demand: demand)
        return (scheduler, input, recorder)
    }

    /// Sends each value at its time (ms), in order.
    private func send(
        _ timeline: [(Int, Int)], to input: PassthroughSubject<Int, TimingTestError>, on scheduler: TestScheduler
    ) {
        for (time, value) in timeline {
            scheduler.advance(to: .ms(time))
            input.send(value)
        }
    }

    @Test func theFirstValueIsPublishedAtTheInstantItArrives() {
        let (scheduler, input, recorder) = makeThrottle(latest: true)
        scheduler.advance(to: .ms(30))
        input.send(1)
        scheduler.advance()
        #expect(recorder.events == [.value(1, at: .milliseconds(30))])
    }

    @Test func latestTruePublishesTheNewestValueOfTheWindowAtItsEnd() {
        let (scheduler, input, recorder) = makeThrottle(latest: true)
        send([(0, 1), (10, 2), (50, 3)], to: input, on: scheduler)
        scheduler.advance(to: .ms(500))
        #expect(recorder.events == [.value(1, at: .zero), .value(3, at: .milliseconds(100))])
    }

    @Test func latestFalsePublishesTheFirstValueOfTheWindowAtItsEnd() {
        let (scheduler, input, recorder) = makeThrottle(latest: false)
        send([(0, 1), (10, 2), (50, 3)], to: input, on: scheduler)
        scheduler.advance(to: .ms(500))
        #expect(recorder.events == [.value(1, at: .zero), .value(2, at: .milliseconds(100))])
    }

    @Test func aWindowThatPublishedStartsANewWindowAtItsEnd() {
        let (scheduler, input, recorder) = makeThrottle(latest: true)
        // window [0, 100] publishes 2 at 100, so [100, 200] is open: 3 waits until 200.
        // [200, 300] publishes 4 at 300; [300, 400] ends empty; 5 at 450 is published at once.
        send([(0, 1), (10, 2), (150, 3), (250, 4), (450, 5)], to: input, on: scheduler)
        scheduler.advance(to: .ms(1000))
        #expect(
            recorder.events == [
                .value(1, at: .zero), .value(2, at: .milliseconds(100)), .value(3, at: .milliseconds(200)),
                .value(4, at: .milliseconds(300)), .value(5, at: .milliseconds(450)),
            ])
    }

    @Test func aWindowThatEndsEmptyLetsTheNextValueThroughAtOnce() {
        let (scheduler, input, recorder) = makeThrottle(latest: true)
        send([(0, 1), (130, 2), (231, 3)], to: input, on: scheduler)
        scheduler.advance(to: .ms(1000))
        #expect(
            recorder.events == [
                .value(1, at: .zero), .value(2, at: .milliseconds(130)), .value(3, at: .milliseconds(231)),
            ])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func finishFlushesTheCollapsedValueWithoutWaitingForTheWindow() {
        let (scheduler, input, recorder) = makeThrottle(latest: true)
        send([(0, 1), (30, 2), (40, 3)], to: input, on: scheduler)
        scheduler.advance(to: .ms(50))
        input.send(completion: .finished)
        scheduler.advance()
        #expect(
            recorder.events == [
                .value(1, at: .zero), .value(3, at: .milliseconds(50)), .finished(at: .milliseconds(50)),
            ])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func finishRightAfterTheFirstValuePublishesItFirst() {
        let (scheduler, input, recorder) = makeThrottle(latest: false)
        input.send(1)
        input.send(2)
        input.send(completion: .finished)
        scheduler.advance()
        #expect(recorder.events == [.value(1, at: .zero), .value(2, at: .zero), .finished(at: .zero)])
    }

    @Test func failureDropsTheCollapsedValueAndFailsAtOnce() {
        let (scheduler, input, recorder) = makeThrottle(latest: true)
        send([(0, 1), (30, 2)], to: input, on: scheduler)
        scheduler.advance(to: .ms(50))
        input.send(completion: .failure(.boom))
        scheduler.advance(to: .ms(500))
        #expect(recorder.events == [.value(1, at: .zero), .failure(.boom, at: .milliseconds(50))])
    }

    @Test func failureStillPublishesAValueAlreadyDueAtOnce() {
        let (scheduler, input, recorder) = makeThrottle(latest: true)
        input.send(1)
        input.send(completion: .failure(.boom))
        scheduler.advance()
        #expect(recorder.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func cancelStopsEveryTimerAndReleasesTheSubscriber() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        weak var weakRecorder: TestRecorder<Int, Never>?
        do {
            let recorder = input.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true)
                .record(on: scheduler)
            weakRecorder = recorder
            input.send(1)
            input.send(2)
            #expect(scheduler.pendingCount == 2)
            recorder.cancel()
            recorder.cancel()
            #expect(scheduler.pendingCount == 0)
            input.send(3)
            scheduler.advance(to: .ms(500))
            #expect(recorder.events.isEmpty)
        }
        #expect(weakRecorder == nil)
    }

    @Test func aValueDroppedForLackOfDemandStillRestartsTheWindow() {
        let (scheduler, input, recorder) = makeThrottle(latest: true, demand: .max(1))
        // 2 is due at 100 without demand: dropped, but [100, 200] opens, so 3 waits until 200.
        send([(0, 1), (30, 2)], to: input, on: scheduler)
        scheduler.advance(to: .ms(120))
        recorder.request(.max(1))
        send([(150, 3)], to: input, on: scheduler)
        scheduler.advance(to: .ms(1000))
        #expect(recorder.events == [.value(1, at: .zero), .value(3, at: .milliseconds(200))])
    }

    @Test func upstreamIsAskedForUnlimitedAndCancelledOnCancel() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.throttle(for: .milliseconds(10), scheduler: scheduler, latest: false)
            .record(on: scheduler, demand: .max(1))
        #expect(probe.requests == [.unlimited])
        recorder.cancel()
        #expect(probe.cancelCount == 1)
    }
}

@Suite struct ThrottleStateMachineTests {
    @Test func aStaleWindowTimerNeverActs() {
        var machine = ThrottleStateMachine<Int, Never>(latest: true)
        machine.requested(.unlimited)
        guard case .publishNowAndOpenWindow(let window) = machine.received(1) else {
            Issue.record("the first value did not open a window")
            return
        }
        guard case .deliver(1) = machine.readyDue() else {
            Issue.record("the first value was not published")
            return
        }
        _ = machine.received(2)
        let (next, action) = machine.windowEnded(window: window)
        guard case .openWindow(let second) = next, case .deliver(2) = action else {
            Issue.record("the window did not publish its value and reopen")
            return
        }
        let (staleNext, staleAction) = machine.windowEnded(window: window)
        guard case .none = staleNext, case .none = staleAction else {
            Issue.record("a stale window acted")
            return
        }
        let (lastNext, _) = machine.windowEnded(window: second)
        guard case .none = lastNext else {
            Issue.record("an empty window reopened")
            return
        }
        #expect(!machine.isWindowOpen)
    }
}
