import Dispatch
import Streams
import StreamsTesting
import Testing

/// A subscriber that runs `onValue` inside each `receive(_:)` (to request or send re-entrantly) and records
/// every call as `HandWrittenSubscriber` does. Single-threaded.
private final class ReentrantSubscriber<Input: Equatable, Failure: Error>: Subscriber, @unchecked Sendable {
    typealias Event = HandWrittenSubscriber<Input, Failure>.Event

    private(set) var events: [Event] = []
    private(set) var subscription: (any Subscription)?
    let initial: Subscribers.Demand?
    let onValue: (Input, any Subscription) -> Void

    init(initial: Subscribers.Demand? = nil, onValue: @escaping (Input, any Subscription) -> Void) {
        self.initial = initial
        self.onValue = onValue
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        events.append(.subscription)
        if let initial { subscription.request(initial) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        events.append(.value(input))
        if let subscription { onValue(input, subscription) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: events.append(.finished)
        case .failure(let error): events.append(.failure(String(describing: error)))
        }
    }
}

/// The three `whenFull` strategies, as a `Sendable` test argument.
enum BufferWhenFull: CaseIterable, Sendable {
    case dropNewest, dropOldest, customError

    var strategy: Publishers.BufferingStrategy<TimingTestError> {
        switch self {
        case .dropNewest: .dropNewest
        case .dropOldest: .dropOldest
        case .customError: .customError { .boom }
        }
    }
}

/// `buffer(size:prefetch:whenFull:)`: OpenCombine's `BufferTests` (run against Combine with
/// `OPENCOMBINE_COMPATIBILITY_TEST`), translated, plus Streams' contract (nothing after cancel or completion,
/// serial delivery).
@Suite struct BufferTests {
    typealias Spy = HandWrittenSubscriber<Int, TimingTestError>

    static let strategies: [(Publishers.PrefetchStrategy, BufferWhenFull)] =
        [.keepFull, .byRequest].flatMap { prefetch in BufferWhenFull.allCases.map { (prefetch, $0) } }

    // MARK: OpenCombine's tests

    @Test(arguments: [(Publishers.PrefetchStrategy.keepFull, Subscribers.Demand.max(42)), (.byRequest, .unlimited)])
    func upstreamIsAskedBeforeTheSubscriptionGoesDownstream(
        prefetch: Publishers.PrefetchStrategy, expected: Subscribers.Demand
    ) {
        let probe = TimingProbe<Int, TimingTestError>()
        var seenWhenSubscribed: [Subscribers.Demand]?
        var description: String?
        probe.buffer(size: 42, prefetch: prefetch, whenFull: .dropOldest).subscribe(
            AnySubscriber<Int, TimingTestError>(receiveSubscription: { subscription in
                seenWhenSubscribed = probe.requests
                description = String(describing: subscription)
            }))
        #expect(seenWhenSubscribed == [expected])
        #expect(probe.requests == [expected])
        #expect(description == "Buffer")
    }

