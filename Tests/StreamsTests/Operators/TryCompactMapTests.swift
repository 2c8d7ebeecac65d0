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

    @Test func aNilResultAsksUpstreamForOneMore() {
        let probe = SimpleProbe<String, Never>()
        let subscriber = Sub(initial: .max(1), perValue: .max(2))
        probe.tryCompactMap { Int($0) }.subscribe(subscriber)
        #expect(probe.requests == [.max(1)])
        #expect(probe.send("x") == .max(1))
        #expect(probe.send("7") == .max(2))
        #expect(subscriber.events == [.subscription, .value(7)])
    }

    @Test func theSubscriberGetsExactlyWhatItAskedFor() {
        let subscriber = Sub(initial: .max(1))
        ["a", "1", "b", "2", "3"].publisher.tryCompactMap { Int($0) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }

    @Test func throwingCancelsUpstreamAndFailsOnce() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.tryCompactMap { value -> Int? in
            if value == 2 { throw ProbeError.boom }
            return value * 10
        }.record()
        probe.send(1)
        probe.send(2)
        #expect(probe.cancelCount == 1)
        probe.send(3)
        probe.send(completion: .finished)
        #expect(recorder.events == [.value(10, at: .zero), .failure(ProbeError.boom, at: .zero)])
    }

    @Test func upstreamFailureIsForwardedAsAnyError() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.tryCompactMap { $0 }.record()
        subject.send(completion: .failure(.other))
        #expect(recorder.failure.map { errorsMatch($0, ProbeError.other) } == true)
    }

    @Test func nothingArrivesAfterCancelAndTheTransformIsReleased() {
        let probe = SimpleProbe<Int, Never>(keepsSubscriber: false)
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<Int, any Error>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = probe.tryCompactMap { value in withExtendedLifetime(token) { value } }.record()
        }
        probe.send(1)
        recorder.cancel()
        #expect(weakToken == nil)
        #expect(probe.cancelCount == 1)
        probe.send(2)
        probe.send(completion: .finished)
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
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
