import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// `combineLatest` with two and three other publishers (`Publishers.CombineLatest3`, `Publishers.CombineLatest4`)
/// and their transform forms: values and order, demand, completion, failure and cancellation.
@Suite struct CombineLatestNTests {
    @Test func combineLatest4WaitsForAllFourThenEmitsOnEveryValue() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let d = PassthroughSubject<Int, Never>()
        let recorder = a.combineLatest(b, c, d) { $0 * 1000 + $1 * 100 + $2 * 10 + $3 }.record()
        let tuples = a.combineLatest(b, c, d).record()
        a.send(1)
        a.send(2)
        b.send(3)
        c.send(4)
        #expect(recorder.values.isEmpty)
        d.send(5)
        b.send(6)
        d.send(7)
        a.send(8)
        #expect(recorder.values == [2345, 2645, 2647, 8647])
        #expect(
            tuples.values.map { [$0.0, $0.1, $0.2, $0.3] } == [
                [2, 3, 4, 5], [2, 6, 4, 5], [2, 6, 4, 7], [8, 6, 4, 7],
            ])
    }

    @Test func combineLatestOfThreeAndFourHaveCombinesTypes() {
        let two: Publishers.Map<Publishers.CombineLatest<Just<Int>, Just<Int>>, Int> =
            Just(1).combineLatest(Just(2)) { $0 + $1 }
        let three: Publishers.CombineLatest3<Just<Int>, Just<String>, Just<Bool>> =
            Just(1).combineLatest(Just("x"), Just(true))
        let threeMapped: Publishers.Map<Publishers.CombineLatest3<Just<Int>, Just<Int>, Just<Int>>, Int> =
            Just(1).combineLatest(Just(2), Just(3)) { $0 + $1 + $2 }
        let four: Publishers.CombineLatest4<Just<Int>, Just<String>, Just<Bool>, Just<Double>> =
            Just(1).combineLatest(Just("x"), Just(true), Just(0.5))
        let fourMapped: Publishers.Map<Publishers.CombineLatest4<Just<Int>, Just<Int>, Just<Int>, Just<Int>>, Int> =
            Just(1).combineLatest(Just(2), Just(3), Just(4)) { $0 + $1 + $2 + $3 }
        #expect(two.record().values == [3])
        #expect(three.record().values.map { "\($0.0)\($0.1)\($0.2)" } == ["1xtrue"])
        #expect(threeMapped.record().values == [6])
        #expect(four.record().values.map { "\($0.0)\($0.1)\($0.2)\($0.3)" } == ["1xtrue0.5"])
        let recorder = fourMapped.record()
        #expect(recorder.events == [.value(10, at: .zero), .finished(at: .zero)])
        #expect(four.a.output == 1 && four.d.output == 0.5)
    }

    @Test func combineLatestOfSequencesUsesTheLastValueOfTheEarlierSources() {
        let three = [1, 2].publisher.combineLatest([10].publisher, [100, 200].publisher) { $0 + $1 + $2 }.record()
        #expect(three.values == [112, 212])
        #expect(three.isFinished)
        let four = [1, 2].publisher.combineLatest(Just(10), Just(100), [1000, 2000].publisher) { $0 + $1 + $2 + $3 }
            .record()
        #expect(four.values == [1112, 2112])
        #expect(four.isFinished)
    }

    // MARK: Demand

    @Test func combineLatestNAsksEverySourceForUnlimited() {
        let probes = (0..<4).map { _ in CombiningProbe<Int, Never>() }
        _ = probes[0].combineLatest(probes[1], probes[2], probes[3]) { $0 + $1 + $2 + $3 }.record(demand: .max(1))
        for probe in probes { #expect(probe.requests == [.unlimited]) }
        let three = (0..<3).map { _ in CombiningProbe<Int, Never>() }
        _ = three[0].combineLatest(three[1], three[2]).record(demand: .none)
        for probe in three { #expect(probe.requests == [.unlimited]) }
    }

    @Test func aSubscriberAskingForOneGetsExactlyOne() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let d = PassthroughSubject<Int, Never>()
        let four = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        a.combineLatest(b, c, d) { $0 * 1000 + $1 * 100 + $2 * 10 + $3 }.subscribe(four)
        let three = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        a.combineLatest(b, c) { $0 * 100 + $1 * 10 + $2 }.subscribe(three)
        a.send(1)
        b.send(1)
        c.send(1)  // 111 for the three-way
        d.send(1)  // 1111 for the four-way
        a.send(2)
        d.send(2)
        c.send(3)
        #expect(four.events == [.subscription, .value(1111)])
        #expect(three.events == [.subscription, .value(111)])
        // Without demand only the newest combination is kept.
        four.request(.max(1))
        three.request(.max(1))
        #expect(four.events == [.subscription, .value(1111), .value(2132)])
        #expect(three.events == [.subscription, .value(111), .value(213)])
        four.request(.max(1))
        #expect(four.events == [.subscription, .value(1111), .value(2132)])
        b.send(5)
        #expect(four.events == [.subscription, .value(1111), .value(2132), .value(2532)])
    }

    @Test func synchronousSourcesWithBoundedDemandDeliverTheNewestCombination() {
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        [1, 2].publisher.combineLatest(Just(10), Just(100), [1000, 2000].publisher) { $0 + $1 + $2 + $3 }
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1112)])
        subscriber.request(.max(3))
        #expect(subscriber.events == [.subscription, .value(1112), .value(2112), .finished])
    }

    // MARK: Completion

    @Test func combineLatest4FinishesWhenAllHaveFinished() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let d = PassthroughSubject<Int, Never>()
        let recorder = a.combineLatest(b, c, d) { $0 + $1 + $2 + $3 }.record()
        a.send(1)
        b.send(10)
        c.send(100)
        d.send(1000)
        a.send(completion: .finished)
        b.send(completion: .finished)
        c.send(completion: .finished)
        d.send(2000)  // the finished sources' latest values still combine
        #expect(recorder.completion == nil)
        d.send(completion: .finished)
        #expect(recorder.events == [.value(1111, at: .zero), .value(2111, at: .zero), .finished(at: .zero)])
    }

    @Test func combineLatest3FinishesWhenAllHaveFinished() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let recorder = a.combineLatest(b, c) { $0 + $1 + $2 }.record()
        a.send(1)
        b.send(10)
        c.send(100)
        c.send(completion: .finished)
        a.send(completion: .finished)
        b.send(20)
        #expect(recorder.completion == nil)
        b.send(completion: .finished)
        #expect(recorder.events == [.value(111, at: .zero), .value(121, at: .zero), .finished(at: .zero)])
    }

    @Test func finishesAtOnceWhenASourceFinishesWithoutEverEmittingAndCancelsTheOthers() {
        let probes = (0..<4).map { _ in CombiningProbe<Int, Never>() }
        let recorder = probes[0].combineLatest(probes[1], probes[2], probes[3]) { $0 + $1 + $2 + $3 }.record()
        probes[0].send(1)
        probes[1].send(1)
        probes[1].send(completion: .finished)  // finished after emitting: nothing to cancel there
        probes[3].send(1)
        probes[2].send(completion: .finished)  // never emitted: no combination can follow
        #expect(recorder.events == [.finished(at: .zero)])
        #expect(probes.map(\.cancelCount) == [1, 0, 0, 1])
        #expect(probes.map(\.liveCount) == [0, 0, 0, 0])
        probes[0].send(2)
        probes[3].send(completion: .finished)
        #expect(recorder.events == [.finished(at: .zero)])

        let three = (0..<3).map { _ in CombiningProbe<Int, Never>() }
        let threeRecorder = three[0].combineLatest(three[1], three[2]) { $0 + $1 + $2 }.record()
        three[0].send(completion: .finished)
        #expect(threeRecorder.events == [.finished(at: .zero)])
        #expect(three.map(\.cancelCount) == [0, 1, 1])
    }

    @Test func aKeptCombinationIsDeliveredBeforeFinishing() {
        let sources = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = sources[0].combineLatest(sources[1], sources[2], sources[3]) { $0 + $1 + $2 + $3 }
            .record(demand: .none)
        for (index, source) in sources.enumerated() { source.send(index + 1) }
        sources[0].send(10)
        for source in sources { source.send(completion: .finished) }
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.value(19, at: .zero), .finished(at: .zero)])
    }

    @Test func aFailureFailsAtOnceAndCancelsTheOthers() {
        let probes = (0..<4).map { _ in CombiningProbe<Int, TestFailure>() }
        let recorder = probes[0].combineLatest(probes[1], probes[2], probes[3]) { $0 + $1 + $2 + $3 }.record()
        for probe in probes { probe.send(1) }
        probes[2].send(completion: .failure(.boom))
        #expect(probes.map(\.cancelCount) == [1, 1, 0, 1])
        probes[0].send(2)
        probes[1].send(completion: .failure(.other))
        #expect(recorder.events == [.value(4, at: .zero), .failure(.boom, at: .zero)])

        let three = (0..<3).map { _ in CombiningProbe<Int, TestFailure>() }
        let threeRecorder = three[0].combineLatest(three[1], three[2]) { $0 + $1 + $2 }.record()
        three[0].send(completion: .failure(.boom))
        #expect(three.map(\.cancelCount) == [0, 1, 1])
        #expect(threeRecorder.events == [.failure(.boom, at: .zero)])
    }

    // MARK: Cancellation and serial delivery

    @Test func cancelCancelsEverySourceReleasesTheSubscriptionAndDeliversNothingMore() {
        let probes = (0..<4).map { _ in CombiningProbe<Int, Never>() }
        let recorder = probes[0].combineLatest(probes[1], probes[2], probes[3]) { $0 + $1 + $2 + $3 }.record()
        for probe in probes { probe.send(1) }
        weak let weakSubscription = recorder.subscription.map { $0 as AnyObject }
        recorder.cancel()
        recorder.cancel()
        probes[0].send(2)
        probes[1].send(completion: .finished)
        #expect(probes.map(\.cancelCount) == [1, 1, 1, 1])
        #expect(recorder.events == [.value(4, at: .zero)])
        #expect(weakSubscription == nil)
    }

    @Test func cancelReleasesTheKeptValues() {
        let a = PassthroughSubject<Token, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let d = PassthroughSubject<Int, Never>()
        let recorder = a.combineLatest(b, c, d) { _, _, _, _ in 0 }.record()
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            a.send(token)
        }
        #expect(weakToken != nil)
        recorder.cancel()
        #expect(weakToken == nil)
    }

    @Test func nothingAfterACancelFromInsideReceive() {
        let inValue = HandWrittenSubscriber<Int, Never>(initial: .unlimited, cancelOnValue: 1)
        [1, 2].publisher.combineLatest(Just(10), Just(100), [1000, 2000].publisher) { $0 + $1 + $2 + $3 }
            .subscribe(inValue)
        #expect(inValue.events == [.subscription, .value(1112)])
        let inSubscription = HandWrittenSubscriber<Int, Never>(initial: .unlimited, cancelOnSubscription: true)
        Just(1).combineLatest(Just(2), Just(3)) { $0 + $1 + $2 }.subscribe(inSubscription)
        #expect(inSubscription.events == [.subscription])
        let threeInValue = HandWrittenSubscriber<Int, Never>(initial: .unlimited, cancelOnValue: 1)
        Just(1).combineLatest(Just(2), Just(3)) { $0 + $1 + $2 }.subscribe(threeInValue)
        #expect(threeInValue.events == [.subscription, .value(6)])  // no `.finished` after the cancel
    }

    @Test func reentrantCombinationsAreDeliveredSerially() {
        let sources = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        var received: [Int] = []
        var depth = 0
        var maxDepth = 0
        let cancellable = sources[0].combineLatest(sources[1], sources[2], sources[3]) { $0 + $1 + $2 + $3 }
            .sink { value in
                depth += 1
                maxDepth = max(maxDepth, depth)
                received.append(value)
                if value == 4 {
                    sources[3].send(2)
                    sources[0].send(2)
                }
                depth -= 1
            }
        for source in sources { source.send(1) }
        #expect(received == [4, 5, 6])
        #expect(maxDepth == 1)
        cancellable.cancel()
    }

    @Test func combineLatest4NeverDeliversConcurrentlyWhenSourcesSendFromFourThreads() {
        let sources = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let count = Atomic<Int>(0)
        let cancellable = sources[0].combineLatest(sources[1], sources[2], sources[3]).sink { _ in
            if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            count.add(1, ordering: .relaxed)
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        for source in sources { source.send(0) }  // one combination; from now on every value makes one
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for value in 1...2_000 { sources[index].send(value) }
        }
        #expect(count.load(ordering: .relaxed) == 1 + 4 * 2_000)
        #expect(overlaps.load(ordering: .relaxed) == 0)
        cancellable.cancel()
    }

    @Test func publishersAreEqualWhenTheirSourcesAre() {
        let empty = Empty<Int, Never>()
        let never = Empty<Int, Never>(completeImmediately: false)
        #expect(empty.combineLatest(empty) == empty.combineLatest(empty))
        #expect(empty.combineLatest(empty) != empty.combineLatest(never))
        #expect(empty.combineLatest(empty, empty) == empty.combineLatest(empty, empty))
        #expect(empty.combineLatest(empty, empty) != never.combineLatest(empty, empty))
        #expect(empty.combineLatest(empty, empty, empty) == empty.combineLatest(empty, empty, empty))
        #expect(empty.combineLatest(empty, empty, empty) != empty.combineLatest(empty, empty, never))
    }

    @Test func describesItsSubscription() {
        let recorder = Just(1).combineLatest(Just(2), Just(3), Just(4)).record(demand: .none)
        #expect(recorder.subscription.map { String(describing: $0) } == "CombineLatest")
    }
}

