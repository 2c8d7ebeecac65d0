import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// `zip` with two and three other publishers (`Publishers.Zip3`, `Publishers.Zip4`) and their transform forms:
/// values and order, demand, completion, failure and cancellation.
@Suite struct ZipNTests {
    @Test func zip4CombinesTheNthValuesBufferingTheFasterSources() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let d = PassthroughSubject<Int, Never>()
        let recorder = a.zip(b, c, d) { $0 * 1000 + $1 * 100 + $2 * 10 + $3 }.record()
        let tuples = a.zip(b, c, d).record()
        a.send(1)
        a.send(2)
        a.send(3)
        b.send(4)
        b.send(5)
        c.send(6)
        #expect(recorder.values.isEmpty)
        d.send(7)
        #expect(recorder.values == [1467])
        c.send(8)
        d.send(9)
        #expect(recorder.values == [1467, 2589])
        d.send(1)
        c.send(2)
        #expect(recorder.values == [1467, 2589])  // b has nothing left for the third tuple
        b.send(3)
        #expect(recorder.values == [1467, 2589, 3321])
        #expect(tuples.values.map { [$0.0, $0.1, $0.2, $0.3] } == [[1, 4, 6, 7], [2, 5, 8, 9], [3, 3, 2, 1]])
    }

    @Test func zipOfThreeAndFourHaveCombinesTypes() {
        let two: Publishers.Map<Publishers.Zip<Just<Int>, Just<Int>>, Int> = Just(1).zip(Just(2)) { $0 + $1 }
        let three: Publishers.Zip3<Just<Int>, Just<String>, Just<Bool>> = Just(1).zip(Just("x"), Just(true))
        let threeMapped: Publishers.Map<Publishers.Zip3<Just<Int>, Just<Int>, Just<Int>>, Int> =
            Just(1).zip(Just(2), Just(3)) { $0 + $1 + $2 }
        let four: Publishers.Zip4<Just<Int>, Just<String>, Just<Bool>, Just<Double>> =
            Just(1).zip(Just("x"), Just(true), Just(0.5))
        let fourMapped: Publishers.Map<Publishers.Zip4<Just<Int>, Just<Int>, Just<Int>, Just<Int>>, Int> =
            Just(1).zip(Just(2), Just(3), Just(4)) { $0 + $1 + $2 + $3 }
        #expect(two.record().values == [3])
        #expect(three.record().values.map { "\($0.0)\($0.1)\($0.2)" } == ["1xtrue"])
        #expect(threeMapped.record().values == [6])
        #expect(four.record().values.map { "\($0.0)\($0.1)\($0.2)\($0.3)" } == ["1xtrue0.5"])
        #expect(fourMapped.record().events == [.value(10, at: .zero), .finished(at: .zero)])
        #expect(four.a.output == 1 && four.b.output == "x" && four.c.output && four.d.output == 0.5)
    }

    @Test func zipOfSequencesStopsAtTheShortest() {
        let three = (1...3).publisher.zip(["a", "b"].publisher, (10...20).publisher) { "\($0)\($1)\($2)" }.record()
        #expect(three.values == ["1a10", "2b11"])
        #expect(three.isFinished)
        let four = (1...5).publisher.zip((1...5).publisher, (1...2).publisher, (1...5).publisher) { $0 + $1 + $2 + $3 }
            .record()
        #expect(four.values == [4, 8])
        #expect(four.isFinished)
    }

    // MARK: Demand

    @Test func zipNForwardsTheDownstreamDemandToEverySource() {
        let probes = (0..<4).map { _ in CombiningProbe<Int, Never>() }
        let recorder = probes[0].zip(probes[1], probes[2], probes[3]) { $0 + $1 + $2 + $3 }.record(demand: .max(2))
        for probe in probes { #expect(probe.requests == [.max(2)]) }
        for probe in probes {
            for value in 1...3 { probe.send(value) }  // the third is beyond the demand: dropped by the subject
        }
        #expect(recorder.values == [4, 8])
        recorder.request(.max(1))
        for probe in probes { #expect(probe.requests == [.max(2), .max(1)]) }
        for probe in probes { probe.send(5) }
        #expect(recorder.values == [4, 8, 20])

        let three = (0..<3).map { _ in CombiningProbe<Int, Never>() }
        _ = three[0].zip(three[1], three[2]).record(demand: .none)
        for probe in three { #expect(probe.requests.isEmpty) }
    }

    @Test func aSubscriberAskingForOneGetsExactlyOne() {
        let four = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        (1...5).publisher.zip((1...5).publisher, (1...5).publisher, (1...5).publisher) { $0 + $1 + $2 + $3 }
            .subscribe(four)
        #expect(four.events == [.subscription, .value(4)])
        let three = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        (1...5).publisher.zip((1...5).publisher, (1...5).publisher) { $0 + $1 + $2 }.subscribe(three)
        #expect(three.events == [.subscription, .value(3)])
        four.request(.max(1))
        #expect(four.events == [.subscription, .value(4), .value(8)])
        four.request(.unlimited)
        #expect(four.events == [.subscription, .value(4), .value(8), .value(12), .value(16), .value(20), .finished])
    }

    @Test func demandReturnedFromReceiveIsForwardedToEverySource() {
        let probes = (0..<4).map { _ in CombiningProbe<Int, Never>() }
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1), perValue: .max(1))
        probes[0].zip(probes[1], probes[2], probes[3]) { $0 + $1 + $2 + $3 }.subscribe(subscriber)
        for probe in probes { probe.send(1) }
        for probe in probes { #expect(probe.requests == [.max(1), .max(1)]) }
        for probe in probes { probe.send(2) }
        #expect(subscriber.events == [.subscription, .value(4), .value(8)])
    }

    // MARK: Completion

    @Test func finishesWhenAFinishedSourceHasNothingLeftAndCancelsTheOthers() {
        let probes = (0..<4).map { _ in CombiningProbe<Int, Never>() }
        let recorder = probes[0].zip(probes[1], probes[2], probes[3]) { $0 + $1 + $2 + $3 }.record()
        for probe in probes { probe.send(1) }
        probes[1].send(2)
        probes[2].send(completion: .finished)
        #expect(recorder.events == [.value(4, at: .zero), .finished(at: .zero)])
        #expect(probes.map(\.cancelCount) == [1, 1, 0, 1])
        #expect(probes.map(\.liveCount) == [0, 0, 0, 0])

        let three = (0..<3).map { _ in CombiningProbe<Int, Never>() }
        let threeRecorder = three[0].zip(three[1], three[2]) { $0 + $1 + $2 }.record()
        three[2].send(completion: .finished)
        #expect(threeRecorder.events == [.finished(at: .zero)])
        #expect(three.map(\.cancelCount) == [1, 1, 0])
    }

    @Test func waitsForTheTuplesOfAFinishedSourcesBufferedValues() {
        let sources = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = sources[0].zip(sources[1], sources[2], sources[3]) { $0 + $1 + $2 + $3 }.record()
        sources[0].send(1)
        sources[0].send(2)
        sources[0].send(completion: .finished)
        #expect(recorder.completion == nil)
        for source in sources.dropFirst() { source.send(10) }
        #expect(recorder.events == [.value(31, at: .zero)])
        sources[1].send(20)
        sources[2].send(20)
        #expect(recorder.completion == nil)
        sources[3].send(20)
        #expect(recorder.events == [.value(31, at: .zero), .value(62, at: .zero), .finished(at: .zero)])
    }

    @Test func boundedDemandPacesEverySourceUntilTheShortestFinishes() {
        let recorder = (1...3).publisher.zip((1...2).publisher, (1...3).publisher) { $0 + $1 + $2 }
            .record(demand: .max(1))
        #expect(recorder.events == [.value(3, at: .zero)])
        recorder.request(.max(1))
        recorder.request(.max(1))
        #expect(recorder.events == [.value(3, at: .zero), .value(6, at: .zero), .finished(at: .zero)])
    }

    @Test func aFailureIsDeliveredAtOnceDroppingBufferedValuesAndCancelsTheOthers() {
        let probes = (0..<4).map { _ in CombiningProbe<Int, TestFailure>() }
        let recorder = probes[0].zip(probes[1], probes[2], probes[3]) { $0 + $1 + $2 + $3 }.record()
        for probe in probes { probe.send(1) }
        probes[0].send(2)
        probes[1].send(2)
        probes[2].send(2)
        probes[3].send(completion: .failure(.boom))
        #expect(probes.map(\.cancelCount) == [1, 1, 1, 0])
        probes[0].send(3)
        #expect(recorder.events == [.value(4, at: .zero), .failure(.boom, at: .zero)])

        let three = (0..<3).map { _ in CombiningProbe<Int, TestFailure>() }
        let threeRecorder = three[0].zip(three[1], three[2]) { $0 + $1 + $2 }.record()
        three[1].send(completion: .failure(.other))
        #expect(three.map(\.cancelCount) == [1, 0, 1])
        #expect(threeRecorder.events == [.failure(.other, at: .zero)])
    }

    // MARK: Cancellation and serial delivery

    @Test func cancelCancelsEverySourceReleasesTheSubscriptionAndDeliversNothingMore() {
        let probes = (0..<4).map { _ in CombiningProbe<Int, Never>() }
        let recorder = probes[0].zip(probes[1], probes[2], probes[3]) { $0 + $1 + $2 + $3 }.record()
        probes[0].send(1)
        weak let weakSubscription = recorder.subscription.map { $0 as AnyObject }
        recorder.cancel()
        recorder.cancel()
        for probe in probes.dropFirst() { probe.send(1) }
        #expect(probes.map(\.cancelCount) == [1, 1, 1, 1])
        #expect(recorder.events.isEmpty)
        #expect(weakSubscription == nil)
    }

    @Test func cancelReleasesTheBufferedValues() {
        let a = PassthroughSubject<Token, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let recorder = a.zip(b, c) { _, _, _ in 0 }.record()
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
        (1...3).publisher.zip((1...3).publisher, (1...3).publisher, (1...3).publisher) { $0 + $1 + $2 + $3 }
            .subscribe(inValue)
        #expect(inValue.events == [.subscription, .value(4)])
        let inSubscription = HandWrittenSubscriber<Int, Never>(initial: .unlimited, cancelOnSubscription: true)
        Just(1).zip(Just(2), Just(3)) { $0 + $1 + $2 }.subscribe(inSubscription)
        #expect(inSubscription.events == [.subscription])
        let lastValue = HandWrittenSubscriber<Int, Never>(initial: .unlimited, cancelOnValue: 1)
        Just(1).zip(Just(2), Just(3), Just(4)) { $0 + $1 + $2 + $3 }.subscribe(lastValue)
        #expect(lastValue.events == [.subscription, .value(10)])  // no `.finished` after the cancel
    }

    @Test func reentrantTuplesAreDeliveredSerially() {
        let sources = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        var received: [Int] = []
        var depth = 0
        var maxDepth = 0
        let cancellable = sources[0].zip(sources[1], sources[2]) { $0 + $1 + $2 }.sink { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            received.append(value)
            if value == 3 {
                for source in sources { source.send(2) }
            }
            depth -= 1
        }
        for source in sources { source.send(1) }
        #expect(received == [3, 6])
        #expect(maxDepth == 1)
        cancellable.cancel()
    }

    @Test func zip4PairsInOrderWhenSourcesSendFromFourThreads() {
        let sources = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let count = Atomic<Int>(0)
        let mismatches = Atomic<Int>(0)
        let cancellable = sources[0].zip(sources[1], sources[2], sources[3]).sink { tuple in
            if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            let expected = count.add(1, ordering: .relaxed).oldValue
            if tuple.0 != expected || tuple.1 != expected || tuple.2 != expected || tuple.3 != expected {
                mismatches.add(1, ordering: .relaxed)
            }
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for value in 0..<2_000 { sources[index].send(value) }
        }
        #expect(count.load(ordering: .relaxed) == 2_000)
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(mismatches.load(ordering: .relaxed) == 0)
        cancellable.cancel()
    }

    @Test func publishersAreEqualWhenTheirSourcesAre() {
        let empty = Empty<Int, Never>()
        let never = Empty<Int, Never>(completeImmediately: false)
        #expect(empty.zip(empty) == empty.zip(empty))
        #expect(empty.zip(empty) != empty.zip(never))
        #expect(empty.zip(empty, empty) == empty.zip(empty, empty))
        #expect(empty.zip(empty, empty) != never.zip(empty, empty))
        #expect(empty.zip(empty, empty, empty) == empty.zip(empty, empty, empty))
        #expect(empty.zip(empty, empty, empty) != empty.zip(empty, empty, never))
    }

    @Test func describesItsSubscription() {
        let recorder = Just(1).zip(Just(2), Just(3), Just(4)).record(demand: .none)
        #expect(recorder.subscription.map { String(describing: $0) } == "Zip")
    }
}

@Suite struct ZipNMarbleTests {
    @Test func zip3CombinesInOrderAndFinishesWhenAFinishedSourceIsExhausted() throws {
        let scheduler = TestScheduler()
        let letters = try scheduler.hot("-a-b-c----|")
        let digits = try scheduler.hot("--1---2|")
        let signs = try scheduler.hot("---s-----t--|")
        expectMarbles(
            letters.zip(digits, signs) { $0 + $1 + $2 }, "---x-----(y|)", values: ["x": "a1s", "y": "b2t"],
            on: scheduler)
        expectSubscriptions(letters, "^--------!")
        expectSubscriptions(signs, "^--------!")
    }

    @Test func zip4FailsAtOnceAndCancelsTheOtherSources() throws {
        let scheduler = TestScheduler()
        let a = try scheduler.hot("-a-b------|", error: TimingTestError.boom)
        let b = try scheduler.hot("-1-2------|", error: TimingTestError.boom)
        let c = try scheduler.hot("--s--#", error: TimingTestError.boom)
        let d = try scheduler.hot("--x-y-----|", error: TimingTestError.boom)
        expectMarbles(
            a.zip(b, c, d) { $0 + $1 + $2 + $3 }, "--p--#", values: ["p": "a1sx"], error: .boom, on: scheduler)
        expectSubscriptions(a, "^----!")
        expectSubscriptions(b, "^----!")
        expectSubscriptions(d, "^----!")
    }
}