    @Test(arguments: BufferWhenFull.allCases)
    func aFullBufferDropsOrFails(whenFull: BufferWhenFull) {
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = Spy()
        probe.buffer(size: 3, prefetch: .byRequest, whenFull: whenFull.strategy).subscribe(subscriber)
        #expect(probe.requests == [.unlimited])
        for value in 1...5 { #expect(probe.send(value) == .none) }
        #expect(subscriber.events == [.subscription])
        #expect(probe.cancelCount == (whenFull == .customError ? 1 : 0))

        subscriber.request(.max(3))
        let expected: [Spy.Event] =
            switch whenFull {
            case .dropNewest: [.subscription, .value(1), .value(2), .value(3)]
            case .dropOldest: [.subscription, .value(3), .value(4), .value(5)]
            case .customError: [.subscription, .value(1), .value(2), .value(3), .failure("boom")]
            }
        #expect(subscriber.events == expected)
        subscriber.request(.max(1))
        #expect(subscriber.events == expected)
        #expect(probe.requests == [.unlimited])
    }

    @Test(arguments: strategies)
    func requestsFromInsideReceiveAreServedAfterItReturns(
        prefetch: Publishers.PrefetchStrategy, whenFull: BufferWhenFull
    ) {
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = ReentrantSubscriber<Int, TimingTestError> { _, subscription in
            subscription.request(.max(1))
            subscription.request(.none)
        }
        probe.buffer(size: 5, prefetch: prefetch, whenFull: whenFull.strategy).subscribe(subscriber)
        subscriber.subscription?.request(.max(3))
        for value in 0..<10 {
            #expect(probe.send(value) == (prefetch == .keepFull ? .max(1) : .none))
        }
        #expect(subscriber.events == [.subscription] + (0..<10).map { .value($0) })
        #expect(probe.requests == [prefetch == .keepFull ? .max(5) : .unlimited])
    }

    /// A value sent into the source from inside `receive(_:)`, while the buffer is delivering what it holds, joins
    /// the end of the queue: the buffer delivers in arrival order (OpenCombine's delivers it first, ahead of the
    /// values its drain has already taken out; the differential check tags that as OpenCombine's fault).
    @Test(arguments: strategies)
    func aValueSentFromInsideReceiveIsDeliveredAfterTheOnesHeld(
        prefetch: Publishers.PrefetchStrategy, whenFull: BufferWhenFull
    ) {
        let subject = CurrentValueSubject<Int, TimingTestError>(7)
        let subscriber = ReentrantSubscriber<Int, TimingTestError> { value, _ in
            if value == 7 { subject.send(101) }
        }
        subject.buffer(size: 3, prefetch: prefetch, whenFull: whenFull.strategy).subscribe(subscriber)
        subject.send(9)
        #expect(subscriber.events == [.subscription])
        subscriber.subscription?.request(.max(3))
        #expect(subscriber.events == [.subscription, .value(7), .value(9), .value(101)])
    }

    @Test(arguments: strategies)
    func unlimitedDemandPassesEveryValueAtOnce(prefetch: Publishers.PrefetchStrategy, whenFull: BufferWhenFull) {
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = Spy(initial: .unlimited)
        probe.buffer(size: 5, prefetch: prefetch, whenFull: whenFull.strategy).subscribe(subscriber)
        for value in 0..<10 {
            #expect(probe.send(value) == (prefetch == .keepFull ? .max(1) : .none))
        }
        #expect(subscriber.events == [.subscription] + (0..<10).map { .value($0) })
        #expect(probe.requests == [prefetch == .keepFull ? .max(5) : .unlimited])
    }

    /// Differs from Combine in one detail: after a `.customError` cancelled the upstream, Combine still
    /// requests the refill of `.keepFull` from it (`.max(3)`); Streams asks nothing of a cancelled upstream.
    @Test(arguments: strategies)
    func finiteDemandIsServedFromTheBufferAndKeepFullRefillsIt(
        prefetch: Publishers.PrefetchStrategy, whenFull: BufferWhenFull
    ) {
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = Spy()
        probe.buffer(size: 5, prefetch: prefetch, whenFull: whenFull.strategy).subscribe(subscriber)
        for value in 0..<10 { #expect(probe.send(value) == .none) }
        #expect(subscriber.events == [.subscription])
        #expect(probe.cancelCount == (whenFull == .customError ? 1 : 0))

        subscriber.request(.max(3))
        subscriber.request(.max(1))
        let expected: [Spy.Event] =
            switch whenFull {
            case .dropNewest: [.subscription, .value(0), .value(1), .value(2), .value(3)]
            case .dropOldest: [.subscription, .value(5), .value(6), .value(7), .value(8)]
            case .customError: [.subscription, .value(0), .value(1), .value(2), .failure("boom")]
            }
        #expect(subscriber.events == expected)
        switch (prefetch, whenFull) {
        case (.byRequest, _): #expect(probe.requests == [.unlimited])
        case (.keepFull, .customError): #expect(probe.requests == [.max(5)])
        case (.keepFull, _): #expect(probe.requests == [.max(5), .max(3), .max(1)])
        }
    }

    /// Combine keeps buffering values sent after `.finished` (and publishes them); Streams ignores events
    /// after a completion, as every operator does.
    @Test func aFinishWaitsForDemandAndLaterEventsAreIgnored() {
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = Spy()
        probe.buffer(size: 3, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        probe.send(completion: .finished)
        probe.send(completion: .finished)
        probe.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription])
        #expect(probe.send(1) == .none)
        #expect(probe.send(2) == .none)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription, .finished])
        #expect(probe.requests == [.unlimited])
    }

    @Test func aFailureWithoutDemandIsDeliveredAtOnce() {
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = Spy()
        probe.buffer(size: 3, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        probe.send(1)
        probe.send(completion: .failure(.boom))
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .failure("boom")])
        #expect(probe.send(2) == .none)
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription, .failure("boom")])
    }

    /// OpenCombine's `testFailWhileSendingValues`: Combine delivers `1`, the failure, then `2` and `3` (values
    /// after a completion); Streams delivers the values the demand allows, then the failure.
    @Test func aFailureDuringADeliveryFollowsTheValuesTheDemandAllows() {
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = ReentrantSubscriber<Int, TimingTestError> { _, _ in probe.send(completion: .failure(.boom)) }
        probe.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        for value in 1...5 { #expect(probe.send(value) == .none) }
        subscriber.subscription?.request(.max(3))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .failure("boom")])
    }

    @Test(arguments: strategies)
    func theSubscriberIsReleasedOnCompletionAndCancel(prefetch: Publishers.PrefetchStrategy, whenFull: BufferWhenFull) {
        for ending in 0..<3 {
            let probe = TimingProbe<Int, TimingTestError>()
            weak var weakSubscriber: Spy?
            do {
                let subscriber = Spy(initial: .unlimited)
                weakSubscriber = subscriber
                probe.buffer(size: 1, prefetch: prefetch, whenFull: whenFull.strategy).subscribe(subscriber)
                switch ending {
                case 0: probe.send(completion: .finished)
                case 1: probe.send(completion: .failure(.boom))
                default: subscriber.cancel()
                }
            }
            #expect(weakSubscriber == nil)
        }
    }

    @Test func aSecondSubscriptionIsCancelled() throws {
        let probe = SimpleProbe<Int, TimingTestError>()
        let subscriber = Spy()
        probe.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(probe.requests == [.max(2)])
        let second = SpySubscription()
        try #require(probe.subscriber).receive(subscription: second)
        #expect(second.cancelCount == 1)
        #expect(second.requests.isEmpty)
        subscriber.cancel()
        #expect(probe.cancelCount == 1)
    }

    @Test func customErrorThatSendsReentrantlyNeitherDeadlocksNorFailsTwice() {
        let probe = TimingProbe<Int, TimingTestError>()
        var depth = 10
        let subscriber = Spy(initial: .max(2))
        probe.buffer(
            size: 0, prefetch: .keepFull,
            whenFull: .customError {
                if depth > 0 {
                    depth -= 1
                    probe.send(1000)
                }
                return .boom
            }
        ).subscribe(subscriber)
        probe.send(0)
        #expect(depth == 0)
        #expect(probe.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .failure("boom")])
    }

    // MARK: Streams' contract

    /// As in Combine: after the last buffered value the demand is spent, and `.finished` waits for a request.
    @Test func demandIsNeverExceededAndTheFinishFollowsTheLastValueOnRequest() {
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = Spy(initial: .max(2))
        probe.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        for value in 1...3 { probe.send(value) }
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    /// An upstream that calls again from inside a delivery (a value, then its completion): nothing is nested
    /// downstream, and nothing waits for the next event, with demand at hand.
    @Test(arguments: [Publishers.PrefetchStrategy.keepFull, .byRequest])
    func valuesAndACompletionSentFromInsideADeliveryFollowIt(prefetch: Publishers.PrefetchStrategy) {
        let probe = TimingProbe<Int, TimingTestError>()
        var events: [String] = []
        var depth = 0
        let cancellable = probe.buffer(size: 5, prefetch: prefetch, whenFull: .dropNewest).sink(
            receiveCompletion: { _ in events.append("finished at depth \(depth)") },
            receiveValue: { value in
                depth += 1
                events.append("\(value) at depth \(depth)")
                if value == 1 { _ = probe.send(2) }
                if value == 2 { probe.send(completion: .finished) }
                depth -= 1
            })
        _ = probe.send(1)
        #expect(events == ["1 at depth 1", "2 at depth 1", "finished at depth 0"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func nothingAfterACancelFromInsideAValue() {
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = Spy(cancelOnValue: 1)
        probe.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        probe.send(1)
        probe.send(2)
        probe.send(completion: .finished)
        subscriber.request(.unlimited)
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(probe.send(3) == .none)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func aCancelInsideTheSubscriptionStopsEverything() {
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = Spy(cancelOnSubscription: true)
        probe.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        #expect(probe.cancelCount == 1)
        probe.send(1)
        probe.send(completion: .failure(.boom))
        subscriber.request(.unlimited)
        #expect(subscriber.events == [.subscription])
    }

    @Test func aSynchronousFailureBeforeTheSubscriptionGoesDownstreamIsDeliveredAfterIt() {
        let subscriber = Spy()
        // `Just` publishes when asked, so `tryMap` fails inside the buffer's first request upstream.
        Just(1).tryMap { _ -> Int in throw TimingTestError.boom }.mapError { _ in TimingTestError.boom }
            .buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .failure("boom")])
    }

    @Test func aSynchronousUpstreamFillsTheBufferBeforeTheFirstRequest() {
        let subscriber = HandWrittenSubscriber<Int, Never>()
        (1...10).publisher.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.unlimited)
        #expect(subscriber.events == [.subscription] + (1...10).map { .value($0) } + [.finished])
    }

    /// Found by the differential check: a synchronous upstream overflowing a `.customError` buffer before the
    /// subscription went downstream failed at once, dropping the buffered value. The full buffer's error waits
    /// for a request, which gets what it allows first (OpenCombine: `value 4`, then the failure).
    @Test func aCustomErrorFromAnOverflowBeforeTheSubscriptionWaitsForTheFirstRequest() {
        let subscriber = HandWrittenSubscriber<Int, TimingTestError>()
        [4, 2].publisher.setFailureType(to: TimingTestError.self)
            .buffer(size: 1, prefetch: .byRequest, whenFull: .customError { .boom })
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(4), .failure("boom")])
    }

    @Test func theCustomErrorClosureIsReleasedWhenTheSubscriptionEnds() {
        weak var weakToken: Token?
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = Spy()
        do {
            let token = Token()
            weakToken = token
            probe.buffer(
                size: 1, prefetch: .byRequest,
                whenFull: .customError { [token] in
                    _ = token
                    return .boom
                }
            ).subscribe(subscriber)
        }
        #expect(weakToken != nil)
        subscriber.cancel()
        #expect(weakToken == nil)
    }

    /// One thread sends, four others request: every value arrives once, in order, one call at a time (the
    /// subscriber's state is deliberately unsynchronised, so overlapping calls show under the sanitizer).
    @Test func concurrentRequestsAndValuesDeliverEachValueOnceInOrder() {
        final class Unsynchronised: Subscriber, @unchecked Sendable {
            var values: [Int] = []
            var subscription: (any Subscription)?
            func receive(subscription: any Subscription) { self.subscription = subscription }
            func receive(_ input: Int) -> Subscribers.Demand {
                values.append(input)
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let total = 4_000
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = Unsynchronised()
        subject.buffer(size: total, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        // `subscription` is written before the threads start and only read while they run.
        DispatchQueue.concurrentPerform(iterations: 5) { thread in
            if thread == 0 {
                for value in 0..<total { subject.send(value) }
            } else {
                for _ in 0..<total / 4 { subscriber.subscription?.request(.max(1)) }
            }
        }
        #expect(subscriber.values == Array(0..<total))
        subscriber.subscription?.cancel()
    }
}
