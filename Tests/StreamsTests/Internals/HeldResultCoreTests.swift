import Dispatch
import Testing

@testable import Streams

/// The subscription of the stages that end with one result (the reducing operators, `replaceEmpty`), driven by
/// hand: the calls a stage makes after its link has ended, and the downstream's requests and cancels. The operators'
/// own tests (`ReducingInnerTests`, `ReplaceEmptyTests`) race these against each other on threads.
@Suite struct HeldResultCoreTests {
    typealias Upstream = StageLinkTests.CountingSubscription
    typealias Downstream = HandWrittenSubscriber<Int, Never>

    /// A core with its link attached to `upstream` and handed to `downstream`, as a stage's `receive(subscription:)`
    /// leaves it.
    private func makeCore(
        _ downstream: Downstream, upstream: Upstream, initial: Int? = nil, forwardsDemand: Bool
    ) -> HeldResultCore<Downstream, Downstream?, Int?> {
        let core = HeldResultCore(
            downstream: downstream, name: .reducing, initial: initial, forwardsDemand: forwardsDemand,
            description: "Core")
        #expect(core.link.attach(upstream))
        core.handOver()
        return core
    }

    @Test func aResultWaitsForTheFirstRequestThenGoesWithFinished() {
        let downstream = Downstream()
        let core = makeCore(downstream, upstream: Upstream(), forwardsDemand: false)
        #expect(core.link.finish())
        core.publish(5)
        #expect(downstream.events == [.subscription])
        downstream.request(.max(1))
        #expect(downstream.events == [.subscription, .value(5), .finished])
        downstream.request(.max(1))
        #expect(downstream.events == [.subscription, .value(5), .finished])
    }

    @Test func aResultGoesAtOnceWhenDemandIsThere() {
        let downstream = Downstream(initial: .max(1))
        let core = makeCore(downstream, upstream: Upstream(), forwardsDemand: false)
        #expect(core.link.finish())
        core.publish(5)
        #expect(downstream.events == [.subscription, .value(5), .finished])
    }

    /// No result (`first()` of an empty stream): only `.finished`, which waits for demand too, as in Combine.
    @Test func noResultIsJustFinishedAfterTheFirstRequest() {
        let downstream = Downstream()
        let core = makeCore(downstream, upstream: Upstream(), forwardsDemand: false)
        #expect(core.link.finish())
        core.publish(nil)
        #expect(downstream.events == [.subscription])
        downstream.request(.max(1))
        #expect(downstream.events == [.subscription, .finished])
    }

    @Test func aForwardedCompletionGoesAtOnceWithoutDemand() {
        let downstream = Downstream()
        let core = makeCore(downstream, upstream: Upstream(), forwardsDemand: false)
        #expect(core.link.finish())
        core.forward(.finished)
        #expect(downstream.events == [.subscription, .finished])
        downstream.request(.max(1))
        #expect(downstream.events == [.subscription, .finished])
    }

    @Test func demandGoesUpstreamOnlyWhenForwarded() {
        let forwarding = Upstream()
        let forwardingDownstream = Downstream(initial: .max(2))
        _ = makeCore(forwardingDownstream, upstream: forwarding, forwardsDemand: true)
        forwardingDownstream.request(.max(3))
        #expect(forwarding.total == .max(5))

        let reducing = Upstream()
        let reducingDownstream = Downstream(initial: .max(2))
        _ = makeCore(reducingDownstream, upstream: reducing, forwardsDemand: false)
        #expect(reducing.requestCount == 0)
    }

    @Test func aCancelDropsAHeldResultAndCancelsNothingEnded() {
        let upstream = Upstream()
        let downstream = Downstream()
        let core = makeCore(downstream, upstream: upstream, forwardsDemand: false)
        #expect(core.link.finish())
        core.publish(5)
        downstream.cancel()
        downstream.request(.max(1))
        #expect(downstream.events == [.subscription])
        #expect(upstream.cancelCount == 0)  // the link had ended
        #expect(core.held == nil)
    }

    @Test func aCancelBeforeTheEndCancelsUpstreamAndNothingIsPublished() {
        let upstream = Upstream()
        let downstream = Downstream(initial: .max(1))
        let core = makeCore(downstream, upstream: upstream, forwardsDemand: true)
        downstream.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(!core.link.finish())  // the stage's end finds the link ended: it publishes nothing
        #expect(downstream.events == [.subscription])
    }

    @Test func aCancelFromInsideTheResultStopsTheFinished() {
        let downstream = Downstream(initial: .max(1), cancelOnValue: 1)
        let core = makeCore(downstream, upstream: Upstream(), forwardsDemand: false)
        #expect(core.link.finish())
        core.publish(5)
        #expect(downstream.events == [.subscription, .value(5)])
    }

    /// The first request racing the stream's end, in both orders: the result and `.finished` arrive exactly once
    /// (the thread sanitizer in `.ci/run` checks the hand-over).
    @Test func theFirstRequestRacingTheEndDeliversExactlyOnce() {
        for round in 0..<2_000 {
            let downstream = Downstream()
            let core = makeCore(downstream, upstream: Upstream(), forwardsDemand: round % 4 < 2)
            // The calling thread usually runs its share first: the roles alternate, so both orders happen.
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == round % 2 {
                    if core.link.finish() { core.publish(round) }
                } else {
                    downstream.request(.max(1))
                }
            }
            #expect(downstream.events == [.subscription, .value(round), .finished])
        }
    }

    /// The end, the first request and a cancel, each on its own thread, in every order: the result goes at most once,
    /// `.finished` only after it and only if the cancel came later, and once all three have returned the core holds
    /// neither the downstream nor the result (the thread sanitizer in `.ci/run` checks the hand-overs).
    @Test func theEndTheFirstRequestAndACancelRacingDeliverAtMostOnceAndReleaseEverything() {
        var outcomes = Set<Int>()
        for round in 0..<3_000 {
            let upstream = Upstream()
            let downstream = Downstream()
            let core = makeCore(downstream, upstream: upstream, forwardsDemand: round % 2 == 0)
            DispatchQueue.concurrentPerform(iterations: 3) { thread in
                switch (thread + round) % 3 {
                case 0: if core.link.finish() { core.publish(round) }
                case 1: downstream.request(.max(1))
                default: downstream.cancel()
                }
            }
            let events = downstream.events
            let allowed: [[HandWrittenSubscriber<Int, Never>.Event]] = [
                [.subscription], [.subscription, .value(round)], [.subscription, .value(round), .finished],
            ]
            #expect(allowed.contains(events), "round \(round): \(events)")
            outcomes.insert(events.count)
            #expect(upstream.cancelCount <= 1)
            #expect(core.held == nil)
            #expect(core.heldResult == nil)
        }
        // Both ends of the race happened: nothing delivered (cancel first) and the whole result (cancel last).
        #expect(outcomes.contains(1))
        #expect(outcomes.contains(3))
    }
}
