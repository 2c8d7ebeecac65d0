import Streams
import StreamsTesting
import Testing

@Suite struct DebounceTests {
    @Test func classicVectorPublishesEachSpacedValueAfterTheDueTime() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.debounce(for: .milliseconds(20), scheduler: scheduler).record(on: scheduler)
        for (time, value) in [(210, 1), (240, 2), (270, 3), (300, 4)] {
            scheduler.advance(to: .ms(time))
            input.send(value)
        }
        scheduler.advance(to: .ms(400))
        input.send(completion: .finished)
        scheduler.advance()
        #expect(
            recorder.events == [
                .value(1, at: .milliseconds(230)), .value(2, at: .milliseconds(260)),
                .value(3, at: .milliseconds(290)), .value(4, at: .milliseconds(320)),
                .finished(at: .milliseconds(400)),
            ])
    }

    @Test func classicVectorKeepsOnlyTheLastOfAContinuousBurstAndFlushesItOnFinish() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.debounce(for: .milliseconds(40), scheduler: scheduler).record(on: scheduler)
        for time in stride(from: 210, through: 390, by: 30) {
            scheduler.advance(to: .ms(time))
            input.send(time)
        }
        scheduler.advance(to: .ms(400))
        #expect(recorder.events.isEmpty)
        input.send(completion: .finished)
        scheduler.advance()
        #expect(recorder.events == [.value(390, at: .milliseconds(400)), .finished(at: .milliseconds(400))])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func burstPublishesOnlyTheLatestValue() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<String, Never>()
        let recorder = input.debounce(for: .milliseconds(500), scheduler: scheduler).record(on: scheduler)
        input.send("i")
        scheduler.advance(by: .milliseconds(100))
        input.send("ip")
        scheduler.advance(by: .milliseconds(499))
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.events == [.value("ip", at: .milliseconds(600))])
    }

    @Test func finishWithNothingPendingFinishesAtTheInstantItArrives() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.debounce(for: .milliseconds(20), scheduler: scheduler).record(on: scheduler)
        input.send(1)
        scheduler.advance(to: .ms(50))
        input.send(completion: .finished)
        #expect(recorder.events == [.value(1, at: .milliseconds(20))])
        scheduler.advance()
        #expect(recorder.events == [.value(1, at: .milliseconds(20)), .finished(at: .milliseconds(50))])
    }

    @Test func failureWhilePendingDropsTheValueAndFailsAtOnce() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, TimingTestError>()
        let recorder = input.debounce(for: .milliseconds(100), scheduler: scheduler).record(on: scheduler)
        input.send(1)
        scheduler.advance(to: .ms(30))
        input.send(completion: .failure(.boom))
        scheduler.advance(to: .ms(500))
        #expect(recorder.events == [.failure(.boom, at: .milliseconds(30))])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func nothingIsAcceptedAfterTheCompletion() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.debounce(for: .milliseconds(10), scheduler: scheduler).record(on: scheduler)
        probe.send(completion: .finished)
        probe.send(1)
        probe.send(completion: .finished)
        scheduler.advance(to: .ms(100))
        #expect(recorder.events == [.finished(at: .zero)])
    }

    @Test func cancelStopsTheTimerAndReleasesTheSubscriber() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        weak var weakRecorder: TestRecorder<Int, Never>?
        do {
            let recorder = input.debounce(for: .milliseconds(20), scheduler: scheduler).record(on: scheduler)
            weakRecorder = recorder
            input.send(1)
            #expect(scheduler.pendingCount == 1)
            recorder.cancel()
            recorder.cancel()
            #expect(scheduler.pendingCount == 0)
            input.send(2)
            scheduler.advance(to: .ms(100))
            #expect(recorder.events.isEmpty)
        }
        #expect(weakRecorder == nil)
    }

    @Test func cancelAfterAFinishDropsTheScheduledFlush() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.debounce(for: .milliseconds(20), scheduler: scheduler).record(on: scheduler)
        input.send(1)
        input.send(completion: .finished)
        #expect(scheduler.pendingCount == 1)
        recorder.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.run()
        #expect(recorder.events.isEmpty)
    }

    @Test func upstreamIsAskedForUnlimitedValues() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.debounce(for: .milliseconds(20), scheduler: scheduler).record(
            on: scheduler, demand: .max(1))
        #expect(probe.requests == [.unlimited])
        recorder.cancel()
        #expect(probe.cancelCount == 1)
    }

    @Test func aValueDueWithoutDemandIsDroppedAndNotReplayedOnRequest() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.debounce(for: .milliseconds(20), scheduler: scheduler)
            .record(on: scheduler, demand: .max(1))
        input.send(1)
        scheduler.advance(to: .ms(100))
        input.send(2)
        scheduler.advance(to: .ms(200))
        recorder.request(.max(1))
        scheduler.advance(to: .ms(300))
        input.send(3)
        scheduler.advance(to: .ms(400))
        #expect(recorder.events == [.value(1, at: .milliseconds(20)), .value(3, at: .milliseconds(320))])
    }

    @Test func theFlushOnFinishAlsoNeedsDemand() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.debounce(for: .milliseconds(20), scheduler: scheduler)
            .record(on: scheduler, demand: .none)
        input.send(1)
        input.send(completion: .finished)
        scheduler.advance()
        #expect(recorder.events == [.finished(at: .zero)])
    }

    @Test func aSubscriberMayCancelFromInsideTheFlushedValue() {
        let scheduler = TestScheduler()
        let input = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var completions = 0
        var cancellable: AnyCancellable?
        cancellable = input.debounce(for: .milliseconds(20), scheduler: scheduler)
            .sink(
                receiveCompletion: { _ in completions += 1 },
                receiveValue: {
                    received.append($0)
                    cancellable?.cancel()
                })
        input.send(1)
        input.send(completion: .finished)
        scheduler.advance()
        #expect(received == [1])
        #expect(completions == 0)
        #expect(scheduler.pendingCount == 0)
        _ = cancellable
    }

    @Test func immediateSchedulerPublishesSynchronously() {
        let input = PassthroughSubject<Int, Never>()
        let recorder = input.debounce(for: .milliseconds(20), scheduler: .immediate).record()
        input.send(1)
        input.send(2)
        input.send(completion: .finished)
        #expect(recorder.values == [1, 2])
        #expect(recorder.isFinished)
    }
}

