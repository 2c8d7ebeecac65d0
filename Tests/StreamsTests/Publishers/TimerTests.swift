import Streams
import StreamsTesting
import Testing

@Suite struct TimerTests {
    @Test func ticksAtEveryMultipleOfTheIntervalFromTheSubscription() {
        let scheduler = TestScheduler()
        scheduler.advance(to: .ms(50))
        let recorder = scheduler.timerPublisher(every: .milliseconds(100)).record(on: scheduler)
        scheduler.advance(to: .ms(400))
        #expect(
            recorder.events == [
                .value(.ms(150), at: .milliseconds(150)), .value(.ms(250), at: .milliseconds(250)),
                .value(.ms(350), at: .milliseconds(350)),
            ])
    }

    @Test func ticksDoNotDriftOverManyIntervals() {
        let scheduler = TestScheduler()
        let recorder = Publishers.Timer(every: .milliseconds(30), scheduler: scheduler).record(on: scheduler)
        scheduler.advance(to: .ms(3000))
        #expect(recorder.values.count == 100)
        #expect(recorder.values.last == .ms(3000))
        #expect(recorder.values == (1...100).map { .ms(30 * $0) })
    }

    @Test func aTickWithoutDemandIsDropped() {
        let scheduler = TestScheduler()
        let recorder = scheduler.timerPublisher(every: .milliseconds(100)).record(on: scheduler, demand: .max(1))
        scheduler.advance(to: .ms(250))
        recorder.request(.max(1))
        scheduler.advance(to: .ms(450))
        #expect(recorder.values == [.ms(100), .ms(300)])
    }

    @Test func nothingTicksBeforeSubscription() {
        let scheduler = TestScheduler()
        let timer = scheduler.timerPublisher(every: .milliseconds(100))
        scheduler.advance(to: .ms(1000))
        #expect(scheduler.pendingCount == 0)
        let recorder = timer.record(on: scheduler)
        scheduler.advance(to: .ms(1100))
        #expect(recorder.values == [.ms(1100)])
    }

    @Test func cancelStopsTheTicksAndReleasesTheSubscriber() {
        let scheduler = TestScheduler()
        weak var weakRecorder: TestRecorder<SchedulerInstant, Never>?
        do {
            let recorder = scheduler.timerPublisher(every: .milliseconds(100)).record(on: scheduler)
            weakRecorder = recorder
            scheduler.advance(to: .ms(150))
            recorder.cancel()
            recorder.cancel()
            #expect(scheduler.pendingCount == 0)
            scheduler.advance(to: .ms(1000))
            #expect(recorder.values == [.ms(100)])
        }
        #expect(weakRecorder == nil)
    }

    @Test func aSubscriberThatDoesNotKeepItsSubscriptionStillGetsTicks() {
        final class Forgetful: Subscriber, @unchecked Sendable {
            let ticks = Locked(0)
            func receive(subscription: any Subscription) { subscription.request(.unlimited) }
            func receive(_ input: SchedulerInstant) -> Subscribers.Demand {
                ticks.withLock { $0 += 1 }
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let scheduler = TestScheduler()
        let subscriber = Forgetful()
        scheduler.timerPublisher(every: .milliseconds(100)).subscribe(subscriber)
        scheduler.advance(to: .ms(350))
        #expect(subscriber.ticks.withLock { $0 } == 3)
    }

    @Test func aSubscriberMayCancelFromInsideATick() {
        let scheduler = TestScheduler()
        var ticks: [SchedulerInstant] = []
        var cancellable: AnyCancellable?
        cancellable = scheduler.timerPublisher(every: .milliseconds(100)).sink {
            ticks.append($0)
            if ticks.count == 2 { cancellable?.cancel() }
        }
        scheduler.advance(to: .ms(1000))
        #expect(ticks == [.ms(100), .ms(200)])
        #expect(scheduler.pendingCount == 0)
        _ = cancellable
    }
}
