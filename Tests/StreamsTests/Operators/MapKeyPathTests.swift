import Streams
import StreamsTesting
import Testing

@Suite struct MapKeyPathTests {
    struct Roll: Equatable {
        let die1: Int
        let die2: Int
        let die3: Int
        var total: Int { die1 + die2 + die3 }
    }

    static let rolls = [Roll(die1: 1, die2: 2, die3: 3), Roll(die1: 4, die2: 5, die3: 6)]

    @Test func oneKeyPathPublishesItsValue() {
        let publisher: Publishers.MapKeyPath<Publishers.Sequence<[Roll], Never>, Int> =
            Self.rolls.publisher.map(\.total)
        let recorder = publisher.record()
        #expect(recorder.events == [.value(6, at: .zero), .value(15, at: .zero), .finished(at: .zero)])
    }

    @Test func twoKeyPathsPublishATuple() {
        let publisher: Publishers.MapKeyPath2<Publishers.Sequence<[Roll], Never>, Int, Int> =
            Self.rolls.publisher.map(\.die1, \.die2)
        var pairs: [[Int]] = []
        let cancellable = publisher.sink { pairs.append([$0.0, $0.1]) }
        #expect(pairs == [[1, 2], [4, 5]])
        cancellable.cancel()
    }

    @Test func threeKeyPathsPublishATuple() {
        let publisher: Publishers.MapKeyPath3<Publishers.Sequence<[Roll], Never>, Int, Int, Int> =
            Self.rolls.publisher.map(\.die1, \.die2, \.die3)
        var triples: [[Int]] = []
        let cancellable = publisher.sink { triples.append([$0.0, $0.1, $0.2]) }
        #expect(triples == [[1, 2, 3], [4, 5, 6]])
        cancellable.cancel()
    }

    @Test func theSubscriberGetsExactlyWhatItAskedFor() {
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        Self.rolls.publisher.map(\.die2).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(2)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(2), .value(5), .finished])
    }

    @Test func demandPassesStraightThrough() {
        let probe = SimpleProbe<Roll, Never>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1), perValue: .max(2))
        probe.map(\.die1).subscribe(subscriber)
        #expect(probe.requests == [.max(1)])
        #expect(probe.send(Self.rolls[0]) == .max(2))
    }

    @Test func failuresAreForwarded() {
        let subject = PassthroughSubject<Roll, ProbeError>()
        let recorder = subject.map(\.die3).record()
        subject.send(Self.rolls[1])
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value(6, at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func nothingArrivesAfterCancel() {
        let subject = PassthroughSubject<Roll, Never>()
        let recorder = subject.map(\.die1, \.die2).map { $0.0 + $0.1 }.record()
        subject.send(Self.rolls[0])
        recorder.cancel()
        subject.send(Self.rolls[1])
        subject.send(completion: .finished)
        #expect(recorder.values == [3])
        #expect(recorder.completion == nil)
    }
}
