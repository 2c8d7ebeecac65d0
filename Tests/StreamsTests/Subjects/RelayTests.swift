import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct PassthroughRelayTests {
    @Test func acceptedValuesReachCurrentSubscribersAtTheirTime() {
        let scheduler = TestScheduler()
        let relay = PassthroughRelay<Int>()
        relay.accept(0)  // nobody listens yet
        let recorder = relay.record(on: scheduler)
        for (frame, value) in [(1, 1), (3, 2), (4, 3)] {
            scheduler.schedule(afterDelay: scheduler.frames(frame)) { relay.accept(value) }
        }
        scheduler.run()
        #expect(
            recorder.events == [
                .value(1, at: .milliseconds(1)), .value(2, at: .milliseconds(3)), .value(3, at: .milliseconds(4)),
            ])
        #expect(recorder.completion == nil)
    }

    /// Hand-written demand: a value accepted without demand is dropped for that subscriber, as with a subject.
    @Test func demandOneAtATime() {
        let relay = PassthroughRelay<Int>()
        let subscriber = HandWrittenSubscriber<Int, Never>()
        relay.subscribe(subscriber)
        relay.accept(1)
        subscriber.request(.max(1))
        relay.accept(2)
        relay.accept(3)
        subscriber.request(.max(1))
        relay.accept(4)
        #expect(subscriber.events == [.subscription, .value(2), .value(4)])
    }

    @Test func voidRelayAcceptsWithoutArgument() {
        let relay = PassthroughRelay<Void>()
        let recorder = relay.record()
        relay.accept()
        relay.accept()
        #expect(recorder.values.count == 2)
    }

    @Test func aFeedingPublishersCompletionIsIgnored() {
        let relay = PassthroughRelay<Int>()
        let recorder = relay.record()
        let link = relay.subscribe([1, 2].publisher)
        relay.accept(3)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.completion == nil)
        _ = link
    }

    @Test func publisherSubscribeRelayFeedsTheRelay() {
        let relay = PassthroughRelay<Int>()
        let recorder = relay.record()
        let link = Just(7).subscribe(relay)
        relay.accept(8)
        #expect(recorder.values == [7, 8])
        _ = link
    }

    @Test func aRelayFeedsAnotherRelay() {
        let source = PassthroughRelay<Int>()
        let target = PassthroughRelay<Int>()
        let recorder = target.record()
        let link = target.subscribe(source)  // `source`'s values go into `target`
        source.accept(1)
        #expect(recorder.values == [1])
        _ = link
    }

    @Test func cancellingTheFeedStopsIt() {
        let upstream = PassthroughSubject<Int, Never>()
        let relay = PassthroughRelay<Int>()
        let recorder = relay.record()
        let link = relay.subscribe(upstream)
        upstream.send(1)
        link.cancel()
        upstream.send(2)
        relay.accept(3)
        #expect(recorder.values == [1, 3])
    }

    @Test func nothingIsDeliveredAfterCancel() {
        let relay = PassthroughRelay<Int>()
        let recorder = relay.record()
        relay.accept(1)
        recorder.cancel()
        relay.accept(2)
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
    }

    @Test func deallocatingTheRelayFinishesItsSubscribers() {
        var relay: PassthroughRelay<Int>? = PassthroughRelay()
        let recorder = relay!.record()
        relay?.accept(1)
        relay = nil
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func concurrentAcceptsAreSerialized() {
        let relay = PassthroughRelay<Int>()
        let inside = Locked(0)
        let overlaps = Locked(0)
        let received = Locked<[Int]>([])
        let sink = relay.sink { value in
            if inside.withLock({ count -> Int in
                count += 1
                return count
            }) > 1 { overlaps.withLock { $0 += 1 } }
            received.withLock { $0.append(value) }
            inside.withLock { $0 -= 1 }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<500 { relay.accept(thread * 500 + index) }
        }
        let values = received.withLock { $0 }
        #expect(values.count == 2000)
        #expect(overlaps.withLock { $0 } == 0)
        for thread in 0..<4 {
            #expect(values.filter { $0 / 500 == thread } == Array(thread * 500..<(thread + 1) * 500))
        }
        _ = sink
    }

    @Test func nothingLeaksAfterCancel() {
        let relay = PassthroughRelay<Int>()
        let upstream = PassthroughSubject<Int, Never>()
        expectNoLeaks { tracker in
            let token = tracker.token("map transform")
            let recorder = tracker.record(relay.map { token($0) })
            let link = tracker.watch(relay.subscribe(upstream))
            upstream.send(1)
            recorder.cancel()
            link.cancel()
            #expect(recorder.values == [1])
        }
        withExtendedLifetime((relay, upstream)) {}
    }

    @Test func nothingLeaksAfterTheRelayFinishes() {
        expectNoLeaks { tracker in
            let relay = tracker.watch(PassthroughRelay<Int>())
            let token = tracker.token("map transform")
            let recorder = tracker.record(relay.map { token($0) })
            let link = tracker.watch(relay.subscribe([1].publisher))  // finishes at once: the feed lets go
            #expect(recorder.values == [1])
            _ = link
        }
    }
}

