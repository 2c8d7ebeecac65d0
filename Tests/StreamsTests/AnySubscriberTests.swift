import Streams
import StreamsTesting
import Testing

@Suite struct AnySubscriberTests {
    @Test func anySubscriberForwardsEveryEvent() {
        let events = Locked<[String]>([])
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in subscription.request(.max(2)) },
            receiveValue: { value in
                events.withLock { $0.append("\(value)") }
                return .none
            },
            receiveCompletion: { _ in events.withLock { $0.append("end") } })
        (1...5).publisher.subscribe(subscriber)
        #expect(events.withLock { $0 } == ["1", "2"])
        let recorder = TestRecorder<Int, Never>()
        Just(9).subscribe(AnySubscriber(recorder))
        #expect(recorder.values == [9])
    }
}
