import Streams
import StreamsTesting
import Testing

@Suite struct AssertNoFailureTests {
    @Test func valuesAndTheFinishPassThrough() {
        let subject = PassthroughSubject<Int, ProbeError>()
        let recorder: TestRecorder<Int, Never> = subject.assertNoFailure().record()
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.value(1, at: .zero), .value(2, at: .zero), .finished(at: .zero)])
    }

    @Test func demandPassesStraightThrough() {
        let probe = SimpleProbe<Int, ProbeError>()
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1), perValue: .max(2))
        probe.assertNoFailure().subscribe(subscriber)
        #expect(probe.requests == [.max(1)])
        #expect(probe.send(1) == .max(2))
        subscriber.request(.max(3))
        #expect(probe.requests == [.max(1), .max(3)])
    }

    @Test func theSubscriberGetsExactlyWhatItAskedFor() {
        let subscriber = HandWrittenSubscriber<Int, Never>(initial: .max(1))
        (1...5).publisher.setFailureType(to: ProbeError.self).assertNoFailure().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }

    @Test func cancelReachesTheUpstream() {
        let probe = SimpleProbe<Int, ProbeError>()
        let recorder = probe.assertNoFailure().record()
        recorder.cancel()
        #expect(probe.cancelCount == 1)
    }

    @Test func aFailureStopsTheProgramNamingThePrefixFileAndLine() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subject = PassthroughSubject<Int, ProbeError>()
            let cancellable = subject.assertNoFailure("bundled catalogue", file: "Catalogue.swift", line: 42)
                .sink { _ in }
            subject.send(1)
            subject.send(completion: .failure(.boom))
            withExtendedLifetime(cancellable) {}
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("Catalogue.swift:42"), "\(stderr)")
        #expect(stderr.contains("bundled catalogue: boom"), "\(stderr)")
    }

    @Test func withoutAPrefixTheMessageIsTheError() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let cancellable = Fail<Int, ProbeError>(error: .other).assertNoFailure().sink { _ in }
            withExtendedLifetime(cancellable) {}
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("AssertNoFailureTests.swift"), "\(stderr)")  // the call site, by default
        #expect(stderr.contains("Fatal error: other"), "\(stderr)")
    }
}
