import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// `merge(with:)` with two to seven other publishers (`Publishers.Merge3` … `Publishers.Merge8`) and the
/// `merge(with:)` methods of the merge publishers themselves: values and order, demand, completion, failure and
/// cancellation.
@Suite struct MergeNTests {
    typealias J = Just<Int>

    @Test func mergeWithTwoToSevenOthersDeliversEverySourceInSubscriptionOrder() {
        let j = (1...8).map { Just($0) }
        let three = j[0].merge(with: j[1], j[2]).record()
        let four = j[0].merge(with: j[1], j[2], j[3]).record()
        let five = j[0].merge(with: j[1], j[2], j[3], j[4]).record()
        let six = j[0].merge(with: j[1], j[2], j[3], j[4], j[5]).record()
        let seven = j[0].merge(with: j[1], j[2], j[3], j[4], j[5], j[6]).record()
        let eight = j[0].merge(with: j[1], j[2], j[3], j[4], j[5], j[6], j[7]).record()
        for (count, recorder) in [(3, three), (4, four), (5, five), (6, six), (7, seven), (8, eight)] {
            #expect(recorder.values == Array(1...count))
            #expect(recorder.isFinished)
            #expect(recorder.subscriptionCount == 1)
        }
    }

    @Test func mergeReturnsCombinesTypes() {
        let j = J(1)
        let five: Publishers.Merge5<J, J, J, J, J> = j.merge(with: j, j, j, j)
        let six: Publishers.Merge6<J, J, J, J, J, J> = j.merge(with: j, j, j, j, j)
        let seven: Publishers.Merge7<J, J, J, J, J, J, J> = j.merge(with: j, j, j, j, j, j)
        let eight: Publishers.Merge8<J, J, J, J, J, J, J, J> = j.merge(with: j, j, j, j, j, j, j)
        #expect(five.record().values.count == 5)
        #expect(six.record().values.count == 6)
        #expect(seven.record().values.count == 7)
        #expect(eight.record().values.count == 8)
        #expect(eight.h.output == 1)
        // Different publisher types with one output and failure.
        let mixed = Just(1).merge(
            with: [2, 3].publisher, Empty<Int, Never>(), Just(4), (5...6).publisher, Just(7), Just(8),
            PassthroughSubject<Int, Never>())
        let recorder = mixed.record()
        #expect(recorder.values == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(recorder.completion == nil)  // the subject has not finished
    }

    @Test func mergingAMergeMakesOneFlatMerge() {
        let j = J(1)
        let three: Publishers.Merge3<J, J, J> = j.merge(with: j).merge(with: j)
        let eightFromTwo: Publishers.Merge8<J, J, J, J, J, J, J, J> = j.merge(with: j).merge(with: j, j, j, j, j, j)
        let fiveFromThree: Publishers.Merge5<J, J, J, J, J> = j.merge(with: j, j).merge(with: j, j)
        let eightFromFour: Publishers.Merge8<J, J, J, J, J, J, J, J> = j.merge(with: j, j, j).merge(with: j, j, j, j)
        let sixFromFive: Publishers.Merge6<J, J, J, J, J, J> = j.merge(with: j, j, j, j).merge(with: j)
        let eightFromSix: Publishers.Merge8<J, J, J, J, J, J, J, J> = j.merge(with: j, j, j, j, j).merge(with: j, j)
        let eightFromSeven: Publishers.Merge8<J, J, J, J, J, J, J, J> = j.merge(with: j, j, j, j, j, j).merge(with: j)
        #expect(three.record().values == [1, 1, 1])
        #expect(eightFromTwo.record().values.count == 8)
        #expect(fiveFromThree.record().values.count == 5)
        #expect(eightFromFour.record().values.count == 8)
        #expect(sixFromFive.record().values.count == 6)
        #expect(eightFromSix.record().values.count == 8)
        let recorder = eightFromSeven.record()
        #expect(recorder.values.count == 8)
        #expect(recorder.isFinished)
        let ordered = Just(1).merge(with: Just(2)).merge(with: Just(3), Just(4)).merge(with: Just(5)).record()
        #expect(ordered.values == [1, 2, 3, 4, 5])
    }

    // MARK: Demand

