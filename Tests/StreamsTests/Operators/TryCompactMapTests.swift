import Streams
import StreamsTesting
import Testing

@Suite struct TryCompactMapTests {
    typealias Sub = HandWrittenSubscriber<Int, any Error>

    @Test func tryCompactMapPublishesTheNonNilResults() {
        let recorder = ["1", "x", "3"].publisher.tryCompactMap { Int($0) }.record()
        #expect(recorder.values == [1, 3])
        #expect(recorder.isFinished)
    }

    @Test func theSubscriberGetsExactlyWhatItAskedFor() {
        let subscriber = Sub(initial: .max(1))
        ["a", "1", "b", "2", "3"].publisher.tryCompactMap { Int($0) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }

    @Test func aFollowingCompactMapFusesAndMayThrowAsInCombine() {
        let fused: Publishers.TryCompactMap<Publishers.Sequence<[String], Never>, Int> =
            ["1", "x", "30", "4"].publisher.tryCompactMap { Int($0) }.compactMap { value -> Int? in
                if value == 4 { throw ProbeError.other }
                return value > 10 ? nil : value
            }
        let recorder = fused.record()
        #expect(recorder.events == [.value(1, at: .zero), .failure(ProbeError.other, at: .zero)])
    }
}
