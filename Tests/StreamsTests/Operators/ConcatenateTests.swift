import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct ConcatenateTests {
    @Test func prependValuesComeFirst() {
        let recorder = [3, 4].publisher.prepend(1, 2).record()
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.isFinished)
        #expect(recorder.subscriptionCount == 1)
    }

    @Test func prependSequenceAndPublisher() {
        #expect([3].publisher.prepend(1...2).record().values == [1, 2, 3])
        #expect([3].publisher.prepend([1, 2].publisher).record().values == [1, 2, 3])
    }

    @Test func appendValuesSequenceAndPublisher() {
        #expect([1].publisher.append(2, 3).record().values == [1, 2, 3])
        #expect([1].publisher.append(2...3).record().values == [1, 2, 3])
        #expect([1].publisher.append(Just(2)).record().values == [1, 2])
    }

    @Test func prependToALiveSubjectEmitsTheValuesThenTheSubject() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.prepend(0).record()
        subject.send(1)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(0, at: .zero), .value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func demandIsRespectedAcrossTheBoundary() {
        let recorder = (3...5).publisher.prepend(1, 2).record(demand: .max(3))
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2, 3, 4])
        recorder.request(.max(1))
        #expect(recorder.isFinished)
    }

    @Test func suffixIsSubscribedOnlyAfterThePrefixFinishesWithTheCarriedDemand() {
        let prefix = SimpleProbe<Int, Never>()
        let suffix = SimpleProbe<Int, Never>()
        let recorder = suffix.prepend(prefix).record(demand: .max(5))
        #expect(prefix.requests == [.max(5)])
        prefix.send(1)
        prefix.send(2)
        #expect(suffix.subscriptionCount == 0)
        prefix.send(completion: .finished)
        #expect(suffix.subscriptionCount == 1)
        #expect(suffix.requests == [.max(3)])
        #expect(recorder.values == [1, 2])
    }

    @Test func prefixFailureEndsTheStream() {
        let suffix = SimpleProbe<Int, ProbeError>()
        let recorder = suffix.prepend(Fail(error: ProbeError.boom)).record()
        #expect(recorder.events == [.failure(.boom, at: .zero)])
        #expect(suffix.subscriptionCount == 0)
    }

    @Test func cancelDuringThePrefixCancelsItAndNeverSubscribesTheSuffix() {
        let prefix = SimpleProbe<Int, Never>()
        let suffix = SimpleProbe<Int, Never>()
        let recorder = prefix.append(suffix).record()
        recorder.subscription?.cancel()
        #expect(prefix.cancelCount == 1)
        prefix.send(1)
        prefix.send(completion: .finished)
        #expect(suffix.subscriptionCount == 0)
        #expect(recorder.events.isEmpty)
    }

    @Test func cancelDuringTheSuffixCancelsIt() {
        let prefix = SimpleProbe<Int, Never>()
        let suffix = SimpleProbe<Int, Never>()
        let recorder = prefix.append(suffix).record()
        prefix.send(completion: .finished)
        recorder.subscription?.cancel()
        #expect(suffix.cancelCount == 1)
        suffix.send(1)
        #expect(recorder.events.isEmpty)
    }

    @Test func demandReturnedFromReceiveCarriesAcrossTheBoundary() {
        let recorder = (3...4).publisher.prepend(1, 2).record(demand: .max(1), demandPerValue: .max(1))
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.isFinished)
    }

    @Test func emptyPrefixHandsOverAllTheDemand() {
        let suffix = SimpleProbe<Int, Never>()
        _ = suffix.prepend(Empty()).record(demand: .max(2))
        #expect(suffix.requests == [.max(2)])
    }

    @Test func concurrentRequestsAreCountedExactlyAcrossTheBoundary() {
        let recorder = (1...500).publisher.append(501...1000).record(demand: .none)
        DispatchQueue.concurrentPerform(iterations: 1000) { _ in recorder.request(.max(1)) }
        #expect(recorder.values == Array(1...1000))
        #expect(recorder.isFinished)
    }
}
