import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// The subscriber list of the subjects' engine (`SubjectCore`): subscribers leave in O(1) (a tombstone, a
/// compaction once they are half of the list, each conduit told its new position), whatever the order they
/// leave in, and the others keep their subscription order and their demand.
@Suite struct SubjectCoreTests {
    /// A counter any thread may bump.
    final class Counter: Sendable {
        let count = Atomic<Int>(0)
    }

    /// A deterministic shuffle (a linear congruential generator), so a failure replays.
    static func shuffled(_ count: Int, seed: UInt64) -> [Int] {
        var indices = Array(0..<count)
        var state = seed
        for index in stride(from: count - 1, to: 0, by: -1) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            indices.swapAt(index, Int((state >> 33) % UInt64(index + 1)))
        }
        return indices
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func subscribersLeavingInAnyOrderLeaveTheOthersInSubscriptionOrder(seed: UInt64) {
        let subject = PassthroughSubject<Int, Never>()
        let log = Locked<[Int]>([])
        let count = 300
        var cancellables: [AnyCancellable?] = (0..<count).map { index in
            subject.sink { _ in log.withLock { $0.append(index) } }
        }
        var live = Set(0..<count)
        // Leave in rounds, sending between them: each round's survivors hear every value, in subscription order.
        for (round, index) in Self.shuffled(count, seed: seed).prefix(250).enumerated() {
            cancellables[index] = nil
            live.remove(index)
            if round % 25 == 24 {
                log.withLock { $0.removeAll() }
                subject.send(round)
                #expect(log.withLock { $0 } == live.sorted())
            }
        }
        // Newcomers join after the survivors.
        let newcomer = subject.sink { _ in log.withLock { $0.append(count) } }
        log.withLock { $0.removeAll() }
        subject.send(-1)
        #expect(log.withLock { $0 } == live.sorted() + [count])
        withExtendedLifetime((cancellables, newcomer)) {}
    }

    @Test func subscribersCancellingDuringADeliveryStopAtOnceAndLeaveAfterIt() {
        let subject = PassthroughSubject<Int, Never>()
        var recorders: [TestRecorder<Int, Never>] = []
        for _ in 0..<40 { recorders.append(subject.record()) }
        // A last subscriber cancels every even-numbered one while the first value is delivered.
        let canceller = subject.sink { value in
            guard value == 1 else { return }
            for (index, recorder) in recorders.enumerated() where index.isMultiple(of: 2) { recorder.cancel() }
        }
        subject.send(1)
        subject.send(2)
        for (index, recorder) in recorders.enumerated() {
            #expect(recorder.values == (index.isMultiple(of: 2) ? [1] : [1, 2]), "subscriber \(index)")
        }
        withExtendedLifetime(canceller) {}
    }

    @Test func aCurrentValueSubjectFindsEachSubscriberAfterTheListWasCompacted() {
        let subject = CurrentValueSubject<Int, Never>(7)
        let subscribers = (0..<100).map { _ in HandWrittenSubscriber<Int, Never>() }
        for subscriber in subscribers { subject.subscribe(subscriber) }
        // The first 60 leave: the list is compacted and the other 40 move.
        for subscriber in subscribers.prefix(60) { subscriber.cancel() }
        for subscriber in subscribers.suffix(40) { subscriber.request(.max(1)) }
        for subscriber in subscribers.suffix(40) { #expect(subscriber.events == [.subscription, .value(7)]) }
        for subscriber in subscribers.prefix(60) { #expect(subscriber.events == [.subscription]) }
        subject.send(8)
        for subscriber in subscribers.suffix(40) { subscriber.request(.max(1)) }
        for subscriber in subscribers.suffix(40) { #expect(subscriber.events == [.subscription, .value(7), .value(8)]) }
    }

    @Test func shareReplaySubscribersLeavingInAnyOrderLeaveTheOthersServed() {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share(replay: 1)
        var recorders: [TestRecorder<Int, Never>] = (0..<100).map { _ in shared.record() }
        subject.send(1)
        for index in Self.shuffled(100, seed: 9).prefix(70) { recorders[index].cancel() }
        let survivors = Set(Self.shuffled(100, seed: 9).suffix(30))
        subject.send(2)
        for (index, recorder) in recorders.enumerated() {
            #expect(recorder.values == (survivors.contains(index) ? [1, 2] : [1]), "subscriber \(index)")
        }
        recorders.removeAll()
    }

    @Test func manyThreadsLeavingWhileValuesFlowLoseNobodyAndDeliverToNoOneGone() {
        for round in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let count = 400
            let stayers = Set(Self.shuffled(count, seed: UInt64(round)).prefix(100))
            let received = (0..<count).map { _ in Counter() }
            let cancellables = (0..<count).map { index in
                subject.sink { _ in received[index].count.wrappingAdd(1, ordering: .relaxed) }
            }
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                if thread == 0 {
                    for value in 0..<200 { subject.send(value) }
                } else {
                    for index in stride(from: thread - 1, to: count, by: 3) where !stayers.contains(index) {
                        cancellables[index].cancel()
                    }
                }
            }
            let before = (0..<count).map { received[$0].count.load(ordering: .relaxed) }
            subject.send(1_000)
            for index in 0..<count {
                let after = received[index].count.load(ordering: .relaxed)
                if stayers.contains(index) {
                    #expect(after == 201, "subscriber \(index) in round \(round)")
                } else {
                    #expect(after == before[index], "subscriber \(index) in round \(round)")
                }
            }
            // The stayers' cancellables must live to here: an optimised build may release an array after its
            // last use, which would cancel them before the last send.
            withExtendedLifetime(cancellables) {}
        }
    }
}
