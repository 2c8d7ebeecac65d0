import Dispatch
import Observation
import Streams
import StreamsTesting
import Testing

/// A model for `Observed`'s tests. `@unchecked Sendable`: each test confines it to one thread or queue (the
/// test's own, or the serial queue it mutates it on), which is also the `Observed` scheduler's context.
@Observable final class ObservedSearchModel: @unchecked Sendable {
    var query = ""
    var page = 1
    var count = 0
}

/// A model isolated to the main actor, for `Observed { … }` without a scheduler.
@MainActor @Observable final class ObservedEditorModel {
    var text = ""
}

/// Values a sink received, readable from the test.
final class ObservedValues<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])
    var all: [Value] { values.withLock { $0 } }
    func append(_ value: Value) { values.withLock { $0.append(value) } }
}

@Suite struct ObservedTests {
    @Test func deliversTheCurrentValueOnSubscription() {
        let scheduler = TestScheduler()
        let model = ObservedSearchModel()
        model.query = "swift"
        let values = ObservedValues<String>()
        let c = Observed(on: scheduler) { model.query }.sink { values.append($0) }
        #expect(values.all == ["swift"])
        #expect(scheduler.pendingCount == 0)
        withExtendedLifetime(c) {}
    }

    @Test func deliversEachChangeOnceWithTheValueAfterIt() {
        let scheduler = TestScheduler()
        let model = ObservedSearchModel()
        let values = ObservedValues<String>()
        let c = Observed(on: scheduler) { model.query }.sink { values.append($0) }
        model.query = "a"
        #expect(values.all == [""], "the re-read waits for the scheduler: onChange fires on willSet")
        #expect(scheduler.pendingCount == 1)
        scheduler.advance()
        #expect(values.all == ["", "a"])
        model.query = "b"
        scheduler.advance()
        model.query = "c"
        scheduler.advance()
        scheduler.advance()
        #expect(values.all == ["", "a", "b", "c"])
        #expect(scheduler.pendingCount == 0)
        withExtendedLifetime(c) {}
    }

    @Test func changesInOneTurnGiveOneValueReadAfterAll() {
        let scheduler = TestScheduler()
        let model = ObservedSearchModel()
        let values = ObservedValues<String>()
        let c = Observed(on: scheduler) { model.query }.sink { values.append($0) }
        model.query = "s"
        model.query = "sw"
        model.query = "swift"
        #expect(scheduler.pendingCount == 1)
        scheduler.advance()
        #expect(values.all == ["", "swift"])
        withExtendedLifetime(c) {}
    }

    @Test func tracksEveryPropertyTheClosureReads() {
        let scheduler = TestScheduler()
        let model = ObservedSearchModel()
        let values = ObservedValues<String>()
        let c = Observed(on: scheduler) { "\(model.query)#\(model.page)" }.sink { values.append($0) }
        model.page = 2
        scheduler.advance()
        model.query = "swift"
        scheduler.advance()
        model.query = "linux"
        model.page = 3
        scheduler.advance()
        model.count = 99  // not read by the closure: no value
        scheduler.advance()
        #expect(values.all == ["#1", "#2", "swift#2", "linux#3"])
        #expect(scheduler.pendingCount == 0)
        withExtendedLifetime(c) {}
    }

    @Test func deliversNothingWithoutDemand() {
        let scheduler = TestScheduler()
        let model = ObservedSearchModel()
        let subscriber = HandWrittenSubscriber<String, Never>()
        Observed(on: scheduler) { model.query }.subscribe(subscriber)
        model.query = "a"
        scheduler.advance()
        #expect(subscriber.events == [.subscription])
        subscriber.cancel()
    }

