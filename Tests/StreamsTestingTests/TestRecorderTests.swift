import Streams
import StreamsTesting
import Testing

/// Counts requests and cancels (a stand-in subscription).
final class CountingSubscription: Subscription, Sendable {
    private let state = Locked((requests: [Subscribers.Demand](), cancels: 0))
    var requests: [Subscribers.Demand] { state.withLock { $0.requests } }
    var cancels: Int { state.withLock { $0.cancels } }
    func request(_ demand: Subscribers.Demand) { state.withLock { $0.requests.append(demand) } }
    func cancel() { state.withLock { $0.cancels += 1 } }
}

@Suite struct TestRecorderTests {
    @Test func recordsValuesAndCompletionWithVirtualTime() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.record(on: scheduler)
        subject.send(1)
        scheduler.advance(by: .milliseconds(250))
        subject.send(2)
        subject.send(completion: .finished)
        #expect(
            recorder.events == [
                .value(1, at: .zero), .value(2, at: .milliseconds(250)), .finished(at: .milliseconds(250)),
            ])
        #expect(recorder.values == [1, 2])
        #expect(recorder.isFinished)
    }

    @Test func limitedDemandIsRequestedOnceAndMoreOnRequest() {
        let recorder = TestRecorder<Int, Never>(demand: .max(2))
        let subscription = CountingSubscription()
        recorder.receive(subscription: subscription)
        recorder.request(.max(3))
        #expect(subscription.requests == [.max(2), .max(3)])
    }

    @Test func aSecondSubscriptionIsCountedAndCancelledNotRequested() {
        let recorder = TestRecorder<Int, Never>()
        let first = CountingSubscription()
        let second = CountingSubscription()
        recorder.receive(subscription: first)
        recorder.receive(subscription: second)
        #expect(recorder.subscriptionCount == 2)
        #expect(first.requests == [.unlimited])
        #expect(second.requests.isEmpty)
        #expect(second.cancels == 1)
    }

    @Test func failuresCompareWithoutEquatableErrors() {
        struct Opaque: Error, CustomStringConvertible {
            let code: Int
            var description: String { "opaque \(code)" }
        }
        let a = RecordedEvent<Int, Opaque>.failure(Opaque(code: 1), at: .zero)
        let b = RecordedEvent<Int, Opaque>.failure(Opaque(code: 1), at: .zero)
        let c = RecordedEvent<Int, Opaque>.failure(Opaque(code: 2), at: .zero)
        #expect(a == b)
        #expect(a != c)
    }

    @Test func cancelStopsRecording() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.record()
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        #expect(recorder.values == [1])
    }
}
