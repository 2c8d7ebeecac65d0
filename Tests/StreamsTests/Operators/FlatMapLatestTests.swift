import Streams
import StreamsTesting
import Testing

@Suite struct FlatMapLatestTests {
    typealias Sub = HandWrittenSubscriber<Int, TestFailure>

    // MARK: Marbles

    @Test func aNewValueCancelsThePreviousInner() throws {
        let scheduler = TestScheduler()
        let first = try scheduler.cold("-a-b-c|")
        let second = try scheduler.cold("--x|")
        let inners = ["1": first, "2": second]
        let outer = try scheduler.hot("-1---2----|")
        expectMarbles(outer.flatMapLatest { inners[$0]! }, "--a-b--x--|", on: scheduler)
        expectSubscriptions(first, "-^---!")
        expectSubscriptions(second, "-----^")
    }

    @Test func itFinishesWhenTheUpstreamAndTheCurrentInnerHaveFinished() throws {
        let scheduler = TestScheduler()
        let inner = try scheduler.cold("--a---b|")
        let outer = try scheduler.hot("-1-|")
        expectMarbles(outer.flatMapLatest { _ in inner }, "---a---b|", on: scheduler)
    }

    @Test func anInnerFailureFailsAndCancelsTheUpstream() throws {
        let scheduler = TestScheduler()
        let failing = try scheduler.cold("-a#", error: TimingTestError.boom)
        let outer = try scheduler.hot("-1------|", error: TimingTestError.boom)
        expectMarbles(outer.flatMapLatest { _ in failing }, "--a#", error: .boom, on: scheduler)
        expectSubscriptions(outer, "^--!")
    }

    @Test func anUpstreamFailureFailsAndCancelsTheInner() throws {
        let scheduler = TestScheduler()
        let inner = try scheduler.cold("-a---b|", error: TimingTestError.boom)
        let outer = try scheduler.hot("-1--#", error: TimingTestError.boom)
        expectMarbles(outer.flatMapLatest { _ in inner }, "--a-#", error: .boom, on: scheduler)
        expectSubscriptions(inner, "-^--!")
    }

    @Test func theTransformRunsOncePerUpstreamValue() throws {
        let scheduler = TestScheduler()
        let outer = try scheduler.hot("-1-2-3|")
        var calls: [String] = []
        expectMarbles(
            outer.flatMapLatest { value -> Just<String> in
                calls.append(value)
                return Just(value)
            }, "-1-2-3|", on: scheduler)
        #expect(calls == ["1", "2", "3"])
    }

    // MARK: Demand

    @Test func aSubscriberRequestingOneAtATimeGetsExactlyThat() {
        let outer = CombiningProbe<Int, TestFailure>()
        let first = CombiningProbe<Int, TestFailure>()
        let second = CombiningProbe<Int, TestFailure>()
        let inners = [first, second]
        let subscriber = Sub(initial: .max(1))
        outer.flatMapLatest { inners[$0] }.subscribe(subscriber)
        #expect(outer.requests == [.unlimited])
        outer.send(0)
        #expect(first.requests == [.max(1)])
        first.send(10)
        first.send(11)  // beyond the demand: dropped by the probe's subject
        #expect(subscriber.events == [.subscription, .value(10)])
        outer.send(1)
        #expect(first.cancelCount == 1)
        #expect(second.requests.isEmpty)  // nothing outstanding to carry over
        subscriber.request(.max(1))
        #expect(second.requests == [.max(1)])
        second.send(20)
        second.send(21)
        #expect(subscriber.events == [.subscription, .value(10), .value(20)])
    }

    @Test func outstandingDemandCarriesOverToTheNextInner() {
        let outer = PassthroughSubject<Int, TestFailure>()
        let first = CombiningProbe<Int, TestFailure>()
        let second = CombiningProbe<Int, TestFailure>()
        let inners = [first, second]
        let subscriber = Sub(initial: .max(3))
        outer.flatMapLatest { inners[$0] }.subscribe(subscriber)
        outer.send(0)
        first.send(1)
        outer.send(1)
        #expect(second.requests == [.max(2)])
    }

    // MARK: Cancellation

    @Test func cancelCancelsTheUpstreamAndTheInnerAndNothingArrivesAfter() {
        let outer = SimpleProbe<Int, TestFailure>()
        let inner = SimpleProbe<Int, TestFailure>()
        let subscriber = Sub(initial: .unlimited)
        outer.flatMapLatest { _ in inner }.subscribe(subscriber)
        outer.send(0)
        inner.send(1)
        subscriber.cancel()
        #expect(outer.cancelCount == 1)
        #expect(inner.cancelCount == 1)
        inner.send(2)
        outer.send(1)
        inner.send(completion: .finished)
        outer.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(outer.subscriptionCount == 1)
        #expect(inner.subscriptionCount == 1)
    }

    @Test func noEventsAfterACancelFromInsideReceive() {
        let outer = PassthroughSubject<Int, TestFailure>()
        let inner = PassthroughSubject<Int, TestFailure>()
        let subscriber = Sub(initial: .unlimited, cancelOnValue: 1)
        outer.flatMapLatest { _ in inner }.subscribe(subscriber)
        outer.send(0)
        inner.send(1)
        inner.send(2)
        outer.send(completion: .finished)
        inner.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    // MARK: Leaks

    @Test(arguments: LeakCheckEnding.allCases) func nothingLeaks(_ ending: LeakCheckEnding) {
        let outer = PassthroughSubject<Int, TestFailure>()
        let inners = [PassthroughSubject<Int, TestFailure>(), PassthroughSubject<Int, TestFailure>()]
        expectNoLeaks { tracker in
            let token = tracker.token("flatMapLatest transform")
            let recorder = tracker.record(outer.flatMapLatest { index in token(inners[index]) })
            outer.send(0)
            inners[0].send(10)
            outer.send(1)
            inners[1].send(20)
            if ending == .cancel {
                recorder.cancel()
            } else {
                outer.send(completion: .finished)
                inners[1].send(completion: .finished)
            }
            #expect(recorder.values == [10, 20])
        }
        withExtendedLifetime((outer, inners)) {}
    }
}