@Suite struct CombineLatestNMarbleTests {
    @Test func combineLatest3EmitsOnceAllHaveEmittedAndFinishesWhenAllHaveFinished() throws {
        let scheduler = TestScheduler()
        let letters = try scheduler.hot("-a--b------|")
        let digits = try scheduler.hot("--1----2|")
        let signs = try scheduler.hot("---s------|")
        expectMarbles(
            letters.combineLatest(digits, signs) { $0 + $1 + $2 }, "---xy--z---|",
            values: ["x": "a1s", "y": "b1s", "z": "b2s"], on: scheduler)
        expectSubscriptions(letters, "^")
        expectSubscriptions(signs, "^")
    }

    @Test func combineLatest4FinishesAtOnceWhenASourceFinishesWithoutEverEmitting() throws {
        let scheduler = TestScheduler()
        let a = try scheduler.hot("-a---b-----|")
        let b = try scheduler.hot("--1------|")
        let c = try scheduler.hot("----|")
        let d = try scheduler.hot("-x--------|")
        expectMarbles(a.combineLatest(b, c, d) { $0 + $1 + $2 + $3 }, "----|", on: scheduler)
        expectSubscriptions(a, "^---!")
        expectSubscriptions(b, "^---!")
        expectSubscriptions(d, "^---!")
    }

    @Test func combineLatest4FailsAtOnceAndCancelsTheOtherSources() throws {
        let scheduler = TestScheduler()
        let a = try scheduler.hot("-a---b-----|", error: TimingTestError.boom)
        let b = try scheduler.hot("--1-----|", error: TimingTestError.boom)
        let c = try scheduler.hot("---s--#", error: TimingTestError.boom)
        let d = try scheduler.hot("---x------|", error: TimingTestError.boom)
        expectMarbles(
            a.combineLatest(b, c, d) { $0 + $1 + $2 + $3 }, "---p-q#", values: ["p": "a1sx", "q": "b1sx"],
            error: .boom, on: scheduler)
        expectSubscriptions(a, "^-----!")
        expectSubscriptions(b, "^-----!")
        expectSubscriptions(d, "^-----!")
    }
}
