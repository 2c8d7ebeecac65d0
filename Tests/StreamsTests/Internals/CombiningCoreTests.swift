import Dispatch
import Synchronization
import Testing

@testable import Streams

/// The delivery loop behind `combineLatest` and `zip` (`CombiningCore`), driven through a hand-written state and a
/// hand-written downstream: serial delivery without recursion, demand, completion by exhaustion or failure, and
/// cancellation. The operators' own rules are in CombineLatestTests and ZipTests; the stress test runs under the thread
/// sanitizer in `.ci/run`.
@Suite struct CombiningCoreTests {
    /// Every value of every source, in arrival order, tagged with its source; done when every source finished and
    /// nothing is left. `Forwards` says whether sources are asked for the downstream's demand.
    struct ArrivalOrder<Forwards: DemandRule>: CombiningState {
        var waiting: [String] = []
        var token: LifetimeToken?
        static var name: String { "ArrivalOrder" }
        static var forwardsDemand: Bool { Forwards.forwards }
        mutating func next() -> String? { waiting.isEmpty ? nil : waiting.removeFirst() }
        var hasNext: Bool { !waiting.isEmpty }
        func isExhausted(finished: FinishedSources) -> Bool { waiting.isEmpty && !finished.contains(false) }
    }

    protocol DemandRule { static var forwards: Bool { get } }
    enum Unlimited: DemandRule { static var forwards: Bool { false } }
    enum Forwarded: DemandRule { static var forwards: Bool { true } }

    /// A downstream that records what it gets and how deeply its calls nest, and runs `onValue` inside each value
    /// call (to re-enter the core as an app might).
    final class Downstream: Subscriber, @unchecked Sendable {
        var subscription: (any Subscription)?
        var events: [String] = []
        var depth = 0
        var deepest = 0
        let initial: Subscribers.Demand
        var onValue: (String) -> Subscribers.Demand = { _ in .none }

        init(initial: Subscribers.Demand) { self.initial = initial }

        func receive(subscription: any Subscription) {
            self.subscription = subscription
            if initial > .none { subscription.request(initial) }
        }
        func receive(_ input: String) -> Subscribers.Demand {
            depth += 1
            deepest = max(deepest, depth)
            defer { depth -= 1 }
            events.append(input)
            return onValue(input)
        }
        func receive(completion: Subscribers.Completion<ProbeError>) {
            events.append(completion == .finished ? "finished" : "failed")
        }
    }

    typealias Core<Rule: DemandRule> = CombiningCore<
        ArrivalOrder<Rule>, ProbeError, Downstream, Downstream?, Subscribers.Completion<ProbeError>?
    >

    /// A core over `count` probes (each tagging its values with its letter); returns the core and the probes.
    /// Each value stored also puts a new token in the state, and `watch` sees the latest one (to check when the state
    /// is released).
    private func start<Rule: DemandRule>(
        _ rule: Rule.Type, count: Int, downstream: Downstream, watch: Watch? = nil
    ) -> (Core<Rule>, [SimpleProbe<Int, ProbeError>]) {
        let core = Core<Rule>(state: ArrivalOrder(), count: count, downstream: downstream)
        core.start()
        let probes = (0..<count).map { _ in SimpleProbe<Int, ProbeError>() }
        for (index, probe) in probes.enumerated() {
            let letter = String(UnicodeScalar(UInt8(97 + index)))
            core.subscribe(probe, index: index) { state, value in
                state.waiting.append("\(letter)\(value)")
                let token = LifetimeToken()
                watch?.token = token
                state.token = token
            }
        }
        return (core, probes)
    }

    /// Sees the token in a state without keeping it.
    final class Watch {
        weak var token: LifetimeToken?
    }

    @Test func outputsWaitForDemandAndGoOutInOrder() {
        let downstream = Downstream(initial: .none)
        let (core, probes) = start(Unlimited.self, count: 2, downstream: downstream)
        probes[0].send(1)
        probes[1].send(1)
        probes[0].send(2)
        #expect(downstream.events.isEmpty)
        core.request(.max(2))
        #expect(downstream.events == ["a1", "b1"])
        core.request(.max(5))
        #expect(downstream.events == ["a1", "b1", "a2"])
        probes[1].send(2)
        #expect(downstream.events == ["a1", "b1", "a2", "b2"])
    }

