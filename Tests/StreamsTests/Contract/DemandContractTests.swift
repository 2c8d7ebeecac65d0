import Streams
import StreamsTesting
import Testing

/// Combine's demand contract, case by case, on hand-written subscribers with explicit demand (never
/// `request(.none)`): what an operator asks of its upstream, when it delivers, and that nothing reaches a
/// subscriber after it cancels. Each case was a difference from Combine (checked against OpenCombine).
@Suite struct DemandContractTests {
    typealias Sub = HandWrittenSubscriber<Int, Never>

    // MARK: Subjects as subscribers (share, multicast, upstream.subscribe(subject))

    @Test func shareAsksNothingOfItsUpstreamBeforeASubscriberHasDemand() {
        let subscriber = Sub()
        [3].publisher.share().subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(3), .finished])
    }

    @Test func shareRequestsUnlimitedOnceTheFirstSubscriberAsks() {
        let probe = SimpleProbe<Int, Never>()
        let shared = probe.share()
        let first = Sub()
        let second = Sub()
        shared.subscribe(first)
        shared.subscribe(second)
        #expect(probe.requests.isEmpty)
        second.request(.max(1))
        #expect(probe.requests == [.unlimited])
        first.request(.max(2))
        #expect(probe.requests == [.unlimited])
    }

    @Test func aPassthroughSubjectAsksItsUpstreamOnlyOnceOneOfItsSubscribersHasDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = Sub()
        subject.subscribe(subscriber)
        let probe = SimpleProbe<Int, Never>()
        let link = probe.subscribe(subject)
        #expect(probe.requests.isEmpty)
        subscriber.request(.max(1))
        #expect(probe.requests == [.unlimited])
        probe.send(7)
        #expect(subscriber.events == [.subscription, .value(7)])
        link.cancel()
    }

    @Test func aPassthroughSubjectWhoseSubscriberAlreadyAskedRequestsAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = Sub(initial: .max(1))
        subject.subscribe(subscriber)
        let probe = SimpleProbe<Int, Never>()
        let link = probe.subscribe(subject)
        #expect(probe.requests == [.unlimited])
        link.cancel()
    }

    @Test func aCurrentValueSubjectRequestsAtOnceAsInCombine() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let probe = SimpleProbe<Int, Never>()
        let link = probe.subscribe(subject)
        #expect(probe.requests == [.unlimited])
        link.cancel()
    }

    // MARK: Reducing operators request unlimited and hold their result

    @Test func firstTakesTheFirstValueWithoutDemandAndDeliversItWhenAsked() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = Sub()
        var upstreamEvents: [String] = []
        subject.handleEvents(
            receiveCompletion: { _ in upstreamEvents.append("completion") },
            receiveCancel: { upstreamEvents.append("cancel") },
            receiveRequest: { upstreamEvents.append("request \($0)") }
        ).first().subscribe(subscriber)
        #expect(upstreamEvents == ["request unlimited"])
        subject.send(1)
        subject.send(2)
        #expect(upstreamEvents == ["request unlimited", "cancel"])
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .finished])
    }

    @Test func firstWhereHoldsTheMatchUntilDemand() {
        let subscriber = Sub()
        (1...9).publisher.first { $0 > 4 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(3))
        #expect(subscriber.events == [.subscription, .value(5), .finished])
    }

    @Test func firstOfAnUpstreamWithNoValueHoldsItsFinishUntilDemandAsInCombine() {
        let subscriber = Sub()
        Empty<Int, Never>().first().subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .finished])
    }

    @Test func aReducingOperatorForwardsAFailureAtOnceWithoutDemand() {
        let subscriber = HandWrittenSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: .boom).first().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .failure("boom")])
    }

    @Test func reducingOperatorsRequestUnlimitedWhateverTheSubscriberAsks() {
        for make in [
            { (p: SimpleProbe<Int, Never>) in p.first().eraseToAnyPublisher() },
            { p in p.first { $0 > 1 }.eraseToAnyPublisher() },
            { p in p.reduce(0, +).eraseToAnyPublisher() },
            { p in p.collect().map { $0.count }.eraseToAnyPublisher() },
        ] {
            let probe = SimpleProbe<Int, Never>()
            let subscriber = Sub(initial: .max(1))
            make(probe).subscribe(subscriber)
            #expect(probe.requests == [.unlimited])
        }
    }

    // MARK: dropFirst asks for the dropped values at once

    @Test func dropFirstRequestsTheDroppedValuesWithoutDownstreamDemand() {
        let subscriber = Sub()
        Deferred { [9].publisher }.dropFirst(2).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .finished])
    }

    @Test func dropFirstRequestsDemandPlusTheDroppedCountThenDemandAlone() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = Sub(initial: .max(2))
        probe.dropFirst(3).subscribe(subscriber)
        #expect(probe.requests == [.max(5)])
        subscriber.request(.max(1))
        #expect(probe.requests == [.max(5), .max(1)])
    }

    // MARK: Nothing after cancel

    @Test func justSendsNoCompletionToASubscriberThatCancelledOnTheValue() {
        let subscriber = Sub(initial: .max(1), cancelOnValue: 1)
        Just(1).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func prefixZeroSendsNoCompletionToASubscriberThatCancelledOnTheSubscription() {
        let subscriber = Sub(cancelOnSubscription: true)
        let probe = SimpleProbe<Int, Never>()
        probe.prefix(0).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        #expect(probe.cancelCount == 1)
    }

    @Test func collectAndReduceSendNoCompletionToASubscriberThatCancelledOnTheResult() {
        let collected = HandWrittenSubscriber<[Int], Never>(initial: .max(1), cancelOnValue: 1)
        [1, 2].publisher.collect().subscribe(collected)
        #expect(collected.events == [.subscription, .value([1, 2])])
        let reduced = Sub(initial: .max(1), cancelOnValue: 1)
        [1, 2].publisher.reduce(0, +).subscribe(reduced)
        #expect(reduced.events == [.subscription, .value(3)])
        let first = Sub(initial: .max(1), cancelOnValue: 1)
        [1, 2].publisher.first().subscribe(first)
        #expect(first.events == [.subscription, .value(1)])
    }

    @Test func finalValuesFollowedByACompletionStopAtACancelInsideTheValue() {
        // Found by the differential check: each of these delivered `.finished` after the subscriber had
        // cancelled inside `receive(_:)` of the last value.
        let replaced = Sub(initial: .max(1), cancelOnValue: 1)
        Fail<Int, TestError>(error: .boom).replaceError(with: 8).subscribe(replaced)
        #expect(replaced.events == [.subscription, .value(8)])
        let partial = HandWrittenSubscriber<[Int], Never>(initial: .unlimited, cancelOnValue: 2)
        [1, 2, 3].publisher.collect(2).subscribe(partial)
        #expect(partial.events == [.subscription, .value([1, 2]), .value([3])])
        let future = Sub(initial: .max(1), cancelOnValue: 1)
        Future<Int, Never> { promise in promise(.success(4)) }.subscribe(future)
        #expect(future.events == [.subscription, .value(4)])
    }

    @Test func publishersThatCompleteAtOnceSendNothingAfterACancelInReceiveSubscription() {
        let empty = Sub(cancelOnSubscription: true)
        Empty<Int, Never>().subscribe(empty)
        #expect(empty.events == [.subscription])
        let failing = HandWrittenSubscriber<Int, TestError>(cancelOnSubscription: true)
        Fail<Int, TestError>(error: .boom).subscribe(failing)
        #expect(failing.events == [.subscription])
        let emptySequence = Sub(cancelOnSubscription: true)
        [Int]().publisher.subscribe(emptySequence)
        #expect(emptySequence.events == [.subscription])
        let subject = PassthroughSubject<Int, Never>()
        subject.send(completion: .finished)
        let late = Sub(cancelOnSubscription: true)
        subject.subscribe(late)
        #expect(late.events == [.subscription])
    }
}
