import Streams
import StreamsTesting
import Testing

@Suite struct ZipTests {
    @Test func zipPairsValuesInOrderBufferingTheFasterSide() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        let recorder = a.zip(b) { "\($0)\($1)" }.record()
        a.send(1)
        a.send(2)
        a.send(3)
        #expect(recorder.values.isEmpty)
        b.send("x")
        b.send("y")
        #expect(recorder.values == ["1x", "2y"])
        b.send("z")
        b.send("w")
        a.send(4)
        #expect(recorder.values == ["1x", "2y", "3z", "4w"])
    }

    @Test func zipTupleFormPublishesTuples() {
        let recorder = [1, 2, 3].publisher.zip(["a", "b"].publisher).record()
        #expect(recorder.values.map { "\($0.0)\($0.1)" } == ["1a", "2b"])
        #expect(recorder.isFinished)
    }

    @Test func zipFinishesWhenAFinishedSideHasNothingLeftAndCancelsTheOther() {
        let a = CombiningProbe<Int, Never>()
        let b = CombiningProbe<Int, Never>()
        let recorder = a.zip(b, +).record()
        a.send(1)
        b.send(10)
        a.send(completion: .finished)
        #expect(recorder.events == [.value(11, at: .zero), .finished(at: .zero)])
        #expect(b.cancelCount == 1)
    }

    @Test func zipWaitsForPairsOfAFinishedSidesBufferedValues() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = a.zip(b, +).record()
        a.send(1)
        a.send(2)
        a.send(completion: .finished)
        #expect(recorder.completion == nil)
        b.send(10)
        #expect(recorder.completion == nil)
        b.send(20)
        #expect(recorder.events == [.value(11, at: .zero), .value(22, at: .zero), .finished(at: .zero)])
    }

    @Test func zipFailsAtOnceDroppingBufferedValues() {
        let a = CombiningProbe<Int, TestFailure>()
        let b = CombiningProbe<Int, TestFailure>()
        let recorder = a.zip(b, +).record()
        a.send(1)
        a.send(2)
        b.send(10)
        b.send(completion: .failure(.boom))
        #expect(a.cancelCount == 1)
        a.send(3)
        #expect(recorder.events == [.value(11, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func zipForwardsTheDownstreamDemandToEachSource() {
        let a = CombiningProbe<Int, Never>()
        let b = CombiningProbe<Int, Never>()
        let recorder = a.zip(b, +).record(demand: .max(2))
        #expect(a.requests == [.max(2)])
        #expect(b.requests == [.max(2)])
        for value in 1...3 { a.send(value) }  // the third is beyond the demand: dropped by the subject
        b.send(10)
        b.send(20)
        #expect(recorder.values == [11, 22])
        recorder.request(.max(1))
        #expect(a.requests == [.max(2), .max(1)])
        a.send(4)
        b.send(40)
        #expect(recorder.values == [11, 22, 44])
    }

    @Test func zipNeverExceedsDemandWithSynchronousSources() {
        let recorder = (1...5).publisher.zip((1...5).publisher, +).record(demand: .max(2))
        #expect(recorder.values == [2, 4])
        recorder.request(.max(3))
        #expect(recorder.values == [2, 4, 6, 8, 10])
        #expect(recorder.isFinished)
    }

    @Test func zipDeliversReentrantPairsSerially() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var depth = 0
        var maxDepth = 0
        let cancellable = a.zip(b, +).sink { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            received.append(value)
            if value == 2 {
                a.send(2)
                b.send(2)
            }
            depth -= 1
        }
        a.send(1)
        b.send(1)
        #expect(received == [2, 4])
        #expect(maxDepth == 1)
        cancellable.cancel()
    }

    @Test func zipOfThreeCombinesTheNthValues() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let recorder = a.zip(b, c) { $0 * 100 + $1 * 10 + $2 }.record()
        let tuples = a.zip(b, c).record()
        a.send(1)
        b.send(2)
        a.send(4)
        #expect(recorder.values.isEmpty)
        c.send(3)
        #expect(recorder.values == [123])
        #expect(tuples.values.map { [$0.0, $0.1, $0.2] } == [[1, 2, 3]])
        c.send(completion: .finished)
        #expect(recorder.isFinished)
    }

    @Test func zipCancelCancelsTheSourcesAndReleasesTheSubscription() {
        let a = CombiningProbe<Int, Never>()
        let b = CombiningProbe<Int, Never>()
        let recorder = a.zip(b, +).record()
        a.send(1)
        weak let weakSubscription = recorder.subscription.map { $0 as AnyObject }
        recorder.cancel()
        recorder.cancel()
        b.send(1)
        #expect(a.cancelCount == 1)
        #expect(b.cancelCount == 1)
        #expect(recorder.events.isEmpty)
        #expect(weakSubscription == nil)
    }
}
