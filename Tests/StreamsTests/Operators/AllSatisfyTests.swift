import Streams
import StreamsTesting
import Testing

@Suite struct AllSatisfyTests {
    typealias Sub = HandWrittenSubscriber<Bool, Never>

    @Test func allSatisfyPublishesTrueWhenUpstreamFinishesWithEveryValueSatisfying() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.allSatisfy { $0 > 0 }.record()
        subject.send(1)
        subject.send(2)
        #expect(recorder.events.isEmpty)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(true, at: .zero), .finished(at: .zero)])
    }

    @Test func allSatisfyPublishesFalseAtTheFirstFailingValueAndCancelsUpstream() {
        let probe = SimpleProbe<Int, Never>()
        var tested: [Int] = []
        let recorder = probe.allSatisfy { value in
            tested.append(value)
            return value < 3
        }.record()
        probe.send(1)
        #expect(recorder.events.isEmpty)
        probe.send(5)
        #expect(recorder.events == [.value(false, at: .zero), .finished(at: .zero)])
        #expect(probe.cancelCount == 1)
        probe.send(2)
        probe.send(completion: .finished)
        #expect(recorder.events == [.value(false, at: .zero), .finished(at: .zero)])
        #expect(tested == [1, 5])
    }

    @Test func allSatisfyOfAnEmptyUpstreamIsTrue() {
        #expect(Empty<Int, Never>().allSatisfy { _ in false }.record().values == [true])
        #expect(Empty<Int, Never>().tryAllSatisfy { _ in false }.record().values == [true])
    }

    @Test func allSatisfyHoldsTheAnswerUntilTheSubscriberAsks() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub()
        probe.allSatisfy { $0 < 3 }.subscribe(subscriber)
        #expect(probe.requests == [.unlimited])
        #expect(probe.send(4) == .none)
        #expect(probe.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(false), .finished])
        #expect(probe.requests == [.unlimited])
    }

    @Test func tryAllSatisfyAnswersLikeAllSatisfyAndErasesTheUpstreamFailure() {
        #expect([1, 2].publisher.tryAllSatisfy { $0 > 0 }.record().values == [true])
        let probe = SimpleProbe<Int, Never>()
        let early = probe.tryAllSatisfy { $0 > 0 }.record()
        probe.send(0)
        #expect(early.values == [false])
        #expect(early.isFinished)
        #expect(probe.cancelCount == 1)
        let subject = PassthroughSubject<Int, ProbeError>()
        let failed = subject.tryAllSatisfy { $0 > 0 }.record()
        subject.send(completion: .failure(.boom))
        #expect(failed.events.count == 1)
        #expect(failed.failure as? ProbeError == .boom)
    }
}
