import Streams
import StreamsTesting
import Testing

@Suite struct OutputTests {
    typealias Sub = HandWrittenSubscriber<Int, Never>

    @Test func rangesAreTakenRelativeToZeroUpToIntMax() {
        let empty = Empty<Int, Never>()
        #expect(empty.output(at: 4).range == 4..<5)
        #expect(empty.output(in: 4..<6).range == 4..<6)
        #expect(empty.output(in: 4...6).range == 4..<7)
        #expect(empty.output(in: ..<3).range == 0..<3)
        #expect(empty.output(in: ...3).range == 0..<4)
        #expect(empty.output(in: 8...).range == 8..<Int.max)
        #expect(empty.output(in: 1..<3) == empty.output(in: 1...2))
        #expect(empty.output(at: 1) != empty.output(at: 2))
    }

    @Test func outputAtPublishesTheValueAtThatPosition() {
        let recorder = (1...10).publisher.output(at: 5).record()
        #expect(recorder.events == [.value(6, at: .zero), .finished(at: .zero)])
    }

    @Test func outputInPublishesTheValuesInTheRange() {
        let recorder = [1, 1, 2, 2, 2, 3, 4, 5].publisher.output(in: 3...5).record()
        #expect(recorder.values == [2, 2, 3])
        #expect(recorder.isFinished)
    }

    @Test func itFinishesWhenTheFirstValuePastTheRangeArrivesAsInCombine() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub(initial: .unlimited)
        probe.output(in: 1..<3).subscribe(subscriber)
        probe.send(10)
        probe.send(11)
        probe.send(12)
        // The range is exhausted, but Combine's `Output` ends only when the next value arrives.
        #expect(subscriber.events == [.subscription, .value(11), .value(12)])
        #expect(probe.cancelCount == 0)
        #expect(probe.send(13) == .none)
        #expect(subscriber.events == [.subscription, .value(11), .value(12), .finished])
        #expect(probe.cancelCount == 1)
        probe.send(14)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(11), .value(12), .finished])
    }

    @Test func valuesBeforeTheRangeAskUpstreamForOneMoreAndTheRestPassDemandThrough() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub(initial: .max(2), perValue: .max(5))
        probe.output(in: 2..<4).subscribe(subscriber)
        #expect(probe.requests == [.max(2)])
        #expect(probe.send(0) == .max(1))
        #expect(probe.send(1) == .max(1))
        #expect(probe.send(2) == .max(5))
        subscriber.request(.max(7))
        #expect(probe.requests == [.max(2), .max(7)])
    }

    @Test func theSubscriberGetsExactlyWhatItAskedFor() {
        let subscriber = Sub(initial: .max(1))
        (0...20).publisher.output(in: 5...).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(5)])
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription, .value(5), .value(6), .value(7)])
    }

    @Test func anEarlierUpstreamCompletionIsForwarded() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.output(in: 1...5).record()
        subject.send(0)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func anEmptyRangeFinishesAtTheFirstValueFromItsLowerBound() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.output(in: 2..<2).record()
        probe.send(0)
        probe.send(1)
        #expect(recorder.events.isEmpty)
        probe.send(2)
        #expect(recorder.events == [.finished(at: .zero)])
        #expect(probe.cancelCount == 1)
    }

    @Test func nothingArrivesAfterCancel() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.output(in: 0..<5).record()
        probe.send(1)
        recorder.cancel()
        #expect(probe.cancelCount == 1)
        probe.send(2)
        probe.send(completion: .finished)
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
    }

    @Test func noFinishAfterACancelFromInsideReceive() {
        let subscriber = Sub(initial: .unlimited, cancelOnValue: 1)
        [1, 2, 3].publisher.output(at: 0).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func prefixKeepsItsOwnTypeAndFinishesAtItsLastValue() {
        let prefix: Publishers.Prefix<PassthroughSubject<Int, Never>> = PassthroughSubject<Int, Never>().prefix(2)
        let subject = PassthroughSubject<Int, Never>()
        let viaPrefix = subject.prefix(2).record()
        let viaOutput = subject.output(in: ..<2).record()
        subject.send(1)
        subject.send(2)
        #expect(viaPrefix.isFinished)
        #expect(!viaOutput.isFinished)
        subject.send(3)
        #expect(viaOutput.isFinished)
        #expect(viaOutput.values == [1, 2])
        _ = prefix
    }
}
