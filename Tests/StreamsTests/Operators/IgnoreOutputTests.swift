import Streams
import StreamsTesting
import Testing

@Suite struct IgnoreOutputTests {
    @Test func ignoreOutputDropsTheValuesAndForwardsTheFinish() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.ignoreOutput().record()
        #expect(probe.send(1) == .none)
        #expect(probe.send(2) == .none)
        #expect(recorder.events.isEmpty)
        probe.send(completion: .finished)
        #expect(recorder.events == [.finished(at: .zero)])
    }

    @Test func ignoreOutputForwardsAFailure() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.ignoreOutput().record()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func theCompletionNeedsNoDemand() {
        let subscriber = HandWrittenSubscriber<Never, ProbeError>()
        let probe = SimpleProbe<Int, ProbeError>()
        probe.ignoreOutput().subscribe(subscriber)
        probe.send(completion: .failure(.boom))
        #expect(subscriber.events == [.subscription, .failure("boom")])
        let finished = HandWrittenSubscriber<Never, Never>()
        [1, 2].publisher.ignoreOutput().subscribe(finished)
        #expect(finished.events == [.subscription, .finished])
    }

    @Test func ignoreOutputRequestsUnlimitedAfterHandingItsSubscriptionDownstream() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<Never, Never>(initial: .max(2))
        probe.ignoreOutput().subscribe(subscriber)
        #expect(probe.requests == [.max(2), .unlimited])
        subscriber.request(.max(5))
        #expect(probe.requests == [.max(2), .unlimited, .max(5)])
    }

    @Test func ignoreOutputRequestsUnlimitedWithoutDemand() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<Never, Never>()
        probe.ignoreOutput().subscribe(subscriber)
        #expect(probe.requests == [.unlimited])
    }

    @Test func ignoreOutputDeliversNothingAfterCancel() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<Never, Never>()
        probe.ignoreOutput().subscribe(subscriber)
        subscriber.cancel()
        #expect(probe.cancelCount == 1)
        subscriber.request(.max(1))
        #expect(probe.requests == [.unlimited])
        probe.send(1)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
    }

    @Test func aSubscriberThatCancelsInReceiveSubscriptionCausesNoRequest() {
        let probe = SimpleProbe<Int, Never>()
        let subscriber = HandWrittenSubscriber<Never, Never>(cancelOnSubscription: true)
        probe.ignoreOutput().subscribe(subscriber)
        #expect(probe.cancelCount == 1)
        #expect(probe.requests.isEmpty)
        probe.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
    }

    @Test func ignoreOutputReleasesItsSubscriberOnCancel() {
        let probe = SimpleProbe<Int, Never>(keepsSubscriber: false)
        weak var weakToken: LifetimeToken?
        let cancellable: AnyCancellable
        do {
            let token = LifetimeToken()
            weakToken = token
            cancellable = probe.ignoreOutput().sink(
                receiveCompletion: { _ in withExtendedLifetime(token) {} }, receiveValue: { _ in })
        }
        #expect(weakToken != nil)
        cancellable.cancel()
        #expect(weakToken == nil)
    }
}
