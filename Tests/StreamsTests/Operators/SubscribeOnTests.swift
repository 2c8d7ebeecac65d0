import Streams
import StreamsTesting
import Testing

@Suite struct SubscribeOnTests {
    @Test func theUpstreamIsSubscribedOnTheScheduler() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.subscribe(on: scheduler).record(on: scheduler, demand: .none)
        #expect(probe.subscribeCount == 0)
        #expect(recorder.subscriptionCount == 0)
        scheduler.advance()
        #expect(probe.subscribeCount == 1)
        #expect(recorder.subscriptionCount == 1)
    }

    @Test func requestsAndCancelRunOnTheScheduler() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.subscribe(on: scheduler).record(on: scheduler, demand: .none)
        scheduler.advance()
        recorder.request(.max(2))
        #expect(probe.requests.isEmpty)
        scheduler.advance()
        #expect(probe.requests == [.max(2)])
        recorder.cancel()
        #expect(probe.cancelCount == 0)
        scheduler.advance()
        #expect(probe.cancelCount == 1)
    }

    @Test func theInitialRequestReachesUpstreamInTheSameAdvance() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        _ = probe.subscribe(on: scheduler).record(on: scheduler, demand: .max(3))
        scheduler.advance()
        #expect(probe.requests == [.max(3)])
    }

    @Test func valuesAreNotMoved() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.subscribe(on: scheduler).record(on: scheduler)
        scheduler.advance()
        probe.send(1)
        probe.send(completion: .finished)
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func nothingIsDeliveredAfterCancelEvenBeforeTheUpstreamCancelRuns() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        weak var weakRecorder: TestRecorder<Int, Never>?
        do {
            let recorder = probe.subscribe(on: scheduler).record(on: scheduler)
            weakRecorder = recorder
            scheduler.advance()
            recorder.cancel()
            probe.send(1)
            probe.send(completion: .finished)
            #expect(recorder.events.isEmpty)
            scheduler.advance()
        }
        #expect(weakRecorder == nil)
        #expect(probe.cancelCount == 1)
    }
}
