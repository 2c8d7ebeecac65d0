import Streams
import StreamsTesting
import Testing

@Suite struct CombineLatestTests {
    @Test func combineLatestEmitsOnceBothHaveEmittedThenOnEveryValue() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        let recorder = a.combineLatest(b) { "\($0)\($1)" }.record()
        a.send(1)
        a.send(2)
        #expect(recorder.values.isEmpty)
        b.send("x")
        a.send(3)
        b.send("y")
        #expect(recorder.values == ["2x", "3x", "3y"])
    }

    @Test func combineLatestTupleFormPublishesTuples() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        let recorder = a.combineLatest(b).record()
        a.send(1)
        b.send("x")
        #expect(recorder.values.map { "\($0.0)\($0.1)" } == ["1x"])
    }

    @Test func combineLatestFinishesWhenAllHaveFinished() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = a.combineLatest(b, +).record()
        a.send(1)
        b.send(10)
        a.send(completion: .finished)
        b.send(20)  // the finished side's latest value still combines
        #expect(recorder.completion == nil)
        b.send(completion: .finished)
        #expect(recorder.events == [.value(11, at: .zero), .value(21, at: .zero), .finished(at: .zero)])
    }

    @Test func combineLatestFinishesAtOnceWhenASideFinishesWithoutEverEmitting() {
        let a = CombiningProbe<Int, Never>()
        let b = CombiningProbe<Int, Never>()
        let recorder = a.combineLatest(b, +).record()
        a.send(1)
        b.send(completion: .finished)
        #expect(recorder.events == [.finished(at: .zero)])
        #expect(a.cancelCount == 1)
    }

    @Test func combineLatestFailsAtOnceAndCancelsTheOthers() {
        let a = CombiningProbe<Int, TestFailure>()
        let b = CombiningProbe<Int, TestFailure>()
        let recorder = a.combineLatest(b, +).record()
        a.send(1)
        b.send(1)
        a.send(completion: .failure(.boom))
        #expect(b.cancelCount == 1)
        b.send(2)
        b.send(completion: .failure(.other))
        #expect(recorder.events == [.value(2, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func combineLatestAsksSourcesForUnlimited() {
        let a = CombiningProbe<Int, Never>()
        let b = CombiningProbe<Int, Never>()
        _ = a.combineLatest(b, +).record(demand: .max(1))
        #expect(a.requests == [.unlimited])
        #expect(b.requests == [.unlimited])
    }

    @Test func combineLatestWithoutDemandKeepsOnlyTheNewestCombination() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = a.combineLatest(b) { $0 * 10 + $1 }.record(demand: .max(1))
        a.send(1)
        b.send(1)  // 11 delivered; demand used up
        a.send(2)
        b.send(2)
        a.send(3)
        #expect(recorder.values == [11])
        recorder.request(.max(5))
        #expect(recorder.values == [11, 32])
        b.send(4)
        #expect(recorder.values == [11, 32, 34])
    }

    @Test func combineLatestDeliversAKeptCombinationBeforeFinishing() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = a.combineLatest(b, +).record(demand: .none)
        a.send(1)
        b.send(2)
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.value(3, at: .zero), .finished(at: .zero)])
    }

    @Test func combineLatestDeliversEveryReentrantCombinationSerially() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var depth = 0
        var maxDepth = 0
        let cancellable = a.combineLatest(b) { $0 * 10 + $1 }.sink { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            received.append(value)
            if value == 11 {
                a.send(2)
                b.send(2)
            }
            depth -= 1
        }
        a.send(1)
        b.send(1)
        #expect(received == [11, 21, 22])
        #expect(maxDepth == 1)
        cancellable.cancel()
    }

    /// Combinations formed while the downstream is being served (here by sends from inside its delivery, which
    /// `handleEvents` makes just before passing the value on) are owed in order, as many as the demand left covers;
    /// past that only the newest is kept. (A subject serialises its own sends: `b.send` from inside a delivery of
    /// `b`'s is delivered once that one returns; `a`'s go at once.)
    @Test func combineLatestQueuesReentrantCombinationsInOrderUpToTheDemandLeft() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(6))
        a.combineLatest(b) { $0 * 10 + $1 }
            .handleEvents(receiveOutput: { value in
                guard value == 11 else { return }
                a.send(2)  // 21, 31, 41: owed at once, three of the five left
                a.send(3)
                a.send(4)
                b.send(2)  // 42, once this delivery has returned
            })
            .subscribe(subscriber)
        a.send(1)
        b.send(1)
        #expect(subscriber.values == [11, 21, 31, 41, 42])
        b.send(5)
        #expect(subscriber.values == [11, 21, 31, 41, 42, 45])
        b.send(6)  // the demand is used up: kept, not delivered
        #expect(subscriber.values == [11, 21, 31, 41, 42, 45])
        subscriber.request(.max(1))
        #expect(subscriber.values == [11, 21, 31, 41, 42, 45, 46])
    }

    @Test func combineLatestKeepsOnlyTheNewestReentrantCombinationPastTheDemandLeft() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(3))
        a.combineLatest(b) { $0 * 10 + $1 }
            .handleEvents(receiveOutput: { value in
                guard value == 11 else { return }
                a.send(2)  // 21: owed (2 left)
                a.send(3)  // 31: owed (the last one left)
                a.send(4)  // 41: past the demand, kept as the newest
                b.send(2)  // 42, once this delivery has returned: replaces it
            })
            .subscribe(subscriber)
        a.send(1)
        b.send(1)
        #expect(subscriber.values == [11, 21, 31])
        subscriber.request(.max(2))
        #expect(subscriber.values == [11, 21, 31, 42])
        b.send(5)
        #expect(subscriber.values == [11, 21, 31, 42, 45])
        subscriber.cancel()
    }

    @Test func combineLatestOfThreeWaitsForAllThree() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let recorder = a.combineLatest(b, c) { $0 * 100 + $1 * 10 + $2 }.record()
        let tuples = a.combineLatest(b, c).record()
        a.send(1)
        b.send(2)
        #expect(recorder.values.isEmpty)
        c.send(3)
        b.send(4)
        #expect(recorder.values == [123, 143])
        #expect(tuples.values.map { [$0.0, $0.1, $0.2] } == [[1, 2, 3], [1, 4, 3]])
    }

    @Test func combineLatestOfSequencesUsesTheLastValueOfTheFirst() {
        let recorder = [1, 2].publisher.combineLatest([10, 20].publisher, +).record()
        #expect(recorder.values == [12, 22])
        #expect(recorder.isFinished)
    }

    @Test func combineLatestCancelCancelsTheSourcesAndDeliversNothingMore() {
        let a = CombiningProbe<Int, Never>()
        let b = CombiningProbe<Int, Never>()
        let recorder = a.combineLatest(b, +).record()
        a.send(1)
        b.send(1)
        weak let weakSubscription = recorder.subscription.map { $0 as AnyObject }
        recorder.cancel()
        recorder.cancel()
        a.send(2)
        #expect(a.cancelCount == 1)
        #expect(b.cancelCount == 1)
        #expect(recorder.values == [2])
        #expect(weakSubscription == nil)
    }
}
