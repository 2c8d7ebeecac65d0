import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct CurrentValueSubjectTests {
    @Test func newSubscribersGetTheCurrentValueFirst() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let first = subject.record()
        subject.send(2)
        let second = subject.record()
        subject.value = 3
        #expect(first.values == [1, 2, 3])
        #expect(second.values == [2, 3])
        #expect(subject.value == 3)
    }

    @Test func theCurrentValueWaitsForDemandAndOnlyTheNewestIsKept() {
        let subject = CurrentValueSubject<String, Never>("a")
        let recorder = subject.record(demand: .none)
        subject.send("b")
        subject.send("c")
        #expect(recorder.values.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.values == ["c"])
        subject.send("d")
        recorder.request(.max(1))
        #expect(recorder.values == ["c", "d"])
    }

    @Test func aSubscriberAttachedWhileSendsAreQueuedStartsFromTheNewestValue() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let late = Locked<TestRecorder<Int, Never>?>(nil)
        let c = subject.sink { value in
            guard value == 1 else { return }
            subject.send(2)
            subject.send(3)
            late.withLock { $0 = subject.record() }
        }
        subject.send(1)
        subject.send(4)
        // As in Combine: the current value (3) first, never the queued older 2, then later values.
        #expect(late.withLock { $0 }?.values == [3, 4])
        #expect(subject.value == 4)
        c.cancel()
    }

    @Test func optionalOutputsKeepNilAsAValue() {
        let subject = CurrentValueSubject<Int?, Never>(nil)
        let recorder = subject.record()
        subject.send(1)
        subject.send(nil)
        #expect(recorder.values == [nil, 1, nil])
        #expect(subject.value == nil)
    }

    @Test func valueStaysReadableAfterCompletionAndSendsAreIgnored() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let recorder = subject.record()
        subject.send(completion: .finished)
        subject.send(2)
        #expect(subject.value == 1)
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func valuesSentWhileASubscriberIsBeingSubscribedFollowTheCurrentValueAfterTheCall() {
        // A send from inside `receive(subscription:)` is re-entrant: the subscriber gets the value it was subscribed
        // with, then each value sent meanwhile, once that call returns (Combine nests them inside it, in the same
        // order). It used to get only the newest.
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = HandshakeSubscriber<Int, Never>(initial: .unlimited) {
            subject.send(5)
            subject.send(6)
        }
        subject.subscribe(subscriber)
        subject.send(7)
        #expect(subscriber.events == ["subscription", "value(0)", "value(5)", "value(6)", "value(7)"])
    }

    @Test func aSubscriberWithDemandForOneGetsTheCurrentValueThenTheNewestWhenItAsksAgain() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = HandshakeSubscriber<Int, Never>(initial: .max(1)) {
            subject.send(5)
            subject.send(6)
        }
        subject.subscribe(subscriber)
        #expect(subscriber.events == ["subscription", "value(0)"])
        subscriber.request(.max(1))
        #expect(subscriber.events == ["subscription", "value(0)", "value(6)"])
    }

    @Test func aSubscriberThatAsksOnlyAfterItsSubscriptionGetsTheNewestValue() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = HandshakeSubscriber<Int, Never>(initial: nil) { subject.send(5) }
        subject.subscribe(subscriber)
        #expect(subscriber.events == ["subscription"])
        subscriber.request(.unlimited)
        #expect(subscriber.events == ["subscription", "value(5)"])
    }

    @Test func settingValueFromInsideASubscriberIsSeenByAll() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let c = subject.sink { value in if value == 1 { subject.value = 2 } }
        let recorder = subject.record()
        subject.value = 1
        #expect(subject.value == 2)
        #expect(recorder.values == [0, 1, 2])
        c.cancel()
    }

    /// Sends from several threads: deliveries follow the order in which the value was updated, so each thread's
    /// values arrive in its own order and the last one delivered is the subject's value (a send delivered at once
    /// takes its turn under the same lock as the update; the thread sanitizer in `.ci/run` checks the rest).
    @Test func deliveriesFollowTheOrderOfTheValueUpdatesAcrossThreads() {
        for round in 0..<50 {
            let subject = CurrentValueSubject<Int, Never>(-1)
            let received = Locked<[Int]>([])
            let c = subject.sink { value in received.withLock { $0.append(value) } }
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for index in 0..<200 { subject.send(thread * 1_000 + index + round % 2) }
            }
            let values = received.withLock { $0 }
            #expect(values.count == 801)
            #expect(values.last == subject.value)
            for thread in 0..<4 {
                let own = values.filter { $0 >= thread * 1_000 && $0 < (thread + 1) * 1_000 }
                #expect(own == own.sorted())
                #expect(own.count == 200)
            }
            c.cancel()
        }
    }

    /// A send from inside a delivery is delivered after it, to every subscriber, never nested.
    @Test func aSendFromInsideADeliveryIsDeliveredAfterIt() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var log: [String] = []
        let first = subject.sink { value in
            log.append("first \(value)")
            if value == 1 { subject.send(2) }
            log.append("first done \(value)")
        }
        let second = subject.sink { value in log.append("second \(value)") }
        log.removeAll()
        subject.send(1)
        #expect(log == ["first 1", "first done 1", "second 1", "first 2", "first done 2", "second 2"])
        #expect(subject.value == 2)
        withExtendedLifetime((first, second)) {}
    }
}
