import Dispatch
import Streams
import StreamsTesting
import Testing

/// A subscriber that asks for `initial` when subscribed and, for each group, for what `demandFor` says;
/// it records the groups. Single-threaded: every test here runs on one `TestScheduler`.
private final class ScriptedSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    let initial: Subscribers.Demand
    let demandFor: (Input) -> Subscribers.Demand
    private(set) var subscription: (any Subscription)?
    private(set) var values: [Input] = []
    private(set) var completions = 0

    init(initial: Subscribers.Demand, demandFor: @escaping (Input) -> Subscribers.Demand) {
        self.initial = initial
        self.demandFor = demandFor
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(initial)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        values.append(input)
        return demandFor(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) { completions += 1 }
}

/// `collect(.byTime)` and `collect(.byTimeOrCount)`. The first tests translate CombineX's specs, which were
/// checked against Combine (`Tests/CombineXTests/Publishers/CollectByTimeSpec.swift`,
/// `Tests/CXInconsistentTests/Versioning/VersioningCollectByTimeSpec.swift` in cx-org/CombineX).
@Suite struct CollectByTimeTests {
    // MARK: CombineX's specs

    @Test func byTimePublishesWhatWasCollectedEveryIntervalAndAFailureDropsTheOpenGroup() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TimingTestError>()
        let recorder = subject.collect(.byTime(scheduler, .seconds(2))).record(on: scheduler)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .seconds(2))
        subject.send(3)
        subject.send(4)
        subject.send(5)
        scheduler.advance(by: .seconds(1))
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value([1, 2], at: .seconds(2))])
        scheduler.advance()
        #expect(recorder.events == [.value([1, 2], at: .seconds(2)), .failure(.boom, at: .seconds(3))])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func byTimeSendsTheOpenGroupThenFinishes() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TimingTestError>()
        let recorder = subject.collect(.byTime(scheduler, .seconds(2))).record(on: scheduler)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .seconds(2))
        subject.send(3)
        subject.send(4)
        subject.send(5)
        scheduler.advance(by: .seconds(1))
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(
            recorder.events == [
                .value([1, 2], at: .seconds(2)), .value([3, 4, 5], at: .seconds(3)), .finished(at: .seconds(3)),
            ])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func byTimeOrCountPublishesFullGroupsAtOnceAndTheRestEveryInterval() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TimingTestError>()
        let recorder = subject.collect(.byTimeOrCount(scheduler, .seconds(2), 2)).record(on: scheduler)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .seconds(2))
        for value in 4...8 { subject.send(value) }
        scheduler.advance(by: .seconds(2))
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(
            recorder.events == [
                .value([1, 2], at: .zero), .value([3], at: .seconds(2)), .value([4, 5], at: .seconds(2)),
                .value([6, 7], at: .seconds(2)), .value([8], at: .seconds(4)), .finished(at: .seconds(4)),
            ])
    }

    @Test func byTimeSendsAsManyGroupsAsDemandedAndKeepsTheRestForTheNextTickAfterARequest() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TimingTestError>()
        let subscriber = ScriptedSubscriber<[Int], TimingTestError>(initial: .max(2)) { group in
            Set(group).isDisjoint(with: [0, 5]) ? .none : .max(1)
        }
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        for value in 0..<100 {
            if value % 3 == 0 { scheduler.advance(by: .seconds(1)) }
            subject.send(value)
        }
        #expect(subscriber.values == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]])
        // Not decided by the specs (no demand comes later there): Streams keeps what it collected without
        // demand and publishes it at the first tick after a request.
        subscriber.subscription?.request(.max(1))
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values.count == 5)
        #expect(subscriber.values.last == Array(12..<100))
    }

    @Test func byTimeAsksForOneValueAtATime() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, TimingTestError>()
        let subscriber = ScriptedSubscriber<[Int], TimingTestError>(initial: .max(2)) { group in
            Set(group).isDisjoint(with: [0, 5]) ? .none : .max(1)
        }
        probe.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        var returned: [Subscribers.Demand] = []
        for value in 0..<100 {
            if value % 3 == 0 { scheduler.advance(by: .seconds(1)) }
            returned.append(probe.send(value))
        }
        #expect(probe.requests == [.max(1)])
        #expect(returned == Array(repeating: .max(1), count: 100))
        subscriber.subscription?.request(.max(2))
        #expect(probe.requests == [.max(1), .max(1)])
    }

    /// CombineX's "should ignore sync backpressure from scheduling sending when strategy is byTimeOrCount"
    /// (Combine ≥ 11.3). Up to the fourth group Streams and Combine agree: the count group is delivered
    /// through the scheduler, so `receive(_:)` returns `.none` and its demand is requested (`.max(2)`).
    /// Then they differ deliberately: the `.max(5)` returned for `[2]`, published by the timer, is ignored
    /// by Combine, which therefore stops after `[5]` with five groups still wanted; Streams requests
    /// 5 × 2 values and publishes the eight groups the subscriber asked for.
    @Test func byTimeOrCountRequestsCountTimesEveryDemandIncludingThatReturnedForATimerGroup() {
        let scheduler = TestScheduler()
        let probe = CombiningProbe<Int, TimingTestError>()
        let subscriber = ScriptedSubscriber<[Int], TimingTestError>(initial: .max(2)) { group in
            if group.contains(0) { return .max(1) }
            if group.contains(2) { return .max(5) }
            return .none
        }
        probe.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(subscriber)
        for value in 0..<100 {
            if value.isMultiple(of: 3) { scheduler.advance(by: .seconds(1)) }
            probe.send(value)
        }
        #expect(probe.requests == [.max(4), .max(2), .max(10)])
        #expect(subscriber.values == [[0, 1], [2], [3, 4], [5], [6, 7], [8], [9, 10], [11]])
        // Two full groups arrived without demand; they are kept and published when asked for.
        subscriber.subscription?.request(.max(2))
        scheduler.advance()
        #expect(subscriber.values.suffix(2) == [[12, 13], [14, 15]])
    }

    @Test func aFailureIsDeliveredThroughTheScheduler() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TimingTestError>()
        let recorder = subject.collect(.byTime(scheduler, .seconds(2))).record(on: scheduler)
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .zero)
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func aFinishIsDeliveredThroughTheSchedulerAfterTheLastGroup() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TimingTestError>()
        let recorder = subject.collect(.byTime(scheduler, .seconds(2))).record(on: scheduler)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        scheduler.advance(by: .zero)
        #expect(recorder.events == [.value([1], at: .zero), .finished(at: .zero)])
        #expect(scheduler.pendingCount == 0)
    }

    // MARK: Timing

    @Test func ticksCountFromTheSubscriptionAndAnEmptyIntervalPublishesNothing() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        scheduler.advance(to: .ms(500))
        let recorder = subject.collect(.byTime(scheduler, .seconds(1))).record(on: scheduler)
        scheduler.advance(to: .ms(1200))
        subject.send(1)
        scheduler.advance(to: .ms(1499))
        #expect(recorder.events.isEmpty)
        scheduler.advance(to: .ms(1500))
        #expect(recorder.events == [.value([1], at: .milliseconds(1500))])
        scheduler.advance(to: .ms(4000))
        #expect(recorder.events.count == 1)
        subject.send(2)
        scheduler.advance(to: .ms(4500))
        #expect(recorder.events == [.value([1], at: .milliseconds(1500)), .value([2], at: .milliseconds(4500))])
        #expect(scheduler.pendingCount == 1)  // the next tick, and nothing else
    }

    @Test func aSynchronousUpstreamIsCollectedAtOnceAndDeliveredOnTheScheduler() {
        let scheduler = TestScheduler()
        let recorder = (1...10).publisher.collect(.byTimeOrCount(scheduler, .seconds(1), 3)).record(on: scheduler)
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(
            recorder.events == [
                .value([1, 2, 3], at: .zero), .value([4, 5, 6], at: .zero), .value([7, 8, 9], at: .zero),
                .value([10], at: .zero), .finished(at: .zero),
            ])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func marbleDiagram() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-a-b--c-d----|")
        expectMarbles(
            input.collect(.byTime(scheduler, scheduler.frames(4))), "----x---y----|",
            values: ["x": ["a", "b"], "y": ["c", "d"]], on: scheduler)
    }

    @Test func marbleDiagramByTimeOrCount() throws {
        let scheduler = TestScheduler()
        let input = try scheduler.hot("-abc-d----e-|")
        expectMarbles(
            input.collect(.byTimeOrCount(scheduler, scheduler.frames(5), 2)), "--x--y----z-|",
            values: ["x": ["a", "b"], "y": ["c", "d"], "z": ["e"]], on: scheduler)
    }

    // MARK: Demand

    @Test func byTimeAsksUpstreamOnlyWhenTheDownstreamAsks() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<[Int], Never>()
        probe.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        #expect(probe.requests.isEmpty)
        subscriber.request(.max(3))
        subscriber.request(.unlimited)
        #expect(probe.requests == [.max(1), .max(1)])
    }

    @Test func byTimeOrCountAsksCountTimesTheDemand() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<[Int], Never>(initial: .max(2))
        probe.collect(.byTimeOrCount(scheduler, .seconds(1), 3)).subscribe(subscriber)
        #expect(probe.requests == [.max(6)])
        subscriber.request(.max(1))
        subscriber.request(.unlimited)
        #expect(probe.requests == [.max(6), .max(3), .unlimited])
        #expect(probe.send(1) == .none)
    }

    @Test func groupsNeverExceedTheDemand() {
        let scheduler = TestScheduler()
        let subscriber = HandWrittenSubscriber<[Int], Never>(initial: .max(2))
        (1...10).publisher.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(subscriber)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events == [.subscription, .value([1, 2]), .value([3, 4])])
        subscriber.request(.max(10))
        scheduler.advance()
        #expect(
            subscriber.events == [
                .subscription, .value([1, 2]), .value([3, 4]), .value([5, 6]), .value([7, 8]), .value([9, 10]),
                .finished,
            ])
    }

    @Test func aGroupDueWithoutDemandGrowsUntilTheFirstTickAfterARequest() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.collect(.byTime(scheduler, .seconds(1))).record(on: scheduler, demand: .max(1))
        probe.send(1)
        scheduler.advance(to: .ms(1000))
        probe.send(2)
        scheduler.advance(to: .ms(2500))
        probe.send(3)
        recorder.request(.max(1))
        scheduler.advance(to: .ms(2999))
        #expect(recorder.events == [.value([1], at: .seconds(1))])
        scheduler.advance(to: .ms(3000))
        #expect(recorder.events == [.value([1], at: .seconds(1)), .value([2, 3], at: .seconds(3))])
    }

    @Test func aFullGroupWithoutDemandWaitsAndIsDeliveredThroughTheSchedulerOnRequest() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.collect(.byTimeOrCount(scheduler, .seconds(10), 2)).record(on: scheduler, demand: .max(1))
        probe.send(1)
        probe.send(2)
        scheduler.advance()
        probe.send(3)
        probe.send(4)
        probe.send(5)
        scheduler.advance(to: .ms(1000))
        #expect(recorder.events == [.value([1, 2], at: .zero)])
        recorder.request(.max(1))
        #expect(recorder.events == [.value([1, 2], at: .zero)])
        scheduler.advance()
        #expect(recorder.events == [.value([1, 2], at: .zero), .value([3, 4], at: .seconds(1))])
        // `[5]` stays open: the tick at 10 s finds no demand; the one at 20 s, after a request, publishes it.
        scheduler.advance(to: .ms(15_000))
        recorder.request(.max(1))
        scheduler.advance(to: .ms(20_000))
        #expect(recorder.values == [[1, 2], [3, 4], [5]])
        #expect(recorder.events.last == .value([5], at: .seconds(20)))
        #expect(probe.requests == [.max(2), .max(2), .max(2)])
    }

    @Test func theLastGroupWaitsForDemandAndTheFinishFollowsIt() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.collect(.byTime(scheduler, .seconds(1))).record(on: scheduler, demand: .none)
        probe.send(1)
        probe.send(completion: .finished)
        scheduler.advance(by: .seconds(5))
        #expect(recorder.events.isEmpty)
        #expect(scheduler.pendingCount == 0)
        recorder.request(.max(1))
        scheduler.advance()
        #expect(recorder.events == [.value([1], at: .seconds(5)), .finished(at: .seconds(5))])
    }

    @Test func aFinishWithNothingCollectedNeedsNoDemand() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.collect(.byTime(scheduler, .seconds(1))).record(on: scheduler, demand: .none)
        scheduler.advance(by: .seconds(3))
        probe.send(completion: .finished)
        scheduler.advance()
        #expect(recorder.events == [.finished(at: .seconds(3))])
    }

    @Test func aFailureFollowsTheFullGroupsTheDemandAllowsAndDropsTheOpenGroup() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TimingTestError>()
        let recorder = subject.collect(.byTimeOrCount(scheduler, .seconds(10), 2)).record(on: scheduler)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        subject.send(completion: .failure(.boom))
        scheduler.advance()
        #expect(recorder.events == [.value([1, 2], at: .zero), .failure(.boom, at: .zero)])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aFailureDoesNotWaitForDemand() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, TimingTestError>()
        let recorder = probe.collect(.byTimeOrCount(scheduler, .seconds(10), 2))
            .record(on: scheduler, demand: .none)
        probe.send(1)
        probe.send(2)
        probe.send(3)
        probe.send(completion: .failure(.boom))
        scheduler.advance()
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    // MARK: Completion and cancellation

    @Test func nothingIsAcceptedAfterTheCompletion() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let recorder = probe.collect(.byTime(scheduler, .seconds(1))).record(on: scheduler)
        probe.send(completion: .finished)
        #expect(probe.send(1) == .none)
        probe.send(completion: .finished)
        scheduler.advance(by: .seconds(3))
        #expect(recorder.events == [.finished(at: .zero)])
    }

    @Test func cancelStopsTheTimerAndReleasesTheSubscriber() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        weak var weakRecorder: TestRecorder<[Int], Never>?
        do {
            let recorder = probe.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).record(on: scheduler)
            weakRecorder = recorder
            probe.send(1)
            probe.send(2)
            probe.send(3)
            #expect(scheduler.pendingCount == 2)  // the tick and the delivery of [1, 2]
            recorder.cancel()
            recorder.cancel()
            #expect(scheduler.pendingCount == 0)
            #expect(probe.cancelCount == 1)
            probe.send(4)
            probe.send(completion: .finished)
            scheduler.advance(by: .seconds(5))
            #expect(recorder.events.isEmpty)
        }
        #expect(weakRecorder == nil)
    }

    @Test func cancelAfterTheFinishDropsTheScheduledDelivery() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.collect(.byTime(scheduler, .seconds(1))).record(on: scheduler)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(scheduler.pendingCount == 1)
        recorder.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.run()
        #expect(recorder.events.isEmpty)
    }

    @Test func aSubscriberMayCancelFromInsideAGroup() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        var received: [[Int]] = []
        var completions = 0
        var cancellable: AnyCancellable?
        cancellable = subject.collect(.byTimeOrCount(scheduler, .seconds(1), 2))
            .sink(
                receiveCompletion: { _ in completions += 1 },
                receiveValue: {
                    received.append($0)
                    cancellable?.cancel()
                })
        subject.send(1)
        subject.send(2)
        subject.send(3)
        subject.send(4)
        subject.send(completion: .finished)
        scheduler.advance(by: .seconds(2))
        #expect(received == [[1, 2]])
        #expect(completions == 0)
        #expect(scheduler.pendingCount == 0)
        _ = cancellable
    }

    @Test func aSubscriberCancellingInsideItsSubscriptionLeavesNothingScheduled() {
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<[Int], Never>(cancelOnSubscription: true)
        probe.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        #expect(scheduler.pendingCount == 0)
        #expect(probe.cancelCount == 1)
        probe.send(1)
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.events == [.subscription])
    }

    /// One thread sends, three request, one advances the clock: every value arrives once, in order, in
    /// groups of at most three, one call at a time (the subscriber's state is deliberately unsynchronised, so
    /// overlapping calls show under the sanitizer).
    @Test func concurrentValuesRequestsAndTicksDeliverEachValueOnceInOrder() {
        final class Unsynchronised: Subscriber, @unchecked Sendable {
            var groups: [[Int]] = []
            var subscription: (any Subscription)?
            func receive(subscription: any Subscription) { self.subscription = subscription }
            func receive(_ input: [Int]) -> Subscribers.Demand {
                groups.append(input)
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let total = 3_000
        let scheduler = TestScheduler()
        let probe = TimingProbe<Int, Never>()
        let subscriber = Unsynchronised()
        probe.collect(.byTimeOrCount(scheduler, .milliseconds(1), 3)).subscribe(subscriber)
        // `subscription` is written before the threads start and only read while they run.
        DispatchQueue.concurrentPerform(iterations: 5) { thread in
            switch thread {
            case 0: for value in 0..<total { probe.send(value) }
            case 4: for _ in 0..<total { scheduler.advance(by: .microseconds(100)) }
            default: for _ in 0..<total / 3 { subscriber.subscription?.request(.max(1)) }
            }
        }
        scheduler.advance(by: .milliseconds(10))
        #expect(subscriber.groups.allSatisfy { (1...3).contains($0.count) })
        #expect(subscriber.groups.flatMap { $0 } == Array(0..<total))
        subscriber.subscription?.cancel()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func theSubscriptionDescribesItself() {
        let scheduler = TestScheduler()
        let subscriber = HandWrittenSubscriber<[Int], Never>()
        Empty<Int, Never>(completeImmediately: false).collect(.byTime(scheduler, .seconds(1)))
            .subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "CollectByTime")
        subscriber.cancel()
    }
}
