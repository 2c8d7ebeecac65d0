import Streams
import StreamsTesting
import Testing

@Suite struct CollectTests {
    @Test func collectPublishesEveryValueAsOneArrayOnFinish() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.collect().record()
        subject.send(1)
        subject.send(2)
        #expect(recorder.events.isEmpty)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value([1, 2], at: .zero), .finished(at: .zero)])
    }

    @Test func collectOfAnEmptyUpstreamPublishesAnEmptyArray() {
        let recorder = Empty<Int, Never>().collect().record()
        #expect(recorder.events == [.value([], at: .zero), .finished(at: .zero)])
    }

    @Test func collectHoldsTheArrayUntilDemandAndRequestsUnlimitedUpstream() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.collect().record(demand: .none)
        #expect(probe.requests == [.unlimited])
        probe.send(1)
        probe.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.value([1], at: .zero), .finished(at: .zero)])
    }

    @Test func collectFailureDropsTheValues() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.collect().record()
        subject.send(1)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.failure(.boom, at: .zero)])
    }

    @Test func collectByCountPublishesGroupsAndAPartialLastGroup() {
        let recorder = (1...5).publisher.collect(2).record()
        #expect(
            recorder.events == [
                .value([1, 2], at: .zero), .value([3, 4], at: .zero), .value([5], at: .zero), .finished(at: .zero),
            ])
    }

    @Test func collectByCountSendsNoEmptyGroupWhenTheCountDivides() {
        let recorder = (1...4).publisher.collect(2).record()
        #expect(recorder.values == [[1, 2], [3, 4]])
        #expect(recorder.isFinished)
    }

    @Test func collectByCountCountsDemandInGroups() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.collect(3).record(demand: .max(1))
        #expect(probe.requests == [.max(3)])
        recorder.request(.max(2))
        #expect(probe.requests == [.max(3), .max(6)])
    }

    @Test func collectByCountNeverExceedsDemand() {
        let recorder = (1...7).publisher.collect(2).record(demand: .max(2))
        #expect(recorder.values == [[1, 2], [3, 4]])
        #expect(recorder.completion == nil)
        recorder.request(.max(5))
        #expect(recorder.values == [[1, 2], [3, 4], [5, 6], [7]])
        #expect(recorder.isFinished)
    }

    @Test func collectByCountFailureDropsThePartialGroup() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder = subject.collect(2).record()
        subject.send(1)
        subject.send(2)
        subject.send(3)
        subject.send(completion: .failure(.boom))
        #expect(recorder.events == [.value([1, 2], at: .zero), .failure(.boom, at: .zero)])
    }

    @Test func collectByCountDeliversNothingAfterCancel() {
        let probe = SimpleProbe<Int, Never>()
        let recorder = probe.collect(2).record()
        probe.send(1)
        recorder.cancel()
        probe.send(2)
        probe.send(completion: .finished)
        #expect(recorder.events.isEmpty)
        #expect(probe.cancelCount == 1)
    }
}