    @Test func aRequestAfterTwoChangesDeliversOnlyTheNewest() {
        let scheduler = TestScheduler()
        let model = ObservedSearchModel()
        let subscriber = HandWrittenSubscriber<String, Never>()
        Observed(on: scheduler) { model.query }.subscribe(subscriber)
        model.query = "a"
        scheduler.advance()
        model.query = "b"
        scheduler.advance()
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value("b")])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value("b")], "nothing new to deliver")
        model.query = "c"
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value("b"), .value("c")])
        subscriber.cancel()
    }

    @Test func demandOfOneTakesTheCurrentValueAndKeepsTheNewestChange() {
        let scheduler = TestScheduler()
        let model = ObservedSearchModel()
        let subscriber = HandWrittenSubscriber<String, Never>(initial: .max(1))
        Observed(on: scheduler) { model.query }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value("")])
        model.query = "a"
        scheduler.advance()
        model.query = "b"
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value("")])
        subscriber.request(.max(5))
        #expect(subscriber.events == [.subscription, .value(""), .value("b")])
        subscriber.cancel()
    }

    @Test func aRequestFromInsideReceiveIsServedAfterItReturns() {
        let scheduler = TestScheduler()
        let model = ObservedSearchModel()
        let subscriber = HandWrittenSubscriber<String, Never>(initial: .max(1), perValue: .max(1))
        Observed(on: scheduler) { model.query }.subscribe(subscriber)
        model.query = "a"
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value(""), .value("a")])
        subscriber.cancel()
    }

    @Test func cancelStopsTrackingAndReleasesTheModel() {
        let scheduler = TestScheduler()
        let values = ObservedValues<String>()
        weak var weakModel: ObservedSearchModel?
        var cancellable: AnyCancellable?
        do {
            let model = ObservedSearchModel()
            weakModel = model
            cancellable = Observed(on: scheduler) { model.query }.sink { values.append($0) }
            model.query = "a"
            scheduler.advance()
            model.query = "b"  // a re-read is scheduled, then cancelled before it runs
            cancellable?.cancel()
            scheduler.advance()
            model.query = "c"
            scheduler.advance()
            #expect(scheduler.pendingCount == 0)
        }
        #expect(values.all == ["", "a"])
        #expect(weakModel == nil, "nothing retains the model after cancel")
        withExtendedLifetime(cancellable) {}
    }

    @Test func cancelInsideReceiveSubscriptionNeverReadsTheModel() {
        let scheduler = TestScheduler()
        let reads = ObservedValues<Int>()
        let model = ObservedSearchModel()
        let subscriber = HandWrittenSubscriber<String, Never>(initial: .unlimited, cancelOnSubscription: true)
        Observed(on: scheduler) {
            reads.append(1)
            return model.query
        }.subscribe(subscriber)
        model.query = "a"
        scheduler.advance()
        #expect(reads.all.isEmpty)
        #expect(subscriber.events == [.subscription])
    }

    @Test func changesOnAnotherThreadAreDeliveredSeriallyInOrder() async {
        let queue = DispatchQueue(label: "ObservedTests.model")
        let model = ObservedSearchModel()
        let events = AwaitableEvents<Int>()
        let overlap = Locked((running: 0, most: 0))
        let subscribed = AwaitableEvents<AnyCancellable>()
        // Subscribed on the model's queue, which then makes every change.
        queue.async {
            let c = Observed(on: queue) { model.count }.sink { value in
                overlap.withLock {
                    $0.running += 1
                    $0.most = max($0.most, $0.running)
                }
                events.send(value)
                overlap.withLock { $0.running -= 1 }
            }
            subscribed.send(c)
        }
        let cancellable = await subscribed.next()
        for _ in 1...200 { queue.async { model.count += 1 } }
        let received = await events.collect { $0 == 200 }
        #expect(received?.first == 0)
        #expect(received?.last == 200)
        if let received {
            #expect(zip(received, received.dropFirst()).allSatisfy { $0 < $1 }, "each value read after a change")
        }
        #expect(overlap.withLock { $0.most } == 1)
        cancellable?.cancel()
    }

    @Test func requestsRacingChangesDeliverSeriallyAndEndWithTheNewest() async {
        let queue = DispatchQueue(label: "ObservedTests.racing")
        let model = ObservedSearchModel()
        let subscriber = HandWrittenSubscriber<Int, Never>()
        let subscribed = AwaitableEvents<Void>()
        queue.async {
            Observed(on: queue) { model.count }.subscribe(subscriber)
            subscribed.send(())
        }
        _ = await subscribed.next()
        let done = AwaitableEvents<Void>()
        for index in 1...100 {
            queue.async { model.count = index }
            subscriber.request(.max(1))
        }
        queue.async { done.send(()) }
        _ = await done.next()
        subscriber.request(.unlimited)
        // The last re-read runs after `done` was sent; wait for it on the queue.
        let settled = AwaitableEvents<Void>()
        queue.async { settled.send(()) }
        _ = await settled.next()
        let values = subscriber.events.compactMap { event -> Int? in
            if case .value(let value) = event { return value }
            return nil
        }
        #expect(values.last == 100)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
        subscriber.cancel()
    }

    @MainActor
    @Test func aMainActorModelIsReadAndDeliveredOnTheMainActor() async {
        let model = ObservedEditorModel()
        model.text = "ab"
        let events = AwaitableEvents<Int>()
        let c = Observed { model.text.count }.sink { events.send($0) }
        #expect(await events.next() == 2)
        model.text = "abcd"
        #expect(await events.next() == 4)
        model.text = "a"
        #expect(await events.next() == 1)
        c.cancel()
    }
}
