import Testing

@testable import Streams

/// `UpstreamHandoff` (Sources/Streams/Internals/UpstreamHandoff.swift), one subscription for the downstream across two
/// upstreams in turn, checked through both operators built on it: `catch` (the second leg after a failure) and
/// `append` (after the first leg finishes; `prepend` is the same with the legs swapped). The second leg is asked for
/// exactly the demand still outstanding; events from a leg that is no longer live go nowhere; a cancel reaches the
/// live leg only, and a cancelled handoff subscribes no second leg.
@Suite struct UpstreamHandoffTests {
    enum Handoff: String, CaseIterable, CustomTestStringConvertible {
        case `catch`, append
        var testDescription: String { rawValue }

        func pipeline(_ first: SimpleProbe<Int, ProbeError>, _ second: SimpleProbe<Int, ProbeError>)
            -> AnyPublisher<Int, ProbeError>
        {
            switch self {
            case .catch: first.catch { _ in second }.eraseToAnyPublisher()
            case .append: first.append(second).eraseToAnyPublisher()
            }
        }

        /// How the first leg ends so that the second one starts.
        var handingOver: Subscribers.Completion<ProbeError> {
            switch self {
            case .catch: .failure(.boom)
            case .append: .finished
            }
        }
    }

    @Test(arguments: Handoff.allCases)
    func theSecondLegIsAskedForExactlyTheDemandStillOutstanding(handoff: Handoff) {
        let first = SimpleProbe<Int, ProbeError>()
        let second = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(initial: .max(3))
        handoff.pipeline(first, second).subscribe(subscriber)
        #expect(first.requests == [.max(3)])
        first.send(1)
        subscriber.request(.max(2))  // four outstanding now
        first.send(2)
        first.send(completion: handoff.handingOver)
        #expect(second.subscriptionCount == 1)
        #expect(second.requested == .max(3))
        second.send(3)
        second.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test(arguments: Handoff.allCases)
    func eventsFromALegNoLongerLiveGoNowhere(handoff: Handoff) {
        let first = SimpleProbe<Int, ProbeError>()  // keeps its subscriber, as a sloppy publisher might
        let second = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(initial: .unlimited)
        handoff.pipeline(first, second).subscribe(subscriber)
        first.send(completion: handoff.handingOver)
        first.send(7)
        first.send(completion: .failure(.other))
        second.send(8)
        second.send(completion: .finished)
        second.send(9)
        #expect(subscriber.events == [.subscription, .value(8), .finished])
    }

    @Test(arguments: Handoff.allCases)
    func aCancelReachesTheLiveLegOnlyAndNoSecondLegIsSubscribedAfterIt(handoff: Handoff) {
        let first = SimpleProbe<Int, ProbeError>()
        let second = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, ProbeError>(initial: .unlimited)
        handoff.pipeline(first, second).subscribe(subscriber)
        subscriber.cancel()
        #expect(first.cancelCount == 1)
        first.send(completion: handoff.handingOver)
        #expect(second.subscriptionCount == 0)
        #expect(subscriber.events == [.subscription])

        let live = SimpleProbe<Int, ProbeError>()
        let next = SimpleProbe<Int, ProbeError>()
        let other = HandWrittenSubscriber<Int, ProbeError>(initial: .unlimited)
        handoff.pipeline(live, next).subscribe(other)
        live.send(completion: handoff.handingOver)
        other.cancel()
        #expect(live.cancelCount == 0)  // it had ended
        #expect(next.cancelCount == 1)
    }
}
