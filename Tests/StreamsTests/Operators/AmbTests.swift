import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct AmbTests {
    typealias Sub = HandWrittenSubscriber<String, TestFailure>

    // MARK: Marbles

    @Test func theFirstToPublishAValueWinsAndTheOtherIsCancelled() throws {
        let scheduler = TestScheduler()
        let first = try scheduler.hot("---a--b--|")
        let second = try scheduler.hot("--x--y--z--|")
        expectMarbles(first.amb(second), "--x--y--z--|", on: scheduler)
        expectSubscriptions(first, "^-!")
        expectSubscriptions(second, "^")
    }

    @Test func theSecondCanWinToo() throws {
        let scheduler = TestScheduler()
        let first = try scheduler.cold("---a-b|")
        let second = try scheduler.cold("-x-y|")
        expectMarbles(first.amb(second), "-x-y|", on: scheduler)
        expectSubscriptions(first, "^!")
        expectSubscriptions(second, "^")
    }

    @Test func aFinishWinsTheRace() throws {
        let scheduler = TestScheduler()
        let finishing = try scheduler.cold("--|", error: TimingTestError.boom)
        let slow = try scheduler.cold("---a|", error: TimingTestError.boom)
        expectMarbles(slow.amb(finishing), "--|", on: scheduler)
        expectSubscriptions(slow, "^-!")
    }

    @Test func aFailureWinsTheRace() throws {
        let scheduler = TestScheduler()
        let failing = try scheduler.cold("-#", error: TimingTestError.boom)
        let slow = try scheduler.cold("---a|", error: TimingTestError.boom)
        expectMarbles(slow.amb(failing), "-#", error: .boom, on: scheduler)
        expectSubscriptions(slow, "^!")
    }

    @Test func aSubscriptionStartedLaterFollowsTheWinner() throws {
        let scheduler = TestScheduler()
        let first = try scheduler.hot("----a---b-|")
        let second = try scheduler.hot("-x----y---|")
        expectMarbles(first.amb(second), "----a---b-|", on: scheduler, subscription: "--^")
        expectSubscriptions(second, "--^-!")
    }

    @Test func ambWithVariadicOthersIsOneRace() throws {
        let scheduler = TestScheduler()
        let a = try scheduler.cold("----a|")
        let b = try scheduler.cold("--b|")
        let c = try scheduler.cold("---c|")
        expectMarbles(a.amb(with: b, c), "--b|", on: scheduler)
        expectSubscriptions(a, "^-!")
        expectSubscriptions(c, "^-!")
    }

    @Test func ambWithACollectionOfOthers() throws {
        let scheduler = TestScheduler()
        let a = try scheduler.cold("----a|")
        let b = try scheduler.cold("---b|")
        let c = try scheduler.cold("--c-d|")
        expectMarbles(a.amb(with: [b, c]), "--c-d|", on: scheduler)
        expectSubscriptions(b, "^-!")
    }

    @Test func theCollectionForm() throws {
        let scheduler = TestScheduler()
        let a = try scheduler.cold("----a|")
        let c = try scheduler.cold("---c|")
        expectMarbles([a, c].amb(), "---c|", on: scheduler)
        expectSubscriptions(a, "^--!")
    }

    @Test func theCollectionFormWithOneOrNoPublisher() throws {
        let scheduler = TestScheduler()
        let a = try scheduler.cold("-a|")
        expectMarbles([a].amb(), "-a|", on: scheduler)
        expectMarbles([TestPublisher<String, Never>]().amb(), "|", on: scheduler)
    }

    @Test func whenBothWinAtOnceTheFirstWins() {
        let recorder = Just("first").amb(Just("second")).record()
        #expect(recorder.values == ["first"])
        #expect(recorder.isFinished)
    }

    // MARK: Demand

    @Test func demandGoesToBothUntilDecidedThenToTheWinnerAlone() {
        let first = SimpleProbe<String, TestFailure>()
        let second = SimpleProbe<String, TestFailure>()
        let subscriber = Sub(initial: .max(1))
        first.amb(second).subscribe(subscriber)
        #expect(first.requests == [.max(1)])
        #expect(second.requests == [.max(1)])
        subscriber.request(.max(2))
        #expect(first.requests == [.max(1), .max(2)])
        #expect(second.requests == [.max(1), .max(2)])
        second.send("x")
        #expect(first.cancelCount == 1)
        subscriber.request(.max(1))
        #expect(first.requests == [.max(1), .max(2)])
        #expect(second.requests == [.max(1), .max(2), .max(1)])
        first.send("a")  // the loser: ignored
        #expect(subscriber.events == [.subscription, .value("x")])
    }

    @Test func aSubscriberRequestingOneAtATimeGetsExactlyThat() {
        let first = CombiningProbe<String, TestFailure>()
        let second = CombiningProbe<String, TestFailure>()
        let subscriber = Sub()
        first.amb(second).subscribe(subscriber)
        #expect(first.requests.isEmpty)
        #expect(second.requests.isEmpty)
        first.send("a")  // no demand: the probe's subject drops it, nothing is decided
        subscriber.request(.max(1))
        second.send("x")
        second.send("y")  // beyond the demand: dropped by the probe's subject
        #expect(subscriber.events == [.subscription, .value("x")])
        subscriber.request(.max(1))
        second.send("z")
        #expect(subscriber.events == [.subscription, .value("x"), .value("z")])
        #expect(second.requests == [.max(1), .max(1)])
        #expect(first.requests == [.max(1)])
        #expect(first.cancelCount == 1)
    }

    @Test func demandRequestedBeforeTheRacersSubscribeIsForwardedWhenTheyDo() {
        let first = PassthroughSubject<String, TestFailure>()
        let recorder = first.amb(Just("x").setFailureType(to: TestFailure.self))
            .record(demand: .max(3))
        #expect(recorder.values == ["x"])
        #expect(recorder.isFinished)
    }

    // MARK: Cancellation

    @Test func cancelCancelsBothAndNothingArrivesAfter() {
        let first = SimpleProbe<String, TestFailure>()
        let second = SimpleProbe<String, TestFailure>()
        let subscriber = Sub(initial: .unlimited)
        first.amb(second).subscribe(subscriber)
        subscriber.cancel()
        #expect(first.cancelCount == 1)
        #expect(second.cancelCount == 1)
        first.send("a")
        second.send("x")
        first.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelAfterTheDecisionCancelsTheWinnerOnly() {
        let first = SimpleProbe<String, TestFailure>()
        let second = SimpleProbe<String, TestFailure>()
        let subscriber = Sub(initial: .unlimited)
        first.amb(second).subscribe(subscriber)
        first.send("a")
        #expect(second.cancelCount == 1)
        subscriber.cancel()
        #expect(first.cancelCount == 1)
        #expect(second.cancelCount == 1)
        first.send("b")
        first.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription, .value("a")])
    }

    @Test func noEventsAfterACancelFromInsideReceive() {
        let first = PassthroughSubject<String, TestFailure>()
        let second = PassthroughSubject<String, TestFailure>()
        let subscriber = Sub(initial: .unlimited, cancelOnValue: 1)
        first.amb(second).subscribe(subscriber)
        second.send("x")
        second.send("y")
        first.send("a")
        second.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value("x")])
    }

    @Test func theWinnersCompletionIsForwardedOnce() {
        let first = SimpleProbe<String, TestFailure>()
        let second = SimpleProbe<String, TestFailure>()
        let subscriber = Sub(initial: .unlimited)
        first.amb(second).subscribe(subscriber)
        second.send(completion: .failure(.boom))
        #expect(first.cancelCount == 1)
        second.send(completion: .finished)
        second.send("late")
        first.send("a")
        #expect(subscriber.events == [.subscription, .failure("boom")])
    }

    @Test func aSubscriberThatCancelsInReceiveSubscriptionGetsNothing() {
        let first = SimpleProbe<String, TestFailure>()
        let second = SimpleProbe<String, TestFailure>()
        let subscriber = Sub(cancelOnSubscription: true)
        first.amb(second).subscribe(subscriber)
        #expect(first.cancelCount == 1)
        #expect(second.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    // MARK: Threads

    @Test func racersOnTwoThreadsHaveExactlyOneWinner() {
        for _ in 0..<200 {
            let first = PassthroughSubject<Int, TestFailure>()
            let second = PassthroughSubject<Int, TestFailure>()
            let checker = SerialCallChecker<Int, TestFailure>()
            first.amb(second).subscribe(checker)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                let subject = thread == 0 ? first : second
                for value in 1...20 { subject.send(thread * 100 + value) }
                subject.send(completion: .finished)
            }
            let values = checker.values
            let base = values.first.map { $0 / 100 * 100 } ?? 0
            #expect(values == (1...20).map { base + $0 })
            #expect(checker.overlaps == 0)
            #expect(checker.completions == 1)
            #expect(checker.eventsAfterCompletion == 0)
        }
    }

    // MARK: Leaks

    @Test(arguments: LeakCheckEnding.allCases) func nothingLeaks(_ ending: LeakCheckEnding) {
        let first = PassthroughSubject<String, TestFailure>()
        let second = PassthroughSubject<String, TestFailure>()
        expectNoLeaks { tracker in
            let token = tracker.token("map closure before amb")
            let recorder = tracker.record(first.map { token($0) }.amb(second))
            first.send("a")
            if ending == .cancel { recorder.cancel() } else { first.send(completion: .finished) }
            #expect(recorder.values == ["a"])
        }
        withExtendedLifetime((first, second)) {}
    }

    @Test(arguments: LeakCheckEnding.allCases) func nothingLeaksWithManyRacers(_ ending: LeakCheckEnding) {
        let first = PassthroughSubject<String, TestFailure>()
        let second = PassthroughSubject<String, TestFailure>()
        expectNoLeaks { tracker in
            let token = tracker.token("map closure of the loser")
            let recorder = tracker.record(first.map { token($0) }.amb(with: second, second))
            second.send("x")
            if ending == .cancel { recorder.cancel() } else { second.send(completion: .failure(.boom)) }
            #expect(recorder.values == ["x"])
        }
        withExtendedLifetime((first, second)) {}
    }

    @Test func nothingLeaksWhenNoOneEverPublishes() {
        let first = PassthroughSubject<String, TestFailure>()
        let second = PassthroughSubject<String, TestFailure>()
        expectNoLeaks { tracker in
            let recorder = tracker.record([first, second].amb())
            recorder.cancel()
        }
        withExtendedLifetime((first, second)) {}
    }
}
