import Streams
import StreamsTesting
import Testing

private final class Payload: @unchecked Sendable {}

@Suite struct TimingRetentionTests {
    // Delay keeps every delivered value alive while later events wait in its queue.
    @Test func delayReleasesADeliveredValueWhileALaterOneWaits() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Payload, Never>()
        weak var first: Payload?
        var delivered = 0
        let cancellable = subject.delay(for: .milliseconds(100), scheduler: scheduler).sink { _ in delivered += 1 }
        do {
            let payload = Payload()
            first = payload
            subject.send(payload)
        }
        scheduler.advance(to: .ms(50))
        subject.send(Payload())
        scheduler.advance(to: .ms(100))
        #expect(delivered == 1)
        #expect(first == nil)  // still referenced by Delay's queue
        _ = cancellable
    }

    // under steady traffic the queue never empties, so nothing delivered is ever freed.
    @Test func delayMemoryStaysBoundedUnderSteadyTraffic() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Payload, Never>()
        var weakBoxes: [() -> Payload?] = []
        var delivered = 0
        let cancellable = subject.delay(for: .milliseconds(100), scheduler: scheduler).sink { _ in delivered += 1 }
        for step in 0..<1000 {
            scheduler.advance(to: .ms(10 * step))
            let payload = Payload()
            weak let weakPayload = payload
            weakBoxes.append { weakPayload }
            subject.send(payload)
        }
        let alive = weakBoxes.filter { $0() != nil }.count
        #expect(delivered >= 989)
        #expect(alive <= 12, "alive: \(alive)")
        _ = cancellable
    }

    // Timeout keeps customError (and what it captures) after a normal completion.
    @Test func timeoutReleasesCustomErrorOnCompletion() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TimingTestError>()
        weak var weakOwner: Payload?
        let recorder: TestRecorder<Int, TimingTestError>
        do {
            let owner = Payload()
            weakOwner = owner
            recorder = subject.timeout(
                .milliseconds(100), scheduler: scheduler,
                customError: {
                    _ = owner
                    return .timedOut
                }
            ).record(on: scheduler)
        }
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(recorder.isFinished)
        #expect(weakOwner == nil)
    }

    // SubscribeOn keeps the upstream subscription after the upstream completed.
    @Test func subscribeOnReleasesTheUpstreamSubscriptionOnCompletion() {
        let scheduler = TestScheduler()
        weak var weakProbe: TimingProbe<Int, Never>?
        let recorder: TestRecorder<Int, Never>
        do {
            let probe = TimingProbe<Int, Never>()
            weakProbe = probe
            recorder = probe.subscribe(on: scheduler).record(on: scheduler)
            scheduler.advance()
            probe.send(completion: .finished)
        }
        scheduler.advance()
        #expect(recorder.isFinished)
        #expect(weakProbe == nil)
    }

    // Control: the same shape through delay(for: .zero) releases the upstream (passes).
    @Test func controlDelayReleasesTheUpstreamSubscriptionOnCompletion() {
        let scheduler = TestScheduler()
        weak var weakProbe: TimingProbe<Int, Never>?
        let recorder: TestRecorder<Int, Never>
        do {
            let probe = TimingProbe<Int, Never>()
            weakProbe = probe
            recorder = probe.delay(for: .zero, scheduler: scheduler).record(on: scheduler)
            scheduler.advance()
            probe.send(completion: .finished)
        }
        scheduler.advance()
        #expect(recorder.isFinished)
        #expect(weakProbe == nil)
    }

    // SubscribeOn: with an upstream that keeps its subscriber, the cycle survives even the subscriber.
    @Test func subscribeOnCompletionLeavesNoCycle() {
        let scheduler = TestScheduler()
        weak var weakProbe: TimingProbe<Int, Never>?
        weak var weakRecorder: TestRecorder<Int, Never>?
        do {
            let probe = TimingProbe<Int, Never>()
            weakProbe = probe
            let recorder = probe.subscribe(on: scheduler).record(on: scheduler)
            weakRecorder = recorder
            scheduler.advance()
            probe.send(completion: .finished)
            scheduler.advance()
            #expect(recorder.isFinished)
        }
        #expect(weakRecorder == nil)
        #expect(weakProbe == nil)
    }
}

@Suite struct ZipRetentionTests {
    // Zip says a failure drops buffered values, but they stay referenced while the subscription is held.
    @Test func zipFailureReleasesBufferedValues() {
        let a = PassthroughSubject<Payload, TestFailure>()
        let b = PassthroughSubject<Int, TestFailure>()
        weak var weakPayload: Payload?
        let recorder = a.zip(b).record()
        do {
            let payload = Payload()
            weakPayload = payload
            a.send(payload)
        }
        b.send(completion: .failure(.boom))
        #expect(recorder.failure == .boom)
        #expect(weakPayload == nil)
    }

    @Test func combineLatestReleasesItsLatestValuesOnFailure() {
        let a = PassthroughSubject<Payload, TestFailure>()
        let b = PassthroughSubject<Int, TestFailure>()
        weak var weakPayload: Payload?
        let recorder = a.combineLatest(b).record()
        do {
            let payload = Payload()
            weakPayload = payload
            a.send(payload)
        }
        b.send(completion: .failure(.boom))
        #expect(recorder.failure == .boom)
        #expect(weakPayload == nil)
    }
}
