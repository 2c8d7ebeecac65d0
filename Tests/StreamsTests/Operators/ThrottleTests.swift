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

    @Test func finishWhileAValueIsScheduledDeliversItAtItsTimeThenFinishes() {
        let (scheduler, input, recorder) = makeThrottle(latest: true)
        send([(0, 1), (30, 2), (40, 3)], to: input, on: scheduler)
        scheduler.advance(to: .ms(50))
        input.send(completion: .finished)
        scheduler.advance(to: .ms(500))
        #expect(
            recorder.events == [
                .value(1, at: .zero), .value(3, at: .milliseconds(100)), .finished(at: .milliseconds(100)),
            ])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func failureWhileAValueIsScheduledStillDeliversTheValueFirst() {
        let (scheduler, input, recorder) = makeThrottle(latest: true)
        send([(0, 1), (30, 2)], to: input, on: scheduler)
        scheduler.advance(to: .ms(50))
        input.send(completion: .failure(.boom))
        scheduler.advance(to: .ms(500))
        #expect(
            recorder.events == [
                .value(1, at: .zero), .value(2, at: .milliseconds(100)), .failure(.boom, at: .milliseconds(100)),
            ])
    }

    @Test func valuesInTheSameInstantPublishOnceTheFirstWhenNotLatest() {
        let (scheduler, input, recorder) = makeThrottle(latest: false)
        input.send(1)
        input.send(2)
        input.send(completion: .finished)
        scheduler.advance(to: .ms(500))
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func valuesInTheSameInstantPublishOnceTheNewestWhenLatest() {
        let (scheduler, input, recorder) = makeThrottle(latest: true)
        input.send(1)
        input.send(2)
        input.send(3)
        scheduler.advance(to: .ms(500))
        #expect(recorder.events == [.value(3, at: .zero)])
    }

    @Test func failureWithNothingScheduledFailsAtOnce() {
        let (scheduler, input, recorder) = makeThrottle(latest: true)
        input.send(1)
        scheduler.advance(to: .ms(20))
        input.send(completion: .failure(.boom))
        scheduler.advance()
        #expect(recorder.events == [.value(1, at: .zero), .failure(.boom, at: .milliseconds(20))])
    }

    @Test func cancelStopsTheScheduledPublicationAndReleasesTheSubscriber() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        weak var weakRecorder: TestRecorder<Int, Never>?
        do {
            let recorder = input.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true)
                .record(on: scheduler)
            weakRecorder = recorder
            input.send(1)
            input.send(2)
            #expect(scheduler.pendingCount == 1)
            recorder.cancel()
            recorder.cancel()
            #expect(scheduler.pendingCount == 0)
            input.send(3)
            scheduler.advance(to: .ms(500))
            #expect(recorder.events.isEmpty)
        }
        #expect(weakRecorder == nil)
    }

    @Test func aValueArrivingWithoutDemandIsDroppedWhenItArrives() {
        let (scheduler, input, recorder) = makeThrottle(latest: true, demand: .max(1))
        // 1 takes the only demand. 2 arrives without demand: dropped then, not scheduled. Demand comes
        // back at 120, so 3 (at 150, more than an interval after 1) is published at once.
        send([(0, 1), (30, 2)], to: input, on: scheduler)
        scheduler.advance(to: .ms(120))
        recorder.request(.max(1))
        send([(150, 3)], to: input, on: scheduler)
        scheduler.advance(to: .ms(1000))
        #expect(recorder.events == [.value(1, at: .zero), .value(3, at: .milliseconds(150))])
    }

    @Test func aValueWithoutDemandDoesNotReplaceTheScheduledOne() {
        let (scheduler, input, recorder) = makeThrottle(latest: true, demand: .max(1))
        // 1 is scheduled at 0 with the one demand (reserved then); 2, in the same instant, finds no demand
        // left and is dropped on arrival (Combine checks demand before it replaces a scheduled value).
        input.send(1)
        input.send(2)
        scheduler.advance(to: .ms(10))
        input.send(3)
        scheduler.advance(to: .ms(500))
        #expect(recorder.events == [.value(1, at: .zero)])
    }

    @Test func cancelFromInsideTheValueStopsTheCompletionThatFollowsIt() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .unlimited, cancelOnValue: 1)
        input.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true).subscribe(subscriber)
        input.send(1)
        input.send(completion: .finished)
        scheduler.advance(to: .ms(500))
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func aSynchronousSourceReachesASubscriberThatAsksFirst() {
        // The documented difference from Combine: the subscription goes downstream before the upstream is asked,
        // so the subscriber's demand is there when a synchronous source sends (Combine drops every value).
        let scheduler = TestScheduler()
        let recorder = [1, 2, 3].publisher.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true)
            .record(on: scheduler)
        scheduler.advance(to: .ms(500))
        #expect(recorder.events == [.value(3, at: .zero), .finished(at: .zero)])
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
    @Test func aStalePublicationNeverActs() {
        var machine = ThrottleStateMachine<Int, Never>(latest: true, interval: .milliseconds(100))
        machine.requested(.unlimited)
        guard case .schedule(let first, let deadline) = machine.received(1, now: .zero) else {
            Issue.record("the first value was not scheduled")
            return
        }
        #expect(deadline == .zero)
        #expect(machine.publicationDue(generation: first, at: .zero)?.value == 1)
        #expect(machine.publicationDue(generation: first, at: .zero) == nil)
        guard case .schedule(let second, let next) = machine.received(2, now: .ms(10)) else {
            Issue.record("the second value was not scheduled")
            return
        }
        #expect(next == .ms(100))
        #expect(machine.cancelled().isEmpty)
        #expect(machine.publicationDue(generation: second, at: .ms(100)) == nil)
    }
}