    @Test func sourcesAreAskedForUnlimitedOrForTheDownstreamsDemandAsTheStateSays() {
        let unlimited = Downstream(initial: .max(2))
        let (unlimitedCore, unlimitedProbes) = start(Unlimited.self, count: 2, downstream: unlimited)
        unlimitedCore.request(.max(3))
        #expect(unlimitedProbes.map(\.requests) == [[.unlimited], [.unlimited]])

        let forwarded = Downstream(initial: .max(2))
        let (forwardedCore, forwardedProbes) = start(Forwarded.self, count: 2, downstream: forwarded)
        forwardedCore.request(.max(3))
        #expect(forwardedProbes.map(\.requests) == [[.max(2), .max(3)], [.max(2), .max(3)]])
        // Demand returned from a value call is forwarded too.
        forwarded.onValue = { _ in .max(1) }
        forwardedProbes[0].send(1)
        #expect(forwardedProbes.map(\.requests) == [[.max(2), .max(3), .max(1)], [.max(2), .max(3), .max(1)]])
    }

    @Test func aRequestFromInsideAValueCallContinuesTheLoopInsteadOfRecursing() {
        let downstream = Downstream(initial: .max(1))
        let (core, probes) = start(Unlimited.self, count: 1, downstream: downstream)
        downstream.onValue = { [unowned downstream] _ in
            downstream.subscription?.request(.max(1))
            return .none
        }
        // A thousand values while the downstream has one demand: the first goes at once, the rest wait.
        downstream.onValue = { _ in .none }
        for value in 1...1_000 { probes[0].send(value) }
        #expect(downstream.events.count == 1)
        downstream.onValue = { [unowned downstream] _ in
            downstream.subscription?.request(.max(1))
            return .none
        }
        // Each value call now asks for one more from inside; the running loop serves it.
        core.request(.max(1))
        #expect(downstream.events.count == 1_000)
        #expect(downstream.deepest == 1)
        #expect(downstream.events.last == "a1000")
    }

    @Test func aValueSentFromInsideAValueCallIsDeliveredAfterTheCurrentOne() {
        let downstream = Downstream(initial: .unlimited)
        let (_, probes) = start(Unlimited.self, count: 2, downstream: downstream)
        downstream.onValue = { value in
            if value == "a1" { probes[1].send(7) }
            return .none
        }
        probes[0].send(1)
        probes[0].send(2)
        #expect(downstream.events == ["a1", "b7", "a2"])
        #expect(downstream.deepest == 1)
    }

    @Test func finishesOnceTheStateIsExhaustedAndNothingIsLeft() {
        let downstream = Downstream(initial: .none)
        let (core, probes) = start(Unlimited.self, count: 2, downstream: downstream)
        probes[0].send(1)
        probes[0].send(completion: .finished)
        probes[1].send(completion: .finished)
        #expect(downstream.events.isEmpty)  // a1 waits for demand; the completion waits behind it
        core.request(.max(1))
        #expect(downstream.events == ["a1", "finished"])
        #expect(probes.map(\.cancelCount) == [0, 0])
    }

    @Test func exhaustionCancelsTheSourcesStillRunning() {
        // Zip's rule: a finished source with nothing waiting ends the stream.
        let downstream = TupleDownstream()
        let core = CombiningCore<
            ZipPair<Int, Int>, ProbeError, TupleDownstream, TupleDownstream?, Subscribers.Completion<ProbeError>?
        >(
            state: ZipPair(), count: 2, downstream: downstream)
        core.start()
        let a = SimpleProbe<Int, ProbeError>()
        let b = SimpleProbe<Int, ProbeError>()
        core.subscribe(a, index: 0) { $0.a.push($1) }
        core.subscribe(b, index: 1) { $0.b.push($1) }
        b.send(5)
        a.send(completion: .finished)
        #expect(b.cancelCount == 1)
        #expect(a.cancelCount == 0)
        #expect(downstream.completions == [.finished])
    }

    /// A downstream of tuples for the `ZipPair` test: asks for nothing, records the completion.
    final class TupleDownstream: Subscriber, @unchecked Sendable {
        var completions: [Subscribers.Completion<ProbeError>] = []
        func receive(subscription: any Subscription) {}
        func receive(_ input: (Int, Int)) -> Subscribers.Demand { .none }
        func receive(completion: Subscribers.Completion<ProbeError>) { completions.append(completion) }
    }

    @Test func aFailureCancelsTheOtherSourcesAndIsDeliveredAfterTheValueInProgress() {
        let downstream = Downstream(initial: .unlimited)
        let (_, probes) = start(Unlimited.self, count: 3, downstream: downstream)
        downstream.onValue = { value in
            if value == "a1" { probes[1].send(completion: .failure(.boom)) }
            return .none
        }
        probes[0].send(1)
        #expect(downstream.events == ["a1", "failed"])
        #expect(probes.map(\.cancelCount) == [1, 0, 1])
        probes[2].send(3)
        probes[0].send(completion: .finished)
        #expect(downstream.events == ["a1", "failed"])
    }

