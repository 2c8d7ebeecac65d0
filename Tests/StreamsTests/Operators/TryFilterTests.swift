import Streams
import StreamsTesting
import Testing

@Suite struct TryFilterTests {
    typealias Sub = HandWrittenSubscriber<Int, any Error>

    @Test func tryFilterKeepsTheIncludedValues() {
        let recorder = (1...6).publisher.tryFilter { $0.isMultiple(of: 2) }.record()
        #expect(recorder.values == [2, 4, 6])
        #expect(recorder.isFinished)
    }

    @Test func theSubscriberGetsExactlyWhatItAskedFor() {
        let subscriber = Sub(initial: .max(1))
        (1...9).publisher.tryFilter { $0.isMultiple(of: 3) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(3)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(3), .value(6)])
    }

    @Test func filtersFuseIntoOneTryFilterAsInCombine() {
        let fromFilter: Publishers.TryFilter<Publishers.Sequence<[Int], Never>> =
            [1, 2, 3, 4, 5, 6].publisher.filter { $0 > 1 }.tryFilter { $0.isMultiple(of: 2) }
        let fused: Publishers.TryFilter<Publishers.Sequence<[Int], Never>> =
            fromFilter.filter { $0 != 4 }.tryFilter { $0 < 10 }
        let recorder = fused.record()
        #expect(recorder.values == [2, 6])
        #expect(recorder.isFinished)
    }

    @Test func aFusedFilterThatThrowsFails() {
        let recorder = [1, 2, 3].publisher.tryFilter { _ in true }.tryFilter { value -> Bool in
            if value == 2 { throw ProbeError.other }
            return true
        }.record()
        #expect(recorder.events == [.value(1, at: .zero), .failure(ProbeError.other, at: .zero)])
    }
}
