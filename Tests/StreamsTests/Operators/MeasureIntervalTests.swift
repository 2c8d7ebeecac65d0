import Streams
import StreamsTesting
import Testing

/// `measureInterval(using:)`: OpenCombine's `MeasureIntervalTests` (run against Combine), translated to
/// `TestScheduler` (whose clock never moves backwards, so the negative interval of the original is not
/// reproduced), plus Streams' contract.
@Suite struct MeasureIntervalTests {
    @Test func eachValueIsTheTimeSinceThePreviousOneAndTheFirstSinceTheSubscription() {
        let scheduler = TestScheduler()
        scheduler.advance(to: .zero + .nanoseconds(3))
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = HandWrittenSubscriber<Duration, TimingTestError>(initial: .max(13))
        probe.measureInterval(using: scheduler).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        #expect(probe.requests == [.max(13)])
        for (time, value) in [(14, 1), (17, 2), (17, 3), (28, 4)] {
            scheduler.advance(to: .zero + .nanoseconds(time))
            #expect(probe.send(value) == .none)
        }
        probe.send(completion: .finished)
        #expect(
            subscriber.events == [
                .subscription, .value(.nanoseconds(11)), .value(.nanoseconds(3)), .value(.zero),
                .value(.nanoseconds(11)), .finished,
            ])
        #expect(probe.requests == [.max(13)])
    }

    @Test func theDemandReturnedForAValueIsRequestedUpstream() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = HandWrittenSubscriber<Duration, TimingTestError>(perValue: .max(1))
        probe.measureInterval(using: scheduler).subscribe(subscriber)
        for value in 0..<6 { #expect(probe.send(value) == .none) }
        subscriber.request(.max(2))
        subscriber.request(.unlimited)
        subscriber.request(.none)
        probe.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription] + Array(repeating: .value(.zero), count: 6) + [.failure("boom")])
        #expect(probe.requests == Array(repeating: .max(1), count: 6) + [.max(2), .unlimited])
    }

    @Test func nothingAfterCancel() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = HandWrittenSubscriber<Duration, TimingTestError>(perValue: .max(1))
        probe.measureInterval(using: scheduler).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1000))
        subscriber.cancel()
        #expect(probe.send(1000) == .none)
        probe.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription])
        #expect(probe.cancelCount == 1)
        #expect(probe.requests.isEmpty)
    }

    @Test func aCancelFromInsideAValueStopsTheRest() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = HandWrittenSubscriber<Duration, TimingTestError>(
            initial: .unlimited, perValue: .max(1), cancelOnValue: 1)
        probe.measureInterval(using: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        probe.send(1)
        probe.send(2)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(.seconds(1))])
        #expect(probe.requests == [.unlimited])
    }

    @Test func nothingIsAcceptedAfterTheCompletion() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = HandWrittenSubscriber<Duration, TimingTestError>(initial: .unlimited)
        probe.measureInterval(using: scheduler).subscribe(subscriber)
        probe.send(completion: .finished)
        #expect(probe.send(1) == .none)
        probe.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription, .finished])
    }

    /// With an upstream that lets go of its subscriber on completion and cancel (every Streams publisher does): the
    /// stage's subscriber, and with it the downstream, lives in the upstream, as in Combine.
    @Test func theSubscriberIsReleasedOnCompletionAndCancel() {
        for cancels in [false, true] {
            let probe = SimpleProbe<Int, TimingTestError>(keepsSubscriber: false)
            weak var weakSubscriber: HandWrittenSubscriber<Duration, TimingTestError>?
            do {
                let subscriber = HandWrittenSubscriber<Duration, TimingTestError>(initial: .unlimited)
                weakSubscriber = subscriber
                probe.measureInterval(using: ImmediateScheduler.shared).subscribe(subscriber)
                if cancels { subscriber.cancel() } else { probe.send(completion: .finished) }
            }
            #expect(weakSubscriber == nil)
        }
    }

    @Test func aSecondSubscriptionIsCancelled() throws {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<Duration, Never>()
        probe.measureInterval(using: ImmediateScheduler.shared).subscribe(subscriber)
        let second = SpySubscription()
        try #require(probe.subscriber).receive(subscription: second)
        #expect(second.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
        #expect(subscriber.subscription.map { String(describing: $0) } == "MeasureInterval")
    }

    @Test func intervalsOnVirtualTime() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("--a-b-----c|")
        let recorder = input.measureInterval(using: scheduler).record(on: scheduler)
        scheduler.run()
        #expect(
            recorder.events == [
                .value(.milliseconds(2), at: .milliseconds(2)), .value(.milliseconds(2), at: .milliseconds(4)),
                .value(.milliseconds(6), at: .milliseconds(10)), .finished(at: .milliseconds(11)),
            ])
    }
}
