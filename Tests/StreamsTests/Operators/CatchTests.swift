import Streams
import StreamsTesting
import Testing

@Suite struct CatchTests {
    @Test func failureSwitchesToTheHandlersPublisher() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.catch { _ in [7, 8].publisher }.record()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(
            recorder.events == [.value(1, at: .zero), .value(7, at: .zero), .value(8, at: .zero), .finished(at: .zero)])
        #expect(recorder.subscriptionCount == 1)
    }

    @Test func handlerReceivesTheError() {
        var seen: [ProbeError] = []
        let recorder = Fail<Int, ProbeError>(error: .other).catch { error -> Just<Int> in
            seen.append(error)
            return Just(0)
        }.record()
        #expect(seen == [.other])
        #expect(recorder.values == [0])
    }

    @Test func outstandingDemandCarriesOverToTheNewPublisher() {
        let first = SimpleProbe<Int, ProbeError>()
        let second = SimpleProbe<Int, Never>()
        let recorder = first.catch { _ in second }.record(demand: .max(3))
        #expect(first.requests == [.max(3)])
        first.send(1)
        first.send(completion: .failure(.boom))
        #expect(second.requests == [.max(2)])
        second.send(2)
        second.send(3)
        recorder.request(.max(4))
        #expect(second.requests == [.max(2), .max(4)])
        #expect(first.requests == [.max(3)])
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.subscriptionCount == 1)
    }

    @Test func unlimitedDemandCarriesOver() {
        let first = SimpleProbe<Int, ProbeError>()
        let second = SimpleProbe<Int, Never>()
        _ = first.catch { _ in second }.record()
        first.send(completion: .failure(.boom))
        #expect(second.requests == [.unlimited])
    }

    @Test func demandIsNeverExceededAcrossTheSwitch() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.catch { _ in (10...20).publisher }.record(demand: .max(2))
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.values == [1, 10])
        #expect(recorder.completion == nil)
        recorder.request(.max(2))
        #expect(recorder.values == [1, 10, 11, 12])
    }

    @Test func finishedIsForwardedWithoutCallingTheHandler() {
        var calls = 0
        let recorder = [1].publisher.setFailureType(to: ProbeError.self).catch { _ -> Just<Int> in
            calls += 1
            return Just(0)
        }.record()
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: .zero)])
        #expect(calls == 0)
    }

    @Test func newPublishersFailureIsForwarded() {
        let recorder = Fail<Int, ProbeError>(error: .boom).catch { _ in Fail<Int, ProbeError>(error: .other) }.record()
        #expect(recorder.events == [.failure(.other, at: .zero)])
    }

    @Test func cancelBeforeTheFailureCancelsUpstreamAndNeverCallsTheHandler() {
        let first = SimpleProbe<Int, ProbeError>()
        var calls = 0
        let recorder = first.catch { _ -> Just<Int> in
            calls += 1
            return Just(0)
        }.record()
        recorder.subscription?.cancel()
        #expect(first.cancelCount == 1)
        first.send(1)
        first.send(completion: .failure(.boom))
        #expect(calls == 0)
        #expect(recorder.events.isEmpty)
    }

    @Test func cancelAfterTheSwitchCancelsTheNewPublisher() {
        let first = SimpleProbe<Int, ProbeError>()
        let second = SimpleProbe<Int, Never>()
        let recorder = first.catch { _ in second }.record()
        first.send(completion: .failure(.boom))
        let subscription = recorder.subscription
        subscription?.cancel()
        subscription?.cancel()
        #expect(second.cancelCount == 1)
        #expect(first.cancelCount == 0)
        second.send(1)
        second.send(completion: .finished)
        #expect(recorder.events.isEmpty)
    }

    @Test func eventsFromTheFailedUpstreamAreIgnored() {
        let first = SimpleProbe<Int, ProbeError>()
        let second = SimpleProbe<Int, Never>()
        let recorder = first.catch { _ in second }.record()
        first.send(completion: .failure(.boom))
        first.send(99)
        first.send(completion: .finished)
        second.send(1)
        #expect(recorder.events == [.value(1, at: .zero)])
    }

    @Test func cancelReleasesTheHandler() {
        let first = SimpleProbe<Int, ProbeError>()
        weak var weakToken: LifetimeToken?
        let recorder: TestRecorder<Int, Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            recorder = first.catch { _ in withExtendedLifetime(token) { Just(0) } }.record()
        }
        #expect(weakToken != nil)
        recorder.cancel()
        #expect(weakToken == nil)
    }

    @Test func demandRequestedFromInsideReceiveReachesTheCurrentPublisher() {
        let recorder = Fail<Int, ProbeError>(error: .boom).catch { _ in (1...4).publisher }
            .record(demand: .max(1), demandPerValue: .max(1))
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.isFinished)
    }

    @Test func cancelFromInsideReceiveStopsTheNewPublisher() {
        var values: [Int] = []
        var subscription: (any Subscription)?
        Fail<Int, ProbeError>(error: .boom).catch { _ in (1...4).publisher }.subscribe(
            AnySubscriber<Int, Never>(
                receiveSubscription: {
                    subscription = $0
                    $0.request(.unlimited)
                },
                receiveValue: {
                    values.append($0)
                    if $0 == 2 { subscription?.cancel() }
                    return .none
                },
                receiveCompletion: { _ in values.append(-1) }))
        #expect(values == [1, 2])
    }
}