    @Test func aSubscriberAskingForOneGetsExactlyOne() {
        let sources = (0..<8).map { index in (index * 10 + 1...index * 10 + 3).publisher }
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        sources[0].merge(with: sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7])
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(2))
        #expect(subscriber.events.count == 4)
        subscriber.request(.unlimited)
        let values = subscriber.events.compactMap { event -> Int? in
            if case .value(let value) = event { return value }
            return nil
        }
        #expect(values.sorted() == sources.flatMap { Array($0.sequence) })
        #expect(subscriber.events.last == .finished)
    }

    @Test func boundedDemandAsksEachSourceForOneValueAtATime() {
        let probes = (0..<5).map { _ in CombiningProbe<Int, Never>() }
        let recorder = probes[0].merge(with: probes[1], probes[2], probes[3], probes[4]).record(demand: .max(2))
        for probe in probes { #expect(probe.requests == [.max(1)]) }
        probes[3].send(1)
        probes[3].send(2)  // delivering 1 asked probes[3] for one more
        #expect(recorder.values == [1, 2])
        probes[1].send(3)  // the downstream's demand is used up: waits
        #expect(recorder.values == [1, 2])
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2, 3])
        recorder.request(.unlimited)
        for probe in probes { #expect(probe.requests.last == .unlimited) }
    }

    @Test func mergeNNeverExceedsDemandWithSynchronousSources() {
        let recorder = (1...3).publisher.merge(with: (4...6).publisher, (7...9).publisher, (10...12).publisher)
            .record(demand: .max(2))
        #expect(recorder.values.count == 2)
        recorder.request(.max(5))
        #expect(recorder.values.count == 7)
        #expect(recorder.completion == nil)
        recorder.request(.unlimited)
        #expect(recorder.values.sorted() == Array(1...12))
        #expect(recorder.isFinished)
    }

    // MARK: Completion

    @Test func mergeNFinishesWhenAllHaveFinished() {
        let sources = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = sources[0].merge(
            with: sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7]
        ).record()
        for (index, source) in sources.enumerated() { source.send(index) }
        for source in sources.dropLast() { source.send(completion: .finished) }
        sources[7].send(70)
        #expect(recorder.completion == nil)
        sources[7].send(completion: .finished)
        #expect(recorder.values == Array(0..<8) + [70])
        #expect(recorder.isFinished)
    }

    @Test func aFailureCancelsTheOtherSourcesAndIsDeliveredOnce() {
        let probes = (0..<6).map { _ in CombiningProbe<Int, TestFailure>() }
        let recorder = probes[0].merge(with: probes[1], probes[2], probes[3], probes[4], probes[5]).record()
        probes[0].send(1)
        probes[1].send(completion: .finished)
        probes[4].send(completion: .failure(.boom))
        #expect(probes.map(\.cancelCount) == [1, 0, 1, 1, 0, 1])
        #expect(probes.map(\.liveCount) == [0, 0, 0, 0, 0, 0])
        probes[0].send(2)
        probes[5].send(completion: .failure(.other))
        #expect(recorder.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func aFailureDropsValuesWaitingForDemand() {
        let probes = (0..<3).map { _ in CombiningProbe<Int, TestFailure>() }
        let recorder = probes[0].merge(with: probes[1], probes[2]).record(demand: .max(1))
        probes[0].send(1)
        probes[1].send(2)  // waits for demand
        probes[2].send(completion: .failure(.boom))
        #expect(recorder.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])
        #expect(probes.map(\.cancelCount) == [1, 1, 0])
    }

    // MARK: Cancellation and serial delivery

    @Test func cancelCancelsEverySourceReleasesTheSubscriptionAndDeliversNothingMore() {
        let probes = (0..<7).map { _ in CombiningProbe<Int, Never>() }
        let recorder = probes[0].merge(with: probes[1], probes[2], probes[3], probes[4], probes[5], probes[6])
            .record()
        probes[2].send(1)
        weak let weakSubscription = recorder.subscription.map { $0 as AnyObject }
        recorder.cancel()
        recorder.cancel()
        for probe in probes { probe.send(2) }
        probes[0].send(completion: .finished)
        #expect(probes.map(\.cancelCount) == Array(repeating: 1, count: 7))
        #expect(recorder.events == [.value(1, at: .zero)])
        #expect(weakSubscription == nil)
    }

    @Test func nothingAfterACancelFromInsideReceive() {
        let inValue = HandWrittenSubscriber<Int, Never>(initial: .unlimited, cancelOnValue: 2)
        Just(1).merge(with: Just(2), Just(3), Just(4), Just(5)).subscribe(inValue)
        #expect(inValue.events == [.subscription, .value(1), .value(2)])
        let inSubscription = HandWrittenSubscriber<Int, Never>(initial: .unlimited, cancelOnSubscription: true)
        Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6), Just(7), Just(8)).subscribe(inSubscription)
        #expect(inSubscription.events == [.subscription])
        let lastValue = HandWrittenSubscriber<Int, Never>(initial: .unlimited, cancelOnValue: 6)
        Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6)).subscribe(lastValue)
        let sixValues = (1...6).map { HandWrittenSubscriber<Int, Never>.Event.value($0) }
        #expect(lastValue.events == [.subscription] + sixValues)  // no `.finished` after the cancel
    }

    @Test func reentrantSendsAreDeliveredSerially() {
        let sources = (0..<5).map { _ in PassthroughSubject<Int, Never>() }
        var received: [Int] = []
        var depth = 0
        var maxDepth = 0
        let cancellable = sources[0].merge(with: sources[1], sources[2], sources[3], sources[4]).sink { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            received.append(value)
            if value < 4 { sources[value + 1].send(value + 1) }
            depth -= 1
        }
        sources[0].send(0)
        #expect(received == [0, 1, 2, 3, 4])
        #expect(maxDepth == 1)
        cancellable.cancel()
    }

    @Test func merge8NeverDeliversConcurrentlyWhenSourcesSendFromEightThreads() {
        let sources = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let count = Atomic<Int>(0)
        let cancellable = sources[0].merge(
            with: sources[1], sources[2], sources[3], sources[4], sources[5], sources[6], sources[7]
        ).sink { _ in
            if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            count.add(1, ordering: .relaxed)
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for value in 0..<1_000 { sources[index].send(value) }
        }
        #expect(count.load(ordering: .relaxed) == 8_000)
        #expect(overlaps.load(ordering: .relaxed) == 0)
        cancellable.cancel()
    }

    @Test func publishersAreEqualWhenTheirSourcesAre() {
        let e = Empty<Int, Never>()
        let n = Empty<Int, Never>(completeImmediately: false)
        #expect(e.merge(with: e) == e.merge(with: e))
        #expect(e.merge(with: e) != e.merge(with: n))
        #expect(e.merge(with: e, e) == e.merge(with: e, e))
        #expect(e.merge(with: e, e, e) != e.merge(with: e, n, e))
        #expect(e.merge(with: e, e, e, e) == e.merge(with: e, e, e, e))
        #expect(e.merge(with: e, e, e, e, e) != n.merge(with: e, e, e, e, e))
        #expect(e.merge(with: e, e, e, e, e, e) == e.merge(with: e, e, e, e, e, e))
        #expect(e.merge(with: e, e, e, e, e, e, e) == e.merge(with: e, e, e, e, e, e, e))
        #expect(e.merge(with: e, e, e, e, e, e, e) != e.merge(with: e, e, e, e, e, e, n))
        #expect(Publishers.MergeMany(e, e) == Publishers.MergeMany([e, e]))
        #expect(Publishers.MergeMany(e, e) != Publishers.MergeMany(e, n))
    }

    @Test func describesItsSubscription() {
        let recorder = Just(1).merge(with: Just(2), Just(3), Just(4), Just(5)).record(demand: .none)
        #expect(recorder.subscription.map { String(describing: $0) } == "Merge")
    }
}

@Suite struct MergeNMarbleTests {
    @Test func merge5InterleavesAndFinishesWhenAllHaveFinished() throws {
        let scheduler = TestScheduler()
        let a = try scheduler.hot("-a-------|")
        let b = try scheduler.hot("--b---|")
        let c = try scheduler.hot("---c--------|")
        let d = try scheduler.hot("----d|")
        let e = try scheduler.hot("-----e----|")
        expectMarbles(a.merge(with: b, c, d, e), "-abcde------|", on: scheduler)
        expectSubscriptions(a, "^")
        expectSubscriptions(c, "^")
    }

    @Test func merge4FailsAtOnceAndCancelsTheOtherSources() throws {
        let scheduler = TestScheduler()
        let a = try scheduler.hot("-a-----a--|", error: TimingTestError.boom)
        let b = try scheduler.hot("--b|", error: TimingTestError.boom)
        let c = try scheduler.hot("----#", error: TimingTestError.boom)
        let d = try scheduler.hot("---d----d|", error: TimingTestError.boom)
        expectMarbles(a.merge(with: b, c, d), "-abd#", error: .boom, on: scheduler)
        expectSubscriptions(a, "^---!")
        expectSubscriptions(d, "^---!")
    }
}
