import Streams
import StreamsTesting
import Testing

private struct Boom: Error, Equatable {}

private func ms(_ value: Int) -> Duration { .milliseconds(value) }

@Suite struct HotTestPublisherTests {
    @Test func playsAtAbsoluteTimesWhoeverListens() throws {
        let scheduler = TestScheduler()
        let hot = try scheduler.hot("-a-b-c|")
        scheduler.advance(by: ms(2))
        let late = hot.record(on: scheduler)
        scheduler.run()
        #expect(late.events == [.value("b", at: ms(3)), .value("c", at: ms(5)), .finished(at: ms(6))])
    }

    @Test func eventsLeftOfTheCaretAlreadyHappened() throws {
        let scheduler = TestScheduler()
        let hot = try scheduler.hot("a-^-b|")
        let recorder = hot.record(on: scheduler)
        scheduler.run()
        #expect(recorder.events == [.value("b", at: ms(2)), .finished(at: ms(3))])
    }

    @Test func aCompletionLeftOfTheCaretCompletesEverySubscriber() throws {
        let scheduler = TestScheduler()
        let hot = try scheduler.hot("-#-^--", error: Boom())
        let recorder = hot.record(on: scheduler)
        #expect(recorder.events == [.failure(Boom(), at: .zero)])
        #expect(hot.subscriptions == [SubscriptionPeriod(subscribed: .zero)])
    }

    @Test func aSubscriberWithoutDemandMissesValuesLikeASubject() throws {
        let scheduler = TestScheduler()
        let hot = try scheduler.hot("-a-b-c|")
        let recorder = hot.record(on: scheduler, demand: .none)
        scheduler.advance(by: ms(2))
        recorder.request(.max(1))
        scheduler.run()
        #expect(recorder.events == [.value("b", at: ms(3)), .finished(at: ms(6))])
    }

    @Test func logsSubscriptionsAndCancellations() throws {
        let scheduler = TestScheduler()
        let hot = try scheduler.hot("-a-b-c|")
        let first = hot.record(on: scheduler)
        scheduler.advance(by: ms(2))
        let second = hot.record(on: scheduler)
        scheduler.advance(by: ms(2))
        first.cancel()
        first.cancel()  // idempotent: logged once
        scheduler.run()
        #expect(
            hot.subscriptions == [
                SubscriptionPeriod(subscribed: ms(0), cancelled: ms(4)), SubscriptionPeriod(subscribed: ms(2)),
            ])
        #expect(first.values == ["a", "b"])
        #expect(second.events == [.value("b", at: ms(3)), .value("c", at: ms(5)), .finished(at: ms(6))])
        expectSubscriptions(hot, "^---!", "--^")
    }

    @Test func nothingArrivesAfterCancel() throws {
        let scheduler = TestScheduler()
        let hot = try scheduler.hot("-a-b|")
        let recorder = hot.record(on: scheduler)
        scheduler.advance(by: ms(1))
        recorder.cancel()
        scheduler.run()
        #expect(recorder.events == [.value("a", at: ms(1))])
    }
}

@Suite struct ColdTestPublisherTests {
    @Test func replaysTheDiagramFromEachSubscription() throws {
        let scheduler = TestScheduler()
        let cold = try scheduler.cold("-a|")
        let first = cold.record(on: scheduler)
        scheduler.advance(by: ms(5))
        let second = cold.record(on: scheduler)
        scheduler.run()
        #expect(first.events == [.value("a", at: ms(1)), .finished(at: ms(2))])
        #expect(second.events == [.value("a", at: ms(6)), .finished(at: ms(7))])
        expectSubscriptions(cold, "^", "-----^")
    }

    @Test func successiveSubscriptionsPlaySuccessiveTimelinesAndTheLastRepeats() throws {
        let scheduler = TestScheduler()
        let cold = try scheduler.cold("#", "-a|", "--b|", error: Boom())
        let recorders = (0..<4).map { _ in cold.record(on: scheduler) }
        scheduler.run()
        #expect(recorders.map(\.values) == [[], ["a"], ["b"], ["b"]])
        #expect(recorders[0].failure == Boom())
    }

    @Test func aColdPublisherWithNoTimelineNeverEmits() throws {
        let scheduler = TestScheduler()
        let cold = try scheduler.cold()
        let recorder = cold.record(on: scheduler)
        scheduler.run()
        #expect(recorder.events.isEmpty)
        #expect(recorder.subscriptionCount == 1)
    }

    @Test func valuesWaitForDemand() throws {
        let scheduler = TestScheduler()
        let cold = try scheduler.cold("ab-c|")
        let recorder = cold.record(on: scheduler, demand: .max(1))
        scheduler.advance(by: ms(10))
        #expect(recorder.events == [.value("a", at: ms(0))])
        recorder.request(.max(1))
        #expect(recorder.events == [.value("a", at: ms(0)), .value("b", at: ms(10))])
        recorder.request(.max(1))  // the completion needs no demand: it follows the last value at once
        #expect(
            recorder.events == [
                .value("a", at: ms(0)), .value("b", at: ms(10)), .value("c", at: ms(10)), .finished(at: ms(10)),
            ])
    }

    @Test func cancelStopsTheTimelineAndReleasesItsActions() throws {
        let scheduler = TestScheduler()
        let cold = try scheduler.cold("-a-b-c|")
        let recorder = cold.record(on: scheduler)
        scheduler.advance(by: ms(2))
        #expect(scheduler.pendingCount == 3)
        recorder.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.run()
        #expect(recorder.values == ["a"])
        #expect(cold.subscriptions == [SubscriptionPeriod(subscribed: .zero, cancelled: ms(2))])
    }

    @Test func aCompletedSubscriptionIsNotLoggedAsCancelled() throws {
        let scheduler = TestScheduler()
        let cold = try scheduler.cold("-a|")
        let recorder = cold.record(on: scheduler)
        scheduler.run()
        recorder.cancel()  // after completion: a no-op
        #expect(cold.subscriptions == [SubscriptionPeriod(subscribed: .zero)])
    }

    @Test func aSubscriberMayCancelFromInsideReceive() throws {
        let scheduler = TestScheduler()
        let cold = try scheduler.cold("(abc|)")
        var received: [String] = []
        var cancellable: AnyCancellable?
        cancellable = cold.sink { value in
            received.append(value)
            cancellable?.cancel()
        }
        scheduler.run()
        #expect(received == ["a"])
        #expect(cold.subscriptions == [SubscriptionPeriod(subscribed: .zero, cancelled: .zero)])
        _ = cancellable
    }

    @Test func frameDurationScalesEveryDiagram() throws {
        let scheduler = TestScheduler(frameDuration: .milliseconds(10))
        let cold = try scheduler.cold("--a|")
        let recorder = cold.record(on: scheduler)
        scheduler.run()
        #expect(recorder.events == [.value("a", at: ms(20)), .finished(at: ms(30))])
        #expect(scheduler.frames(3) == ms(30))
    }

    @Test func invalidDiagramsAreErrorsNotCrashes() {
        let scheduler = TestScheduler()
        #expect(throws: MarbleError.self) { try scheduler.cold("-^-a") }
        #expect(throws: MarbleError.self) { try scheduler.hot("(a") }
        #expect(throws: MarbleError.self) { try scheduler.cold("-a|", "--#") }  // '#' without error:
    }
}