@Suite struct CurrentValueRelayTests {
    @Test func aSubscriberGetsTheCurrentValueFirst() {
        let scheduler = TestScheduler()
        let relay = CurrentValueRelay(1)
        #expect(relay.value == 1)
        relay.accept(2)
        #expect(relay.value == 2)
        let recorder = relay.record(on: scheduler)
        scheduler.schedule(afterDelay: scheduler.frames(2)) { relay.accept(3) }
        scheduler.run()
        #expect(recorder.events == [.value(2, at: .zero), .value(3, at: .milliseconds(2))])
        #expect(relay.value == 3)
    }

    /// Hand-written demand: without demand only the newest value is kept, and delivered on the next request.
    @Test func demandOneAtATime() {
        let relay = CurrentValueRelay(0)
        let subscriber = HandWrittenSubscriber<Int, Never>()
        relay.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(0)])
        relay.accept(1)
        relay.accept(2)
        #expect(subscriber.events == [.subscription, .value(0)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(0), .value(2)])
        subscriber.request(.max(1))
        relay.accept(3)
        relay.accept(4)
        #expect(subscriber.events == [.subscription, .value(0), .value(2), .value(3)])
    }

    @Test func aFeedingPublishersValuesBecomeTheValueAndItsCompletionIsIgnored() {
        let relay = CurrentValueRelay(0)
        let recorder = relay.record()
        let link = relay.subscribe([1, 2].publisher)
        #expect(relay.value == 2)
        relay.accept(3)
        #expect(recorder.values == [0, 1, 2, 3])
        #expect(recorder.completion == nil)
        _ = link
    }

    @Test func aRelayTypedAsTheProtocolAccepts() {
        let relay: any Relay<Int> = CurrentValueRelay(0)
        relay.accept(5)
        #expect((relay as? CurrentValueRelay<Int>)?.value == 5)
    }

    @Test func nothingIsDeliveredAfterCancel() {
        let relay = CurrentValueRelay(0)
        let recorder = relay.record(demand: .none)
        recorder.cancel()
        recorder.request(.unlimited)
        relay.accept(1)
        #expect(recorder.events.isEmpty)
    }

    @Test func deallocatingTheRelayFinishesItsSubscribers() {
        var relay: CurrentValueRelay<Int>? = CurrentValueRelay(1)
        let recorder = relay!.record()
        relay = nil
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func concurrentAcceptsAreSerialized() {
        let relay = CurrentValueRelay(-1)
        let received = Locked<[Int]>([])
        let sink = relay.sink { value in received.withLock { $0.append(value) } }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<500 { relay.accept(thread * 500 + index) }
        }
        let values = received.withLock { $0 }
        #expect(values.count == 2001)
        #expect(values.last == relay.value)
        for thread in 0..<4 {
            #expect(values.filter { $0 >= 0 && $0 / 500 == thread } == Array(thread * 500..<(thread + 1) * 500))
        }
        _ = sink
    }

    @Test func nothingLeaksAfterCancel() {
        let relay = CurrentValueRelay(0)
        expectNoLeaks { tracker in
            let token = tracker.token("map transform")
            let recorder = tracker.record(relay.map { token($0) })
            relay.accept(1)
            recorder.cancel()
            #expect(recorder.values == [0, 1])
        }
        withExtendedLifetime(relay) {}
    }

    @Test func nothingLeaksAfterTheRelayFinishes() {
        expectNoLeaks { tracker in
            let relay = tracker.watch(CurrentValueRelay(0))
            let token = tracker.token("map transform")
            let recorder = tracker.record(relay.map { token($0) }, demand: .none)
            relay.accept(1)
            _ = recorder
        }
    }

    @Test func valuesAcceptedFromInsideReceiveSubscriptionReachTheSubscriberAfterTheCall() {
        let relay = PassthroughRelay<Int>()
        let subscriber = HandshakeSubscriber<Int, Never>(initial: .unlimited) { relay.accept(5) }
        relay.subscribe(subscriber)
        relay.accept(7)
        #expect(subscriber.events == ["subscription", "value(5)", "value(7)"])
        let current = CurrentValueRelay<Int>(0)
        let second = HandshakeSubscriber<Int, Never>(initial: .unlimited) { current.accept(5) }
        current.subscribe(second)
        #expect(second.events == ["subscription", "value(0)", "value(5)"])
    }
}
