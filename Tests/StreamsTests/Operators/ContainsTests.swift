import Streams
import StreamsTesting
import Testing

@Suite struct ContainsTests {
    typealias Sub = HandWrittenSubscriber<Bool, Never>

    @Test func containsPublishesTrueAtTheFirstMatchAndCancelsUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        var cancels = 0
        let recorder = subject.handleEvents(receiveCancel: { cancels += 1 }).contains(2).record()
        subject.send(1)
        #expect(recorder.events.isEmpty)
        #expect(cancels == 0)
        subject.send(2)
        #expect(recorder.events == [.value(true, at: .zero), .finished(at: .zero)])
        #expect(cancels == 1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(true, at: .zero), .finished(at: .zero)])
    }

    @Test func containsPublishesFalseWhenUpstreamFinishesWithoutAMatch() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.contains(5).record()
        subject.send(1)
        subject.send(2)
        #expect(recorder.events.isEmpty)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(false, at: .zero), .finished(at: .zero)])
    }

    @Test func containsOfAnEmptyUpstreamIsFalse() {
        #expect(Empty<Int, Never>().contains(1).record().values == [false])
        #expect(Empty<Int, Never>().contains { _ in true }.record().values == [false])
        #expect(Empty<Int, Never>().tryContains { _ in true }.record().values == [false])
    }

    @Test func containsHoldsTheAnswerUntilTheSubscriberAsks() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub()
        probe.contains(3).subscribe(subscriber)
        #expect(probe.requests == [.unlimited])
        #expect(probe.send(3) == .none)
        #expect(probe.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(true), .finished])
        #expect(probe.requests == [.unlimited])
    }

    @Test func containsWhereStopsCallingThePredicateAtTheFirstMatch() {
        let probe = SimpleProbe<Int, Never>()
        var tested: [Int] = []
        let recorder = probe.contains { value in
            tested.append(value)
            return value > 1
        }.record()
        probe.send(1)
        probe.send(2)
        probe.send(3)
        #expect(tested == [1, 2])
        #expect(probe.cancelCount == 1)
        #expect(recorder.values == [true])
        #expect(recorder.isFinished)
    }

    @Test func tryContainsFindsAMatchAndErasesTheUpstreamFailure() {
        let found = [1, 7, 9].publisher.tryContains { $0 > 5 }.record()
        #expect(found.values == [true])
        #expect(found.isFinished)
        let subject = PassthroughSubject<Int, ProbeError>()
        let failed = subject.tryContains { $0 > 5 }.record()
        subject.send(completion: .failure(.boom))
        #expect(failed.events.count == 1)
        #expect(failed.failure as? ProbeError == .boom)
    }

    @Test func aPredicateRunsOutsideTheLockAndMayCancelFromInside() {
        // A predicate called under the operator's lock would deadlock on this re-entrant cancel.
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub(initial: .max(1))
        probe.contains { _ in
            subscriber.cancel()
            return true
        }.subscribe(subscriber)
        probe.send(1)
        #expect(probe.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func containsSendsNoFinishedToASubscriberThatCancelsOnTheAnswer() {
        let subscriber = Sub(initial: .max(1), cancelOnValue: 1)
        [1, 2].publisher.contains(2).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(true)])
    }
}
