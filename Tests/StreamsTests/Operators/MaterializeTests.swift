import Streams
import StreamsTesting
import Testing

@Suite struct MaterializeTests {
    typealias StringEvent = Event<String, TimingTestError>

    // MARK: materialize

    @Test func materializeWrapsValuesThenTheFinishedEvent() {
        let recorder = [1, 2].publisher.materialize().record()
        #expect(
            recorder.events == [
                .value(.value(1), at: .zero), .value(.value(2), at: .zero), .value(.finished, at: .zero),
                .finished(at: .zero),
            ])
    }

    @Test func materializeTurnsTheFailureIntoAnEventThenFinishes() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("-a-b-#", error: TimingTestError.boom)
        let values: [Character: StringEvent] = ["a": .value("a"), "b": .value("b"), "x": .failure(.boom)]
        expectMarbles(source.materialize(), "-a-b-(x|)", values: values, on: scheduler)
        expectSubscriptions(source, "^")  // ended by its failure, not by a cancel
    }

    @Test func materializeFinishedMarble() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.hot("--a--|")
        let values: [Character: StringEvent] = ["a": .value("a"), "f": .finished]
        expectMarbles(
            source.setFailureType(to: TimingTestError.self).materialize(), "--a--(f|)", values: values,
            on: scheduler)
    }

    @Test func materializeRequestsOneAtATimeAndHoldsTheCompletionEventUntilDemanded() {
        let probe = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Event<Int, ProbeError>, Never>(initial: .max(1))
        probe.materialize().subscribe(subscriber)
        #expect(probe.requests == [.max(1)])
        probe.send(1)
        #expect(subscriber.events == [.subscription, .value(.value(1))])
        probe.send(completion: .failure(.boom))
        // No demand left: the failure event waits.
        #expect(subscriber.events == [.subscription, .value(.value(1))])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(.value(1)), .value(.failure(.boom)), .finished])
        #expect(probe.requests == [.max(1)])  // the held event was not asked of the upstream
        subscriber.request(.max(1))
        #expect(subscriber.events.count == 4)
    }

    @Test func materializeDeliversTheCompletionEventAtOnceWithDemandLeft() {
        let probe = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Event<Int, ProbeError>, Never>(initial: .max(1))
        probe.materialize().subscribe(subscriber)
        subscriber.request(.max(1))
        #expect(probe.requests == [.max(1), .max(1)])
        probe.send(1)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(.value(1)), .value(.finished), .finished])
    }

    @Test func materializeCountsDemandReturnedFromReceive() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<Event<Int, Never>, Never>(initial: .max(1), perValue: .max(1))
        probe.materialize().subscribe(subscriber)
        probe.send(1)
        probe.send(completion: .finished)  // the returned unit of demand pays for the event
        #expect(subscriber.events == [.subscription, .value(.value(1)), .value(.finished), .finished])
    }

    @Test func materializeDeliversNothingAfterCancel() {
        let probe = SimpleProbe<Int, ProbeError>()
        let recorder = probe.materialize().record()
        probe.send(1)
        recorder.cancel()
        probe.send(2)
        probe.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(.value(1), at: .zero)])
        #expect(probe.cancelCount == 1)
    }

    /// Found by the differential check: a cancel from inside the completion event's delivery was followed by
    /// `.finished`. Covers both paths: the event delivered at once (demand left) and held until a request.
    @Test(arguments: [true, false])
    func materializeSendsNothingAfterACancelInsideTheCompletionEvent(_ demandLeft: Bool) {
        let probe = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Event<Int, ProbeError>, Never>(
            initial: demandLeft ? .unlimited : .max(1), cancelOnValue: 2)
        probe.materialize().subscribe(subscriber)
        probe.send(1)
        probe.send(completion: .failure(.boom))
        if !demandLeft { subscriber.request(.max(1)) }
        #expect(subscriber.events == [.subscription, .value(.value(1)), .value(.failure(.boom))])
    }

    @Test func materializeCancelDropsAHeldCompletion() {
        let probe = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Event<Int, ProbeError>, Never>()
        probe.materialize().subscribe(subscriber)
        probe.send(completion: .failure(.boom))
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }

    @Test func materializeFreesEverythingAfterCancelAndAfterCompletion() {
        let subject = PassthroughSubject<Int, ProbeError>()
        expectNoLeaks { tracker in
            let recorder = tracker.record(subject.materialize())
            subject.send(1)
            recorder.cancel()
        }
        expectNoLeaks { tracker in
            let recorder = tracker.record(subject.materialize())
            subject.send(completion: .failure(.boom))
            #expect(recorder.values == [.failure(.boom)])
        }
        let held = PassthroughSubject<Int, ProbeError>()
        expectNoLeaks { tracker in
            let recorder = tracker.record(held.materialize(), demand: .none)
            held.send(completion: .finished)  // held for lack of demand
            recorder.cancel()
        }
    }

    // MARK: dematerialize

    @Test func dematerializeRestoresTheStream() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("-a-b-#", error: TimingTestError.boom)
        expectMarbles(source.materialize().dematerialize(), "-a-b-#", error: .boom, on: scheduler)
        let finishing = try scheduler.cold("-a|")
        expectMarbles(finishing.materialize().dematerialize(), "-a|", on: scheduler)
    }

    @Test func dematerializeCompletesOnACompletionEventAndCancelsUpstream() {
        let probe = SimpleProbe<Event<Int, ProbeError>, Never>()
        let recorder = probe.dematerialize().record()
        probe.send(.value(1))
        probe.send(.failure(.boom))
        #expect(probe.cancelCount == 1)
        probe.send(.value(2))
        probe.send(.finished)
        probe.send(completion: .finished)
        #expect(recorder.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])

        let finishing = SimpleProbe<Event<Int, ProbeError>, Never>()
        let finished = finishing.dematerialize().record()
        finishing.send(.finished)
        #expect(finishing.cancelCount == 1)
        #expect(finished.events == [.finished(at: .zero)])
    }

    @Test func dematerializeFinishesWhenTheUpstreamFinishes() {
        let recorder = [Event<Int, ProbeError>.value(1)].publisher.dematerialize().record()
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func dematerializePassesDemandOneAtATime() {
        let probe = SimpleProbe<Event<Int, ProbeError>, Never>()
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(initial: .max(1))
        probe.dematerialize().subscribe(subscriber)
        #expect(probe.requests == [.max(1)])
        #expect(probe.send(.value(1)) == .none)
        subscriber.request(.max(1))
        #expect(probe.requests == [.max(1), .max(1)])
        probe.send(.value(2))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }

    @Test func dematerializeDeliversNothingAfterCancel() {
        let probe = SimpleProbe<Event<Int, ProbeError>, Never>()
        let recorder = probe.dematerialize().record()
        probe.send(.value(1))
        recorder.cancel()
        probe.send(.value(2))
        probe.send(.failure(.boom))
        #expect(recorder.events == [.value(1, at: .zero)])
        #expect(probe.cancelCount == 1)
    }

    @Test func dematerializeFreesEverythingAfterCancelAndAfterCompletion() {
        let subject = PassthroughSubject<Event<Int, ProbeError>, Never>()
        expectNoLeaks { tracker in
            let recorder = tracker.record(subject.dematerialize())
            subject.send(.value(1))
            recorder.cancel()
        }
        expectNoLeaks { tracker in
            let recorder = tracker.record(subject.dematerialize())
            subject.send(.failure(.boom))
            #expect(recorder.failure == .boom)
        }
    }

    // MARK: failures and Event

    @Test func failuresPublishesOnlyTheFailureEvents() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("-a-#", error: TimingTestError.boom)
        expectMarbles(source.materialize().failures(), "---(x|)", values: ["x": .boom], on: scheduler)
    }

    @Test func failuresAsksForMoreWhenItDropsAnEvent() {
        let probe = SimpleProbe<Event<Int, ProbeError>, Never>()
        let subscriber = HandWrittenSubscriber<ProbeError, Never>(initial: .max(1))
        probe.failures().subscribe(subscriber)
        #expect(probe.send(.value(1)) == .max(1))
        #expect(probe.send(.failure(.boom)) == .none)
        #expect(subscriber.events == [.subscription, .value(.boom)])
    }

    @Test func eventIsEquatableAndDescribed() {
        #expect(Event<Int, ProbeError>.value(1) == .value(1))
        #expect(Event<Int, ProbeError>.value(1) != .finished)
        #expect(Event<Int, ProbeError>.failure(.boom).description == "failure(boom)")
        #expect(Event<Int, ProbeError>.finished.event == .finished)
    }
}
