import Streams
import StreamsTesting
import Testing

@Suite struct RetryWhenTests {
    // MARK: marbles

    @Test func resubscribesAtOnceWhenTheTriggerEchoesTheFailures() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("--#", "--#", "-a|", error: TimingTestError.boom)
        expectMarbles(source.retryWhen { $0 }, "-----a|", on: scheduler)
        expectSubscriptions(source, "^", "--^", "----^")
    }

    @Test func delayedTriggerGivesBackOffOnVirtualTime() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("--#", "--#", "-a|", error: TimingTestError.boom)
        let retried = source.retry(when: { $0.delay(for: scheduler.frames(3), scheduler: scheduler) })
        // Fails at 2, retries at 5, fails at 7, retries at 10, `a` at 11, finishes at 12.
        expectMarbles(retried, "-----------a|", on: scheduler)
        expectSubscriptions(source, "^", "-----^", "----------^")
    }

    @Test func triggerFinishingFinishesTheStream() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("--#", error: TimingTestError.boom)
        // Two retries: the third failure ends the trigger, which finishes the stream.
        let retried = source.retryWhen { $0.scan(0) { count, _ in count + 1 }.prefix(while: { $0 <= 2 }) }
        expectMarbles(retried, "------|", on: scheduler)
        expectSubscriptions(source, "^", "--^", "----^")
    }

    @Test func triggerFailingFailsTheStream() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("-a#", error: TimingTestError.boom)
        let retried = source.retryWhen { $0.tryMap { _ -> Int in throw TimingTestError.timedOut } }
        expectMarbles(retried, "-a#", error: .timedOut, on: scheduler)
    }

    @Test func triggerFailureOfAnotherTypeFinishesTheStream() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("-a#", error: TimingTestError.boom)
        let retried = source.retryWhen { $0.tryMap { _ -> Int in throw ProbeError.boom } }
        expectMarbles(retried, "-a|", on: scheduler)
    }

    @Test func upstreamFinishingFinishesAndCancelsTheTrigger() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("-a#", "-b|", error: TimingTestError.boom)
        let cancels = Locked(0)
        let retried = source.retryWhen { $0.handleEvents(receiveCancel: { cancels.withLock { $0 += 1 } }) }
        expectMarbles(retried, "-a-b|", on: scheduler)
        #expect(cancels.withLock { $0 } == 1)
    }

    @Test func cancellingDuringTheBackOffNeverResubscribes() throws {
        let scheduler = TestScheduler()
        let source = try scheduler.cold("--#", error: TimingTestError.boom)
        let retried = source.retryWhen { $0.delay(for: scheduler.frames(5), scheduler: scheduler) }
        expectMarbles(retried, "", on: scheduler, subscription: "^---!")
        expectSubscriptions(source, "^")  // the failed attempt ended by failing, not by a cancel
        #expect(scheduler.pendingCount == 0)
    }

    // MARK: demand, cancel, ordering

    @Test func demandCarriesOverToEachNewAttemptOneAtATime() {
        let probe = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(initial: .max(2))
        probe.retryWhen { $0 }.subscribe(subscriber)
        #expect(probe.subscriptionCount == 1)
        #expect(probe.requests == [.max(2)])
        probe.send(1)
        probe.send(completion: .failure(.boom))
        #expect(probe.subscriptionCount == 2)
        #expect(probe.requests == [.max(2), .max(1)])  // one was delivered, one is still owed
        probe.send(2)
        subscriber.request(.max(1))
        #expect(probe.requests == [.max(2), .max(1), .max(1)])
        probe.send(3)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3)])
        probe.send(completion: .failure(.boom))
        #expect(probe.subscriptionCount == 3)
        #expect(probe.requests == [.max(2), .max(1), .max(1)])  // nothing owed: nothing asked
    }

    @Test func triggerValuesThatAnswerNoFailureAreIgnored() {
        let probe = SimpleProbe<Int, ProbeError>()
        let trigger = PassthroughSubject<Void, Never>()
        let recorder = probe.retryWhen { _ in trigger }.record()
        trigger.send(())
        #expect(probe.subscriptionCount == 1)
        probe.send(completion: .failure(.boom))
        #expect(probe.subscriptionCount == 1)  // waits for the trigger
        trigger.send(())
        trigger.send(())
        #expect(probe.subscriptionCount == 2)
        probe.send(1)
        #expect(recorder.values == [1])
    }

    @Test func nothingArrivesAfterCancel() {
        let probe = SimpleProbe<Int, ProbeError>()
        let trigger = PassthroughSubject<Void, Never>()
        let triggerCancels = Locked(0)
        let recorder = probe.retryWhen { _ in
            trigger.handleEvents(receiveCancel: { triggerCancels.withLock { $0 += 1 } })
        }.record()
        probe.send(1)
        recorder.cancel()
        #expect(probe.cancelCount == 1)
        #expect(triggerCancels.withLock { $0 } == 1)
        probe.send(2)
        probe.send(completion: .failure(.boom))
        trigger.send(())
        trigger.send(completion: .finished)
        #expect(probe.subscriptionCount == 1)
        #expect(recorder.events == [.value(1, at: .zero)])
    }

    @Test func cancelWhileWaitingForTheTriggerNeverResubscribes() {
        let probe = SimpleProbe<Int, ProbeError>()
        let trigger = PassthroughSubject<Void, Never>()
        let recorder = probe.retryWhen { _ in trigger }.record()
        probe.send(completion: .failure(.boom))
        recorder.cancel()
        trigger.send(())
        #expect(probe.subscriptionCount == 1)
        #expect(recorder.events.isEmpty)
    }

    @Test func synchronousFailuresRetryInALoopNotByRecursion() {
        let attempts = Locked(0)
        let recorder = Deferred { () -> Fail<Int, ProbeError> in
            attempts.withLock { $0 += 1 }
            return Fail(error: .boom)
        }
        .retryWhen { $0.scan(0) { count, _ in count + 1 }.prefix(while: { $0 <= 50_000 }) }
        .record()
        #expect(attempts.withLock { $0 } == 50_001)
        #expect(recorder.events == [.finished(at: .zero)])
    }

    @Test func handlerRunsOncePerSubscriber() {
        let calls = Locked(0)
        let publisher = Just(1).setFailureType(to: ProbeError.self).retryWhen { failures in
            calls.withLock { $0 += 1 }
            return failures
        }
        _ = publisher.record()
        _ = publisher.record()
        #expect(calls.withLock { $0 } == 2)
    }

    // MARK: leaks

    @Test func freesEverythingAfterCancelAndAfterCompletion() throws {
        let retriedScheduler = TestScheduler()
        // Cold: a terminated subject would fail each new attempt at once, retrying forever.
        let source = try retriedScheduler.cold("-a#", "-b", error: TimingTestError.boom)
        expectNoLeaks { tracker in
            let handler = tracker.token("handler")
            let trigger = tracker.token("trigger closure")
            let recorder = tracker.record(
                source.retryWhen { failures in handler(failures.map { trigger($0) }) }, on: retriedScheduler)
            retriedScheduler.run()
            #expect(recorder.values == ["a", "b"])
            recorder.cancel()
        }
        let finishing = PassthroughSubject<Int, TimingTestError>()
        expectNoLeaks { tracker in
            let trigger = tracker.token("trigger closure")
            let recorder = tracker.record(finishing.retryWhen { failures in failures.map { trigger($0) } })
            finishing.send(completion: .finished)
            #expect(recorder.isFinished)
        }
        let scheduler = TestScheduler()
        let failing = PassthroughSubject<Int, TimingTestError>()
        expectNoLeaks { tracker in
            let trigger = tracker.token("trigger closure")
            let recorder = tracker.record(
                failing.retryWhen { failures in
                    failures.map { trigger($0) }.delay(for: scheduler.frames(2), scheduler: scheduler)
                })
            failing.send(completion: .failure(.boom))  // back-off pending
            recorder.cancel()
        }
        #expect(scheduler.pendingCount == 0)
        let ending = PassthroughSubject<Int, TimingTestError>()
        expectNoLeaks { tracker in
            let trigger = tracker.token("trigger closure")
            let recorder = tracker.record(
                ending.retryWhen { failures in failures.map { trigger($0) }.prefix(while: { _ in false }) })
            ending.send(completion: .failure(.boom))  // the trigger finishes: so does the stream
            #expect(recorder.isFinished)
        }
    }

    @Test func subscriptionDescribesItself() {
        let recorder = Just(1).setFailureType(to: ProbeError.self).retryWhen { $0 }.record(demand: .none)
        #expect(recorder.subscription.map { String(describing: $0) } == "RetryWhen")
    }
}
