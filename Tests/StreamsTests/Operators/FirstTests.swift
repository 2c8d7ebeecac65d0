import Streams
import StreamsTesting
import Testing

/// `first()`, `first(where:)` and `tryFirst(where:)` (Sources/Streams/Operators/First.swift).
@Suite struct FirstTests {
    @Test func firstPublishesTheFirstValueAndFinishesAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        var cancels = 0
        let recorder = subject.handleEvents(receiveCancel: { cancels += 1 }).first().record()
        subject.send(7)
        #expect(recorder.events == [.value(7, at: .zero), .finished(at: .zero)])
        #expect(cancels == 1)
        subject.send(8)
        #expect(recorder.values == [7])
    }

    @Test func firstOfAnEmptyUpstreamJustFinishes() {
        let recorder = Empty<Int, Never>().first().record()
        #expect(recorder.events == [.finished(at: .zero)])
    }

    @Test func firstWaitsForDemand() {
        let recorder = [1, 2].publisher.first().record(demand: .none)
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func firstWhereRequestsUnlimitedAndSkipsNonMatchingValues() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.first { $0 > 4 }.record(demand: .max(1))
        #expect(probe.requests == [.unlimited])
        #expect(probe.send(1) == .none)
        #expect(probe.send(3) == .none)
        #expect(recorder.events.isEmpty)
        probe.send(5)
        #expect(recorder.events == [.value(5, at: .zero), .finished(at: .zero)])
        #expect(probe.cancelCount == 1)
        probe.send(6)
        #expect(recorder.values == [5])
    }

    @Test func firstWhereReleasesThePredicateOnceFinished() {
        let probe = SimpleProbe<Int, Never>(keepsSubscriber: false)
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<Int, Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = probe.first { value in withExtendedLifetime(token) { value == 2 } }.record()
        }
        probe.send(1)
        #expect(weakToken != nil)
        probe.send(2)
        #expect(weakToken == nil)
        #expect(recorder.values == [2])
    }

    @Test func tryFirstPublishesTheFirstMatchAndCancelsUpstream() {
        let probe = SimpleProbe<Int, Never>()
        var tested: [Int] = []
        let recorder = probe.tryFirst { value in
            tested.append(value)
            return value > 4
        }.record()
        #expect(probe.requests == [.unlimited])
        probe.send(1)
        #expect(recorder.events.isEmpty)
        probe.send(5)
        #expect(recorder.values == [5])
        #expect(recorder.isFinished)
        #expect(probe.cancelCount == 1)
        probe.send(6)
        #expect(recorder.events.count == 2)
        #expect(tested == [1, 5])
    }

    @Test func tryFirstOfAnUpstreamWithNoMatchFinishesWithoutAValue() {
        let recorder = [1, 2].publisher.tryFirst { $0 > 4 }.record()
        #expect(recorder.events.count == 1)
        #expect(recorder.isFinished)
        let empty = Empty<Int, Never>().tryFirst { _ in true }.record()
        #expect(empty.events.count == 1)
        #expect(empty.isFinished)
    }

    @Test func tryFirstHoldsTheMatchUntilTheSubscriberAsks() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, any Error>()
        probe.tryFirst { $0 > 1 }.subscribe(subscriber)
        probe.send(2)
        #expect(probe.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(2), .finished])
    }

    @Test func theUpstreamIsCancelledBeforeTheFailureArrives() {
        let probe = SimpleProbe<Int, Never>()
        var cancelsWhenFailed: Int?
        let cancellable = probe.tryFirst { _ in throw ProbeError.boom }
            .sink(receiveCompletion: { _ in cancelsWhenFailed = probe.cancelCount }, receiveValue: { _ in })
        probe.send(1)
        #expect(cancelsWhenFailed == 1)
        cancellable.cancel()
    }

    @Test func tryFirstSendsNoFinishedToASubscriberThatCancelsOnTheValue() {
        let subscriber = HandWrittenSubscriber<Int, any Error>(initial: .max(1), cancelOnValue: 1)
        [1, 2].publisher.tryFirst { _ in true }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
    }
}