    @Test func aFailureDropsWhatWaitsForDemand() {
        let downstream = Downstream(initial: .none)
        let watch = Watch()
        let (core, probes) = start(Unlimited.self, count: 2, downstream: downstream, watch: watch)
        probes[0].send(1)
        #expect(watch.token != nil)
        probes[1].send(completion: .failure(.boom))
        #expect(downstream.events == ["failed"])
        #expect(watch.token == nil)  // the state went with the failure
        core.request(.max(1))
        #expect(downstream.events == ["failed"])
    }

    @Test func cancelCancelsEverySourceReleasesTheStateAndDeliversNothingMore() {
        let downstream = Downstream(initial: .none)
        let watch = Watch()
        let (core, probes) = start(Unlimited.self, count: 3, downstream: downstream, watch: watch)
        probes[0].send(1)
        probes[2].send(completion: .finished)
        #expect(watch.token != nil)
        core.cancel()
        #expect(probes.map(\.cancelCount) == [1, 1, 0])  // the finished source is not cancelled
        #expect(watch.token == nil)
        core.request(.max(3))
        probes[1].send(2)
        probes[0].send(completion: .failure(.boom))
        #expect(downstream.events.isEmpty)
        core.cancel()
        #expect(probes.map(\.cancelCount) == [1, 1, 0])
    }

    @Test func aSecondSubscriptionForTheSameSourceIsCancelled() {
        let downstream = Downstream(initial: .max(1))
        let core = Core<Unlimited>(state: ArrivalOrder(), count: 1, downstream: downstream)
        core.start()
        let first = SpySubscription()
        let second = SpySubscription()
        let side = Core<Unlimited>.Side<Int>(core: core, index: 0) { $0.waiting.append("a\($1)") }
        side.receive(subscription: first)
        side.receive(subscription: second)
        #expect(first.requests == [.unlimited])
        #expect(first.cancelCount == 0)
        #expect(second.cancelCount == 1)
        #expect(second.requests.isEmpty)
    }

    @Test func subscribingAfterTheEndDoesNothing() {
        let downstream = Downstream(initial: .none)
        let core = Core<Unlimited>(state: ArrivalOrder(), count: 2, downstream: downstream)
        core.start()
        core.cancel()
        let late = SimpleProbe<Int, ProbeError>()
        core.subscribe(late, index: 1) { $0.waiting.append("b\($1)") }
        #expect(late.subscriptionCount == 0)
    }

    /// Sources on two threads, requests from a third, a cancel racing them: the downstream is never entered twice
    /// at once, gets no more values than it asked for, and at most the one value already on its way after the cancel
    /// returns.
    @Test func concurrentSourcesRequestsAndCancelKeepDeliverySerial() {
        for _ in 0..<50 {
            let inside = Atomic<Int>(0)
            let overlaps = Atomic<Int>(0)
            let received = Atomic<Int>(0)
            let afterCancel = Atomic<Int>(0)
            let cancelled = Atomic<Bool>(false)
            let downstream = ConcurrentDownstream { _ in
                if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
                    overlaps.wrappingAdd(1, ordering: .relaxed)
                }
                received.wrappingAdd(1, ordering: .relaxed)
                if cancelled.load(ordering: .acquiring) { afterCancel.wrappingAdd(1, ordering: .relaxed) }
                inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            }
            let core = CombiningCore<
                ArrivalOrder<Forwarded>, Never, ConcurrentDownstream, ConcurrentDownstream?,
                Subscribers.Completion<Never>?
            >(
                state: ArrivalOrder(), count: 2, downstream: downstream)
            core.start()
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            core.subscribe(a, index: 0) { $0.waiting.append("a\($1)") }
            core.subscribe(b, index: 1) { $0.waiting.append("b\($1)") }
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { for value in 0..<200 { a.send(value) } }
            DispatchQueue.global().async(group: group) { for value in 0..<200 { b.send(value) } }
            DispatchQueue.global().async(group: group) { for _ in 0..<150 { core.request(.max(1)) } }
            DispatchQueue.global().async(group: group) {
                for _ in 0..<100 { _ = received.load(ordering: .relaxed) }
                core.cancel()
                cancelled.store(true, ordering: .releasing)
            }
            group.wait()
            #expect(overlaps.load(ordering: .relaxed) == 0)
            #expect(received.load(ordering: .relaxed) <= 150)
            #expect(afterCancel.load(ordering: .relaxed) <= 1)
        }
    }

    /// A downstream for the stress test: asks for nothing itself and calls `onValue` on each value (from any thread).
    final class ConcurrentDownstream: Subscriber, @unchecked Sendable {
        let onValue: @Sendable (String) -> Void
        init(onValue: @escaping @Sendable (String) -> Void) { self.onValue = onValue }
        func receive(subscription: any Subscription) {}
        func receive(_ input: String) -> Subscribers.Demand {
            onValue(input)
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) {}
    }
}
