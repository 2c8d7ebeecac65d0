import Streams
import StreamsTesting
import Testing

@Suite struct TryMapTests {
    @Test func tryMapTransformsEveryValue() {
        let recorder = [1, 2, 3].publisher.tryMap { $0 * 2 }.record()
        #expect(
            recorder.events == [.value(2, at: .zero), .value(4, at: .zero), .value(6, at: .zero), .finished(at: .zero)])
    }

    @Test func demandPassesThroughUnchanged() {
        let recorder = (1...5).publisher.tryMap { $0 }.record(demand: .max(2))
        #expect(recorder.values == [1, 2])
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.completion == nil)
    }

    @Test func aFollowingMapOrTryMapFusesIntoOneTryMapAsInCombine() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let _: Publishers.TryMap<PassthroughSubject<Int, ProbeError>, String> = subject.tryMap { $0 * 2 }.map(String.init)
        let _: Publishers.TryMap<PassthroughSubject<Int, ProbeError>, Int> = subject.tryMap { $0 }.tryMap { $0 + 1 }
        let _: Publishers.TryMap<PassthroughSubject<Int, ProbeError>, Int> = subject.map { $0 }.tryMap { $0 + 1 }

        var secondCalls = 0
        let recorder = subject
            .map { $0 + 1 }
            .tryMap { value -> Int in
                if value == 3 { throw ProbeError.other }
                return value * 10
            }
            .tryMap { value -> Int in
                secondCalls += 1
                return value + 1
            }
            .map { "\($0)" }
            .record()
        subject.send(0)
        subject.send(2)
        subject.send(5)
        #expect(recorder.values == ["11"])
        #expect(recorder.failure.map { errorsMatch($0, ProbeError.other) } == true)
        #expect(secondCalls == 1)
        #expect(recorder.events.count == 2)
    }
}
