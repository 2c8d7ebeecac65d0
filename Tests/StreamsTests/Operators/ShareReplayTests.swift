import Streams
import StreamsTesting
import Testing

/// `share(replay:)`: a late subscriber gets the newest values kept, as its demand allows, then live ones.
/// `ShareError` and `SharedSource` live in `ShareTests.swift`.
@Suite struct ShareReplayTests {
    @Test func replayGivesANewSubscriberTheLatestValuesThenLiveOnes() {
        let source = SharedSource()
        let shared = source.publisher.share(replay: 2)
        let early = shared.record()
        source.latest.send(1)
        source.latest.send(2)
        source.latest.send(3)
        let late = shared.record()
        source.latest.send(4)
        #expect(early.values == [1, 2, 3, 4])
        #expect(late.values == [2, 3, 4])
        #expect(source.subscriptions == 1)
    }

    @Test func replayRespectsTheNewSubscribersDemand() {
        let source = SharedSource()
        let shared = source.publisher.share(replay: 3)
        let early = shared.record()
        source.latest.send(1)
        source.latest.send(2)
        source.latest.send(3)
        let late = shared.record(demand: .max(1))
        #expect(late.values == [1])
        source.latest.send(4)
        // 2, 3 and 4 wait for demand (the newest three kept).
        #expect(late.values == [1])
        late.request(.max(2))
        #expect(late.values == [1, 2, 3])
        late.request(.unlimited)
        #expect(late.values == [1, 2, 3, 4])
        source.latest.send(5)
        #expect(late.values == [1, 2, 3, 4, 5])
        #expect(early.values == [1, 2, 3, 4, 5])
    }

    @Test func valuesKeptForLackOfDemandAreTheNewestCount() {
        let source = SharedSource()
        let shared = source.publisher.share(replay: 2)
        let slow = shared.record(demand: .none)
        for value in 1...5 { source.latest.send(value) }
        slow.request(.unlimited)
        #expect(slow.values == [4, 5])
    }

    @Test func subscriberAfterCompletionGetsTheReplayThenTheCompletion() {
        let source = SharedSource()
        let shared = source.publisher.share(replay: 2)
        let early = shared.record()
        source.latest.send(1)
        source.latest.send(2)
        source.latest.send(3)
        source.latest.send(completion: .finished)
        let late = shared.record(demand: .max(1))
        #expect(late.events == [.value(2, at: .zero)])
        late.request(.max(1))
        #expect(late.events == [.value(2, at: .zero), .value(3, at: .zero), .finished(at: .zero)])
        #expect(early.isFinished)
        #expect(source.subscriptions == 1)
    }

    @Test func failureAfterReplayReachesALateSubscriber() {
        let source = SharedSource()
        let shared = source.publisher.share(replay: 1)
        let early = shared.record()
        source.latest.send(1)
        source.latest.send(completion: .failure(.boom))
        let late = shared.record()
        #expect(late.events == [.value(1, at: .zero), .failure(.boom, at: .zero)])
        #expect(early.failure == .boom)
    }

    @Test func reconnectingAfterEveryoneCancelledStartsWithAnEmptyReplay() {
        let source = SharedSource()
        let shared = source.publisher.share(replay: 2)
        let first = shared.record()
        source.latest.send(1)
        first.cancel()
        #expect(source.cancellations == 1)
        let second = shared.record()
        #expect(source.subscriptions == 2)
        #expect(second.values == [])
        source.latest.send(2)
        #expect(second.values == [2])
    }

    @Test func replaySubscribersAreServedInSubscriptionOrder() {
        let source = SharedSource()
        let shared = source.publisher.share(replay: 1)
        var log: [String] = []
        var bag: [AnyCancellable] = []
        for name in ["a", "b"] {
            shared.sink(receiveCompletion: { _ in }) { log.append("\(name)\($0)") }.store(in: &bag)
        }
        source.latest.send(1)
        source.latest.send(2)
        #expect(log == ["a1", "b1", "a2", "b2"])
    }

    @Test func replayZeroBehavesAsShare() {
        let source = SharedSource()
        let shared = source.publisher.share(replay: 0)
        let early = shared.record()
        let picky = shared.record(demand: .none)
        source.latest.send(1)
        let late = shared.record()
        source.latest.send(2)
        picky.request(.unlimited)
        #expect(early.values == [1, 2])
        #expect(late.values == [2])
        #expect(picky.values == [])
        #expect(shared.count == 0)
    }

    @Test func replayValueSentReentrantlyIsNotLostOrReordered() {
        let source = SharedSource()
        let shared = source.publisher.share(replay: 1)
        var log: [Int] = []
        let c = shared.sink(
            receiveCompletion: { _ in },
            receiveValue: { value in
                log.append(value)
                if value == 1 {
                    source.latest.send(2)
                    source.latest.send(3)
                }
            })
        source.latest.send(1)
        #expect(log == [1, 2, 3])
        c.cancel()
    }

    @Test func cancelledReplaySubscriberReceivesNothingMore() {
        let source = SharedSource()
        let shared = source.publisher.share(replay: 2)
        let keeper = shared.record()
        source.latest.send(1)
        let leaver = shared.record(demand: .none)
        leaver.cancel()
        leaver.request(.unlimited)
        source.latest.send(2)
        source.latest.send(completion: .finished)
        #expect(leaver.events.isEmpty)
        #expect(keeper.values == [1, 2])
        #expect(source.cancellations == 0)
    }

    @Test func replayedValuesAreNotDroppedWhenValuesArriveWhileTheBacklogDrains() {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share(replay: 2)
        let first = shared.sink { _ in }
        subject.send(1)
        subject.send(2)
        let received = Locked([Int]())
        let late = shared.sink { value in
            received.withLock { $0.append(value) }
            if value == 1 {
                subject.send(3)
                subject.send(4)
            }
        }
        #expect(received.withLock { $0 } == [1, 2, 3, 4])
        _ = (first, late)
    }
}
