import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct WithLatestFromTests {
    typealias Sub = HandWrittenSubscriber<String, TestFailure>

    // MARK: Marbles

    @Test func eachUpstreamValueTakesTheOthersLatestAndEarlyValuesAreDropped() throws {
        let scheduler = TestScheduler()
        let upstream = try scheduler.hot("-a--b-c--d|")
        let other = try scheduler.hot("--1--2-3---")
        expectMarbles(
            upstream.withLatestFrom(other) { $0 + $1 }, "----x-y--z|", values: ["x": "b1", "y": "c2", "z": "d3"],
            on: scheduler)
        expectSubscriptions(other, "^---------!")
    }

    @Test func theFormWithoutASelectorPublishesTheOthersValue() throws {
        let scheduler = TestScheduler()
        let upstream = try scheduler.hot("-a--b-c-|")
        let other = try scheduler.hot("--1--2---")
        expectMarbles(upstream.withLatestFrom(other), "----1-2-|", on: scheduler)
    }

    @Test func theOthersCompletionDoesNotCompleteAndItsLastValueIsKept() throws {
        let scheduler = TestScheduler()
        let upstream = try scheduler.hot("--a--b--|")
        let other = try scheduler.cold("-1|")
        expectMarbles(upstream.withLatestFrom(other), "--1--1--|", on: scheduler)
    }

    @Test func anOtherThatFinishesWithoutAValueDropsEverythingUntilTheUpstreamCompletes() throws {
        let scheduler = TestScheduler()
        let upstream = try scheduler.hot("--a--b--|")
        let other = try scheduler.cold("-|")
        expectMarbles(upstream.withLatestFrom(other), "--------|", on: scheduler)
    }

    @Test func aFailureOfTheOtherFailsAndCancelsTheUpstream() throws {
        let scheduler = TestScheduler()
        let upstream = try scheduler.hot("-a--b--c|", error: TimingTestError.boom)
        let other = try scheduler.hot("--1--#", error: TimingTestError.boom)
        expectMarbles(upstream.withLatestFrom(other), "----1#", error: .boom, on: scheduler)
        expectSubscriptions(upstream, "^----!")
    }

    @Test func aFailureOfTheUpstreamFailsAndCancelsTheOther() throws {
        let scheduler = TestScheduler()
        let upstream = try scheduler.hot("-a--b-#", error: TimingTestError.boom)
        let other = try scheduler.hot("--1-----", error: TimingTestError.boom)
        expectMarbles(upstream.withLatestFrom(other), "----1-#", error: .boom, on: scheduler)
        expectSubscriptions(other, "^-----!")
    }

    @Test func twoOthersGiveATupleOnceBothHavePublished() throws {
        let scheduler = TestScheduler()
        let upstream = try scheduler.hot("-a-b--c-d|")
        let first = try scheduler.hot("--1----2--")
        let second = try scheduler.hot("----x-----")
        expectMarbles(
            upstream.withLatestFrom(first, second).map { $0.0 + $0.1 }, "------p-q|", values: ["p": "1x", "q": "2x"],
            on: scheduler)
    }

    @Test func twoOthersWithASelector() throws {
        let scheduler = TestScheduler()
        let upstream = try scheduler.hot("-a-b--c|")
        let first = try scheduler.hot("--1------")
        let second = try scheduler.hot("----x----")
        expectMarbles(
            upstream.withLatestFrom(first, second) { $0 + $1.0 + $1.1 }, "------p|", values: ["p": "c1x"],
            on: scheduler)
    }

    @Test func threeOthersWithAndWithoutASelector() throws {
        let scheduler = TestScheduler()
        let upstream = try scheduler.hot("-a-b--c-|")
        let first = try scheduler.hot("1--------")
        let second = try scheduler.hot("--2------")
        let third = try scheduler.hot("----3----")
        expectMarbles(
            upstream.withLatestFrom(first, second, third) { $0 + $1.0 + $1.1 + $1.2 }, "------p-|",
            values: ["p": "c123"], on: scheduler)
    }

    @Test func threeOthersGiveATriple() throws {
        let scheduler = TestScheduler()
        let upstream = try scheduler.hot("-a-b--c-|")
        let first = try scheduler.hot("1--------")
        let second = try scheduler.hot("--2------")
        let third = try scheduler.hot("----3----")
        expectMarbles(
            upstream.withLatestFrom(first, second, third).map { $0.0 + $0.1 + $0.2 }, "------p-|",
            values: ["p": "123"], on: scheduler)
    }

    // MARK: Demand

    @Test func aSubscriberRequestingOneAtATimeGetsExactlyThat() {
        let upstream = CombiningProbe<String, TestFailure>()
        let other = PassthroughSubject<String, TestFailure>()
        let subscriber = Sub(initial: .max(1))
        upstream.withLatestFrom(other) { $0 + $1 }.subscribe(subscriber)
        #expect(upstream.requests == [.max(1)])
        upstream.send("a")  // no latest value yet: dropped, and asked for again
        #expect(subscriber.events == [.subscription])
        other.send("1")
        upstream.send("b")
        upstream.send("c")  // beyond the demand: the probe's subject drops it
        #expect(subscriber.events == [.subscription, .value("b1")])
        subscriber.request(.max(1))
        upstream.send("d")
        #expect(subscriber.events == [.subscription, .value("b1"), .value("d1")])
        #expect(upstream.requests == [.max(1), .max(1), .max(1)])  // asked, the dropped "a" replaced, asked
    }

    @Test func aDroppedValueIsReplacedByOneMoreRequest() {
        let upstream = SimpleProbe<String, TestFailure>()
        let other = PassthroughSubject<String, TestFailure>()
        let subscriber = Sub(initial: .max(2), perValue: .max(5))
        upstream.withLatestFrom(other).subscribe(subscriber)
        #expect(upstream.send("a") == .max(1))
        other.send("1")
        #expect(upstream.send("b") == .max(5))
    }

    @Test func theOtherIsAskedForUnlimited() {
        let upstream = SimpleProbe<String, TestFailure>()
        let other = SimpleProbe<String, TestFailure>()
        _ = upstream.withLatestFrom(other).record(demand: .max(1))
        #expect(other.requests == [.unlimited])
        #expect(upstream.requests == [.max(1)])
    }

    @Test func aSynchronousOtherIsReadyForASynchronousUpstream() {
        let recorder = [1, 2, 3].publisher.withLatestFrom(Just("x")) { "\($0)\($1)" }.record()
        #expect(recorder.values == ["1x", "2x", "3x"])
        #expect(recorder.isFinished)
    }

    // MARK: Cancellation and ordering

    @Test func cancelCancelsBothAndNothingArrivesAfter() {
        let upstream = SimpleProbe<String, TestFailure>()
        let other = SimpleProbe<String, TestFailure>()
        let subscriber = Sub(initial: .unlimited)
        upstream.withLatestFrom(other).subscribe(subscriber)
        other.send("1")
        upstream.send("a")
        subscriber.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(other.cancelCount == 1)
        other.send("2")
        upstream.send("b")
        other.send(completion: .failure(.boom))
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value("1")])
    }

    @Test func noEventsAfterACancelFromInsideReceive() {
        let upstream = PassthroughSubject<String, TestFailure>()
        let other = PassthroughSubject<String, TestFailure>()
        let subscriber = Sub(initial: .unlimited, cancelOnValue: 1)
        upstream.withLatestFrom(other).subscribe(subscriber)
        other.send("1")
        upstream.send("a")
        upstream.send("b")
        other.send(completion: .failure(.boom))
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value("1")])
    }

    @Test func aFailureOfTheOtherDuringADeliveryWaitsForItToReturn() {
        let upstream = PassthroughSubject<String, TestFailure>()
        let other = PassthroughSubject<String, TestFailure>()
        var events: [String] = []
        var isInside = false
        let cancellable = upstream.withLatestFrom(other).sink(
            receiveCompletion: { _ in events.append(isInside ? "failed inside receive" : "failed") },
            receiveValue: { value in
                isInside = true
                events.append("value \(value)")
                other.send(completion: .failure(.boom))  // re-entrant: must wait for this call to return
                isInside = false
            })
        other.send("1")
        upstream.send("a")
        upstream.send("b")
        #expect(events == ["value 1", "failed"])
        cancellable.cancel()
    }

    @Test func theUpstreamCompletionIsForwardedOnceAndCancelsTheOther() {
        let upstream = SimpleProbe<String, TestFailure>()
        let other = SimpleProbe<String, TestFailure>()
        let subscriber = Sub(initial: .unlimited)
        upstream.withLatestFrom(other).subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(other.cancelCount == 1)
        other.send(completion: .failure(.boom))
        upstream.send(completion: .failure(.other))
        #expect(subscriber.events == [.subscription, .finished])
    }

    @Test func aSubscriberThatCancelsInReceiveSubscriptionGetsNothing() {
        let upstream = SimpleProbe<String, TestFailure>()
        let other = SimpleProbe<String, TestFailure>()
        let subscriber = Sub(cancelOnSubscription: true)
        upstream.withLatestFrom(other).subscribe(subscriber)
        #expect(upstream.cancelCount == 1)
        #expect(other.cancelCount == 1)
        #expect(other.requests.isEmpty)
        #expect(subscriber.events == [.subscription])
    }

    // MARK: Threads

    @Test func theOtherFailingOnAnotherThreadNeverOverlapsADelivery() {
        for _ in 0..<200 {
            let upstream = PassthroughSubject<Int, TestFailure>()
            let other = PassthroughSubject<Int, TestFailure>()
            let checker = SerialCallChecker<Int, TestFailure>()
            upstream.withLatestFrom(other) { $0 + $1 }.subscribe(checker)
            other.send(0)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for value in 1...50 { upstream.send(value) }
                    upstream.send(completion: .finished)
                } else {
                    for value in 1...10 { other.send(value * 100) }
                    other.send(completion: .failure(.boom))
                }
            }
            #expect(checker.overlaps == 0)
            #expect(checker.completions == 1)
            #expect(checker.eventsAfterCompletion == 0)
        }
    }

    // MARK: Leaks

    @Test(arguments: LeakCheckEnding.allCases) func nothingLeaks(_ ending: LeakCheckEnding) {
        let upstream = PassthroughSubject<String, TestFailure>()
        let other = PassthroughSubject<String, TestFailure>()
        expectNoLeaks { tracker in
            let token = tracker.token("withLatestFrom selector")
            let recorder = tracker.record(upstream.withLatestFrom(other) { token($0 + $1) })
            other.send("1")
            upstream.send("a")
            if ending == .cancel { recorder.cancel() } else { upstream.send(completion: .finished) }
            #expect(recorder.values == ["a1"])
        }
        withExtendedLifetime((upstream, other)) {}
    }

    @Test func nothingLeaksAfterTheOtherFails() {
        let upstream = PassthroughSubject<String, TestFailure>()
        let other = PassthroughSubject<String, TestFailure>()
        expectNoLeaks { tracker in
            let token = tracker.token("withLatestFrom selector")
            let recorder = tracker.record(upstream.withLatestFrom(other, other) { token($0 + $1.0 + $1.1) })
            other.send("1")
            upstream.send("a")
            other.send(completion: .failure(.boom))
            #expect(recorder.values == ["a11"])
            #expect(recorder.failure == .boom)
        }
        withExtendedLifetime((upstream, other)) {}
    }
}

/// A subscriber asking for `.unlimited` that counts overlapping calls, completions and events after the
/// completion (for the threading tests of `withLatestFrom` and `amb`).
final class SerialCallChecker<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    private struct State {
        var inside = false
        var overlaps = 0
        var completions = 0
        var eventsAfterCompletion = 0
        var values: [Input] = []
    }
    private let state = Locked(State())

    var overlaps: Int { state.withLock { $0.overlaps } }
    var completions: Int { state.withLock { $0.completions } }
    var eventsAfterCompletion: Int { state.withLock { $0.eventsAfterCompletion } }
    var values: [Input] { state.withLock { $0.values } }

    func receive(subscription: any Subscription) { subscription.request(.unlimited) }

    func receive(_ input: Input) -> Subscribers.Demand {
        enter { $0.values.append(input) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) { enter { $0.completions += 1 } }

    private func enter(_ record: (inout State) -> Void) {
        state.withLock { state in
            if state.inside { state.overlaps += 1 }
            if state.completions > 0 { state.eventsAfterCompletion += 1 }
            state.inside = true
            record(&state)
        }
        for _ in 0..<50 { _ = state.withLock { $0.inside } }  // widen the window for an overlapping call
        state.withLock { $0.inside = false }
    }
}
