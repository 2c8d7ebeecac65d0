import Testing

@testable import Streams

/// `MergeCore` (Sources/Streams/Internals/MergeCore.swift), the one delivery loop over a changing set of sources, checked
/// through each operator built on it: `merge`, `flatMap` and (where its one-live-side rule allows) `switchToLatest`.
/// While demand is bounded, at most one value waits per side; a request made from inside a delivery continues the
/// loop rather than nesting it; the stream finishes once no source can come and nothing waits; the first failure
/// cancels every source and is delivered once; and a subscriber that cancels on its subscription gets no source
/// subscribed. Each operator's own behaviour is in its own test file.
@Suite struct MergeCoreTests {
    enum Engine: String, CaseIterable, CustomTestStringConvertible {
        case merge, flatMap, switchToLatest
        var testDescription: String { rawValue }

        /// Two sources, merged by this engine's operator (`switchToLatest`: `second` replaces `first`).
        func pipeline(_ first: SimpleProbe<Int, ProbeError>, _ second: SimpleProbe<Int, ProbeError>)
            -> AnyPublisher<Int, ProbeError>
        {
            let sources = [first, second].publisher.setFailureType(to: ProbeError.self)
            switch self {
            case .merge: return first.merge(with: second).eraseToAnyPublisher()
            case .flatMap: return sources.flatMap { $0 }.eraseToAnyPublisher()
            case .switchToLatest: return sources.switchToLatest().eraseToAnyPublisher()
            }
        }
    }

    @Test(arguments: [Engine.merge, .flatMap])
    func whileDemandIsBoundedAtMostOneValueWaitsPerSide(engine: Engine) {
        let sides = [SimpleProbe<Int, ProbeError>(), SimpleProbe<Int, ProbeError>()]
        var sent = [0, 0]
        var askedOnDelivery = [Subscribers.Demand.none, .none]  // what `receive(_:)` returned
        /// What a side was asked for (by `request` or by the demand a delivery returned) and has not sent yet.
        func owed(_ side: Int) -> Int { ((sides[side].requested + askedOnDelivery[side]).max ?? .max) - sent[side] }
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(initial: .max(2))
        engine.pipeline(sides[0], sides[1]).subscribe(subscriber)
        var value = 0
        for round in 0..<3 {
            // Well-behaved sources: each sends only what it was asked for, alternating while both owe values.
            while let side = [value % 2, 1 - value % 2].first(where: { owed($0) > 0 }) {
                askedOnDelivery[side] += sides[side].send(value)
                sent[side] += 1
                value += 1
                #expect(owed(0) <= 1 && owed(1) <= 1, "round \(round), after value \(value - 1)")
            }
            subscriber.request(.max(2))
        }
        // Every value a side sent was delivered or waits (at most one per side), none lost.
        let delivered = subscriber.events.filter { if case .value = $0 { true } else { false } }.count
        #expect(delivered == 8)
        #expect(value - delivered <= 2)
    }

    @Test(arguments: [Engine.merge, .flatMap])
    func aRequestFromInsideADeliveryContinuesTheLoopInsteadOfNesting(engine: Engine) {
        // Synchronous sources asked one value at a time: nested deliveries would need 100,000 stack frames.
        let pipeline: AnyPublisher<Int, Never>
        switch engine {
        case .merge: pipeline = (0..<50_000).publisher.merge(with: (50_000..<100_000).publisher).eraseToAnyPublisher()
        default:
            pipeline = [(0..<50_000).publisher, (50_000..<100_000).publisher].publisher.flatMap { $0 }
                .eraseToAnyPublisher()
        }
        var low = -1
        var high = 49_999
        var count = 0
        var finished = false
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { value in
                if value < 50_000 {
                    #expect(value == low + 1)
                    low = value
                } else {
                    #expect(value == high + 1)
                    high = value
                }
                count += 1
                return .max(1)
            },
            receiveCompletion: { _ in finished = true })
        pipeline.subscribe(subscriber)
        #expect(count == 100_000)
        #expect(finished)
    }

    @Test(arguments: [Engine.merge, .flatMap])
    func theStreamFinishesOnceNoSourceCanComeAndNothingWaits(engine: Engine) {
        let first = SimpleProbe<Int, ProbeError>()
        let second = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(initial: .max(1))
        engine.pipeline(first, second).subscribe(subscriber)
        first.send(1)
        second.send(2)  // waits: no demand
        first.send(completion: .finished)
        second.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test(arguments: Engine.allCases)
    func theFirstFailureCancelsEverySourceAndIsDeliveredOnce(engine: Engine) {
        let first = SimpleProbe<Int, ProbeError>()
        let second = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(initial: .unlimited)
        engine.pipeline(first, second).subscribe(subscriber)
        second.send(completion: .failure(.boom))
        #expect(first.cancelCount == 1)  // `switchToLatest` cancelled it when `second` replaced it
        // Sloppy sources keep sending: nothing more arrives.
        first.send(1)
        second.send(2)
        first.send(completion: .failure(.other))
        second.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .failure("boom")])
    }

    @Test(arguments: Engine.allCases)
    func aSubscriberThatCancelsOnItsSubscriptionGetsNoSourceSubscribed(engine: Engine) {
        let first = SimpleProbe<Int, ProbeError>()
        let second = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(cancelOnSubscription: true)
        engine.pipeline(first, second).subscribe(subscriber)
        #expect(first.subscriptionCount == 0)
        #expect(second.subscriptionCount == 0)
        #expect(subscriber.events == [.subscription])
    }
}