@Suite struct DebounceStateMachineTests {
    @Test func aStaleTimerNeverEmits() {
        var machine = DebounceStateMachine<String, Never>()
        machine.requested(.unlimited)
        guard case .startTimer(let first, _) = machine.received("a"),
            case .startTimer(let second, _) = machine.received("b")
        else {
            Issue.record("expected timers to start")
            return
        }
        #expect(first != second)
        guard case .none = machine.timerFired(generation: first) else {
            Issue.record("the stale timer emitted")
            return
        }
        guard case .deliver("b") = machine.timerFired(generation: second) else {
            Issue.record("the current timer did not emit b")
            return
        }
        guard case .none = machine.timerFired(generation: second) else {
            Issue.record("a timer emitted twice")
            return
        }
    }

    @Test func finishingWhilePendingDeliversTheValueThenTheCompletion() {
        var machine = DebounceStateMachine<Int, Never>()
        machine.requested(.max(1))
        guard case .startTimer(let timer, _) = machine.received(7),
            case .startTimer = machine.completed(.finished)
        else {
            Issue.record("expected timers to start")
            return
        }
        guard case .none = machine.timerFired(generation: timer) else {
            Issue.record("the value timer emitted after the completion")
            return
        }
        guard case .deliver(7) = machine.completionDue(), case .complete(.finished) = machine.completionDue() else {
            Issue.record("expected the flush then the completion")
            return
        }
        guard case .none = machine.completionDue() else {
            Issue.record("completed twice")
            return
        }
    }

    @Test func cancelReturnsTheLiveTimerAndEndsEverything() {
        var machine = DebounceStateMachine<Int, Never>()
        guard case .startTimer(let generation, _) = machine.received(1) else {
            Issue.record("expected a timer")
            return
        }
        let probe = TimingProbe<Int, Never>()
        #expect(machine.started(probe, generation: generation).isEmpty)
        #expect(!machine.cancelled().isEmpty)
        #expect(machine.pending == nil)
        guard case .none = machine.received(2), case .none = machine.completed(.finished) else {
            Issue.record("acted after cancel")
            return
        }
    }
}
