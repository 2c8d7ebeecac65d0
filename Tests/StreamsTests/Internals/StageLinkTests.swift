import Dispatch
import Synchronization
import Testing

@testable import Streams

/// The link behind every stage (`scan`, `removeDuplicates`, `prefix`, `dropFirst`, `tryMap`, `handleEvents`,
/// the value-step family): its phases, the demand requested before the attach, who cancels the upstream, and
/// its hooks. The stress tests run under the thread sanitizer in `.ci/run`.
@Suite struct StageLinkTests {
    /// An upstream subscription that counts what it is asked, from any thread.
    final class CountingSubscription: Subscription, Sendable {
        let requested = Atomic<UInt>(0)
        let requests = Atomic<Int>(0)
        let cancels = Atomic<Int>(0)
        func request(_ demand: Subscribers.Demand) {
            requests.wrappingAdd(1, ordering: .relaxed)
            var current = requested.load(ordering: .relaxed)
            while true {
                let next = (Subscribers.Demand(rawValue: current) + demand).rawValue
                let (exchanged, found) = requested.compareExchange(
                    expected: current, desired: next, ordering: .relaxed)
                if exchanged { return }
                current = found
            }
        }
        func cancel() { cancels.wrappingAdd(1, ordering: .relaxed) }
        var total: Subscribers.Demand { Subscribers.Demand(rawValue: requested.load(ordering: .relaxed)) }
        var cancelCount: Int { cancels.load(ordering: .relaxed) }
        var requestCount: Int { requests.load(ordering: .relaxed) }
    }

    /// Hooks that record what they were called with (under a lock: any thread may call them).
    struct RecordingHooks: StageHooks, @unchecked Sendable {
        let log = Locked<[String]>([])
        func willRequest(_ demand: Subscribers.Demand) { log.withLock { $0.append("request \(demand)") } }
        func willCancel() { log.withLock { $0.append("cancel") } }
        func release() { log.withLock { $0.append("release") } }
        var calls: [String] { log.withLock { $0 } }
    }

    typealias Link = StageLink<Int, NoStageHooks>

    private func makeLink() -> Link { StageLink(.scan, state: 0, hooks: NoStageHooks()) }

    @Test func demandRequestedBeforeTheAttachIsForwardedOnceAtTheAttachSummedAndSaturating() {
        let link = makeLink()
        link.request(.max(2))
        link.request(.max(3))
        link.request(.none)
        let upstream = CountingSubscription()
        #expect(link.attach(upstream))
        #expect(upstream.total == .max(5))
        #expect(upstream.requestCount == 1)

        let unlimited = makeLink()
        unlimited.request(.unlimited)
        unlimited.request(.max(1))
        let other = CountingSubscription()
        #expect(unlimited.attach(other))
        #expect(other.total == .unlimited)
    }

    @Test func anAttachedLinkForwardsEachRequestAtOnce() {
        let link = makeLink()
        let upstream = CountingSubscription()
        #expect(link.attach(upstream))
        #expect(upstream.requestCount == 0)
        link.request(.max(4))
        link.request(.max(1))
        #expect(upstream.total == .max(5))
        #expect(upstream.requestCount == 2)
    }

    @Test func onlyTheFirstSubscriptionIsKeptAndAnyOtherIsCancelled() {
        let link = makeLink()
        let first = CountingSubscription()
        let second = CountingSubscription()
        #expect(link.attach(first))
        #expect(!link.attach(second))
        #expect(second.cancelCount == 1)
        #expect(first.cancelCount == 0)

        let cancelled = makeLink()
        cancelled.cancel()
        let late = CountingSubscription()
        #expect(!cancelled.attach(late))
        #expect(late.cancelCount == 1)
        #expect(!cancelled.isLive)
    }

    @Test func cancelEndsTheLinkOnceAndCancelsTheAttachedUpstreamOnce() {
        let link = makeLink()
        let upstream = CountingSubscription()
        #expect(link.attach(upstream))
        #expect(link.isLive)
        link.cancel()
        link.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(!link.isLive)
        link.request(.max(1))  // ignored after the end
        #expect(upstream.requestCount == 0)
        #expect(!link.finish())  // a completion racing the cancel is not forwarded
    }

