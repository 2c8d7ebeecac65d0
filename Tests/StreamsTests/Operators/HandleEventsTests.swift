import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite struct HandleEventsTests {
    @Test func closuresSeeEveryEventInOrder() {
        var log: [String] = []
        let recorder = [1, 2].publisher.handleEvents(
            receiveSubscription: { _ in log.append("subscription") },
            receiveOutput: { log.append("output \($0)") },
            receiveCompletion: { log.append("completion \($0)") },
            receiveCancel: { log.append("cancel") },
            receiveRequest: { log.append("request \($0)") }
        ).record(demand: .max(1))
        recorder.request(.max(5))
        #expect(
            log == [
                "subscription", "request max(1)", "output 1", "request max(5)", "output 2", "completion finished",
            ])
        #expect(recorder.values == [1, 2])
        #expect(recorder.isFinished)
    }

    /// As in Combine (OpenCombine's HandleEventsTests pin the same sequence): demand the downstream returns from a
    /// value call reaches `receiveRequest` after `receiveOutput`, and goes upstream as that call's return value.
    @Test func demandReturnedFromAValueCallIsReportedToReceiveRequest() {
        let probe = SimpleProbe<Int, Never>()
        var log: [String] = []
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1), perValue: .max(2))
        probe.handleEvents(
            receiveOutput: { log.append("output \($0)") }, receiveRequest: { log.append("request \($0)") }
        ).subscribe(subscriber)
        #expect(probe.send(1) == .max(2))
        subscriber.request(.max(3))
        #expect(log == ["request max(1)", "output 1", "request max(2)", "request max(3)"])
        #expect(probe.requests == [.max(1), .max(3)])

        // A value call that returns no demand reports nothing.
        let quiet = SimpleProbe<Int, Never>()
        var requests: [Subscribers.Demand] = []
        let none = HandWrittenSubscriber<Int, Never>(initial: .max(5))
        quiet.handleEvents(receiveRequest: { requests.append($0) }).subscribe(none)
        #expect(quiet.send(1) == .none)
        #expect(requests == [.max(5)])
    }

    @Test func closuresRunBeforeTheEventIsPassedOn() {
        let subject = PassthroughSubject<Int, Never>()
        var recorder: TestRecorder<Int, Never>?
        var countsSeen: [Int] = []
        recorder = subject.handleEvents(
            receiveOutput: { _ in countsSeen.append(recorder?.values.count ?? -1) },
            receiveCompletion: { _ in countsSeen.append(recorder?.events.count ?? -1) }
        ).record()
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(countsSeen == [0, 1, 2])
    }

    @Test func receiveCancelRunsOnceAndNotAfterCompletion() {
        var cancels = 0
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.handleEvents(receiveCancel: { cancels += 1 }).record()
        let subscription = recorder.subscription
        subscription?.cancel()
        subscription?.cancel()
        #expect(cancels == 1)

        var laterCancels = 0
        let finished = Just(1).handleEvents(receiveCancel: { laterCancels += 1 }).record()
        finished.subscription?.cancel()
        #expect(laterCancels == 0)
    }

    @Test func nothingArrivesOrRunsAfterCancel() {
        let probe = SimpleProbe<Int, Never>()
        var outputs = 0
        var requests = 0
        let recorder = probe.handleEvents(receiveOutput: { _ in outputs += 1 }, receiveRequest: { _ in requests += 1 })
            .record()
        let subscription = recorder.subscription
        subscription?.cancel()
        subscription?.request(.max(1))
        probe.send(1)
        probe.send(completion: .finished)
        #expect(outputs == 0)
        #expect(requests == 1)
        #expect(recorder.events.isEmpty)
        #expect(probe.cancelCount == 1)
    }

    @Test func cancelReleasesTheClosures() {
        let probe = SimpleProbe<Int, Never>(keepsSubscriber: false)
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<Int, Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = probe.handleEvents(receiveOutput: { _ in withExtendedLifetime(token) {} }).record()
        }
        #expect(weakToken != nil)
        recorder.cancel()
        #expect(weakToken == nil)
    }

    @Test func completionReleasesTheClosures() {
        let probe = SimpleProbe<Int, Never>(keepsSubscriber: false)
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<Int, Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = probe.handleEvents(receiveCancel: { withExtendedLifetime(token) {} }).record()
        }
        probe.send(completion: .finished)
        #expect(weakToken == nil)
        #expect(recorder.isFinished)
    }

    /// Counts calls from any thread.
    final class Counter: Sendable {
        let count = Atomic<Int>(0)
        func increment() { count.wrappingAdd(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// A cancel, requests and the upstream's completion on three threads at once, with and without a request
    /// closure (without one, the request path reads no closure at all): `receiveCancel` runs exactly when the
    /// cancel ended the stream, the completion arrives exactly otherwise, and nothing runs twice. The thread
    /// sanitizer in `.ci/run` checks the closures are read and dropped without a race.
    @Test(arguments: [false, true])
    func aCancelRacingRequestsAndTheCompletionEndsTheStreamOnce(withRequestClosure: Bool) {
        for _ in 0..<2_000 {
            let subject = PassthroughSubject<Int, Never>()
            let cancels = Counter()
            let requests = Counter()
            let recorder = subject.handleEvents(
                receiveCancel: { cancels.increment() },
                receiveRequest: withRequestClosure ? { _ in requests.increment() } : nil
            ).record(demand: .none)
            // A subscription may be used from any thread (Combine's contract), though the protocol is not `Sendable`.
            struct Handed: @unchecked Sendable { let subscription: (any Subscription)? }
            let handed = Handed(subscription: recorder.subscription)
            #expect(handed.subscription != nil)
            DispatchQueue.concurrentPerform(iterations: 3) { thread in
                switch thread {
                case 0: handed.subscription?.cancel()
                case 1: for _ in 0..<5 { handed.subscription?.request(.max(1)) }
                default: subject.send(completion: .finished)
                }
            }
            #expect(cancels.value + (recorder.isFinished ? 1 : 0) == 1)
            #expect(requests.value <= (withRequestClosure ? 5 : 0))
        }
    }
}
