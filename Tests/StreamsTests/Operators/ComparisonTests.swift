import Streams
import StreamsTesting
import Testing

@Suite struct ComparisonTests {
    typealias Sub = HandWrittenSubscriber<Int, Never>

    /// Orders by the number of trailing zero bits, so that an implementation using `<` on the values
    /// (or swapping the arguments) gives another answer; records every call.
    final class Comparator: @unchecked Sendable {
        var calls: [[Int]] = []
        func areInIncreasingOrder(_ lhs: Int, _ rhs: Int) -> Bool {
            calls.append([lhs, rhs])
            return lhs.trailingZeroBitCount < rhs.trailingZeroBitCount
        }
    }

    static let values = [2, 1, 4, 6, 15, 8, 12]

    @Test func minAndMaxOfComparableValuesArePublishedWhenUpstreamFinishes() {
        let subject = PassthroughSubject<Int, Never>()
        let min = subject.min().record()
        let max = subject.max().record()
        for value in [5, 3, 9, 4] { subject.send(value) }
        #expect(min.events.isEmpty)
        #expect(max.events.isEmpty)
        subject.send(completion: .finished)
        #expect(min.events == [.value(3, at: .zero), .finished(at: .zero)])
        #expect(max.events == [.value(9, at: .zero), .finished(at: .zero)])
    }

    @Test func maxByCallsTheComparatorWithTheKeptValueFirst() {
        let comparator = Comparator()
        let recorder = Self.values.publisher.max(by: comparator.areInIncreasingOrder).record()
        #expect(recorder.events == [.value(8, at: .zero), .finished(at: .zero)])
        #expect(comparator.calls == [[2, 1], [2, 4], [4, 6], [4, 15], [4, 8], [8, 12]])
    }

    @Test func minByCallsTheComparatorWithTheNewValueFirst() {
        let comparator = Comparator()
        let recorder = Self.values.publisher.min(by: comparator.areInIncreasingOrder).record()
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
        #expect(comparator.calls == [[1, 2], [4, 1], [6, 1], [15, 1], [8, 1], [12, 1]])
    }

    @Test func theFirstOfEqualValuesIsKept() {
        let words = ["bb", "aa", "c", "d", "ee"]
        #expect(words.publisher.min { $0.count < $1.count }.record().values == ["c"])
        #expect(words.publisher.max { $0.count < $1.count }.record().values == ["bb"])
        #expect(words.publisher.tryMin { $0.count < $1.count }.record().values == ["c"])
        #expect(words.publisher.tryMax { $0.count < $1.count }.record().values == ["bb"])
    }

    @Test func anEmptyUpstreamFinishesWithoutAValue() {
        #expect(Empty<Int, Never>().min().record().events == [.finished(at: .zero)])
        #expect(Empty<Int, Never>().max().record().events == [.finished(at: .zero)])
        let comparator = Comparator()
        let tried = Empty<Int, Never>().tryMax(by: comparator.areInIncreasingOrder).record()
        #expect(tried.events.count == 1)
        #expect(tried.isFinished)
        #expect(comparator.calls.isEmpty)
    }

    @Test func comparisonRequestsUnlimitedAndHoldsTheValueUntilTheSubscriberAsks() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub()
        probe.max().subscribe(subscriber)
        #expect(probe.requests == [.unlimited])
        #expect(probe.send(4) == .none)
        #expect(probe.send(7) == .none)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription, .value(7), .finished])
        #expect(probe.requests == [.unlimited])
    }

    @Test func tryMinComparesLikeMinByAndErasesTheUpstreamFailure() {
        let comparator = Comparator()
        let found = Self.values.publisher.tryMin(by: comparator.areInIncreasingOrder).record()
        #expect(found.values == [1])
        #expect(found.isFinished)
        #expect(comparator.calls == [[1, 2], [4, 1], [6, 1], [15, 1], [8, 1], [12, 1]])
        let subject = PassthroughSubject<Int, ProbeError>()
        let failed = subject.tryMin { $0 < $1 }.record()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(failed.events.count == 1)
        #expect(failed.failure as? ProbeError == .boom)
    }
}