    @Test func anUpstreamCompletionIsForwardedOnceAndNothingIsCancelled() {
        let link = makeLink()
        let upstream = CountingSubscription()
        #expect(link.attach(upstream))
        #expect(link.finish())
        #expect(!link.finish())
        link.cancel()  // the downstream cancelling after the completion
        #expect(upstream.cancelCount == 0)
    }

    @Test func anOperatorEndingTheStreamCancelsUpstreamAndCompletesOnce() {
        let link = makeLink()
        let upstream = CountingSubscription()
        #expect(link.attach(upstream))
        #expect(link.finishAndCancel())
        #expect(!link.finishAndCancel())
        link.cancel()
        #expect(upstream.cancelCount == 1)

        let waiting = makeLink()
        #expect(waiting.finishAndCancel())  // nothing attached: nothing to cancel
        let late = CountingSubscription()
        #expect(!waiting.attach(late))
        #expect(late.cancelCount == 1)
    }

    @Test func hooksRunBeforeForwardingAndNeverAfterTheEnd() {
        let hooks = RecordingHooks()
        let link = StageLink(.handleEvents, state: (), hooks: hooks)
        link.request(.max(1))  // before the attach: still a request the downstream made
        let upstream = CountingSubscription()
        #expect(link.attach(upstream))
        link.request(.max(2))
        link.cancel()
        link.cancel()
        link.request(.max(3))
        #expect(hooks.calls == ["request max(1)", "request max(2)", "cancel", "release"])
        #expect(upstream.total == .max(3))

        let completed = RecordingHooks()
        let other = StageLink(.handleEvents, state: (), hooks: completed)
        #expect(other.attach(CountingSubscription()))
        #expect(other.finish())
        other.cancel()
        other.request(.max(1))
        #expect(completed.calls == ["release"])  // a cancel after the completion is not a cancel

        let ended = RecordingHooks()
        let ending = StageLink(.handleEvents, state: (), hooks: ended)
        let upstream2 = CountingSubscription()
        #expect(ending.attach(upstream2))
        #expect(ending.finishAndCancel())
        ending.cancel()
        #expect(ended.calls == ["release"])
        #expect(upstream2.cancelCount == 1)
    }

    /// A hook may change what is asked upstream (`collect(count)` asks `count` values per group), before the attach
    /// (kept pending) and after it alike; the request hook still sees the downstream's own demand.
    @Test func theUpstreamIsAskedWhatTheHooksMakeOfTheDemand() {
        let link = StageLink(.collectByCount, state: [Int](), hooks: CollectByCountHooks(count: 3))
        link.request(.max(2))
        let upstream = CountingSubscription()
        #expect(link.attach(upstream))
        #expect(upstream.total == .max(6))
        link.request(.max(1))
        #expect(upstream.total == .max(9))
        link.request(.unlimited)
        #expect(upstream.total == .unlimited)
    }

    @Test func theStateBelongsToTheSerialCallsAndSurvivesUntilTheLinkIsReleased() {
        let link = makeLink()
        link.state += 41
        link.state += 1
        #expect(link.state == 42)
        #expect(link.description == "Scan")
    }

    @Test func demandRacingTheAttachIsForwardedExactlyOnce() {
        for _ in 0..<5_000 {
            let link = makeLink()
            let upstream = CountingSubscription()
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    _ = link.attach(upstream)
                } else {
                    for _ in 0..<3 { link.request(.max(1)) }
                }
            }
            #expect(upstream.total == .max(3))
        }
    }

    @Test func aCancelRacingTheAttachCancelsTheUpstreamExactlyOnce() {
        for _ in 0..<5_000 {
            let link = makeLink()
            let upstream = CountingSubscription()
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    _ = link.attach(upstream)
                } else {
                    link.cancel()
                }
            }
            #expect(upstream.cancelCount == 1)
            #expect(!link.isLive)
        }
    }
}
