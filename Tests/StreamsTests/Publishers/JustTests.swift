import Streams
import StreamsTesting
import Testing

@Suite struct JustTests {
    @Test func justDeliversItsValueOnDemandThenFinishes() {
        let recorder = Just(1).record(demand: .none)
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func justCancelledBeforeAnyDemandDeliversNothingAndReleasesItsValue() {
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<LifetimeToken, Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = Just(token).record(demand: .none)
        }
        recorder.request(.none)
        #expect(recorder.events.isEmpty)
        #expect(weakToken != nil)
        recorder.cancel()
        #expect(weakToken == nil)
        recorder.subscription?.request(.max(1))
        #expect(recorder.events.isEmpty)
    }

    @Test func justReleasesItsValueOnceDelivered() {
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<Int, Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = Just(token).map { _ in 7 }.record(demand: .none)
        }
        recorder.request(.max(1))
        #expect(weakToken == nil)
        #expect(recorder.values == [7])
        #expect(recorder.isFinished)
        #expect(recorder.subscription.map { "\($0)" } == "Just")
    }

    @Test func justDeliversExactlyOnceWhenRequestsRaceACancelAcrossThreads() async {
        for _ in 0..<200 {
            let recorder = Just(1).record(demand: .none)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { recorder.request(.max(1)) }
                group.addTask { recorder.request(.unlimited) }
                group.addTask { recorder.cancel() }
            }
            // A cancel that lands while the value is being delivered stops the `.finished` that would follow.
            let events = recorder.events
            #expect(
                events.isEmpty || events == [.value(1, at: .zero)]
                    || events == [.value(1, at: .zero), .finished(at: .zero)])
        }
    }
}
